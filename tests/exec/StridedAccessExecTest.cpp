//===- StridedAccessExecTest.cpp - Wide and uniform buffer accesses -------===//
//
// Two access forms the SIMD back end uses instead of gathers and scatters
// (docs/performance.md):
//  - a whole vector or struct per lane, lanes' values consecutive
//    (dst[i] = vec4(..)): one wide masked access plus a shuffle
//    (EmitInterleaved.cpp). Checked against C++ with partial groups (lanes
//    past n must not touch memory), padding between components that must
//    stay untouched, bool vectors, and robust buffer access cutting the last
//    element in the middle (per-component bounds);
//  - offsets the same in every lane (row * n with a pushed n, a splat
//    crossing blocks): one element. Checked with a tiled matrix multiply.
// Each also checks that the IR has no gather or scatter left.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

const char *VectorsShader = R"(#version 450
  layout(local_size_x = 32) in;
  struct Padded { vec3 v; };                 // array stride 16: 4 bytes pad
  layout(set = 0, binding = 0) buffer In { vec4 src[]; };
  layout(set = 0, binding = 1) buffer Out { vec4 dst[]; };
  layout(set = 0, binding = 2) buffer Pad { Padded pad[]; };
  layout(set = 0, binding = 3) buffer Flags { bvec2 flags[]; };
  layout(push_constant) uniform P { uint n; };
  void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    vec4 v = src[i];
    dst[i] = v.wzyx * 2.0 + vec4(float(i));
    pad[i].v = pad[i].v + v.xyz;
    bvec2 f = flags[i];
    flags[i] = bvec2(!f.y, f.x != (v.x > 0.0));
  })";

std::string irOf(const char *Shader, unsigned W) {
  TranslateOptions Opts;
  Opts.Width = W;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Shader),
                              std::strlen(Shader)),
      "shader.comp", Opts);
  EXPECT_TRUE(bool(T));
  if (!T) {
    llvm::consumeError(T.takeError());
    return "";
  }
  std::string Ir;
  llvm::raw_string_ostream OS(Ir);
  T->IR->print(OS, nullptr);
  return Ir;
}

size_t count(const std::string &S, const std::string &What) {
  size_t N = 0;
  for (size_t P = S.find(What); P != std::string::npos;
       P = S.find(What, P + 1))
    ++N;
  return N;
}

class StridedAccess
    : public testing::TestWithParam<std::tuple<unsigned, bool>> {};

TEST_P(StridedAccess, VectorsPerLaneMatchReference) {
  auto [W, Robust] = GetParam();
  TranslateOptions Opts;
  Opts.Width = W;
  Opts.RobustBufferAccess = Robust;
  std::string Error;
  auto S = exectest::compileCompute(VectorsShader, Opts, Error);
  ASSERT_TRUE(S) << Error;
  const uint32_t Groups = 3, Size = Groups * 32, N = Size - 7;
  const float Sentinel = -12345.0f;
  std::vector<float> Src(4 * Size), Dst(4 * Size, Sentinel),
      Pad(4 * Size, Sentinel);
  std::vector<uint32_t> Flags(2 * Size);
  for (uint32_t I = 0; I < 4 * Size; ++I)
    Src[I] = float(int(I * 37 % 101) - 50) * 0.25f;
  for (uint32_t I = 0; I < Size; ++I) {
    Pad[4 * I] = float(I);
    Pad[4 * I + 1] = 1.0f;
    Pad[4 * I + 2] = -float(I);
    Flags[2 * I] = I % 3 == 0;
    Flags[2 * I + 1] = I % 5 == 0;
  }
  std::vector<float> WantDst = Dst, WantPad = Pad;
  std::vector<uint32_t> WantFlags = Flags;
  // With robust access, src and dst end in the middle of element N - 2:
  // its components 2 and 3 read as zero and are not written.
  uint32_t CutElem = N - 2;
  size_t SrcBytes = Robust ? (4 * CutElem + 2) * 4 : Src.size() * 4;
  size_t DstBytes = Robust ? (4 * CutElem + 2) * 4 : Dst.size() * 4;
  for (uint32_t I = 0; I < N; ++I) {
    float V[4];
    for (int K = 0; K < 4; ++K)
      V[K] = 4 * I + K < SrcBytes / 4 ? Src[4 * I + K] : 0.0f;
    for (int K = 0; K < 4; ++K)
      if (4 * I + K < DstBytes / 4)
        WantDst[4 * I + K] = V[3 - K] * 2.0f + float(I);
    for (int K = 0; K < 3; ++K)
      WantPad[4 * I + K] += V[K];
    bool X = Flags[2 * I], Y = Flags[2 * I + 1];
    WantFlags[2 * I] = !Y;
    WantFlags[2 * I + 1] = X != (V[0] > 0.0f);
  }
  DispatchResources R;
  R.bind(0, 0, Src.data(), SrcBytes);
  R.bind(0, 1, Dst.data(), DstBytes);
  R.bind(0, 2, Pad.data(), Pad.size() * 4);
  R.bind(0, 3, Flags.data(), Flags.size() * 4);
  R.PushConstants.resize(4);
  std::memcpy(R.PushConstants.data(), &N, 4);
  ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R).ok());
  for (uint32_t I = 0; I < 4 * Size; ++I) {
    ASSERT_EQ(Dst[I], WantDst[I]) << "dst float " << I;
    ASSERT_EQ(Pad[I], WantPad[I]) << "pad float " << I;
  }
  for (uint32_t I = 0; I < 2 * Size; ++I)
    ASSERT_EQ(Flags[I], WantFlags[I]) << "flags " << I;
}

INSTANTIATE_TEST_SUITE_P(Widths, StridedAccess,
                         testing::Combine(testing::Values(4u, 8u, 16u),
                                          testing::Bool()));

TEST(StridedAccessIr, VectorsPerLaneAreWideAccesses) {
  std::string Ir = irOf(VectorsShader, 16);
  EXPECT_EQ(count(Ir, "@llvm.masked.gather"), 0u) << Ir;
  EXPECT_EQ(count(Ir, "@llvm.masked.scatter"), 0u) << Ir;
  // src, dst and pad: 64 floats per access; flags: 32 words.
  EXPECT_GE(count(Ir, "call <64 x float> @llvm.masked.load.v64f32"), 2u);
  EXPECT_GE(count(Ir, "call void @llvm.masked.store.v64f32"), 2u);
  EXPECT_EQ(count(Ir, "call <32 x i32> @llvm.masked.load.v32i32"), 1u);
  EXPECT_EQ(count(Ir, "call void @llvm.masked.store.v32i32"), 1u);
}

const char *MatmulShader = R"(#version 450
  layout(local_size_x = 16, local_size_y = 16) in;
  layout(set = 0, binding = 0) readonly buffer A { float a[]; };
  layout(set = 0, binding = 1) readonly buffer B { float b[]; };
  layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
  layout(push_constant) uniform P { uint n; };
  shared float tileA[16][16];
  shared float tileB[16][16];
  void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint row = gl_WorkGroupID.y * 16u + ty;
    uint col = gl_WorkGroupID.x * 16u + tx;
    float sum = 0.0;
    for (uint t = 0u; t < n; t += 16u) {
      tileA[ty][tx] = a[row * n + t + tx];
      tileB[ty][tx] = b[(t + ty) * n + col];
      barrier();
      for (uint k = 0u; k < 16u; ++k)
        sum += tileA[ty][k] * tileB[k][tx];
      barrier();
    }
    c[row * n + col] = sum;
  })";

class UniformOffsets : public testing::TestWithParam<unsigned> {};

TEST_P(UniformOffsets, TiledMatmulMatchesReference) {
  TranslateOptions Opts;
  Opts.Width = GetParam();
  std::string Error;
  auto S = exectest::compileCompute(MatmulShader, Opts, Error);
  ASSERT_TRUE(S) << Error;
  const uint32_t N = 48;
  std::vector<float> A(N * N), Bm(N * N), C(N * N, -1.0f);
  for (uint32_t I = 0; I < N * N; ++I) {
    A[I] = float(int(I * 7 % 13) - 6); // small integers: exact sums
    Bm[I] = float(int(I * 5 % 11) - 5);
  }
  DispatchResources R;
  R.bind(0, 0, A.data(), A.size() * 4);
  R.bind(0, 1, Bm.data(), Bm.size() * 4);
  R.bind(0, 2, C.data(), C.size() * 4);
  R.PushConstants.resize(4);
  std::memcpy(R.PushConstants.data(), &N, 4);
  ASSERT_TRUE(S->dispatch({N / 16, N / 16, 1}, R).ok());
  for (uint32_t Row = 0; Row < N; ++Row)
    for (uint32_t Col = 0; Col < N; ++Col) {
      float Want = 0;
      for (uint32_t K = 0; K < N; ++K)
        Want += A[Row * N + K] * Bm[K * N + Col];
      ASSERT_EQ(C[Row * N + Col], Want) << "c[" << Row << "][" << Col << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(Widths, UniformOffsets, testing::Values(4u, 8u, 16u));

TEST(UniformOffsetsIr, TiledMatmulHasNoGathers) {
  // W = 16 divides local_size_x: tx is base + lane, ty the same in every
  // lane, so every buffer and tile access is a vector or one element.
  std::string Ir = irOf(MatmulShader, 16);
  EXPECT_EQ(count(Ir, "@llvm.masked.gather"), 0u) << Ir;
  EXPECT_EQ(count(Ir, "@llvm.masked.scatter"), 0u) << Ir;
  EXPECT_GE(count(Ir, "@llvm.masked.load.v1f32"), 1u);
}

} // namespace
