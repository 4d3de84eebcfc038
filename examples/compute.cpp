//===- compute.cpp - Compile a compute shader once, dispatch it many times -===//
//
// The smallest host program for spirv2llvm's compute runtime: translate
// shaders/examples/saxpy.comp, JIT it, bind two buffers and push constants,
// dispatch it a few times, and check the result.
//
//   build/bin/s2l-example-compute [--width 8] [--threads 2] [--shader PATH]
//
// Build it against an installed spirv2llvm with examples/CMakeLists.txt
// (find_package) or pkg-config plus llvm-config-19: the translate API
// (spirv2llvm.h) hands out an llvm::Module, so it needs LLVM's headers.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

int main(int Argc, char **Argv) {
  spirv2llvm::TranslateOptions Opts;
  unsigned Threads = 0;
#ifdef S2L_SOURCE_DIR
  std::string Path = S2L_SOURCE_DIR "/shaders/examples/saxpy.comp";
#else
  std::string Path = "saxpy.comp";
#endif
  for (int I = 1; I + 1 < Argc; I += 2) {
    std::string A = Argv[I];
    if (A == "--width")
      Opts.Width = unsigned(std::stoul(Argv[I + 1]));
    else if (A == "--threads")
      Threads = unsigned(std::stoul(Argv[I + 1]));
    else if (A == "--shader")
      Path = Argv[I + 1];
  }
  auto T = spirv2llvm::translateFile(Path, Opts);
  if (!T) {
    std::fprintf(stderr, "%s\n", llvm::toString(T.takeError()).c_str());
    return 1;
  }
  auto Shader = spirv2llvm::ComputeShader::create(std::move(*T));
  if (!Shader) {
    std::fprintf(stderr, "%s\n", Shader.status().message().c_str());
    return 1;
  }
  const uint32_t N = 1 << 16;
  std::vector<float> X(N), Y(N);
  for (uint32_t I = 0; I < N; ++I) {
    X[I] = float(I);
    Y[I] = 1.0f;
  }
  struct {
    float A;
    uint32_t N;
  } Push = {2.0f, N};
  spirv2llvm::DispatchResources R;
  R.bind(0, 0, X.data(), N * sizeof(float));
  R.bind(0, 1, Y.data(), N * sizeof(float));
  R.PushConstants.resize(sizeof Push);
  std::memcpy(R.PushConstants.data(), &Push, sizeof Push);

  uint32_t LocalX = (*Shader)->info().WorkgroupSize[0];
  const int Dispatches = 3; // compile once, dispatch many times
  for (int D = 0; D < Dispatches; ++D) {
    spirv2llvm::Status S =
        (*Shader)->dispatch({(N + LocalX - 1) / LocalX, 1, 1}, R, Threads);
    if (!S.ok()) {
      std::fprintf(stderr, "%s\n", S.message().c_str());
      return 1;
    }
  }
  for (uint32_t I = 0; I < N; ++I) {
    float Want = 1.0f + Dispatches * 2.0f * float(I);
    if (std::fabs(Y[I] - Want) > 1e-3f * std::fabs(Want)) {
      std::fprintf(stderr, "y[%u] = %g, expected %g\n", I, Y[I], Want);
      return 1;
    }
  }
  std::printf("saxpy: %u elements, %d dispatches, width %u: ok\n", N,
              Dispatches, (*Shader)->width());
  return 0;
}
