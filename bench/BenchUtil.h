//===- BenchUtil.h - What every benchmark program needs ---------*- C++ -*-===//
//
// Timers, medians, the host's description and fail-fast error handling,
// shared by the programs of bench/. Header-only: each program is one
// translation unit (plus BenchCases.cpp for s2l-bench).
//
// Errors end the program (exit status 2) with a message prefixed by the
// program's name, which main sets first: setBenchProgram("s2l-bench").
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_BENCH_BENCHUTIL_H
#define SPIRV2LLVM_BENCH_BENCHUTIL_H

#include "spirv2llvm/Status.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <time.h>
#include <vector>

namespace spirv2llvm::bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point T) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
}

/// CPU time of the whole process (every thread, lavapipe's workers too) in
/// milliseconds: unlike wall time it does not grow when other processes
/// take the cores, so ratios of it stay meaningful on a loaded machine.
inline double processCpuMs() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6;
}

/// CPU time of the calling thread in nanoseconds.
inline double threadCpuNs() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec * 1e9 + double(T.tv_nsec);
}

inline double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t M = V.size() / 2;
  return V.size() % 2 ? V[M] : (V[M - 1] + V[M]) / 2;
}

/// The name error messages start with.
inline std::string &benchProgram() {
  static std::string Name = "s2l-bench";
  return Name;
}
inline void setBenchProgram(const std::string &Name) { benchProgram() = Name; }

[[noreturn]] inline void fail(const llvm::Twine &Msg) {
  llvm::errs() << benchProgram() << ": " << Msg << "\n";
  std::exit(2);
}

template <typename T> T orFail(llvm::Expected<T> V, const llvm::Twine &What) {
  if (!V)
    fail(What + ": " + llvm::toString(V.takeError()));
  return std::move(*V);
}
inline void orFail(llvm::Error E, const llvm::Twine &What) {
  if (E)
    fail(What + ": " + llvm::toString(std::move(E)));
}
template <typename T>
T orFail(spirv2llvm::Result<T> V, const llvm::Twine &What) {
  if (!V)
    fail(What + ": " + V.status().message());
  return std::move(*V);
}
inline void orFail(const spirv2llvm::Status &S, const llvm::Twine &What) {
  if (!S.ok())
    fail(What + ": " + S.message());
}

/// The "model name" line of /proc/cpuinfo.
inline std::string cpuModel() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("model name", 0) == 0)
      return Line.substr(Line.find(':') + 2);
  return "unknown CPU";
}

/// The widest x86 vector extension the CPU reports: "AVX-512", "AVX2" or
/// "no AVX2".
inline std::string cpuVectorIsa() {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("flags", 0) == 0) {
      bool Avx512 = Line.find(" avx512f") != std::string::npos;
      bool Avx2 = Line.find(" avx2") != std::string::npos;
      return Avx512 ? "AVX-512" : Avx2 ? "AVX2" : "no AVX2";
    }
  return "unknown";
}

} // namespace spirv2llvm::bench

#endif
