//===- LaneShapeTest.cpp - Uniform / affine / varying lanes ---------------===//
//
// One or more tests per rule of src/uniformity/LaneShape.h on tiny compute
// modules in SPIR-V assembly (numeric ids are kept by the assembler). Each
// affine expectation has a varying one next to it for the same shape of
// code, so that a rule that claims too much fails. On failure the analysis
// is printed as --print-uniformity prints it.
//
//===----------------------------------------------------------------------===//
#include "uniformity/LaneShape.h"
#include "cfg/FunctionAnalysis.h"
#include "frontend/Frontend.h"
#include "parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace spirv2llvm {
static void PrintTo(const LaneShape &S, std::ostream *OS) {
  *OS << laneShapeName(S);
}
} // namespace spirv2llvm

using namespace spirv2llvm;

namespace {

const LaneShape Uni = LaneShape::uniform();
const LaneShape Var = LaneShape::varying();
LaneShape affine(int64_t S) { return LaneShape::affine(S); }

/// A compute module of local size \p LocalSize with the built-ins %gid
/// (GlobalInvocationId), %lid (LocalInvocationId), %lidx
/// (LocalInvocationIndex), a storage buffer %buf of uints and \p Body as
/// %main's body.
std::string computeModule(llvm::StringRef LocalSize, llvm::StringRef Body) {
  return (R"(
               OpCapability Shader
               OpCapability Int64
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %lid %lidx %buf
               OpExecutionMode %main LocalSize )" +
          LocalSize + R"(
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %lid BuiltIn LocalInvocationId
               OpDecorate %lidx BuiltIn LocalInvocationIndex
               OpDecorate %Buf Block
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %rt ArrayStride 4
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %v2uint = OpTypeVector %uint 2
     %v3uint = OpTypeVector %uint 3
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_4 = OpConstant %uint 4
    %uint_40 = OpConstant %uint 40
    %v2_2_4 = OpConstantComposite %v2uint %uint_2 %uint_4
         %rt = OpTypeRuntimeArray %uint
        %Buf = OpTypeStruct %rt
    %ptr_buf = OpTypePointer StorageBuffer %Buf
      %ptr_u = OpTypePointer StorageBuffer %uint
  %ptr_in_v3 = OpTypePointer Input %v3uint
   %ptr_in_u = OpTypePointer Input %uint
        %gid = OpVariable %ptr_in_v3 Input
        %lid = OpVariable %ptr_in_v3 Input
       %lidx = OpVariable %ptr_in_u Input
        %buf = OpVariable %ptr_buf StorageBuffer
       %main = OpFunction %void None %fn
)" + Body + R"(
               OpFunctionEnd
)")
      .str();
}

class LaneShapeTest : public ::testing::Test {
protected:
  /// Parses and analyzes \p Text at width \p Width.
  bool run(llvm::StringRef Text, unsigned Width = 8) {
    auto Words = frontend::assembleSpirv(Text, SPV_ENV_UNIVERSAL_1_6);
    if (!Words) {
      ADD_FAILURE() << llvm::toString(Words.takeError()) << "\n" << Text.str();
      return false;
    }
    auto Parsed = parseModule(*Words);
    if (!Parsed) {
      ADD_FAILURE() << llvm::toString(Parsed.takeError());
      return false;
    }
    M = std::move(*Parsed);
    auto Analyzed = cfg::analyzeModule(*M);
    if (!Analyzed) {
      ADD_FAILURE() << llvm::toString(Analyzed.takeError());
      return false;
    }
    MA = std::move(*Analyzed);
    UI = computeUniformity(*M, M->EntryPoints[0], MA);
    Lanes = computeLaneShapes(*M, M->EntryPoints[0], MA, UI,
                              LaneShapeOptions{Width});
    return true;
  }
  LaneShape shape(uint32_t Id, unsigned Comp = 0) const {
    return Lanes.shape(Id, Comp);
  }
  void TearDown() override {
    if (HasFailure() && M) {
      std::string S;
      llvm::raw_string_ostream OS(S);
      printUniformity(*M, MA, UI, OS, &Lanes);
      llvm::errs() << S;
    }
  }
  std::unique_ptr<Module> M;
  cfg::ModuleAnalysis MA;
  UniformityInfo UI;
  LaneShapeInfo Lanes;
};

const char *const BuiltInBody = R"(
        %100 = OpLabel
        %101 = OpLoad %v3uint %gid
        %102 = OpCompositeExtract %uint %101 0
        %103 = OpCompositeExtract %uint %101 1
        %104 = OpLoad %v3uint %lid
        %105 = OpCompositeExtract %uint %104 0
        %106 = OpLoad %uint %lidx
        %107 = OpAccessChain %ptr_in_u %gid %uint_0
        %108 = OpLoad %uint %107
        %109 = OpAccessChain %ptr_in_u %gid %uint_2
        %110 = OpLoad %uint %109
               OpReturn
)";

// x steps by one in a group only when the workgroup's rows hold whole
// groups; the linear index always does.
TEST_F(LaneShapeTest, BuiltInsFollowTheRuntimesLaneNumbering) {
  ASSERT_TRUE(run(computeModule("16 4 1", BuiltInBody), 8));
  EXPECT_EQ(shape(101, 0), affine(1));
  EXPECT_EQ(shape(101, 1), Uni);
  EXPECT_EQ(shape(101, 2), Uni);
  EXPECT_EQ(shape(102), affine(1));
  EXPECT_EQ(shape(103), Uni);
  EXPECT_EQ(shape(105), affine(1));
  EXPECT_EQ(shape(106), affine(1));
  EXPECT_EQ(shape(108), affine(1)) << "through an access chain";
  EXPECT_EQ(shape(110), Uni);
}

TEST_F(LaneShapeTest, RowsThatSplitAGroupMakeIdsVarying) {
  ASSERT_TRUE(run(computeModule("12 4 1", BuiltInBody), 8));
  EXPECT_EQ(shape(101, 0), Var);
  EXPECT_EQ(shape(101, 1), Var);
  EXPECT_EQ(shape(102), Var);
  EXPECT_EQ(shape(103), Var);
  EXPECT_EQ(shape(105), Var);
  EXPECT_EQ(shape(108), Var);
  EXPECT_EQ(shape(106), affine(1)) << "the linear index is always affine";
  // The same module at a width that divides the rows.
  ASSERT_TRUE(run(computeModule("12 4 1", BuiltInBody), 4));
  EXPECT_EQ(shape(102), affine(1));
  EXPECT_EQ(shape(103), Uni);
}

TEST_F(LaneShapeTest, ArithmeticCombinesStrides) {
  ASSERT_TRUE(run(computeModule("64 1 1", R"(
        %100 = OpLabel
        %101 = OpLoad %uint %lidx
        %102 = OpIMul %uint %101 %uint_4
        %103 = OpIMul %uint %uint_40 %101
        %104 = OpIAdd %uint %102 %103
        %105 = OpISub %uint %102 %101
        %106 = OpISub %uint %101 %101
        %107 = OpShiftLeftLogical %uint %101 %uint_2
        %108 = OpSNegate %uint %101
        %109 = OpNot %uint %101
        %110 = OpUConvert %ulong %102
        %111 = OpBitcast %int %102
        %112 = OpIAdd %uint %101 %uint_1
        %113 = OpAccessChain %ptr_u %buf %uint_0 %uint_0
        %114 = OpLoad %uint %113
        %115 = OpIMul %uint %101 %114
        %116 = OpIMul %uint %101 %101
        %117 = OpIAdd %uint %101 %114
        %118 = OpUDiv %uint %101 %uint_2
        %119 = OpCompositeConstruct %v2uint %101 %114
        %120 = OpIMul %v2uint %119 %v2_2_4
        %121 = OpCompositeExtract %uint %120 0
        %122 = OpConvertUToF %float %101
        %123 = OpShiftLeftLogical %uint %101 %114
               OpReturn
)")));
  EXPECT_EQ(shape(102), affine(4));
  EXPECT_EQ(shape(103), affine(40)) << "the constant may come first";
  EXPECT_EQ(shape(104), affine(44));
  EXPECT_EQ(shape(105), affine(3));
  EXPECT_EQ(shape(106), Uni) << "x - x is the same in every lane";
  EXPECT_EQ(shape(107), affine(4));
  EXPECT_EQ(shape(108), affine(-1));
  EXPECT_EQ(shape(109), affine(-1)) << "~x is -x - 1";
  EXPECT_EQ(shape(110), affine(4));
  EXPECT_EQ(shape(111), affine(4));
  EXPECT_EQ(shape(112), affine(1));
  EXPECT_EQ(shape(114), Uni) << "a load at a uniform address";
  EXPECT_EQ(shape(115), Var) << "times a value that is not a constant";
  EXPECT_EQ(shape(116), Var) << "x * x is not affine";
  EXPECT_EQ(shape(117), affine(1)) << "plus a uniform value";
  EXPECT_EQ(shape(118), Var) << "division has no rule";
  EXPECT_EQ(shape(119, 0), affine(1));
  EXPECT_EQ(shape(119, 1), Uni);
  EXPECT_EQ(shape(120, 0), affine(2)) << "component-wise constants";
  EXPECT_EQ(shape(120, 1), Uni);
  EXPECT_EQ(shape(121), affine(2));
  EXPECT_EQ(shape(122), Var) << "floats are not tracked";
  EXPECT_EQ(shape(123), Var) << "shift by a value that is not a constant";
}

// Lanes that took different edges meet in a phi: varying, even though both
// incoming values are affine with one stride.
TEST_F(LaneShapeTest, PhisAreVarying) {
  ASSERT_TRUE(run(computeModule("64 1 1", R"(
        %100 = OpLabel
        %101 = OpLoad %uint %lidx
        %102 = OpULessThan %bool %101 %uint_4
               OpSelectionMerge %104 None
               OpBranchConditional %102 %103 %104
        %103 = OpLabel
        %105 = OpIAdd %uint %101 %uint_4
               OpBranch %104
        %104 = OpLabel
        %106 = OpPhi %uint %101 %100 %105 %103
        %107 = OpIAdd %uint %106 %uint_1
               OpReturn
)")));
  EXPECT_EQ(shape(105), affine(1)) << "computed in every lane of the block";
  EXPECT_EQ(shape(106), Var);
  EXPECT_EQ(shape(107), Var);
}

// A value defined in a divergent loop and used in another block holds, per
// lane, the last iteration that lane ran: varying. In a loop every lane
// leaves together it stays affine.
TEST_F(LaneShapeTest, LiveOutsOfDivergentLoopsAreVarying) {
  auto Loop = [](llvm::StringRef Bound) {
    return (R"(
        %100 = OpLabel
        %101 = OpLoad %uint %lidx
               OpBranch %102
        %102 = OpLabel
        %103 = OpPhi %uint %uint_0 %100 %106 %104
        %105 = OpIAdd %uint %101 %103
        %106 = OpIAdd %uint %103 %uint_1
        %107 = OpULessThan %bool %103 )" +
            Bound + R"(
               OpLoopMerge %108 %104 None
               OpBranchConditional %107 %104 %108
        %104 = OpLabel
               OpBranch %102
        %108 = OpLabel
        %109 = OpIMul %uint %105 %uint_4
               OpReturn
)")
        .str();
  };
  ASSERT_TRUE(run(computeModule("64 1 1", Loop("%101"))));
  ASSERT_TRUE(UI.isDivergentLoop(0, M->Functions[0].BlockIndexOf.at(102)));
  EXPECT_EQ(shape(105), Var);
  EXPECT_EQ(shape(109), Var);
  ASSERT_TRUE(run(computeModule("64 1 1", Loop("%uint_4"))));
  EXPECT_EQ(shape(105), affine(1));
  EXPECT_EQ(shape(109), affine(4));
}

} // namespace
