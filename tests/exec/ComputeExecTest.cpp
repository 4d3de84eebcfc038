//===- ComputeExecTest.cpp - Compute shaders on the runtime ---------------===//
//
// Compute shaders dispatched through ComputeShader at every width (and
// through the one-invocation back end, "invocation") against C++
// references: consecutive and gathered buffer access, push
// constants, shared-memory reductions with barriers for workgroup sizes
// that are and are not multiples of W, atomics where all lanes hit one
// address, and robust buffer access with far out-of-bounds indices.
// (The differential suite against lavapipe lives in tests/vulkan.)
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>

using namespace spirv2llvm;

namespace {

std::unique_ptr<ComputeShader> compile(const std::string &Source, unsigned W,
                                       bool Robust = false) {
  TranslateOptions Opts;
  // W = 1: the one-invocation back end (one call per invocation).
  if (W == 1)
    Opts.Backend = Backend::Invocation;
  else
    Opts.Width = W;
  Opts.RobustBufferAccess = Robust;
  std::string Error;
  auto S = spirv2llvm::exectest::compileCompute(Source, Opts, Error);
  if (!S)
    ADD_FAILURE() << Error;
  return S;
}

class ComputeExec : public testing::TestWithParam<unsigned> {};

TEST_P(ComputeExec, SaxpyWithPushConstants) {
  auto S = compile(R"(#version 450
    layout(local_size_x = 64) in;
    layout(set = 0, binding = 0) buffer X { float x[]; };
    layout(set = 0, binding = 1) buffer Y { float y[]; };
    layout(push_constant) uniform P { float a; uint n; };
    void main() {
      uint i = gl_GlobalInvocationID.x;
      if (i < n) y[i] = a * x[i] + y[i];
    })",
                   GetParam());
  ASSERT_TRUE(S);
  const uint32_t N = 1000; // not a multiple of 64: the last group is partial
  std::vector<float> X(1024), Y(1024);
  for (uint32_t I = 0; I < 1024; ++I) {
    X[I] = float(I) * 0.5f;
    Y[I] = float(1024 - I);
  }
  std::vector<float> Want = Y;
  for (uint32_t I = 0; I < N; ++I)
    Want[I] = 3.0f * X[I] + Y[I];
  DispatchResources R;
  R.bind(0, 0, X.data(), X.size() * 4);
  R.bind(0, 1, Y.data(), Y.size() * 4);
  float A = 3.0f;
  R.PushConstants.resize(8);
  std::memcpy(R.PushConstants.data(), &A, 4);
  std::memcpy(R.PushConstants.data() + 4, &N, 4);
  ASSERT_TRUE(S->dispatch({16, 1, 1}, R).ok());
  for (uint32_t I = 0; I < 1024; ++I)
    ASSERT_EQ(Y[I], Want[I]) << "index " << I;
}

TEST_P(ComputeExec, GatherAndScatterThroughIndexBuffer) {
  auto S = compile(R"(#version 450
    layout(local_size_x = 8, local_size_y = 4) in;
    layout(std430, binding = 0) buffer Idx { uint idx[]; };
    layout(std430, binding = 1) buffer Src { ivec2 src[]; };
    layout(std430, binding = 2) buffer Dst { int dst[]; };
    void main() {
      uint i = gl_LocalInvocationIndex + 32u * gl_WorkGroupID.x;
      ivec2 v = src[idx[i]];
      dst[idx[i]] = v.x * 10 + v.y + int(gl_LocalInvocationID.y);
    })",
                   GetParam());
  ASSERT_TRUE(S);
  const uint32_t N = 128;
  std::vector<uint32_t> Idx(N);
  for (uint32_t I = 0; I < N; ++I)
    Idx[I] = (I * 37 + 5) % N; // a permutation
  std::vector<int32_t> Src(2 * N), Dst(N, -1);
  for (uint32_t I = 0; I < 2 * N; ++I)
    Src[I] = int32_t(I * 3 - 100);
  DispatchResources R;
  R.bind(0, 0, Idx.data(), N * 4);
  R.bind(0, 1, Src.data(), 2 * N * 4);
  R.bind(0, 2, Dst.data(), N * 4);
  ASSERT_TRUE(S->dispatch({N / 32, 1, 1}, R).ok());
  for (uint32_t I = 0; I < N; ++I) {
    uint32_t J = Idx[I];
    int32_t LocalY = int32_t((I % 32) / 8);
    EXPECT_EQ(Dst[J], Src[2 * J] * 10 + Src[2 * J + 1] + LocalY) << I;
  }
}

TEST_P(ComputeExec, AtomicsOnOneAddressReturnDistinctValues) {
  auto S = compile(R"(#version 450
    layout(local_size_x = 50) in;
    layout(std430, binding = 0) buffer C { uint counter; uint maxv; int minv; uint bits; };
    layout(std430, binding = 1) buffer T { uint ticket[]; };
    void main() {
      uint g = gl_GlobalInvocationID.x;
      ticket[g] = atomicAdd(counter, 1u);
      atomicMax(maxv, g * 7u);
      atomicMin(minv, -int(g));
      atomicOr(bits, 1u << (g % 32u));
    })",
                   GetParam());
  ASSERT_TRUE(S);
  const uint32_t N = 50 * 7;
  uint32_t C[4] = {0, 0, 0, 0};
  std::vector<uint32_t> Tickets(N, ~0u);
  DispatchResources R;
  R.bind(0, 0, C, sizeof C);
  R.bind(0, 1, Tickets.data(), N * 4);
  ASSERT_TRUE(S->dispatch({7, 1, 1}, R, /*Threads=*/2).ok());
  EXPECT_EQ(C[0], N);
  EXPECT_EQ(C[1], (N - 1) * 7);
  EXPECT_EQ(int32_t(C[2]), -int32_t(N - 1));
  EXPECT_EQ(C[3], ~0u);
  std::vector<uint32_t> Sorted = Tickets;
  std::sort(Sorted.begin(), Sorted.end());
  for (uint32_t I = 0; I < N; ++I)
    ASSERT_EQ(Sorted[I], I) << "tickets are not a permutation";
}

class ReductionExec
    : public testing::TestWithParam<std::tuple<unsigned, uint32_t>> {};

/// Tree reduction and Hillis-Steele scan in shared memory, with barriers
/// inside a uniform loop.
std::string reductionShader(uint32_t Size) {
  return "#version 450\nlayout(local_size_x = " + std::to_string(Size) +
         R"() in;
    layout(std430, binding = 0) buffer In { uint data[]; };
    layout(std430, binding = 1) buffer Sums { uint sums[]; };
    layout(std430, binding = 2) buffer Prefix { uint prefix[]; };
    shared uint tmp[gl_WorkGroupSize.x];
    shared uint scan[gl_WorkGroupSize.x];
    void main() {
      uint l = gl_LocalInvocationID.x;
      uint v = data[gl_GlobalInvocationID.x];
      tmp[l] = v;
      scan[l] = v;
      barrier();
      for (uint s = 1u; s < gl_WorkGroupSize.x; s *= 2u) {
        uint other = (l % (2u * s) == 0u && l + s < gl_WorkGroupSize.x) ? tmp[l + s] : 0u;
        uint before = l >= s ? scan[l - s] : 0u;
        barrier();
        tmp[l] += other;
        scan[l] += before;
        barrier();
      }
      if (l == 0u) sums[gl_WorkGroupID.x] = tmp[0];
      prefix[gl_GlobalInvocationID.x] = scan[l];
    })";
}

TEST_P(ReductionExec, ReductionAndInclusiveScan) {
  auto [W, Size] = GetParam();
  auto S = compile(reductionShader(Size), W);
  ASSERT_TRUE(S);
  EXPECT_TRUE(S->info().HasBarriers);
  const uint32_t Groups = 3;
  std::vector<uint32_t> Data(Groups * Size);
  for (uint32_t I = 0; I < Data.size(); ++I)
    Data[I] = (I * 2654435761u) >> 20;
  std::vector<uint32_t> Sums(Groups, 0), Prefix(Groups * Size, 0);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  R.bind(0, 1, Sums.data(), Sums.size() * 4);
  R.bind(0, 2, Prefix.data(), Prefix.size() * 4);
  ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R).ok());
  for (uint32_t G = 0; G < Groups; ++G) {
    uint32_t Acc = 0;
    for (uint32_t L = 0; L < Size; ++L) {
      Acc += Data[G * Size + L];
      ASSERT_EQ(Prefix[G * Size + L], Acc) << "group " << G << " lane " << L;
    }
    EXPECT_EQ(Sums[G], Acc) << "group " << G;
  }
}

TEST_P(ComputeExec, RobustAccessKeepsMemoryOutsideBuffersIntact) {
  auto S = compile(R"(#version 450
    layout(local_size_x = 16) in;
    layout(std430, binding = 0) buffer Buf { int data[]; };
    layout(std430, binding = 1) buffer Res { int loaded[]; };
    layout(push_constant) uniform P { int far; };
    void main() {
      int i = int(gl_GlobalInvocationID.x);
      // Negative, huge and varying indices, in loads, stores and atomics.
      int idx = (i % 4 == 0) ? -i - 1 : (i % 4 == 1) ? far + i : (i % 4 == 2) ? i : 1000000 * i;
      loaded[i] = data[idx];
      data[idx] = 7;
      atomicAdd(data[idx + 1], 1);
      data[far] = 99;
    })",
                   GetParam(), /*Robust=*/true);
  ASSERT_TRUE(S);
  // The buffer sits between two guard regions that must stay untouched.
  const uint32_t N = 16;
  std::vector<int32_t> Memory(3 * N, 0x11111111);
  int32_t *Data = Memory.data() + N;
  for (uint32_t I = 0; I < N; ++I)
    Data[I] = int32_t(I);
  std::vector<int32_t> Loaded(N, -5);
  DispatchResources R;
  R.bind(0, 0, Data, N * 4);
  R.bind(0, 1, Loaded.data(), N * 4);
  int32_t Far = 1 << 28;
  R.PushConstants.resize(4);
  std::memcpy(R.PushConstants.data(), &Far, 4);
  ASSERT_TRUE(S->dispatch({1, 1, 1}, R).ok());
  for (uint32_t I = 0; I < N; ++I) {
    EXPECT_EQ(Memory[I], 0x11111111) << "guard before, word " << I;
    EXPECT_EQ(Memory[2 * N + I], 0x11111111) << "guard after, word " << I;
  }
  for (uint32_t I = 0; I < N; ++I) {
    bool InRange = I % 4 == 2 || (I == 0 && false);
    if (InRange)
      EXPECT_EQ(Loaded[I], int32_t(I));
    else
      EXPECT_EQ(Loaded[I], 0) << "out-of-bounds load of lane " << I;
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, ComputeExec,
                         testing::Values(4u, 8u, 16u, 1u),
                         [](const auto &I) {
                           return I.param == 1 ? std::string("invocation")
                                               : "w" + std::to_string(I.param);
                         });

INSTANTIATE_TEST_SUITE_P(
    Sizes, ReductionExec,
    testing::Combine(testing::Values(4u, 8u, 16u),
                     testing::Values(1u, 3u, 64u, 256u, 1024u)),
    [](const auto &I) {
      return "w" + std::to_string(std::get<0>(I.param)) + "_size" +
             std::to_string(std::get<1>(I.param));
    });

} // namespace
