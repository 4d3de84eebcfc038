//===- UniformityTest.cpp - Constant/Uniform/Varying rules ----------------===//
//
// One or more tests per rule of src/uniformity/Uniformity.h, each on a tiny
// module written as SPIR-V assembly. Numeric ids (%100, %101, ...) are kept
// by the assembler, so results and blocks are looked up by those numbers;
// variables carry an OpName and constants their spirv-dis friendly name
// ("int_1"). Every assertion is chosen to fail if its rule broke: a Varying
// expectation next to a Uniform one for the same shape of code. On failure
// the analysis is printed in the document's table form.
//
//===----------------------------------------------------------------------===//
#include "uniformity/Uniformity.h"
#include "cfg/FunctionAnalysis.h"
#include "frontend/Frontend.h"
#include "parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace spirv2llvm {
// Failure messages say "Varying", not "1-byte object <02>".
static void PrintTo(Uniformity U, std::ostream *OS) {
  *OS << uniformityName(U);
}
} // namespace spirv2llvm

using namespace spirv2llvm;

namespace {

constexpr Uniformity C = Uniformity::Constant;
constexpr Uniformity U = Uniformity::Uniform;
constexpr Uniformity V = Uniformity::Varying;

/// Types and constants shared by the test modules (after the annotations).
const char *const CommonTypes = R"(
       %void = OpTypeVoid
     %voidfn = OpTypeFunction %void
       %bool = OpTypeBool
        %int = OpTypeInt 32 1
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
    %v4float = OpTypeVector %float 4
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
      %int_2 = OpConstant %int 2
      %int_3 = OpConstant %int 3
      %int_8 = OpConstant %int 8
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_4 = OpConstant %uint 4
    %float_0 = OpConstant %float 0
%ptr_Function_int = OpTypePointer Function %int
%ptr_Private_int = OpTypePointer Private %int
%ptr_Input_float = OpTypePointer Input %float
%ptr_Input_int = OpTypePointer Input %int
%ptr_Input_uint = OpTypePointer Input %uint
%ptr_Input_v3uint = OpTypePointer Input %v3uint
%ptr_Input_v4float = OpTypePointer Input %v4float
%ptr_Output_int = OpTypePointer Output %int
)";

/// A fragment shader's inputs used by most tests: %in_v (a smooth float,
/// Varying) and %in_flat (a Flat int, Uniform).
const char *const FragmentInputNames = R"(
               OpName %in_v "in_v"
               OpName %in_flat "in_flat"
)";
const char *const FragmentInputDecorations = R"(
               OpDecorate %in_v Location 0
               OpDecorate %in_flat Location 1
               OpDecorate %in_flat Flat
)";
const char *const FragmentInputs = R"(
       %in_v = OpVariable %ptr_Input_float Input
    %in_flat = OpVariable %ptr_Input_int Input
)";

enum class Stage { Fragment, Compute };

/// Assembles a module: header, \p Debug (OpName), \p Annotations
/// (OpDecorate), the common types, \p Globals, then \p Functions, which
/// define %main.
std::string makeModule(Stage S, llvm::StringRef Debug,
                       llvm::StringRef Annotations, llvm::StringRef Globals,
                       llvm::StringRef Functions) {
  std::string Text = "OpCapability Shader\n"
                     "OpMemoryModel Logical GLSL450\n";
  if (S == Stage::Fragment)
    Text += "OpEntryPoint Fragment %main \"main\"\n"
            "OpExecutionMode %main OriginUpperLeft\n";
  else
    Text += "OpEntryPoint GLCompute %main \"main\"\n"
            "OpExecutionMode %main LocalSize 8 1 1\n";
  Text += "OpName %main \"main\"\n";
  Text += Debug.str() + Annotations.str() + CommonTypes + Globals.str() +
          Functions.str();
  return Text;
}

std::string fragment(llvm::StringRef Functions, llvm::StringRef Debug = "",
                     llvm::StringRef Annotations = "",
                     llvm::StringRef Globals = "") {
  return makeModule(Stage::Fragment, (FragmentInputNames + Debug).str(),
                    (FragmentInputDecorations + Annotations).str(),
                    (FragmentInputs + Globals).str(), Functions);
}

/// A module after parsing, CFG analysis and uniformity analysis of its first
/// entry point. Queries take an id as a decimal number ("105") or as a
/// friendly name ("int_0", "in_v").
struct Analysis {
  std::unique_ptr<Module> M;
  cfg::ModuleAnalysis MA;
  UniformityInfo UI;
  uint32_t Fn = 0; ///< the entry point's function index
  bool Ok = false;

  uint32_t id(llvm::StringRef Name) const {
    uint32_t Id = 0;
    if (!Name.getAsInteger(10, Id))
      return Id;
    for (uint32_t I = 0; I < M->FriendlyNames.size(); ++I)
      if (M->FriendlyNames[I] == Name)
        return I;
    ADD_FAILURE() << "no id named " << Name.str();
    return 0;
  }
  uint32_t function(llvm::StringRef Name) const {
    return M->FunctionIndexOf.at(id(Name));
  }
  cfg::BlockIndex blockIndex(uint32_t Fn, llvm::StringRef Label) const {
    const Function &F = M->Functions[Fn];
    auto It = F.BlockIndexOf.find(id(Label));
    if (It == F.BlockIndexOf.end()) {
      ADD_FAILURE() << "no block %" << Label.str();
      return 0;
    }
    return It->second;
  }

  Uniformity value(llvm::StringRef Name) const { return UI.value(id(Name)); }
  Uniformity address(llvm::StringRef Name) const {
    return UI.address(id(Name));
  }
  Uniformity block(llvm::StringRef Label) const {
    return UI.block(Fn, blockIndex(Fn, Label));
  }
  bool varyingBranch(llvm::StringRef Label) const {
    return UI.isVaryingBranch(Fn, blockIndex(Fn, Label));
  }
  bool divergentLoop(llvm::StringRef Label) const {
    return UI.isDivergentLoop(Fn, blockIndex(Fn, Label));
  }
  bool divergentJoin(llvm::StringRef Label) const {
    return UI.isDivergentJoin(Fn, blockIndex(Fn, Label));
  }

  std::string table() const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    printUniformity(*M, MA, UI, OS);
    return S;
  }
};

Analysis analyze(llvm::StringRef Text) {
  Analysis A;
  auto Words = frontend::assembleSpirv(Text, SPV_ENV_UNIVERSAL_1_6);
  if (!Words) {
    ADD_FAILURE() << llvm::toString(Words.takeError()) << "\n" << Text.str();
    return A;
  }
  auto Parsed = parseModule(*Words);
  if (!Parsed) {
    ADD_FAILURE() << llvm::toString(Parsed.takeError()) << "\n" << Text.str();
    return A;
  }
  A.M = std::move(*Parsed);
  A.M->FriendlyNames =
      frontend::friendlyNames(*Words, A.M->Bound, SPV_ENV_UNIVERSAL_1_6);
  auto MA = cfg::analyzeModule(*A.M);
  if (!MA) {
    ADD_FAILURE() << llvm::toString(MA.takeError()) << "\n" << Text.str();
    return A;
  }
  A.MA = std::move(*MA);
  if (A.M->EntryPoints.empty()) {
    ADD_FAILURE() << "no entry point";
    return A;
  }
  const EntryPoint &EP = A.M->EntryPoints[0];
  A.UI = computeUniformity(*A.M, EP, A.MA);
  A.Fn = A.M->FunctionIndexOf.at(EP.Function.value());
  A.Ok = true;
  return A;
}

/// Runs one analysis per test and prints its tables when the test failed.
class UniformityTest : public ::testing::Test {
protected:
  bool run(llvm::StringRef Text) {
    A = analyze(Text);
    return A.Ok;
  }
  void TearDown() override {
    if (HasFailure() && A.Ok)
      llvm::errs() << A.table();
  }
  Analysis A;
};

// --- 1. constants and instructions over them --------------------------------

TEST_F(UniformityTest, ConstantsAreConstantSpecConstantsUniform) {
  std::string Text = makeModule(Stage::Fragment, R"(
               OpName %spec "spec"
               OpName %spec_true "spec_true"
               OpName %v3one "v3one"
)",
                                R"(
               OpDecorate %spec SpecId 0
               OpDecorate %spec_true SpecId 1
)",
                                R"(
       %spec = OpSpecConstant %int 4
  %spec_true = OpSpecConstantTrue %bool
       %true = OpConstantTrue %bool
      %v3one = OpConstantComposite %v3uint %uint_1 %uint_1 %uint_1
)",
                                R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("int_0"), C);
  EXPECT_EQ(A.value("int_8"), C);
  EXPECT_EQ(A.value("uint_1"), C);
  EXPECT_EQ(A.value("float_0"), C);
  EXPECT_EQ(A.value("true"), C);
  EXPECT_EQ(A.value("v3one"), C);
  // Specialization constants are the same in every lane but not known here.
  EXPECT_EQ(A.value("spec"), U);
  EXPECT_EQ(A.value("spec_true"), U);
}

// The header says "an instruction is the meet of its operands"; the code
// (and its comment "we do not fold instruction results") caps every result
// but OpCopyObject at Uniform: Constant means "a module constant", not "a
// value computable at translation time".
TEST_F(UniformityTest, InstructionsAreTheMeetOfTheirOperandsAtMostUniform) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpIAdd %int %int_1 %int_2
        %102 = OpCopyObject %int %int_1
        %103 = OpIAdd %int %spec %int_1
        %104 = OpLoad %float %in_v
        %105 = OpConvertFToS %int %104
        %106 = OpIAdd %int %105 %int_1
        %107 = OpIAdd %int %103 %101
        %108 = OpLoad %int %in_flat
        %109 = OpIMul %int %108 %int_3
        %110 = OpIMul %int %109 %105
        %111 = OpCopyObject %int %105
               OpReturn
               OpFunctionEnd
)",
                              "", R"(
               OpDecorate %spec SpecId 0
)",
                              R"(
       %spec = OpSpecConstant %int 4
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("101"), U) << "results are not folded to Constant";
  EXPECT_EQ(A.value("102"), C) << "OpCopyObject forwards its operand";
  EXPECT_EQ(A.value("103"), U);
  EXPECT_EQ(A.value("104"), V);
  EXPECT_EQ(A.value("105"), V);
  EXPECT_EQ(A.value("106"), V) << "Varying operand, constant operand";
  EXPECT_EQ(A.value("107"), U);
  EXPECT_EQ(A.value("108"), U);
  EXPECT_EQ(A.value("109"), U);
  EXPECT_EQ(A.value("110"), V) << "Uniform meet Varying";
  EXPECT_EQ(A.value("111"), V);
}

// --- 2. inputs and built-ins ------------------------------------------------

TEST_F(UniformityTest, FragmentInputsVaryingUnlessFlat) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpLoad %int %in_flat
        %103 = OpLoad %v4float %frag_coord
        %104 = OpCompositeExtract %float %103 0
        %105 = OpIAdd %int %102 %int_1
        %106 = OpLoad %float %in_v2
               OpReturn
               OpFunctionEnd
)",
                              R"(
               OpName %frag_coord "frag_coord"
               OpName %in_v2 "in_v2"
)",
                              R"(
               OpDecorate %frag_coord BuiltIn FragCoord
               OpDecorate %in_v2 Location 2
               OpDecorate %in_v2 NoPerspective
)",
                              R"(
 %frag_coord = OpVariable %ptr_Input_v4float Input
      %in_v2 = OpVariable %ptr_Input_float Input
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("in_v"), V);
  EXPECT_EQ(A.value("in_flat"), U);
  EXPECT_EQ(A.value("frag_coord"), V);
  EXPECT_EQ(A.value("in_v2"), V);
  EXPECT_EQ(A.value("101"), V);
  EXPECT_EQ(A.value("102"), U);
  EXPECT_EQ(A.value("103"), V);
  EXPECT_EQ(A.value("104"), V);
  EXPECT_EQ(A.value("105"), U);
  EXPECT_EQ(A.value("106"), V);
  // Variables themselves sit at one address.
  EXPECT_EQ(A.address("in_v"), U);
  EXPECT_EQ(A.address("in_flat"), U);
}

TEST_F(UniformityTest, ComputeBuiltIns) {
  std::string Text = makeModule(Stage::Compute,
                                R"(
               OpName %local_id "local_id"
               OpName %global_id "global_id"
               OpName %local_index "local_index"
               OpName %group_id "group_id"
               OpName %num_groups "num_groups"
)",
                                R"(
               OpDecorate %local_id BuiltIn LocalInvocationId
               OpDecorate %global_id BuiltIn GlobalInvocationId
               OpDecorate %local_index BuiltIn LocalInvocationIndex
               OpDecorate %group_id BuiltIn WorkgroupId
               OpDecorate %num_groups BuiltIn NumWorkgroups
)",
                                R"(
   %local_id = OpVariable %ptr_Input_v3uint Input
  %global_id = OpVariable %ptr_Input_v3uint Input
%local_index = OpVariable %ptr_Input_uint Input
   %group_id = OpVariable %ptr_Input_v3uint Input
 %num_groups = OpVariable %ptr_Input_v3uint Input
)",
                                R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %v3uint %local_id
        %102 = OpCompositeExtract %uint %101 0
        %103 = OpLoad %v3uint %global_id
        %104 = OpCompositeExtract %uint %103 0
        %105 = OpLoad %uint %local_index
        %106 = OpLoad %v3uint %group_id
        %107 = OpCompositeExtract %uint %106 0
        %108 = OpLoad %v3uint %num_groups
        %109 = OpCompositeExtract %uint %108 1
        %110 = OpIMul %uint %107 %109
        %111 = OpIAdd %uint %110 %102
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("local_id"), V);
  EXPECT_EQ(A.value("global_id"), V);
  EXPECT_EQ(A.value("local_index"), V);
  EXPECT_EQ(A.value("group_id"), U);
  EXPECT_EQ(A.value("num_groups"), U);
  EXPECT_EQ(A.value("101"), V);
  EXPECT_EQ(A.value("102"), V);
  EXPECT_EQ(A.value("103"), V);
  EXPECT_EQ(A.value("104"), V);
  EXPECT_EQ(A.value("105"), V);
  EXPECT_EQ(A.value("106"), U);
  EXPECT_EQ(A.value("107"), U);
  EXPECT_EQ(A.value("108"), U);
  EXPECT_EQ(A.value("109"), U);
  EXPECT_EQ(A.value("110"), U);
  EXPECT_EQ(A.value("111"), V);
}

// --- 3. loads from memory shared by the group -------------------------------

const char *const BufferNames = R"(
               OpName %ubo "ubo"
               OpName %pc "pc"
               OpName %ssbo "ssbo"
               OpName %shared "shared"
               OpName %local_id "local_id"
)";
const char *const BufferDecorations = R"(
               OpDecorate %arr4 ArrayStride 16
               OpDecorate %UBO Block
               OpMemberDecorate %UBO 0 Offset 0
               OpMemberDecorate %UBO 1 Offset 16
               OpDecorate %ubo DescriptorSet 0
               OpDecorate %ubo Binding 0
               OpDecorate %PC Block
               OpMemberDecorate %PC 0 Offset 0
               OpDecorate %rarr ArrayStride 4
               OpDecorate %SSBO Block
               OpMemberDecorate %SSBO 0 Offset 0
               OpDecorate %ssbo DescriptorSet 0
               OpDecorate %ssbo Binding 1
               OpDecorate %local_id BuiltIn LocalInvocationId
)";
const char *const BufferGlobals = R"(
       %arr4 = OpTypeArray %int %uint_4
        %UBO = OpTypeStruct %int %arr4
%ptr_Uniform_UBO = OpTypePointer Uniform %UBO
%ptr_Uniform_int = OpTypePointer Uniform %int
        %ubo = OpVariable %ptr_Uniform_UBO Uniform
         %PC = OpTypeStruct %int
%ptr_PushConstant_PC = OpTypePointer PushConstant %PC
%ptr_PushConstant_int = OpTypePointer PushConstant %int
         %pc = OpVariable %ptr_PushConstant_PC PushConstant
       %rarr = OpTypeRuntimeArray %int
       %SSBO = OpTypeStruct %rarr
%ptr_StorageBuffer_SSBO = OpTypePointer StorageBuffer %SSBO
%ptr_StorageBuffer_int = OpTypePointer StorageBuffer %int
       %ssbo = OpVariable %ptr_StorageBuffer_SSBO StorageBuffer
%ptr_Workgroup_int = OpTypePointer Workgroup %int
     %shared = OpVariable %ptr_Workgroup_int Workgroup
   %local_id = OpVariable %ptr_Input_v3uint Input
)";

std::string compute(llvm::StringRef Functions, llvm::StringRef Debug = "",
                    llvm::StringRef Globals = "") {
  return makeModule(Stage::Compute, (BufferNames + Debug).str(),
                    BufferDecorations, (BufferGlobals + Globals).str(),
                    Functions);
}

TEST_F(UniformityTest, BufferLoadsAtUniformAddressesAreUniform) {
  std::string Text = compute(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpAccessChain %ptr_Uniform_int %ubo %int_0
        %102 = OpLoad %int %101
        %103 = OpAccessChain %ptr_PushConstant_int %pc %int_0
        %104 = OpLoad %int %103
        %105 = OpAccessChain %ptr_Uniform_int %ubo %int_1 %104
        %106 = OpLoad %int %105
        %107 = OpLoad %v3uint %local_id
        %108 = OpCompositeExtract %uint %107 0
        %109 = OpAccessChain %ptr_Uniform_int %ubo %int_1 %108
        %110 = OpLoad %int %109
        %111 = OpAccessChain %ptr_StorageBuffer_int %ssbo %int_0 %108
        %112 = OpLoad %int %111
        %113 = OpAccessChain %ptr_StorageBuffer_int %ssbo %int_0 %int_3
        %114 = OpLoad %int %113
        %115 = OpInBoundsAccessChain %ptr_Uniform_int %ubo %int_1 %108
        %116 = OpLoad %int %115
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("ubo"), U);
  EXPECT_EQ(A.value("pc"), U);
  EXPECT_EQ(A.value("ssbo"), U);
  EXPECT_EQ(A.address("101"), U);
  EXPECT_EQ(A.value("102"), U);
  EXPECT_EQ(A.address("103"), U);
  EXPECT_EQ(A.value("104"), U);
  EXPECT_EQ(A.address("105"), U) << "index loaded from a push constant";
  EXPECT_EQ(A.value("106"), U);
  EXPECT_EQ(A.address("109"), V) << "index from LocalInvocationId";
  EXPECT_EQ(A.value("109"), V) << "a pointer's value is its address";
  EXPECT_EQ(A.value("110"), V);
  EXPECT_EQ(A.address("111"), V);
  EXPECT_EQ(A.value("112"), V);
  EXPECT_EQ(A.address("113"), U);
  EXPECT_EQ(A.value("114"), U);
  // (This was an access chain into the push-constant struct with %108 as
  // the struct index, which SPIR-V does not allow and the parser's type
  // check now rejects.)
  EXPECT_EQ(A.address("115"), V);
  EXPECT_EQ(A.value("116"), V);
}

// Memory shared by the group is read at one address by all lanes in
// lockstep: what was stored there does not matter, unlike for a Function
// variable with the same stores.
TEST_F(UniformityTest, SharedMemoryLoadsIgnoreStoredValues) {
  std::string Text = compute(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %fvar = OpVariable %ptr_Function_int Function
        %101 = OpLoad %v3uint %local_id
        %102 = OpCompositeExtract %uint %101 0
        %103 = OpBitcast %int %102
               OpStore %shared %103
        %104 = OpLoad %int %shared
        %105 = OpAccessChain %ptr_StorageBuffer_int %ssbo %int_0 %int_0
               OpStore %105 %103
        %106 = OpLoad %int %105
               OpStore %fvar %103
        %107 = OpLoad %int %fvar
               OpReturn
               OpFunctionEnd
)",
                             R"(
               OpName %fvar "fvar"
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("103"), V);
  EXPECT_EQ(A.value("104"), U);
  EXPECT_EQ(A.value("106"), U);
  EXPECT_EQ(A.value("fvar"), V);
  EXPECT_EQ(A.value("107"), V);
}

// --- 4. stores to per-invocation variables ----------------------------------

TEST_F(UniformityTest, StoresDecideFunctionAndPrivateVariables) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
         %fv = OpVariable %ptr_Function_int Function
         %fu = OpVariable %ptr_Function_int Function
        %101 = OpLoad %float %in_v
        %102 = OpConvertFToS %int %101
        %103 = OpLoad %int %in_flat
               OpStore %fv %102
               OpStore %fu %103
               OpStore %pv %102
               OpStore %pu %103
        %104 = OpLoad %int %fv
        %105 = OpLoad %int %fu
        %106 = OpLoad %int %pv
        %107 = OpLoad %int %pu
               OpReturn
               OpFunctionEnd
)",
                              R"(
               OpName %fv "fv"
               OpName %fu "fu"
               OpName %pv "pv"
               OpName %pu "pu"
)",
                              "", R"(
         %pv = OpVariable %ptr_Private_int Private
         %pu = OpVariable %ptr_Private_int Private
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("fv"), V);
  EXPECT_EQ(A.value("fu"), U);
  EXPECT_EQ(A.value("pv"), V);
  EXPECT_EQ(A.value("pu"), U);
  EXPECT_EQ(A.value("104"), V);
  EXPECT_EQ(A.value("105"), U);
  EXPECT_EQ(A.value("106"), V);
  EXPECT_EQ(A.value("107"), U);
  EXPECT_EQ(A.address("fv"), U) << "the variable itself is at one address";
}

TEST_F(UniformityTest, StoreInVaryingBlockMakesVariableVarying) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
         %fa = OpVariable %ptr_Function_int Function
         %fb = OpVariable %ptr_Function_int Function
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
        %103 = OpLoad %int %in_flat
        %104 = OpSLessThan %bool %103 %int_8
               OpStore %fa %int_0
               OpStore %fb %int_0
               OpSelectionMerge %106 None
               OpBranchConditional %102 %105 %106
        %105 = OpLabel
               OpStore %fa %int_1
               OpBranch %106
        %106 = OpLabel
        %107 = OpLoad %int %fa
               OpSelectionMerge %109 None
               OpBranchConditional %104 %108 %109
        %108 = OpLabel
               OpStore %fb %int_1
               OpBranch %109
        %109 = OpLabel
        %110 = OpLoad %int %fb
               OpStore %pv %int_2
               OpReturn
               OpFunctionEnd
)",
                              R"(
               OpName %fa "fa"
               OpName %fb "fb"
               OpName %pv "pv"
)",
                              "", R"(
         %pv = OpVariable %ptr_Private_int Private
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.block("105"), V);
  EXPECT_EQ(A.block("108"), U);
  EXPECT_EQ(A.value("fa"), V) << "constant stored in a Varying block";
  EXPECT_EQ(A.value("107"), V);
  EXPECT_NE(A.value("fb"), V) << "constant stored in a Uniform block";
  EXPECT_EQ(A.value("110"), U);
  EXPECT_NE(A.value("pv"), V);
}

TEST_F(UniformityTest, StoreThroughVaryingAddressMakesVariableVarying) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %arr = OpVariable %ptr_Function_arr4 Function
       %arr2 = OpVariable %ptr_Function_arr4 Function
        %101 = OpLoad %float %in_v
        %102 = OpConvertFToS %int %101
        %103 = OpLoad %int %in_flat
        %104 = OpAccessChain %ptr_Function_int %arr %102
               OpStore %104 %int_1
        %105 = OpAccessChain %ptr_Function_int %arr %int_0
        %106 = OpLoad %int %105
        %107 = OpAccessChain %ptr_Function_int %arr2 %103
               OpStore %107 %int_1
        %108 = OpAccessChain %ptr_Function_int %arr2 %int_0
        %109 = OpLoad %int %108
               OpReturn
               OpFunctionEnd
)",
                              R"(
               OpName %arr "arr"
               OpName %arr2 "arr2"
)",
                              "", R"(
       %arr4 = OpTypeArray %int %uint_4
%ptr_Function_arr4 = OpTypePointer Function %arr4
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.address("104"), V);
  EXPECT_EQ(A.value("arr"), V);
  EXPECT_EQ(A.address("105"), U);
  EXPECT_EQ(A.value("106"), V) << "uniform address, Varying contents";
  EXPECT_EQ(A.address("107"), U);
  EXPECT_NE(A.value("arr2"), V);
  EXPECT_EQ(A.value("109"), U);
}

// The store comes after the load in reverse postorder; the back edge carries
// it to the load (the fixed point needs a second round).
TEST_F(UniformityTest, StoreLaterInLoopReachesEarlierLoad) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
       %fvar = OpVariable %ptr_Function_int Function
               OpStore %fvar %int_0
        %101 = OpLoad %float %in_v
        %102 = OpConvertFToS %int %101
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %110 %109
        %105 = OpLoad %int %fvar
        %106 = OpSLessThan %bool %104 %int_8
               OpLoopMerge %111 %109 None
               OpBranchConditional %106 %108 %111
        %108 = OpLabel
               OpStore %fvar %102
               OpBranch %109
        %109 = OpLabel
        %110 = OpIAdd %int %104 %int_1
               OpBranch %103
        %111 = OpLabel
               OpReturn
               OpFunctionEnd
)",
                              R"(
               OpName %fvar "fvar"
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("fvar"), V);
  EXPECT_EQ(A.value("105"), V);
  EXPECT_EQ(A.value("104"), U);
  EXPECT_FALSE(A.divergentLoop("103"));
}

// --- 5. blocks: control dependence on Varying branches ----------------------

TEST_F(UniformityTest, VaryingBranchArmsVaryingMergeUniform) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
        %103 = OpLoad %int %in_flat
        %104 = OpSLessThan %bool %103 %int_8
               OpSelectionMerge %107 None
               OpBranchConditional %102 %105 %106
        %105 = OpLabel
               OpBranch %107
        %106 = OpLabel
               OpBranch %107
        %107 = OpLabel
               OpSelectionMerge %110 None
               OpBranchConditional %104 %108 %109
        %108 = OpLabel
               OpBranch %110
        %109 = OpLabel
               OpBranch %110
        %110 = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("102"), V);
  EXPECT_EQ(A.value("104"), U);
  EXPECT_EQ(A.block("100"), U);
  EXPECT_TRUE(A.varyingBranch("100"));
  EXPECT_EQ(A.block("105"), V);
  EXPECT_EQ(A.block("106"), V);
  EXPECT_EQ(A.block("107"), U) << "all lanes reach the merge";
  EXPECT_FALSE(A.varyingBranch("107"));
  EXPECT_EQ(A.block("108"), U);
  EXPECT_EQ(A.block("109"), U);
  EXPECT_EQ(A.block("110"), U);
}

// A Uniform branch inside a Varying arm runs on a Varying set of lanes
// (iterated control dependence); a Varying branch inside a Uniform arm makes
// only its own arm Varying.
TEST_F(UniformityTest, NestedBranchesIterateControlDependence) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
        %103 = OpLoad %int %in_flat
        %104 = OpSLessThan %bool %103 %int_8
               OpSelectionMerge %110 None
               OpBranchConditional %102 %105 %110
        %105 = OpLabel
               OpSelectionMerge %108 None
               OpBranchConditional %104 %106 %107
        %106 = OpLabel
               OpBranch %108
        %107 = OpLabel
               OpBranch %108
        %108 = OpLabel
               OpBranch %110
        %110 = OpLabel
               OpSelectionMerge %116 None
               OpBranchConditional %104 %111 %116
        %111 = OpLabel
               OpSelectionMerge %114 None
               OpBranchConditional %102 %112 %114
        %112 = OpLabel
               OpBranch %114
        %114 = OpLabel
               OpBranch %116
        %116 = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_TRUE(A.varyingBranch("100"));
  EXPECT_EQ(A.block("105"), V);
  EXPECT_FALSE(A.varyingBranch("105")) << "its condition is Uniform";
  EXPECT_EQ(A.block("106"), V) << "depends on %105, which depends on %100";
  EXPECT_EQ(A.block("107"), V);
  EXPECT_EQ(A.block("108"), V);
  EXPECT_EQ(A.block("110"), U);

  EXPECT_FALSE(A.varyingBranch("110"));
  EXPECT_EQ(A.block("111"), U);
  EXPECT_TRUE(A.varyingBranch("111"));
  EXPECT_EQ(A.block("112"), V);
  EXPECT_EQ(A.block("114"), U);
  EXPECT_EQ(A.block("116"), U);
}

// A return under a Varying condition: only some lanes reach what follows.
TEST_F(UniformityTest, ReturnUnderVaryingBranchMakesRestVarying) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
               OpSelectionMerge %104 None
               OpBranchConditional %102 %103 %104
        %103 = OpLabel
               OpReturn
        %104 = OpLabel
               OpStore %pv %int_1
               OpReturn
               OpFunctionEnd
)",
                              R"(
               OpName %pv "pv"
)",
                              "", R"(
         %pv = OpVariable %ptr_Private_int Private
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.block("103"), V);
  EXPECT_EQ(A.block("104"), V);
  EXPECT_EQ(A.value("pv"), V);
}

// --- 6. phis: divergent joins -----------------------------------------------

TEST_F(UniformityTest, PhiAtVaryingMergeIsVarying) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
        %103 = OpLoad %int %in_flat
        %104 = OpSLessThan %bool %103 %int_8
               OpSelectionMerge %107 None
               OpBranchConditional %102 %105 %106
        %105 = OpLabel
               OpBranch %107
        %106 = OpLabel
               OpBranch %107
        %107 = OpLabel
        %108 = OpPhi %int %int_1 %105 %int_2 %106
               OpSelectionMerge %111 None
               OpBranchConditional %104 %109 %110
        %109 = OpLabel
               OpBranch %111
        %110 = OpLabel
               OpBranch %111
        %111 = OpLabel
        %112 = OpPhi %int %int_1 %109 %int_2 %110
        %113 = OpPhi %int %103 %109 %int_2 %110
               OpSelectionMerge %115 None
               OpBranchConditional %102 %114 %115
        %114 = OpLabel
               OpBranch %115
        %115 = OpLabel
        %116 = OpPhi %int %int_1 %111 %int_2 %114
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_TRUE(A.divergentJoin("107"));
  EXPECT_EQ(A.value("108"), V) << "two constants joined by a Varying branch";
  EXPECT_FALSE(A.divergentJoin("111"));
  EXPECT_EQ(A.value("112"), U) << "two constants joined by a Uniform branch";
  EXPECT_EQ(A.value("113"), U);
  EXPECT_TRUE(A.divergentJoin("115")) << "if without else";
  EXPECT_EQ(A.value("116"), V);
}

// Inside a Varying arm, a Uniform selection joins the same lanes it split:
// its phi stays Uniform. The phi where the Varying arm rejoins is Varying.
TEST_F(UniformityTest, PhiAtUniformMergeInsideVaryingArm) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
        %103 = OpLoad %int %in_flat
        %104 = OpSLessThan %bool %103 %int_8
               OpSelectionMerge %110 None
               OpBranchConditional %102 %105 %110
        %105 = OpLabel
               OpSelectionMerge %108 None
               OpBranchConditional %104 %106 %107
        %106 = OpLabel
               OpBranch %108
        %107 = OpLabel
               OpBranch %108
        %108 = OpLabel
        %109 = OpPhi %int %int_1 %106 %int_2 %107
               OpBranch %110
        %110 = OpLabel
        %111 = OpPhi %int %109 %108 %int_0 %100
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.block("108"), V);
  EXPECT_FALSE(A.divergentJoin("108"));
  EXPECT_EQ(A.value("109"), U);
  EXPECT_TRUE(A.divergentJoin("110"));
  EXPECT_EQ(A.value("111"), V);
}

// --- 7. loops ---------------------------------------------------------------

TEST_F(UniformityTest, LoopWithUniformTripCountStaysUniform) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
               OpBranch %101
        %101 = OpLabel
        %102 = OpPhi %int %int_0 %100 %106 %105
        %103 = OpSLessThan %bool %102 %int_8
               OpLoopMerge %107 %105 None
               OpBranchConditional %103 %104 %107
        %104 = OpLabel
        %108 = OpIMul %int %102 %int_3
               OpBranch %105
        %105 = OpLabel
        %106 = OpIAdd %int %102 %int_1
               OpBranch %101
        %107 = OpLabel
        %109 = OpIAdd %int %102 %int_1
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_FALSE(A.divergentLoop("101"));
  EXPECT_FALSE(A.divergentJoin("101"));
  EXPECT_FALSE(A.varyingBranch("101"));
  for (const char *Block : {"100", "101", "104", "105", "107"})
    EXPECT_EQ(A.block(Block), U) << "%" << Block;
  for (const char *Value : {"102", "103", "106", "108"})
    EXPECT_EQ(A.value(Value), U) << "%" << Value;
  EXPECT_EQ(A.value("109"), U) << "no temporal divergence";
}

TEST_F(UniformityTest, LoopWithVaryingExitIsDivergent) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpConvertFToS %int %101
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %108 %107
        %105 = OpSLessThan %bool %104 %102
        %110 = OpIMul %int %104 %int_3
               OpLoopMerge %109 %107 None
               OpBranchConditional %105 %106 %109
        %106 = OpLabel
               OpBranch %107
        %107 = OpLabel
        %108 = OpIAdd %int %104 %int_1
               OpBranch %103
        %109 = OpLabel
        %111 = OpIAdd %int %110 %int_1
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("105"), V);
  EXPECT_TRUE(A.varyingBranch("103"));
  EXPECT_TRUE(A.divergentLoop("103"));
  EXPECT_EQ(A.block("100"), U);
  EXPECT_EQ(A.block("103"), V) << "lanes that left skip later iterations";
  EXPECT_EQ(A.block("106"), V);
  EXPECT_EQ(A.block("107"), V);
  EXPECT_EQ(A.block("109"), U) << "every lane leaves the loop";
  EXPECT_EQ(A.value("110"), V) << "defined in the loop, used after it";
  EXPECT_EQ(A.value("111"), V);
}

// A Varying break: the lanes still in the loop agree on the counter, so the
// header's phi is not a divergent join; but lanes leave in different
// iterations, so a value defined in the loop is Varying after it.
TEST_F(UniformityTest, VaryingBreakCausesTemporalDivergenceOnly) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %110 %109
        %105 = OpIMul %int %104 %int_3
        %106 = OpSLessThan %bool %104 %int_8
               OpLoopMerge %111 %109 None
               OpBranchConditional %106 %107 %111
        %107 = OpLabel
               OpBranchConditional %102 %111 %109
        %109 = OpLabel
        %110 = OpIAdd %int %104 %int_1
               OpBranch %103
        %111 = OpLabel
        %112 = OpIAdd %int %105 %int_1
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_TRUE(A.varyingBranch("107"));
  EXPECT_FALSE(A.varyingBranch("103"));
  EXPECT_TRUE(A.divergentLoop("103"));
  EXPECT_FALSE(A.divergentJoin("103"));
  EXPECT_EQ(A.value("104"), U) << "counter inside the loop";
  EXPECT_EQ(A.value("106"), U);
  EXPECT_EQ(A.value("110"), U);
  EXPECT_EQ(A.block("109"), V);
  EXPECT_EQ(A.value("105"), V) << "defined in the loop, used after it";
  EXPECT_EQ(A.value("112"), V);
  EXPECT_EQ(A.block("111"), U);
}

// Temporal divergence of an inner loop is seen where the value is used after
// the inner loop, inside a non-divergent outer loop; the outer loop's own
// values stay Uniform after it.
TEST_F(UniformityTest, TemporalDivergenceOfInnerLoopOnly) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %115 %114
        %105 = OpIMul %int %104 %int_3
        %106 = OpSLessThan %bool %104 %int_8
               OpLoopMerge %116 %114 None
               OpBranchConditional %106 %107 %116
        %107 = OpLabel
        %108 = OpPhi %int %int_0 %103 %112 %111
        %109 = OpIAdd %int %108 %104
        %117 = OpSLessThan %bool %108 %int_8
               OpLoopMerge %113 %111 None
               OpBranchConditional %117 %110 %113
        %110 = OpLabel
               OpBranchConditional %102 %113 %111
        %111 = OpLabel
        %112 = OpIAdd %int %108 %int_1
               OpBranch %107
        %113 = OpLabel
        %118 = OpIAdd %int %109 %int_1
               OpBranch %114
        %114 = OpLabel
        %115 = OpIAdd %int %104 %int_1
               OpBranch %103
        %116 = OpLabel
        %119 = OpIAdd %int %105 %int_1
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_TRUE(A.divergentLoop("107"));
  EXPECT_FALSE(A.divergentLoop("103"));
  EXPECT_EQ(A.block("111"), V);
  EXPECT_EQ(A.block("113"), U);
  EXPECT_EQ(A.block("114"), U);
  EXPECT_EQ(A.block("103"), U);
  EXPECT_EQ(A.block("116"), U);
  EXPECT_EQ(A.value("108"), U);
  EXPECT_EQ(A.value("112"), U);
  EXPECT_EQ(A.value("109"), V);
  EXPECT_EQ(A.value("118"), V);
  EXPECT_EQ(A.value("104"), U);
  EXPECT_EQ(A.value("105"), U);
  EXPECT_EQ(A.value("115"), U);
  EXPECT_EQ(A.value("119"), U);
}

/// A loop with a uniform trip count whose body leaves the invocation
/// (\p Exit: OpKill or OpReturn) under a Varying condition.
std::string loopWithExit(llvm::StringRef Exit) {
  return fragment((R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %110 %109
        %105 = OpSLessThan %bool %104 %int_8
               OpLoopMerge %111 %109 None
               OpBranchConditional %105 %106 %111
        %106 = OpLabel
               OpSelectionMerge %108 None
               OpBranchConditional %102 %107 %108
        %107 = OpLabel
               )" + Exit +
                   R"(
        %108 = OpLabel
               OpBranch %109
        %109 = OpLabel
        %110 = OpIAdd %int %104 %int_1
               OpBranch %103
        %111 = OpLabel
               OpStore %pv %int_1
               OpReturn
               OpFunctionEnd
)")
                      .str(),
                  R"(
               OpName %pv "pv"
)",
                  "", R"(
         %pv = OpVariable %ptr_Private_int Private
)");
}

class LoopExitTest : public UniformityTest,
                     public ::testing::WithParamInterface<const char *> {};

TEST_P(LoopExitTest, VaryingExitInsideLoopMakesLoopDivergent) {
  ASSERT_TRUE(run(loopWithExit(GetParam())));
  EXPECT_FALSE(A.varyingBranch("103"));
  EXPECT_TRUE(A.varyingBranch("106"));
  EXPECT_TRUE(A.divergentLoop("103"));
  EXPECT_EQ(A.block("100"), U);
  EXPECT_EQ(A.block("107"), V);
  EXPECT_EQ(A.block("108"), V);
  EXPECT_EQ(A.block("109"), V);
  EXPECT_EQ(A.block("103"), V) << "lanes that left skip later iterations";
  EXPECT_EQ(A.block("111"), V) << "lanes that left never get here";
  EXPECT_EQ(A.value("pv"), V) << "stored in a Varying block";
}

// The other way round: a value of a uniform inner loop is Varying after a
// divergent outer loop, though not after the inner loop.
TEST_F(UniformityTest, TemporalDivergenceOfOuterLoop) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %115 %114
        %106 = OpSLessThan %bool %104 %int_8
               OpLoopMerge %116 %114 None
               OpBranchConditional %106 %107 %116
        %107 = OpLabel
        %108 = OpPhi %int %int_0 %103 %112 %111
        %109 = OpIAdd %int %108 %104
        %117 = OpSLessThan %bool %108 %int_8
               OpLoopMerge %113 %111 None
               OpBranchConditional %117 %111 %113
        %111 = OpLabel
        %112 = OpIAdd %int %108 %int_1
               OpBranch %107
        %113 = OpLabel
        %118 = OpIAdd %int %108 %int_1
               OpBranchConditional %102 %116 %114
        %114 = OpLabel
        %115 = OpIAdd %int %104 %int_1
               OpBranch %103
        %116 = OpLabel
        %119 = OpIAdd %int %109 %int_1
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_FALSE(A.divergentLoop("107"));
  EXPECT_TRUE(A.divergentLoop("103"));
  EXPECT_EQ(A.value("108"), U);
  EXPECT_EQ(A.value("118"), U) << "after the uniform inner loop";
  EXPECT_EQ(A.value("109"), V) << "used after the divergent outer loop";
  EXPECT_EQ(A.value("119"), V);
}

// The common `while (true) { ...; if (v) { x = ...; break; } ... }`: the
// break block post-dominates the whole loop (it is the only way out), so
// plain control dependence does not see that lanes reach it in different
// iterations.
TEST_F(UniformityTest, VaryingBreakOutOfEndlessLoop) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %110 %109
        %105 = OpIMul %int %104 %int_3
               OpLoopMerge %111 %109 None
               OpBranch %106
        %106 = OpLabel
               OpSelectionMerge %108 None
               OpBranchConditional %102 %107 %108
        %107 = OpLabel
               OpStore %pv %105
               OpBranch %111
        %108 = OpLabel
               OpBranch %109
        %109 = OpLabel
        %110 = OpIAdd %int %104 %int_1
               OpBranch %103
        %111 = OpLabel
        %112 = OpIAdd %int %105 %int_1
               OpReturn
               OpFunctionEnd
)",
                              R"(
               OpName %pv "pv"
)",
                              "", R"(
         %pv = OpVariable %ptr_Private_int Private
)");
  ASSERT_TRUE(run(Text));
  EXPECT_TRUE(A.varyingBranch("106"));
  EXPECT_TRUE(A.divergentLoop("103"));
  EXPECT_EQ(A.block("107"), V) << "only the lanes with %102 break now";
  EXPECT_EQ(A.block("108"), V);
  EXPECT_EQ(A.block("109"), V);
  EXPECT_EQ(A.block("111"), U) << "every lane breaks eventually";
  EXPECT_EQ(A.value("104"), U) << "the lanes still looping agree";
  EXPECT_FALSE(A.divergentJoin("103"));
  EXPECT_EQ(A.value("pv"), V) << "stored in different iterations";
  EXPECT_EQ(A.value("105"), V) << "defined in the loop, used after it";
  EXPECT_EQ(A.value("112"), V);
}

/// A loop left only by \p Exit (OpKill or OpReturn) under a Varying
/// condition: no branch leaves the loop, its merge is unreachable.
std::string endlessLoopWithExit(llvm::StringRef Exit) {
  return fragment((R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdLessThan %bool %101 %float_0
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %110 %109
               OpLoopMerge %111 %109 None
               OpBranch %106
        %106 = OpLabel
               OpSelectionMerge %108 None
               OpBranchConditional %102 %107 %108
        %107 = OpLabel
               )" + Exit +
                   R"(
        %108 = OpLabel
               OpBranch %109
        %109 = OpLabel
        %110 = OpIAdd %int %104 %int_1
               OpBranch %103
        %111 = OpLabel
               OpUnreachable
               OpFunctionEnd
)")
                      .str());
}

TEST_P(LoopExitTest, VaryingExitIsTheOnlyWayOutOfLoop) {
  ASSERT_TRUE(run(endlessLoopWithExit(GetParam())));
  EXPECT_TRUE(A.varyingBranch("106"));
  EXPECT_TRUE(A.divergentLoop("103"));
  EXPECT_EQ(A.block("107"), V);
  EXPECT_EQ(A.block("108"), V);
  EXPECT_EQ(A.block("109"), V);
  EXPECT_EQ(A.block("103"), V);
  EXPECT_EQ(A.value("104"), U) << "the lanes still looping agree";
}

INSTANTIATE_TEST_SUITE_P(Exits, LoopExitTest,
                         ::testing::Values("OpKill", "OpReturn"),
                         [](const ::testing::TestParamInfo<const char *> &I) {
                           return std::string(I.param + 2);
                         });

// --- 8. switch --------------------------------------------------------------

TEST_F(UniformityTest, SwitchOnVaryingAndUniformSelectors) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpConvertFToS %int %101
        %103 = OpLoad %int %in_flat
               OpSelectionMerge %108 None
               OpSwitch %102 %107 0 %104 1 %105 2 %106
        %104 = OpLabel
               OpBranch %108
        %105 = OpLabel
               OpBranch %108
        %106 = OpLabel
               OpBranch %108
        %107 = OpLabel
               OpBranch %108
        %108 = OpLabel
        %109 = OpPhi %int %int_0 %104 %int_1 %105 %int_2 %106 %int_3 %107
               OpSelectionMerge %113 None
               OpSwitch %103 %112 0 %110 1 %111
        %110 = OpLabel
               OpBranch %113
        %111 = OpLabel
               OpBranch %113
        %112 = OpLabel
               OpBranch %113
        %113 = OpLabel
        %114 = OpPhi %int %int_0 %110 %int_1 %111 %int_2 %112
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_TRUE(A.varyingBranch("100"));
  for (const char *Block : {"104", "105", "106", "107"})
    EXPECT_EQ(A.block(Block), V) << "%" << Block;
  EXPECT_EQ(A.block("108"), U);
  EXPECT_TRUE(A.divergentJoin("108"));
  EXPECT_EQ(A.value("109"), V);

  EXPECT_FALSE(A.varyingBranch("108"));
  for (const char *Block : {"110", "111", "112", "113"})
    EXPECT_EQ(A.block(Block), U) << "%" << Block;
  EXPECT_FALSE(A.divergentJoin("113"));
  EXPECT_EQ(A.value("114"), U);
}

// --- 9. always Varying: atomics, derivatives, calls -------------------------

TEST_F(UniformityTest, AtomicsAreVarying) {
  std::string Text = compute(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpAccessChain %ptr_StorageBuffer_int %ssbo %int_0 %int_0
        %102 = OpAtomicIAdd %int %101 %uint_1 %uint_0 %int_1
        %103 = OpAtomicLoad %int %101 %uint_1 %uint_0
        %104 = OpAtomicExchange %int %shared %uint_1 %uint_0 %int_2
        %105 = OpLoad %int %101
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.address("101"), U);
  EXPECT_EQ(A.value("102"), V);
  EXPECT_EQ(A.value("103"), V);
  EXPECT_EQ(A.value("104"), V);
  EXPECT_EQ(A.value("105"), U) << "a plain load at the same address";
}

TEST_F(UniformityTest, DerivativesAreVarying) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %int %in_flat
        %102 = OpConvertSToF %float %101
        %103 = OpDPdx %float %102
        %104 = OpDPdy %float %102
        %105 = OpFwidth %float %float_0
        %106 = OpDPdxFine %float %102
        %107 = OpFMul %float %102 %102
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("102"), U);
  EXPECT_EQ(A.value("103"), V);
  EXPECT_EQ(A.value("104"), V);
  EXPECT_EQ(A.value("105"), V);
  EXPECT_EQ(A.value("106"), V);
  EXPECT_EQ(A.value("107"), U);
}

// --- subgroup operations ------------------------------------------------------

/// \p Functions in a fragment shader that may use the subgroup operations.
std::string subgroupFragment(llvm::StringRef Functions) {
  std::string Text = fragment(Functions, "", "", R"(
     %uint_3 = OpConstant %uint 3
     %v4uint = OpTypeVector %uint 4
)");
  std::string Caps = "OpCapability Shader\n"
                     "OpCapability GroupNonUniform\n"
                     "OpCapability GroupNonUniformVote\n"
                     "OpCapability GroupNonUniformBallot\n"
                     "OpCapability GroupNonUniformArithmetic\n"
                     "OpCapability GroupNonUniformShuffle\n"
                     "OpCapability SubgroupBallotKHR\n"
                     "OpExtension \"SPV_KHR_shader_ballot\"\n";
  return Caps + Text.substr(std::string("OpCapability Shader\n").size());
}

// A subgroup is the SIMD group: a result every active lane shares is
// Uniform whatever its operands (Mesa's divergence analysis does the same);
// per-lane results (elect, scans, shuffles) stay Varying.
TEST_F(UniformityTest, SubgroupSharedResultsAreUniform) {
  std::string Text = subgroupFragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdGreaterThan %bool %101 %float_0
        %103 = OpGroupNonUniformAny %bool %uint_3 %102
        %104 = OpGroupNonUniformAll %bool %uint_3 %102
        %105 = OpGroupNonUniformAllEqual %bool %uint_3 %101
        %106 = OpGroupNonUniformBroadcastFirst %float %uint_3 %101
        %107 = OpGroupNonUniformBallot %v4uint %uint_3 %102
        %108 = OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce %107
        %109 = OpGroupNonUniformBallotBitCount %uint %uint_3 InclusiveScan %107
        %110 = OpGroupNonUniformFAdd %float %uint_3 Reduce %101
        %111 = OpGroupNonUniformFAdd %float %uint_3 InclusiveScan %101
        %112 = OpGroupNonUniformElect %bool %uint_3
        %113 = OpGroupNonUniformShuffleXor %float %uint_3 %101 %uint_1
        %114 = OpGroupNonUniformBroadcast %float %uint_3 %101 %uint_1
        %115 = OpGroupNonUniformBallotBitExtract %bool %uint_3 %107 %uint_1
        %116 = OpFAdd %float %110 %106
        %117 = OpSubgroupFirstInvocationKHR %float %101
        %118 = OpGroupNonUniformInverseBallot %bool %uint_3 %107
        %119 = OpGroupNonUniformFAdd %float %uint_3 ExclusiveScan %101
        %120 = OpGroupNonUniformBallotFindLSB %uint %uint_3 %107
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("101"), V);
  EXPECT_EQ(A.value("102"), V);
  EXPECT_EQ(A.value("103"), U) << "subgroupAny of a Varying predicate";
  EXPECT_EQ(A.value("104"), U) << "subgroupAll";
  EXPECT_EQ(A.value("105"), U) << "subgroupAllEqual";
  EXPECT_EQ(A.value("106"), U) << "subgroupBroadcastFirst";
  EXPECT_EQ(A.value("107"), U) << "subgroupBallot";
  EXPECT_EQ(A.value("108"), U) << "bit count (Reduce) of a Uniform ballot";
  EXPECT_EQ(A.value("109"), V) << "bit count, inclusive scan";
  EXPECT_EQ(A.value("110"), U) << "subgroupAdd (Reduce)";
  EXPECT_EQ(A.value("111"), V) << "subgroupInclusiveAdd";
  EXPECT_EQ(A.value("112"), V) << "subgroupElect";
  EXPECT_EQ(A.value("113"), V) << "subgroupShuffleXor";
  EXPECT_EQ(A.value("114"), U) << "subgroupBroadcast";
  EXPECT_EQ(A.value("115"), U) << "bit extract of a Uniform ballot";
  EXPECT_EQ(A.value("116"), U) << "arithmetic on Uniform results";
  EXPECT_EQ(A.value("117"), U) << "readFirstInvocationARB";
  EXPECT_EQ(A.value("118"), V) << "subgroupInverseBallot";
  EXPECT_EQ(A.value("119"), V) << "subgroupExclusiveAdd";
  EXPECT_EQ(A.value("120"), U) << "find LSB of a Uniform ballot";
}

// A branch on a vote is Uniform, so its arms run with all lanes or none; a
// loop whose exit is a vote is not divergent, so values from it stay
// Uniform after it. In a Varying arm the vote is still Uniform (the lanes
// that run it agree), but the phi where the arms join is Varying.
TEST_F(UniformityTest, BranchesAndLoopsOnVotesAreUniform) {
  std::string Text = subgroupFragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpFOrdGreaterThan %bool %101 %float_0
        %103 = OpGroupNonUniformAny %bool %uint_3 %102
               OpSelectionMerge %105 None
               OpBranchConditional %103 %104 %105
        %104 = OpLabel
               OpBranch %105
        %105 = OpLabel
               OpBranch %106
        %106 = OpLabel
        %107 = OpPhi %int %int_0 %105 %111 %110
        %108 = OpSLessThan %bool %107 %int_8
        %112 = OpGroupNonUniformAll %bool %uint_3 %108
               OpLoopMerge %113 %110 None
               OpBranchConditional %112 %109 %113
        %109 = OpLabel
               OpBranch %110
        %110 = OpLabel
        %111 = OpIAdd %int %107 %int_1
               OpBranch %106
        %113 = OpLabel
        %114 = OpIAdd %int %111 %int_1
               OpSelectionMerge %117 None
               OpBranchConditional %102 %115 %116
        %115 = OpLabel
        %118 = OpGroupNonUniformAny %bool %uint_3 %102
               OpBranch %117
        %116 = OpLabel
               OpBranch %117
        %117 = OpLabel
        %119 = OpPhi %bool %118 %115 %102 %116
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_FALSE(A.varyingBranch("100")) << "a branch on subgroupAny";
  EXPECT_EQ(A.block("104"), U);
  EXPECT_FALSE(A.varyingBranch("106")) << "a loop exit on subgroupAll";
  EXPECT_FALSE(A.divergentLoop("106"));
  EXPECT_EQ(A.block("109"), U);
  EXPECT_EQ(A.value("111"), U);
  EXPECT_EQ(A.value("114"), U) << "no temporal divergence";
  EXPECT_TRUE(A.varyingBranch("113"));
  EXPECT_EQ(A.block("115"), V);
  EXPECT_EQ(A.value("118"), U) << "a vote in a Varying arm";
  EXPECT_EQ(A.value("119"), V) << "joined with the other arm's value";
}

// Each iteration's lanes agree on a reduction, but lanes leave a divergent
// loop in different iterations, so after the loop it is Varying.
TEST_F(UniformityTest, SubgroupResultOfDivergentLoopIsVaryingAfterIt) {
  std::string Text = subgroupFragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
        %101 = OpLoad %float %in_v
        %102 = OpConvertFToS %int %101
               OpBranch %103
        %103 = OpLabel
        %104 = OpPhi %int %int_0 %100 %108 %107
        %105 = OpSLessThan %bool %104 %102
        %110 = OpGroupNonUniformIAdd %int %uint_3 Reduce %104
               OpLoopMerge %109 %107 None
               OpBranchConditional %105 %106 %109
        %106 = OpLabel
               OpBranch %107
        %107 = OpLabel
        %108 = OpIAdd %int %104 %int_1
               OpBranch %103
        %109 = OpLabel
        %111 = OpIAdd %int %110 %int_1
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(run(Text));
  EXPECT_TRUE(A.divergentLoop("103"));
  EXPECT_EQ(A.value("111"), V) << "the reduction, used after the loop";
  EXPECT_EQ(A.value("110"), V);
}

TEST_F(UniformityTest, CallsAndParametersAreVarying) {
  std::string Text = fragment(R"(
       %main = OpFunction %void None %voidfn
        %100 = OpLabel
       %fvar = OpVariable %ptr_Function_int Function
       %fkept = OpVariable %ptr_Function_int Function
               OpStore %fvar %int_0
               OpStore %fkept %int_0
        %101 = OpFunctionCall %int %callee %int_1
        %102 = OpFunctionCall %void %writer %fvar
        %103 = OpLoad %int %fvar
        %104 = OpLoad %int %fkept
               OpReturn
               OpFunctionEnd
     %callee = OpFunction %int None %intfn
        %110 = OpFunctionParameter %int
        %111 = OpLabel
        %112 = OpIAdd %int %110 %int_1
        %113 = OpIAdd %int %int_1 %int_2
               OpReturnValue %112
               OpFunctionEnd
     %writer = OpFunction %void None %ptrfn
        %120 = OpFunctionParameter %ptr_Function_int
        %121 = OpLabel
               OpStore %120 %int_1
               OpReturn
               OpFunctionEnd
     %unused = OpFunction %void None %voidfn
        %130 = OpLabel
               OpReturn
               OpFunctionEnd
)",
                              R"(
               OpName %callee "callee"
               OpName %writer "writer"
               OpName %unused "unused"
               OpName %fvar "fvar"
               OpName %fkept "fkept"
)",
                              "", R"(
      %intfn = OpTypeFunction %int %int
      %ptrfn = OpTypeFunction %void %ptr_Function_int
)");
  ASSERT_TRUE(run(Text));
  EXPECT_EQ(A.value("101"), V) << "call with constant arguments";
  EXPECT_TRUE(A.UI.isAnalyzed(A.function("callee")));
  EXPECT_TRUE(A.UI.isAnalyzed(A.function("writer")));
  EXPECT_FALSE(A.UI.isAnalyzed(A.function("unused")));
  EXPECT_EQ(A.value("110"), V);
  EXPECT_EQ(A.value("112"), V);
  EXPECT_EQ(A.value("113"), U);
  EXPECT_EQ(A.value("fvar"), V) << "passed by pointer to a callee";
  EXPECT_EQ(A.value("103"), V);
  EXPECT_NE(A.value("fkept"), V);
  EXPECT_EQ(A.value("104"), U);
}

// --- the design document's example ------------------------------------------

TEST_F(UniformityTest, KazanExampleMatchesDocumentTable) {
  std::string Path =
      std::string(S2L_SOURCE_DIR) + "/shaders/examples/kazan-example.spvasm";
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(static_cast<bool>(Buffer)) << "cannot read " << Path;
  ASSERT_TRUE(run((*Buffer)->getBuffer()));

  for (const char *Name : {"int_0", "int_1", "int_8"})
    EXPECT_EQ(A.value(Name), C) << "%" << Name;
  for (const char *Name :
       {"in_", "out_", "16", "17", "19", "20", "28", "29", "31", "32"})
    EXPECT_EQ(A.value(Name), V) << "%" << Name;
  for (const char *Name : {"22", "23", "24", "27"})
    EXPECT_EQ(A.value(Name), U) << "%" << Name;
  for (const char *Block : {"15", "18", "21", "25", "26"})
    EXPECT_EQ(A.block(Block), U) << "%" << Block;
  EXPECT_EQ(A.block("30"), V);

  EXPECT_FALSE(A.varyingBranch("18"));
  EXPECT_TRUE(A.varyingBranch("26"));
  EXPECT_FALSE(A.divergentLoop("18"));
  EXPECT_FALSE(A.divergentJoin("18"));
  EXPECT_TRUE(A.divergentJoin("21"));
}

} // namespace
