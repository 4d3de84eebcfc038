//===- SafetyBench.cpp - What fault catching and time limits cost ---------===//
//
//   s2l-safety-bench [benchmark flags]
//
// docs/robustness.md quotes these numbers. Each dispatch benchmark runs the
// same small shader (64 invocations per workgroup, a few operations each)
// with DispatchResources::CatchFaults off and on, and with a time limit
// (a watchdog registration per dispatch), on one thread and on two:
//
//  - guard/empty: runGuarded with an empty body (the cost per arming:
//    a sigsetjmp and two thread-local stores);
//  - dispatch/WG/THREADS/MODE: WG workgroups; MODE 0: no fault catching,
//    1: fault catching (the default), 2: fault catching and a timeout.
//
//===----------------------------------------------------------------------===//
#include "runtime/FaultGuard.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

using namespace spirv2llvm;

namespace {

const char *const Source = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint d[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  d[i] = d[i] * 3u + i;
}
)";

ComputeShader &shader() {
  static std::unique_ptr<ComputeShader> S = [] {
    TranslateOptions Opts;
    Opts.Kind = InputKind::Glsl;
    Opts.Width = 8;
    std::string Src = Source;
    auto T = translateBytes(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src.data()),
                                Src.size()),
        "bench.comp", Opts);
    if (!T)
      llvm::report_fatal_error(T.takeError());
    auto C = ComputeShader::create(std::move(*T));
    if (!C)
      llvm::report_fatal_error(llvm::Twine(C.status().message()));
    return std::move(*C);
  }();
  return *S;
}

void guardEmpty(benchmark::State &State) {
  FaultInfo F;
  int Counter = 0;
  for (auto _ : State) {
    runGuarded([&] { benchmark::DoNotOptimize(++Counter); }, F);
  }
}
BENCHMARK(guardEmpty)->Name("guard/empty");

void dispatch(benchmark::State &State) {
  const uint32_t Groups = uint32_t(State.range(0));
  const unsigned Threads = unsigned(State.range(1));
  const int Mode = int(State.range(2));
  std::vector<uint32_t> Data(Groups * 64, 1);
  DispatchResources R;
  R.bind(0, 0, Data.data(), Data.size() * 4);
  R.CatchFaults = Mode >= 1;
  if (Mode == 2)
    R.Timeout = std::chrono::seconds(60);
  ComputeShader &S = shader();
  for (auto _ : State)
    if (Status D = S.dispatch({Groups, 1, 1}, R, Threads); !D.ok())
      llvm::report_fatal_error(llvm::Twine(D.message()));
  State.SetItemsProcessed(State.iterations() * Groups * 64);
}
BENCHMARK(dispatch)
    ->Name("dispatch")
    ->ArgNames({"wg", "threads", "mode"})
    ->ArgsProduct({{1, 1024}, {1, 2}, {0, 1, 2}});

} // namespace

BENCHMARK_MAIN();
