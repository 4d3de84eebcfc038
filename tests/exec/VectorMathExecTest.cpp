//===- VectorMathExecTest.cpp - libmvec calls for vector math -------------===//
//
// The JIT turns vector sin/cos/exp/log/pow/atan intrinsics into glibc
// libmvec calls (runtime/VectorMath.h). Checked here: the rewrite happens
// at every width the host supports, and the results stay within Vulkan's
// precision at W = 16 (GlslStd450ExecTest covers W = 4 and 8 with every
// special input).
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"
#include "runtime/VectorMath.h"

#include "llvm/IR/Function.h"

#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

using namespace spirv2llvm;

namespace {

const char *MathShader = R"(#version 450
  layout(local_size_x = 64) in;
  layout(set = 0, binding = 0) buffer In { float src[]; };
  layout(set = 0, binding = 1) buffer Out { float dst[]; };
  void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = src[i];
    dst[6 * i + 0] = sin(x);
    dst[6 * i + 1] = cos(x);
    dst[6 * i + 2] = exp(x);
    dst[6 * i + 3] = log(x + 4.0);
    dst[6 * i + 4] = pow(x + 4.0, 1.3);
    dst[6 * i + 5] = atan(x);
  })";

bool hostRuns(unsigned W) {
  llvm::StringMap<bool> F = llvm::sys::getHostCPUFeatures();
  return W == 4 ? F.lookup("sse4.2") : W == 8 ? F.lookup("avx2")
                                              : F.lookup("avx512f");
}

class VectorMath : public testing::TestWithParam<unsigned> {};

TEST_P(VectorMath, IntrinsicsBecomeLibmvecCalls) {
  unsigned W = GetParam();
  if (!hostRuns(W))
    GTEST_SKIP() << "host cannot run libmvec's " << W << "-lane functions";
  TranslateOptions Opts;
  Opts.Width = W;
  Opts.OptLevel = 2;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(MathShader),
                              std::strlen(MathShader)),
      "math.comp", Opts);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(useVectorMathLibrary(*T->IR), 6u);
  // pow is exp2(y * log2(x)): 7 functions for the 6 intrinsics.
  std::set<std::string> Called;
  for (llvm::Function &F : *T->IR)
    if (F.getName().starts_with("_ZGV") && !F.use_empty())
      Called.insert(F.getName().rsplit('_').second.str());
  EXPECT_EQ(Called, (std::set<std::string>{"atanf", "cosf", "exp2f", "expf",
                                            "log2f", "logf", "sinf"}));
}

TEST_P(VectorMath, ResultsWithinVulkanPrecision) {
  unsigned W = GetParam();
  TranslateOptions Opts;
  Opts.Width = W;
  std::string Error;
  auto S = exectest::compileCompute(MathShader, Opts, Error);
  ASSERT_TRUE(S) << Error;
  const uint32_t N = 1024;
  std::vector<float> Src(N), Dst(6 * N);
  for (uint32_t I = 0; I < N; ++I)
    Src[I] = -3.14159f + 6.28318f * float(I) / N; // sin/cos: [-pi, pi]
  DispatchResources R;
  R.bind(0, 0, Src.data(), Src.size() * 4);
  R.bind(0, 1, Dst.data(), Dst.size() * 4);
  ASSERT_TRUE(S->dispatch({N / 64, 1, 1}, R).ok());
  auto Ulp = [](double V) { return std::ldexp(1.0, std::ilogb(V) - 23); };
  for (uint32_t I = 0; I < N; ++I) {
    double X = Src[I];
    double X4 = double(Src[I] + 4.0f); // the shader adds in float
    double Want[6] = {std::sin(X),      std::cos(X),
                      std::exp(X),      std::log(X4),
                      std::pow(X4, 1.3), std::atan(X)};
    // Vulkan: sin/cos 2^-11 absolute; exp 3 + 2|x| ULP; log 3 ULP, or
    // 2^-21 absolute in [0.5, 2]; pow inherited from exp2(y * log2(x));
    // atan 4096 ULP.
    double LogTol = X4 >= 0.5 && X4 <= 2 ? std::ldexp(1.0, -21)
                                         : 3 * Ulp(Want[3]);
    double Tol[6] = {std::ldexp(1.0, -11), std::ldexp(1.0, -11),
                     (3 + 2 * std::fabs(X)) * Ulp(Want[2]), LogTol,
                     (3 + 2 * std::fabs(1.3 * std::log2(X4))) * Ulp(Want[4]) +
                         8 * Ulp(Want[4]),
                     4096 * Ulp(std::fabs(Want[5]) + 1e-30)};
    for (int K = 0; K < 6; ++K)
      ASSERT_LE(std::fabs(Dst[6 * I + K] - Want[K]), Tol[K])
          << "function " << K << " at x = " << X;
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, VectorMath, testing::Values(4u, 8u, 16u));

} // namespace
