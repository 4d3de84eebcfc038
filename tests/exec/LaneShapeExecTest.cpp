//===- LaneShapeExecTest.cpp - Values that look affine but are not --------===//
//
// The SIMD back end turns buffer accesses at indices the lane-shape analysis
// (uniformity/LaneShape.h) calls affine into vector loads and stores. A
// wrong "affine" is silent wrong output, so each shader here computes an
// index that looks affine to a careless rule, and checks every element
// against C++, at W = 4, 8 and 16 with a partial last group:
//  - gl_LocalInvocationID.x in a workgroup 12 wide: at W = 8 and 16 a SIMD
//    group wraps into the next row, so x is not base + lane there (at W = 4
//    it is);
//  - a phi joining two affine values of one stride from a divergent branch;
//  - -i, whose stride is -1, not 1 (OpSNegate), and ~i likewise.
// The IR checks show that the analysis does take the vector path where the
// lanes are affine and does not where they are not.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

/// Workgroup 12 x 2: x runs 0..11 per row.
const char *RowsShader = R"(#version 450
  layout(local_size_x = 12, local_size_y = 2) in;
  layout(set = 0, binding = 0) buffer Src { uint src[]; };
  layout(set = 0, binding = 1) buffer Dst { uint dst[]; };
  void main() {
    uint x = gl_LocalInvocationID.x, y = gl_LocalInvocationID.y;
    uint g = gl_WorkGroupID.x * 24u + y * 12u + x;
    dst[g] = src[gl_GlobalInvocationID.x + 12u * gl_GlobalInvocationID.y * 4u]
             * 3u + x;
  })";

/// A phi of i + 1 and i - 1 (swapping neighbours), and negated indices.
const char *JoinShader = R"(#version 450
  layout(local_size_x = 64) in;
  layout(set = 0, binding = 0) buffer Src { uint src[]; };
  layout(set = 0, binding = 1) buffer Dst { uint dst[]; };
  layout(set = 0, binding = 2) buffer Rev { uint rev[]; };
  layout(set = 0, binding = 3) buffer Inv { uint inv[]; };
  layout(push_constant) uniform P { uint n; };
  void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) return;
    uint j;
    if ((i & 1u) == 0u)
      j = i + 1u;
    else
      j = i - 1u;
    dst[j] = src[i] + 7u;
    int k = int(n) + -int(i) - 1;
    rev[k] = src[i];
    inv[~i + n] = i;
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
  for (size_t P = S.find(What); P != std::string::npos; P = S.find(What, P + 1))
    ++N;
  return N;
}

class LaneShapes : public testing::TestWithParam<unsigned> {};

TEST_P(LaneShapes, RowsNarrowerThanAGroupMatchReference) {
  TranslateOptions Opts;
  Opts.Width = GetParam();
  std::string Error;
  auto S = exectest::compileCompute(RowsShader, Opts, Error);
  ASSERT_TRUE(S) << Error;
  const uint32_t Groups = 3, Size = Groups * 24;
  const uint32_t SrcSize = 12 * Groups + 12 * 4 * 2;
  std::vector<uint32_t> Src(SrcSize), Dst(Size, 0xdeadbeef);
  for (uint32_t I = 0; I < SrcSize; ++I)
    Src[I] = I * 2654435761u >> 7;
  std::vector<uint32_t> Want = Dst;
  for (uint32_t G = 0; G < Groups; ++G)
    for (uint32_t Y = 0; Y < 2; ++Y)
      for (uint32_t X = 0; X < 12; ++X) {
        uint32_t Gx = G * 12 + X, Gy = Y;
        Want[G * 24 + Y * 12 + X] = Src[Gx + 12 * Gy * 4] * 3 + X;
      }
  DispatchResources R;
  R.bind(0, 0, Src.data(), Src.size() * 4);
  R.bind(0, 1, Dst.data(), Dst.size() * 4);
  ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R).ok());
  for (uint32_t I = 0; I < Size; ++I)
    ASSERT_EQ(Dst[I], Want[I]) << "dst " << I;
}

TEST_P(LaneShapes, PhisAndNegatedIndicesMatchReference) {
  TranslateOptions Opts;
  Opts.Width = GetParam();
  std::string Error;
  auto S = exectest::compileCompute(JoinShader, Opts, Error);
  ASSERT_TRUE(S) << Error;
  const uint32_t Groups = 2, Size = Groups * 64, N = Size - 6; // even
  std::vector<uint32_t> Src(Size), Dst(Size, 0xdeadbeef), Rev(Size, 0xdeadbeef),
      Inv(Size, 0xdeadbeef);
  for (uint32_t I = 0; I < Size; ++I)
    Src[I] = I * 40503u + 11u;
  std::vector<uint32_t> WantDst = Dst, WantRev = Rev, WantInv = Inv;
  for (uint32_t I = 0; I < N; ++I) {
    WantDst[I ^ 1u] = Src[I] + 7u;
    WantRev[N - 1 - I] = Src[I];
    WantInv[N - 1 - I] = I;
  }
  DispatchResources R;
  R.bind(0, 0, Src.data(), Src.size() * 4);
  R.bind(0, 1, Dst.data(), Dst.size() * 4);
  R.bind(0, 2, Rev.data(), Rev.size() * 4);
  R.bind(0, 3, Inv.data(), Inv.size() * 4);
  R.PushConstants.resize(4);
  std::memcpy(R.PushConstants.data(), &N, 4);
  ASSERT_TRUE(S->dispatch({Groups, 1, 1}, R).ok());
  for (uint32_t I = 0; I < Size; ++I) {
    ASSERT_EQ(Dst[I], WantDst[I]) << "dst " << I;
    ASSERT_EQ(Rev[I], WantRev[I]) << "rev " << I;
    ASSERT_EQ(Inv[I], WantInv[I]) << "inv " << I;
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, LaneShapes, testing::Values(4u, 8u, 16u));

TEST(LaneShapesIr, AffineOnlyWhereRowsHoldWholeGroups) {
  // W = 4 divides 12: x is base + lane, the store and the load are
  // vectors. W = 8 does not: both gather and scatter.
  std::string Ir4 = irOf(RowsShader, 4);
  EXPECT_EQ(count(Ir4, "@llvm.masked.gather"), 0u) << Ir4;
  EXPECT_EQ(count(Ir4, "@llvm.masked.scatter"), 0u) << Ir4;
  std::string Ir8 = irOf(RowsShader, 8);
  EXPECT_GE(count(Ir8, "@llvm.masked.gather"), 1u) << Ir8;
  EXPECT_GE(count(Ir8, "@llvm.masked.scatter"), 1u) << Ir8;
}

TEST(LaneShapesIr, PhiIsScatteredLoadAtIIsAVector) {
  std::string Ir = irOf(JoinShader, 8);
  // src[i]: one vector load (the analysis calls i affine(1)); dst[j], rev[k]
  // and inv[~i + n]: scatters (a phi, and strides of -1).
  EXPECT_EQ(count(Ir, "@llvm.masked.gather"), 0u) << Ir;
  EXPECT_EQ(count(Ir, "call void @llvm.masked.scatter"), 3u) << Ir;
}

} // namespace
