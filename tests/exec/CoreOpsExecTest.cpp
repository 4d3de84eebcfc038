//===- CoreOpsExecTest.cpp - Matrix, bit-field and extended arithmetic ----===//
//
// Core instructions beyond plain arithmetic, run per lane with values that
// differ between lanes and compared with C++: matrix-vector, vector-matrix
// and matrix-matrix products, outer product, transpose, bit-field insert
// and extracts at every offset/count edge (count 0 and 32), bit reverse and
// count, add with carry, subtract with borrow, extended multiplies,
// any/all, isnan/isinf.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using namespace spirv2llvm;

namespace {

std::unique_ptr<ComputeShader> compile(const std::string &Source, unsigned W) {
  TranslateOptions Opts;
  Opts.Width = W;
  std::string Error;
  auto S = spirv2llvm::exectest::compileCompute(Source, Opts, Error);
  if (!S)
    ADD_FAILURE() << Error;
  return S;
}

class CoreOps : public testing::TestWithParam<unsigned> {};

TEST_P(CoreOps, BitFieldsAndExtendedArithmetic) {
  auto S = compile(R"(#version 450
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer In { uint a[]; };
    layout(std430, binding = 1) buffer Out { uint o[]; };
    void main() {
      uint i = gl_GlobalInvocationID.x;
      uint x = a[i], y = a[(i * 7u + 3u) % 64u];
      int off = int(i % 33u), cnt = int((i * 5u) % 33u);
      if (off + cnt > 32) cnt = 32 - off;
      uint base = i * 8u;
      o[base + 0u] = bitfieldInsert(x, y, off, cnt);
      o[base + 1u] = bitfieldExtract(x, off, cnt);
      o[base + 2u] = uint(bitfieldExtract(int(x), off, cnt));
      o[base + 3u] = bitfieldReverse(x);
      o[base + 4u] = uint(bitCount(x));
      uint carry, borrow, hi, lo;
      o[base + 5u] = uaddCarry(x, y, carry) + carry * 0x10000000u;
      o[base + 6u] = usubBorrow(x, y, borrow) ^ (borrow << 31);
      umulExtended(x, y, hi, lo);
      o[base + 7u] = hi ^ lo;
    })",
                   GetParam());
  ASSERT_TRUE(S);
  std::vector<uint32_t> A(64), Out(64 * 8, 0);
  for (uint32_t I = 0; I < 64; ++I)
    A[I] = I * 0x9E3779B9u ^ (I << 29) ^ (I == 5 ? 0xFFFFFFFFu : 0u);
  DispatchResources R;
  R.bind(0, 0, A.data(), A.size() * 4);
  R.bind(0, 1, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S->dispatch({1, 1, 1}, R).ok());
  for (uint32_t I = 0; I < 64; ++I) {
    uint32_t X = A[I], Y = A[(I * 7 + 3) % 64];
    int Off = int(I % 33), Cnt = int((I * 5) % 33);
    if (Off + Cnt > 32)
      Cnt = 32 - Off;
    uint64_t Mask64 = Cnt == 0 ? 0 : ((uint64_t(1) << Cnt) - 1) << Off;
    uint32_t Mask = uint32_t(Mask64);
    uint32_t Field = Cnt == 0 ? 0 : uint32_t((uint64_t(X) >> Off) & ((uint64_t(1) << Cnt) - 1));
    int32_t SField = Cnt == 0 ? 0
                              : int32_t(uint32_t(Field << (32 - Cnt))) >> (32 - Cnt);
    uint32_t Rev = 0;
    for (int B = 0; B < 32; ++B)
      Rev |= ((X >> B) & 1u) << (31 - B);
    uint64_t Sum = uint64_t(X) + Y;
    uint64_t Prod = uint64_t(X) * Y;
    uint32_t Want[8] = {
        (X & ~Mask) | ((Off < 32 ? (Y << Off) : 0u) & Mask),
        Field,
        uint32_t(SField),
        Rev,
        uint32_t(std::popcount(X)),
        uint32_t(Sum) + uint32_t(Sum >> 32) * 0x10000000u,
        (X - Y) ^ (uint32_t(X < Y) << 31),
        uint32_t(Prod >> 32) ^ uint32_t(Prod)};
    for (int K = 0; K < 8; ++K)
      EXPECT_EQ(Out[I * 8 + K], Want[K])
          << "invocation " << I << " result " << K << " off " << Off
          << " count " << Cnt;
  }
}

TEST_P(CoreOps, MatrixProductsAndTests) {
  auto S = compile(R"(#version 450
    layout(local_size_x = 16) in;
    layout(std430, binding = 0) buffer Out { float o[]; };
    void main() {
      float t = float(gl_GlobalInvocationID.x);
      mat3x2 m = mat3x2(t, 1.0, 2.0, -t, 0.5, t * t);   // 3 columns, 2 rows
      vec3 v = vec3(1.0, t, -2.0);
      vec2 r = vec2(3.0, t - 1.0);
      vec2 mv = m * v;                 // OpMatrixTimesVector
      vec3 vm = r * m;                 // OpVectorTimesMatrix
      mat2x3 mt = transpose(m);        // OpTranspose
      mat2 mm = m * mt;                // OpMatrixTimesMatrix
      mat3x2 op = outerProduct(r, v);  // OpOuterProduct
      uint base = gl_GlobalInvocationID.x * 16u;
      o[base + 0u] = mv.x; o[base + 1u] = mv.y;
      o[base + 2u] = vm.x; o[base + 3u] = vm.y; o[base + 4u] = vm.z;
      o[base + 5u] = mm[0][0]; o[base + 6u] = mm[0][1];
      o[base + 7u] = mm[1][0]; o[base + 8u] = mm[1][1];
      o[base + 9u] = op[2][1]; o[base + 10u] = mt[1][2];
      o[base + 11u] = (m * 2.0)[2][1];
      bvec3 b = greaterThan(v, vec3(0.5));
      o[base + 12u] = any(b) ? 1.0 : 0.0;
      o[base + 13u] = all(b) ? 1.0 : 0.0;
      float z = t - 3.0;
      o[base + 14u] = isinf(1.0 / z) ? 1.0 : 0.0;
      o[base + 15u] = isnan(z / z) ? 1.0 : 0.0;
    })",
                   GetParam());
  ASSERT_TRUE(S);
  std::vector<float> Out(16 * 16, -1.0f);
  DispatchResources R;
  R.bind(0, 0, Out.data(), Out.size() * 4);
  ASSERT_TRUE(S->dispatch({1, 1, 1}, R).ok());
  for (int I = 0; I < 16; ++I) {
    float T = float(I);
    float Mx[3][2] = {{T, 1.0f}, {2.0f, -T}, {0.5f, T * T}}; // [col][row]
    float V[3] = {1.0f, T, -2.0f}, Rv[2] = {3.0f, T - 1.0f};
    float Mv[2], Vm[3], Mm[2][2];
    for (int Row = 0; Row < 2; ++Row)
      Mv[Row] = Mx[0][Row] * V[0] + Mx[1][Row] * V[1] + Mx[2][Row] * V[2];
    for (int C = 0; C < 3; ++C)
      Vm[C] = Rv[0] * Mx[C][0] + Rv[1] * Mx[C][1];
    // m * transpose(m): 2x2, [c][r] = sum_k m[k][r] * m[k][c].
    for (int C = 0; C < 2; ++C)
      for (int Row = 0; Row < 2; ++Row)
        Mm[C][Row] = Mx[0][Row] * Mx[0][C] + Mx[1][Row] * Mx[1][C] +
                     Mx[2][Row] * Mx[2][C];
    bool Any = V[0] > 0.5f || V[1] > 0.5f || V[2] > 0.5f;
    bool All = V[0] > 0.5f && V[1] > 0.5f && V[2] > 0.5f;
    float Want[16] = {Mv[0], Mv[1], Vm[0], Vm[1], Vm[2], Mm[0][0], Mm[0][1],
                      Mm[1][0], Mm[1][1], Rv[1] * V[2], Mx[2][1],
                      Mx[2][1] * 2.0f, Any ? 1.0f : 0.0f, All ? 1.0f : 0.0f,
                      I == 3 ? 1.0f : 0.0f, I == 3 ? 1.0f : 0.0f};
    for (int K = 0; K < 16; ++K)
      EXPECT_FLOAT_EQ(Out[I * 16 + K], Want[K])
          << "invocation " << I << " result " << K;
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, CoreOps, testing::Values(4u, 8u, 16u),
                         [](const auto &I) {
                           return "w" + std::to_string(I.param);
                         });

} // namespace
