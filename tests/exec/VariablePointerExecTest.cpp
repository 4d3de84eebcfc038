//===- VariablePointerExecTest.cpp - OpSelect of pointers through the JIT -===//
//
// Variable pointers (VariablePointers): OpSelect between StorageBuffer
// pointers into two different buffers, by a per-lane and by a uniform
// condition, with loads, stores, atomics and access chains through the
// result; robust access against the buffer each lane picked (the two have
// different sizes); and OpSelect between two Workgroup arrays. At W = 4, 8
// and 16 and in the one-invocation back end (W = 1), against references
// worked out here.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include <gtest/gtest.h>

#include <vector>

using namespace spirv2llvm;

namespace {

const char *Source = R"(
               OpCapability Shader
               OpCapability VariablePointers
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %lid %a %b %sel %out %wga %wgb
               OpExecutionMode %main LocalSize 16 1 1
               OpDecorate %lid BuiltIn LocalInvocationIndex
               OpDecorate %rta ArrayStride 4
               OpMemberDecorate %blk 0 Offset 0
               OpDecorate %blk Block
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 0
               OpDecorate %b DescriptorSet 0
               OpDecorate %b Binding 1
               OpDecorate %sel DescriptorSet 0
               OpDecorate %sel Binding 2
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 3
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
    %uint_15 = OpConstant %uint 15
    %uint_16 = OpConstant %uint 16
    %uint_32 = OpConstant %uint 32
    %uint_40 = OpConstant %uint 40
   %uint_100 = OpConstant %uint 100
   %uint_264 = OpConstant %uint 264
   %uint_300 = OpConstant %uint 300
   %uint_400 = OpConstant %uint 400
        %rta = OpTypeRuntimeArray %uint
        %blk = OpTypeStruct %rta
    %ptr_blk = OpTypePointer StorageBuffer %blk
   %ptr_uint = OpTypePointer StorageBuffer %uint
%ptr_in_uint = OpTypePointer Input %uint
      %arr16 = OpTypeArray %uint %uint_16
     %ptr_wg = OpTypePointer Workgroup %arr16
%ptr_wg_uint = OpTypePointer Workgroup %uint
          %a = OpVariable %ptr_blk StorageBuffer
          %b = OpVariable %ptr_blk StorageBuffer
        %sel = OpVariable %ptr_blk StorageBuffer
        %out = OpVariable %ptr_blk StorageBuffer
        %wga = OpVariable %ptr_wg Workgroup
        %wgb = OpVariable %ptr_wg Workgroup
        %lid = OpVariable %ptr_in_uint Input
         %fn = OpTypeFunction %void
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %i = OpLoad %uint %lid
    %sel_ptr = OpAccessChain %ptr_uint %sel %uint_0 %i
          %s = OpLoad %uint %sel_ptr
   %per_lane = OpINotEqual %bool %s %uint_0
    %uni_ptr = OpAccessChain %ptr_uint %sel %uint_0 %uint_16
         %us = OpLoad %uint %uni_ptr
    %uniform = OpINotEqual %bool %us %uint_0
; Element pointers into a and b, selected per lane: out[i] = a[i] or b[i].
         %pa = OpAccessChain %ptr_uint %a %uint_0 %i
         %pb = OpAccessChain %ptr_uint %b %uint_0 %i
         %p1 = OpSelect %ptr_uint %per_lane %pa %pb
         %v1 = OpLoad %uint %p1
         %o1 = OpAccessChain %ptr_uint %out %uint_0 %i
               OpStore %o1 %v1
; Whole blocks selected per lane, then indexed: store i + 100 at 16 + i.
          %q = OpSelect %ptr_blk %per_lane %a %b
        %i16 = OpIAdd %uint %i %uint_16
         %qi = OpAccessChain %ptr_uint %q %uint_0 %i16
       %i100 = OpIAdd %uint %i %uint_100
               OpStore %qi %i100
; Robust access: element 40 + i exists in a (48 elements) for i < 8 and
; never in b (40 elements): out[32 + i].
        %i40 = OpIAdd %uint %i %uint_40
         %qr = OpAccessChain %ptr_uint %q %uint_0 %i40
         %vr = OpLoad %uint %qr
        %i32 = OpIAdd %uint %i %uint_32
         %o3 = OpAccessChain %ptr_uint %out %uint_0 %i32
               OpStore %o3 %vr
; A uniform select: every invocation adds 1 to element 32 of one buffer.
          %u = OpSelect %ptr_blk %uniform %a %b
        %u32 = OpAccessChain %ptr_uint %u %uint_0 %uint_32
        %old = OpAtomicIAdd %uint %u32 %uint_1 %uint_0 %uint_1
; Workgroup arrays: wga[i] = 300 + i, wgb[i] = 400 + i; after the barrier
; out[16 + i] = (sel ? wga : wgb)[15 - i].
        %wai = OpAccessChain %ptr_wg_uint %wga %i
       %i300 = OpIAdd %uint %i %uint_300
               OpStore %wai %i300
        %wbi = OpAccessChain %ptr_wg_uint %wgb %i
       %i400 = OpIAdd %uint %i %uint_400
               OpStore %wbi %i400
               OpControlBarrier %uint_2 %uint_2 %uint_264
          %w = OpSelect %ptr_wg %per_lane %wga %wgb
        %rev = OpISub %uint %uint_15 %i
         %wr = OpAccessChain %ptr_wg_uint %w %rev
         %vw = OpLoad %uint %wr
         %o2 = OpAccessChain %ptr_uint %out %uint_0 %i16
               OpStore %o2 %vw
               OpReturn
               OpFunctionEnd
)";

struct VariablePointerExec : testing::TestWithParam<unsigned> {};

TEST_P(VariablePointerExec, SelectBufferAndWorkgroupPointers) {
  unsigned W = GetParam();
  for (uint32_t Uniform : {0u, 1u}) {
    SCOPED_TRACE("uniform condition " + std::to_string(Uniform));
    TranslateOptions Opts;
    if (W == 1)
      Opts.Backend = Backend::Invocation;
    else
      Opts.Width = W;
    Opts.RobustBufferAccess = true;
    std::string Error;
    auto S = exectest::compileCompute(Source, Opts, Error, "test.spvasm");
    ASSERT_TRUE(S) << Error;
    std::vector<uint32_t> A(48), Bv(40), Sel(17), Out(48, 0xdeadbeef);
    for (uint32_t K = 0; K < A.size(); ++K)
      A[K] = 1000 + K;
    for (uint32_t K = 0; K < Bv.size(); ++K)
      Bv[K] = 2000 + K;
    for (uint32_t K = 0; K < 16; ++K)
      Sel[K] = K % 3 == 0 ? 1 : 0;
    Sel[16] = Uniform;
    DispatchResources R;
    R.bind(0, 0, A.data(), A.size() * 4);
    R.bind(0, 1, Bv.data(), Bv.size() * 4);
    R.bind(0, 2, Sel.data(), Sel.size() * 4);
    R.bind(0, 3, Out.data(), Out.size() * 4);
    Status St = S->dispatch({1, 1, 1}, R, 1);
    ASSERT_TRUE(St.ok()) << St.message();

    std::vector<uint32_t> WantA(48), WantB(40);
    for (uint32_t K = 0; K < 48; ++K)
      WantA[K] = 1000 + K;
    for (uint32_t K = 0; K < 40; ++K)
      WantB[K] = 2000 + K;
    for (uint32_t I = 0; I < 16; ++I) {
      bool PickA = Sel[I] != 0;
      EXPECT_EQ(Out[I], PickA ? 1000 + I : 2000 + I) << "out[" << I << "]";
      (PickA ? WantA : WantB)[16 + I] = I + 100;
      uint32_t Robust = PickA && 40 + I < 48 ? 1040 + I : 0;
      EXPECT_EQ(Out[32 + I], Robust) << "out[" << 32 + I << "]";
      uint32_t Rev = 15 - I;
      EXPECT_EQ(Out[16 + I], PickA ? 300 + Rev : 400 + Rev)
          << "out[" << 16 + I << "]";
    }
    (Uniform ? WantA : WantB)[32] += 16;
    EXPECT_EQ(A, WantA);
    EXPECT_EQ(Bv, WantB);
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, VariablePointerExec,
                         testing::Values(1u, 4u, 8u, 16u),
                         [](const testing::TestParamInfo<unsigned> &I) {
                           return "W" + std::to_string(I.param);
                         });

} // namespace
