//===- ShaderMemory.cpp - Shaders release their memory when destroyed -----===//
//
// Creates, dispatches and destroys a compute shader ITERATIONS times
// (translation, JIT compilation, one dispatch) and checks that the
// resident set stays flat: after a warm-up (allocator pools, the worker
// pool, LLVM's one-time state) the loop may retain on average less than a
// tenth of what one live shader costs. What one shader costs is measured
// here too, by keeping KEEP shaders alive, so the bound follows the real
// size of a JIT'd module: leaking one per iteration retains ten times the
// bound.
//
//   s2l-shader-memory [ITERATIONS (default 1000)]
//
// Not run in the sanitized build: AddressSanitizer's quarantine keeps
// freed memory resident on purpose; LeakSanitizer checks leaks there.
//
//===----------------------------------------------------------------------===//
#include "ResidentSet.h"

#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace spirv2llvm;
using spirv2llvm::stress::settledKb;

namespace {

const char *const Source = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float d[]; };
shared float s[64];
void main() {
  uint i = gl_LocalInvocationID.x;
  s[i] = sin(d[gl_GlobalInvocationID.x]) * 2.0;
  barrier();
  d[gl_GlobalInvocationID.x] = s[63u - i] + float(i);
}
)";

std::unique_ptr<ComputeShader> create() {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Glsl;
  std::string Src = Source;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src.data()),
                              Src.size()),
      "memory.comp", Opts);
  if (!T) {
    std::fprintf(stderr, "%s\n", llvm::toString(T.takeError()).c_str());
    std::exit(1);
  }
  auto S = ComputeShader::create(std::move(*T));
  if (!S) {
    std::fprintf(stderr, "%s\n", S.status().message().c_str());
    std::exit(1);
  }
  return std::move(*S);
}

void dispatch(ComputeShader &S) {
  std::vector<float> Data(256, 1.0f);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  if (Status D = S.dispatch({4, 1, 1}, R, 2); !D.ok()) {
    std::fprintf(stderr, "%s\n", D.message().c_str());
    std::exit(1);
  }
}

} // namespace

int main(int Argc, char **Argv) {
  const int Iterations = Argc > 1 ? std::atoi(Argv[1]) : 1000;
  const int WarmUp = 100, Keep = 50;

  for (int I = 0; I < WarmUp; ++I)
    dispatch(*create());

  // What a live shader costs.
  long Before = settledKb();
  std::vector<std::unique_ptr<ComputeShader>> Live;
  for (int I = 0; I < Keep; ++I) {
    Live.push_back(create());
    dispatch(*Live.back());
  }
  long PerShaderKb = (settledKb() - Before) / Keep;
  Live.clear();

  long Start = settledKb();
  for (int I = WarmUp; I < Iterations; ++I)
    dispatch(*create());
  long End = settledKb();
  int Measured = Iterations - WarmUp;
  long GrowthKb = End - Start;
  // Less than a tenth of a shader per iteration, and at least 1 MiB of
  // slack for allocator noise.
  long BoundKb = std::max<long>(1024, PerShaderKb * Measured / 10);
  std::printf("one live shader: %ld KiB; %d create/dispatch/destroy "
              "iterations after %d warm-up: resident set %ld -> %ld KiB "
              "(%+ld KiB, bound %ld KiB)\n",
              PerShaderKb, Measured, WarmUp, Start, End, GrowthKb, BoundKb);
  if (PerShaderKb <= 0) {
    std::fprintf(stderr, "cannot measure the size of a shader\n");
    return 1;
  }
  if (GrowthKb > BoundKb) {
    std::fprintf(stderr, "the resident set grew by %ld KiB: shaders are not "
                         "released\n",
                 GrowthKb);
    return 1;
  }
  return 0;
}
