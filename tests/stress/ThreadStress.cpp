//===- ThreadStress.cpp - Translate, JIT and dispatch from many threads ---===//
//
// The thread-safety guarantees of docs/compute.md ("Threads"), exercised:
// THREADS host threads each translate, JIT-compile and dispatch every
// shader of a small set REPS times, and dispatch shaders compiled once and
// shared by all threads, while the others do the same; every output must
// equal the output of a single-threaded run. The shaders cover the
// runtime's moving parts: plain SIMD groups, fibers for barriers with
// workgroup memory, atomics across workgroups, divergent loops, and
// dispatches on the worker pool (Threads = 2) next to dispatches on the
// calling thread alone (Threads = 1). Then the same for graphics
// pipelines and draws (GraphicsStress.cpp), including one pipeline drawing
// from every thread at once.
//
// Built normally as a ctest, and with ThreadSanitizer by
// scripts/test-tsan.sh, which builds this target only.
//
//   s2l-thread-stress [--threads N] [--reps N]
//
// Exit status 0: every result matched; 1: a mismatch or error (printed).
//
//===----------------------------------------------------------------------===//
#include "GraphicsStress.h"

#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace spirv2llvm;

namespace {

struct Case {
  const char *Name;
  const char *Source;
  uint32_t Groups;
  /// Words per binding 0 (input, iota) and 1 (output, zero).
  uint32_t InWords, OutWords;
};

const Case Cases[] = {
    {"arith", R"(#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float f = float(x[i]) * 0.37 + 1.0;
  y[i] = uint(sqrt(f) * 1000.0) ^ (x[i] * 2654435761u);
}
)",
     64, 2048, 2048},
    {"shared-reduction", R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint y[]; };
shared uint s[64];
void main() {
  uint l = gl_LocalInvocationID.x;
  s[l] = x[gl_GlobalInvocationID.x];
  barrier();
  for (uint k = 32u; k > 0u; k >>= 1) {
    if (l < k)
      s[l] += s[l + k];
    barrier();
  }
  if (l == 0u)
    y[gl_WorkGroupID.x] = s[0];
}
)",
     32, 2048, 32},
    {"atomics", R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint y[]; };
void main() {
  uint v = x[gl_GlobalInvocationID.x];
  atomicAdd(y[v % 8u], v);
  atomicMax(y[8], v);
}
)",
     64, 1024, 16},
    {"divergent-loops", R"(#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint y[]; };
void main() {
  uint n = x[gl_GlobalInvocationID.x] + 1u;
  uint steps = 0u;
  while (n != 1u && steps < 1000u) {
    n = (n & 1u) != 0u ? 3u * n + 1u : n / 2u;
    ++steps;
  }
  y[gl_GlobalInvocationID.x] = steps;
}
)",
     64, 512, 512},
};
constexpr size_t NumCases = sizeof(Cases) / sizeof(Cases[0]);

std::unique_ptr<ComputeShader> compile(const Case &C, std::string &Err) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Glsl;
  Opts.Width = 8;
  std::string Src = C.Source;
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src.data()),
                              Src.size()),
      std::string(C.Name) + ".comp", Opts);
  if (!T) {
    Err = llvm::toString(T.takeError());
    return nullptr;
  }
  auto S = ComputeShader::create(std::move(*T));
  if (!S) {
    Err = S.status().message();
    return nullptr;
  }
  return std::move(*S);
}

/// Runs \p C on \p S from fresh buffers; returns the output words.
std::vector<uint32_t> run(const Case &C, ComputeShader &S, unsigned Threads,
                          std::string &Err) {
  std::vector<uint32_t> In(C.InWords), Out(C.OutWords, 0);
  for (uint32_t I = 0; I < C.InWords; ++I)
    In[I] = I * 7 % 1001;
  DispatchResources R;
  R.bind(0, 0, In.data(), In.size() * 4);
  R.bind(0, 1, Out.data(), Out.size() * 4);
  if (Status D = S.dispatch({C.Groups, 1, 1}, R, Threads); !D.ok())
    Err = D.message();
  return Out;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned NumThreads = 4, Reps = 3;
  for (int I = 1; I + 1 < Argc; I += 2) {
    if (!std::strcmp(Argv[I], "--threads"))
      NumThreads = unsigned(std::atoi(Argv[I + 1]));
    else if (!std::strcmp(Argv[I], "--reps"))
      Reps = unsigned(std::atoi(Argv[I + 1]));
  }

  // The reference: each shader alone, on the calling thread only.
  std::vector<std::unique_ptr<ComputeShader>> Shared;
  std::vector<std::vector<uint32_t>> Expected;
  for (const Case &C : Cases) {
    std::string Err;
    auto S = compile(C, Err);
    if (!S) {
      std::fprintf(stderr, "%s: %s\n", C.Name, Err.c_str());
      return 1;
    }
    Expected.push_back(run(C, *S, 1, Err));
    if (!Err.empty()) {
      std::fprintf(stderr, "%s: %s\n", C.Name, Err.c_str());
      return 1;
    }
    Shared.push_back(std::move(S));
  }

  std::atomic<unsigned> Failures{0};
  std::mutex PrintMutex;
  auto Check = [&](unsigned T, const char *What, size_t K,
                   const std::vector<uint32_t> &Got, const std::string &Err) {
    if (Err.empty() && Got == Expected[K])
      return;
    ++Failures;
    std::lock_guard<std::mutex> L(PrintMutex);
    std::fprintf(stderr, "thread %u, %s, %s: %s\n", T, What, Cases[K].Name,
                 Err.empty() ? "output differs from the single-threaded run"
                             : Err.c_str());
  };

  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < NumThreads; ++T)
    Threads.emplace_back([&, T] {
      for (unsigned Rep = 0; Rep < Reps; ++Rep)
        for (size_t J = 0; J < NumCases; ++J) {
          size_t K = (J + T) % NumCases;
          const Case &C = Cases[K];
          // Dispatches on the pool and on the calling thread alone.
          unsigned DispatchThreads = 1 + (T + Rep) % 2;
          std::string Err;
          // Translate and JIT while other threads do the same.
          auto S = compile(C, Err);
          std::vector<uint32_t> Got;
          if (S)
            Got = run(C, *S, DispatchThreads, Err);
          Check(T, "own shader", K, Got, Err);
          // One shader object dispatched from every thread at once.
          Err.clear();
          Got = run(C, *Shared[K], DispatchThreads, Err);
          Check(T, "shared shader", K, Got, Err);
        }
    });
  for (std::thread &T : Threads)
    T.join();

  unsigned Runs = NumThreads * Reps * NumCases * 2;
  if (Failures)
    std::fprintf(stderr, "%u of %u runs failed\n", Failures.load(), Runs);
  else
    std::printf("%u threads x %zu shaders x %u repetitions: %u runs matched "
                "the single-threaded results\n",
                NumThreads, NumCases, Reps, Runs);
  unsigned GraphicsFailures = stress::runGraphicsStress(NumThreads, Reps);
  return Failures || GraphicsFailures ? 1 : 0;
}
