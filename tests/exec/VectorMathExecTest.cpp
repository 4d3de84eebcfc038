//===- VectorMathExecTest.cpp - libmvec calls for vector math -------------===//
//
// The JIT turns vector sin/cos/exp/log/pow/atan intrinsics into glibc
// libmvec calls (runtime/VectorMath.h). Checked here: the rewrite happens
// at every width the host supports, vectors wider than the widest libmvec
// functions allowed are split into pieces (16 lanes on an AVX2 target: two
// 8-lane calls), and the results stay within Vulkan's precision at every
// width and split (GlslStd450ExecTest covers W = 4 and 8 with every
// special input).
//
//===----------------------------------------------------------------------===//
#include "ComputeTestUtil.h"
#include "runtime/VectorMath.h"
#include "target/Optimizer.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/CommandLine.h"


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

/// Whether the JIT's target CPU (the host's, or -s2l-jit-cpu's) runs
/// libmvec's \p W-lane functions.
bool hostRuns(unsigned W) {
  return jitTargetHasFeature(W == 4 ? "sse4.2" : W == 8 ? "avx2" : "avx512f");
}

/// Sets -s2l-libmvec-max-lanes for the life of the object.
class MaxLanes {
public:
  explicit MaxLanes(unsigned N) { set(N); }
  ~MaxLanes() { set(0); }

private:
  static void set(unsigned N) {
    auto &Opts = llvm::cl::getRegisteredOptions();
    auto It = Opts.find("s2l-libmvec-max-lanes");
    ASSERT_NE(It, Opts.end());
    static_cast<llvm::cl::opt<unsigned> *>(It->second)->setValue(N);
  }
};

/// The libmvec functions (name, lanes) \p Shader calls at width \p W
/// after the rewrite, which must replace \p Calls intrinsic calls.
std::set<std::pair<std::string, unsigned>> libmvecCalls(unsigned W,
                                                        unsigned Calls) {
  TranslateOptions Opts;
  Opts.Width = W;
  Opts.OptLevel = 2;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(MathShader),
                              std::strlen(MathShader)),
      "math.comp", Opts);
  EXPECT_TRUE(bool(T)) << llvm::toString(T.takeError());
  if (!T)
    return {};
  EXPECT_EQ(useVectorMathLibrary(*T->IR), Calls);
  std::set<std::pair<std::string, unsigned>> Called;
  for (llvm::Function &F : *T->IR)
    if (F.getName().starts_with("_ZGV") && !F.use_empty())
      Called.insert({F.getName().rsplit('_').second.str(),
                     llvm::cast<llvm::FixedVectorType>(F.getReturnType())
                         ->getNumElements()});
  return Called;
}

/// pow is exp2(y * log2(x)): 7 functions for the 6 intrinsics.
std::set<std::pair<std::string, unsigned>> allFunctions(unsigned Lanes) {
  std::set<std::pair<std::string, unsigned>> S;
  for (const char *Name :
       {"atanf", "cosf", "exp2f", "expf", "log2f", "logf", "sinf"})
    S.insert({Name, Lanes});
  return S;
}

/// Runs MathShader at width \p W over [-pi, pi] and checks every result
/// against Vulkan's precision.
void checkPrecision(unsigned W);

class VectorMath : public testing::TestWithParam<unsigned> {};

TEST_P(VectorMath, IntrinsicsBecomeLibmvecCalls) {
  unsigned W = GetParam();
  if (!hostRuns(W))
    GTEST_SKIP() << "host cannot run libmvec's " << W << "-lane functions";
  EXPECT_EQ(libmvecCalls(W, 6), allFunctions(W));
}

TEST_P(VectorMath, ResultsWithinVulkanPrecision) { checkPrecision(GetParam()); }

// A target whose widest libmvec functions are narrower than W (an AVX2
// host at W = 16; -s2l-libmvec-max-lanes stands in for it here) calls them
// on pieces of the vector instead of leaving the intrinsic, which LLVM
// expands to one scalar libm call per lane (ten times slower).
TEST(VectorMathSplit, WideVectorsCallNarrowerFunctions) {
  if (!hostRuns(8))
    GTEST_SKIP() << "host cannot run libmvec's 8-lane functions";
  {
    MaxLanes Limit(8);
    EXPECT_EQ(libmvecCalls(16, 6), allFunctions(8));
  }
  {
    MaxLanes Limit(4);
    EXPECT_EQ(libmvecCalls(16, 6), allFunctions(4));
    EXPECT_EQ(libmvecCalls(8, 6), allFunctions(4));
  }
}

// The pieces go back into the right lanes: a wrong shuffle would put one
// lane's sin where another's belongs, far outside the tolerance.
TEST(VectorMathSplit, SplitResultsWithinVulkanPrecision) {
  if (!hostRuns(8))
    GTEST_SKIP() << "host cannot run libmvec's 8-lane functions";
  for (unsigned Lanes : {8u, 4u}) {
    SCOPED_TRACE("libmvec functions of " + std::to_string(Lanes) + " lanes");
    MaxLanes Limit(Lanes);
    checkPrecision(16);
  }
}

void checkPrecision(unsigned W) {
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
