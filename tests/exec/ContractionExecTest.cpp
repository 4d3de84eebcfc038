//===- ContractionExecTest.cpp - a * b + c fuses unless precise -----------===//
//
// The JIT lets multiplies and adds contract into FMAs (support/
// Contraction.h), as SPIR-V allows and lavapipe does, except for results
// decorated NoContraction (GLSL `precise`). Inputs are chosen so that the
// fused and the separately rounded results differ: a * b = 1 + 2^-11 +
// 2^-24 exactly, whose 2^-24 a float product loses, and c cancels the
// rest. Checked in both back ends and at every width.
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace spirv2llvm;
using namespace spirv2llvm::exectest;

namespace {

const char *Shader = R"(#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Buf {
  float a[16]; float b[16]; float c[16]; float fused[16]; float exact[16];
};
void main() {
  uint i = gl_GlobalInvocationID.x;
  fused[i] = a[i] * b[i] + c[i];
  // The same inputs read from the other end (CSE would otherwise share
  // the products, which makes the unmarked one exact too: allowed).
  uint j = 15 - i;
  precise float t = a[j] * b[j] + c[j];
  exact[j] = t;
}
)";

struct Config {
  Backend B;
  unsigned Width;
};

class ContractionExecTest : public ::testing::TestWithParam<Config> {};

/// Whether the host can fuse (x86-64 FMA3; both AVX2 and AVX-512 hosts
/// have it).
bool hostHasFma() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

/// Runs the shader with contraction \p Contract; checks the unmarked
/// result is fused exactly when \p Contract is on, the precise one never.
void check(bool Contract) {
  TranslateOptions O;
  O.Backend = ::testing::TestWithParam<Config>::GetParam().B;
  O.Width = ::testing::TestWithParam<Config>::GetParam().Width;
  O.Contract = Contract;
  std::string Error;
  auto S = compileCompute(Shader, O, Error);
  ASSERT_TRUE(S) << Error;
  float Data[5][16];
  for (int I = 0; I < 16; ++I) {
    // An odd multiple of 2^-12: the product is not a float.
    float A = 1 + std::ldexp(1.0f, -12) * float(1 + 2 * (I % 3));
    float B = 1 + std::ldexp(1.0f, -12);
    Data[0][I] = A;
    Data[1][I] = B;
    Data[2][I] = -(A * B); // the rounded product: fma leaves its error
    Data[3][I] = Data[4][I] = 42;
  }
  DispatchResources R;
  R.bind(0, 0, Data, sizeof Data);
  Status St = S->dispatch({1, 1, 1}, R);
  ASSERT_TRUE(St.ok()) << St.message();
  for (int I = 0; I < 16; ++I) {
    float A = Data[0][I], B = Data[1][I], C = Data[2][I];
    volatile float Product = A * B; // rounded on its own
    float Separate = Product + C;
    float Fused = std::fma(A, B, C);
    ASSERT_NE(Fused, Separate) << "inputs do not tell the two apart";
    EXPECT_EQ(Data[3][I], Contract ? Fused : Separate) << I;
    EXPECT_EQ(Data[4][I], Separate) << I;
  }
}

TEST_P(ContractionExecTest, FusesUnlessPrecise) {
  if (!hostHasFma())
    GTEST_SKIP() << "the host has no FMA instructions: nothing is fused";
  check(true);
}

TEST_P(ContractionExecTest, NoContractOptionRoundsEveryOperation) {
  check(false);
}

INSTANTIATE_TEST_SUITE_P(
    BackendsAndWidths, ContractionExecTest,
    ::testing::Values(Config{Backend::Simd, 4}, Config{Backend::Simd, 8},
                      Config{Backend::Simd, 16},
                      Config{Backend::Invocation, 4}),
    [](const auto &Info) {
      return std::string(Info.param.B == Backend::Simd ? "Simd" : "Invocation") +
             std::to_string(Info.param.Width);
    });

} // namespace
