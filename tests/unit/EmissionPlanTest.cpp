//===- EmissionPlanTest.cpp - The SIMD emitter's plan as a result ---------===//
//
// planEmission (src/codegen/simd/EmissionPlan.h) decides, before any LLVM
// IR exists, the call ABIs, the variables that need lane memory, the values
// that cross blocks or leave divergent loops, and helper-lane needs. Each
// test pairs a case the plan must flag with a nearly identical one it must
// not, so a rule that broke in either direction fails.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/EmissionPlan.h"
#include "cfg/FunctionAnalysis.h"
#include "frontend/Frontend.h"
#include "parser/Parser.h"
#include "uniformity/Uniformity.h"

#include <gtest/gtest.h>

using namespace spirv2llvm;
using namespace spirv2llvm::simd;

namespace {

const char *const Header = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
)";

const char *const Types = R"(
       %void = OpTypeVoid
     %voidfn = OpTypeFunction %void
       %bool = OpTypeBool
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
      %int_4 = OpConstant %int 4
    %float_1 = OpConstant %float 1
     %arr4 = OpTypeArray %int %int_4
%ptr_Function_int = OpTypePointer Function %int
%ptr_Function_arr4 = OpTypePointer Function %arr4
%ptr_Input_int = OpTypePointer Input %int
%ptr_Input_float = OpTypePointer Input %float
%ptr_Output_float = OpTypePointer Output %float
       %in_v = OpVariable %ptr_Input_int Input
      %in_fv = OpVariable %ptr_Input_float Input
    %in_flat = OpVariable %ptr_Input_int Input
        %out = OpVariable %ptr_Output_float Output
)";

const char *const Fragment = R"(
               OpEntryPoint Fragment %main "main" %in_v %in_fv %in_flat %out
               OpExecutionMode %main OriginUpperLeft
               OpName %main "main"
               OpDecorate %in_v Location 0
               OpDecorate %in_v Flat
               OpDecorate %in_fv Location 1
               OpDecorate %in_flat Location 2
               OpDecorate %in_flat Flat
               OpDecorate %out Location 0
)";

/// Parsed module, CFG, uniformity and the plan of its entry point (without
/// canonicalization, so calls stay calls).
struct Planned {
  std::unique_ptr<Module> M;
  cfg::ModuleAnalysis MA;
  UniformityInfo UI;
  std::optional<EmissionPlan> Plan;
  std::string Error;

  uint32_t id(llvm::StringRef Name) const {
    for (uint32_t I = 0; I < M->FriendlyNames.size(); ++I)
      if (M->FriendlyNames[I] == Name)
        return I;
    ADD_FAILURE() << "no id named " << Name.str();
    return 0;
  }
  uint32_t fn(llvm::StringRef Name) const {
    return M->FunctionIndexOf.at(id(Name));
  }
  const FunctionPlan &main() const { return Plan->function(fn("main")); }
};

Planned plan(const std::string &Text) {
  Planned P;
  auto Words = frontend::assembleSpirv(Text, SPV_ENV_UNIVERSAL_1_6);
  if (!Words) {
    ADD_FAILURE() << llvm::toString(Words.takeError()) << "\n" << Text;
    return P;
  }
  auto Parsed = parseModule(*Words);
  if (!Parsed) {
    ADD_FAILURE() << llvm::toString(Parsed.takeError()) << "\n" << Text;
    return P;
  }
  P.M = std::move(*Parsed);
  P.M->FriendlyNames =
      frontend::friendlyNames(*Words, P.M->Bound, SPV_ENV_UNIVERSAL_1_6);
  auto MA = cfg::analyzeModule(*P.M);
  if (!MA) {
    ADD_FAILURE() << llvm::toString(MA.takeError());
    return P;
  }
  P.MA = std::move(*MA);
  const EntryPoint &EP = P.M->EntryPoints.at(0);
  P.UI = computeUniformity(*P.M, EP, P.MA);
  auto Result = planEmission(*P.M, EP, P.MA, P.UI);
  if (!Result)
    P.Error = llvm::toString(Result.takeError());
  else
    P.Plan = std::move(*Result);
  return P;
}

std::string fragment(const std::string &Names, const std::string &Functions) {
  return Header + std::string(Fragment) + Names + Types + Functions;
}

TEST(EmissionPlan, CrossBlockValuesAndPhiOperands) {
  Planned P = plan(fragment(R"(
               OpName %used_here "used_here"
               OpName %used_later "used_later"
               OpName %phi_in "phi_in"
               OpName %then "then"
)",
                            R"(
       %main = OpFunction %void None %voidfn
      %entry = OpLabel
          %v = OpLoad %int %in_v
  %used_here = OpIAdd %int %v %int_1
 %used_later = OpIMul %int %used_here %int_4
       %cond = OpSGreaterThan %bool %used_here %int_0
               OpSelectionMerge %merge None
               OpBranchConditional %cond %then %merge
       %then = OpLabel
     %phi_in = OpIAdd %int %used_later %int_1
               OpBranch %merge
      %merge = OpLabel
          %r = OpPhi %int %int_0 %entry %phi_in %then
          %f = OpConvertSToF %float %r
               OpStore %out %f
               OpReturn
               OpFunctionEnd
)"));
  ASSERT_TRUE(P.Plan) << P.Error;
  const FunctionPlan &FP = P.main();
  // Used in %then: crosses. Used only in its own block: does not.
  EXPECT_TRUE(FP.CrossBlock.count(P.id("used_later")));
  EXPECT_FALSE(FP.CrossBlock.count(P.id("used_here")));
  // A phi operand is read at the end of its predecessor, here its own
  // block: no slot needed.
  EXPECT_FALSE(FP.CrossBlock.count(P.id("phi_in")));
  EXPECT_EQ(FP.DefBlockOf.at(P.id("phi_in")),
            P.M->Functions[P.fn("main")].BlockIndexOf.at(P.id("then")));
  EXPECT_TRUE(FP.MaskedLiveOut.empty());
}

/// A loop whose exit condition reads a smooth input, so lanes leave at
/// different iterations; %acc is defined in the body and read after the
/// loop.
std::string divergentLoop() {
  return fragment(R"(
               OpName %acc "acc"
)",
                  R"(
       %main = OpFunction %void None %voidfn
      %entry = OpLabel
         %fx = OpLoad %float %in_fv
      %bound = OpConvertFToS %int %fx
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %int %int_0 %entry %next %body
               OpLoopMerge %exit %body None
               OpBranch %body
       %body = OpLabel
        %acc = OpIMul %int %i %int_4
       %next = OpIAdd %int %i %int_1
       %more = OpSLessThan %bool %next %bound
               OpBranchConditional %more %header %exit
       %exit = OpLabel
          %f = OpConvertSToF %float %acc
               OpStore %out %f
               OpReturn
               OpFunctionEnd
)");
}

TEST(EmissionPlan, LiveOutsOfDivergentLoopsAreMasked) {
  Planned Divergent = plan(divergentLoop());
  ASSERT_TRUE(Divergent.Plan) << Divergent.Error;
  EXPECT_TRUE(Divergent.main().CrossBlock.count(Divergent.id("acc")));
  EXPECT_TRUE(Divergent.main().MaskedLiveOut.count(Divergent.id("acc")));
}

TEST(EmissionPlan, LiveOutsOfUniformLoopsAreNotMasked) {
  // The same loop with a constant bound: every lane leaves together.
  Planned Uniform = plan(fragment(R"(
               OpName %acc "acc"
)",
                                  R"(
       %main = OpFunction %void None %voidfn
      %entry = OpLabel
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %int %int_0 %entry %next %body
               OpLoopMerge %exit %body None
               OpBranch %body
       %body = OpLabel
        %acc = OpIMul %int %i %int_4
       %next = OpIAdd %int %i %int_1
       %more = OpSLessThan %bool %next %int_4
               OpBranchConditional %more %header %exit
       %exit = OpLabel
          %f = OpConvertSToF %float %acc
               OpStore %out %f
               OpReturn
               OpFunctionEnd
)"));
  ASSERT_TRUE(Uniform.Plan) << Uniform.Error;
  EXPECT_TRUE(Uniform.main().CrossBlock.count(Uniform.id("acc")));
  EXPECT_FALSE(Uniform.main().MaskedLiveOut.count(Uniform.id("acc")));
}

TEST(EmissionPlan, DynamicIndexingPutsVariablesInLaneMemory) {
  Planned P = plan(fragment(R"(
               OpName %dyn "dyn"
               OpName %fixed "fixed"
)",
                            R"(
       %main = OpFunction %void None %voidfn
      %entry = OpLabel
        %dyn = OpVariable %ptr_Function_arr4 Function
      %fixed = OpVariable %ptr_Function_arr4 Function
          %v = OpLoad %int %in_v
         %p1 = OpAccessChain %ptr_Function_int %dyn %v
               OpStore %p1 %int_1
         %p2 = OpAccessChain %ptr_Function_int %fixed %int_1
               OpStore %p2 %int_1
         %x1 = OpLoad %int %p1
         %x2 = OpLoad %int %p2
          %s = OpIAdd %int %x1 %x2
          %f = OpConvertSToF %float %s
               OpStore %out %f
               OpReturn
               OpFunctionEnd
)"));
  ASSERT_TRUE(P.Plan) << P.Error;
  EXPECT_TRUE(P.Plan->DynamicallyIndexed.count(P.id("dyn")));
  EXPECT_FALSE(P.Plan->DynamicallyIndexed.count(P.id("fixed")));
  EXPECT_FALSE(P.Plan->NeedsHelpers);
}

const char *const Callees = R"(
%fn_int_ptr = OpTypeFunction %void %int %ptr_Function_arr4 %ptr_Function_arr4
    %callee = OpFunction %void None %fn_int_ptr
         %pv = OpFunctionParameter %int
       %preg = OpFunctionParameter %ptr_Function_arr4
       %pmem = OpFunctionParameter %ptr_Function_arr4
         %ce = OpLabel
         %q1 = OpAccessChain %ptr_Function_int %preg %int_1
               OpStore %q1 %pv
         %q2 = OpAccessChain %ptr_Function_int %pmem %pv
               OpStore %q2 %pv
               OpReturn
               OpFunctionEnd
     %killer = OpFunction %void None %voidfn
         %ke = OpLabel
               OpKill
               OpFunctionEnd
)";

TEST(EmissionPlan, CallAbisKillsAndArgumentsInMemory) {
  Planned P = plan(fragment(R"(
               OpName %callee "callee"
               OpName %killer "killer"
               OpName %reg "reg"
               OpName %mem "mem"
               OpName %pmem "pmem"
)",
                            std::string(Callees) + R"(
       %main = OpFunction %void None %voidfn
      %entry = OpLabel
        %reg = OpVariable %ptr_Function_arr4 Function
        %mem = OpVariable %ptr_Function_arr4 Function
          %v = OpLoad %int %in_v
         %c1 = OpFunctionCall %void %callee %v %reg %mem
         %c2 = OpFunctionCall %void %killer
               OpStore %out %float_1
               OpReturn
               OpFunctionEnd
)"));
  ASSERT_TRUE(P.Plan) << P.Error;
  const EmissionPlan &Plan = *P.Plan;
  ASSERT_EQ(Plan.CalleeOrder.size(), 2u);
  ASSERT_TRUE(Plan.isCallee(P.fn("callee")));
  EXPECT_FALSE(Plan.isCallee(P.fn("main")));
  const FunctionPlan &C = Plan.function(P.fn("callee"));
  // The value travels as values; the constant-indexed pointer as register
  // slots; the dynamically indexed one in lane memory, and so does the
  // variable passed to it.
  EXPECT_EQ(C.Params,
            (std::vector<ParamAbi>{ParamAbi::Value, ParamAbi::RegisterPointer,
                                   ParamAbi::MemoryPointer}));
  EXPECT_TRUE(Plan.MemoryParams.count(P.id("pmem")));
  EXPECT_TRUE(Plan.DynamicallyIndexed.count(P.id("mem")));
  EXPECT_FALSE(Plan.DynamicallyIndexed.count(P.id("reg")));
  // Kills: the killer kills, main calls a killer, the callee neither.
  EXPECT_TRUE(Plan.function(P.fn("killer")).MayKill);
  EXPECT_FALSE(C.MayKill);
  EXPECT_TRUE(P.main().CallsKiller);
  EXPECT_FALSE(C.CallsKiller);
}

TEST(EmissionPlan, RecursionIsAnError) {
  Planned Recursive = plan(fragment(R"(
               OpName %self "self"
)",
                                    R"(
       %self = OpFunction %void None %voidfn
         %se = OpLabel
         %sc = OpFunctionCall %void %self
               OpReturn
               OpFunctionEnd
       %main = OpFunction %void None %voidfn
      %entry = OpLabel
          %c = OpFunctionCall %void %self
               OpStore %out %float_1
               OpReturn
               OpFunctionEnd
)"));
  EXPECT_FALSE(Recursive.Plan);
  EXPECT_NE(Recursive.Error.find("self is called recursively"),
            std::string::npos)
      << Recursive.Error;
}

TEST(EmissionPlan, HelperLanesOnlyForQuadDependentFragmentShaders) {
  auto Module = [](const char *Op) {
    return fragment("", std::string(R"(
       %main = OpFunction %void None %voidfn
      %entry = OpLabel
          %x = OpLoad %float %in_fv
          %d = )") + Op + R"( %float %x
               OpStore %out %d
               OpReturn
               OpFunctionEnd
)");
  };
  Planned Derivative = plan(Module("OpDPdx"));
  ASSERT_TRUE(Derivative.Plan) << Derivative.Error;
  EXPECT_TRUE(Derivative.Plan->NeedsHelpers);
  EXPECT_TRUE(Derivative.Plan->HasDemote);
  Planned Plain = plan(Module("OpFNegate"));
  ASSERT_TRUE(Plain.Plan) << Plain.Error;
  EXPECT_FALSE(Plain.Plan->NeedsHelpers);
  EXPECT_FALSE(Plain.Plan->HasDemote);
}

} // namespace
