//===- ProcessMemory.h - Peak resident memory of a phase --------*- C++ -*-===//
//
// Linux resets the peak resident set size (VmHWM) when "5" is written to
// /proc/self/clear_refs, so the peak of one phase is VmHWM after it minus
// VmRSS before it. Elsewhere the numbers read as 0.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_BENCH_PROCESSMEMORY_H
#define SPIRV2LLVM_BENCH_PROCESSMEMORY_H

#include <cstdint>
#include <fstream>
#include <string>

namespace spirv2llvm::bench {

/// A field of /proc/self/status in KiB ("VmRSS", "VmHWM"); 0 if absent.
inline uint64_t procStatusKb(const std::string &Field) {
  std::ifstream In("/proc/self/status");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.compare(0, Field.size() + 1, Field + ":") == 0)
      return std::stoull(Line.substr(Field.size() + 1));
  return 0;
}

/// Measures how far the resident set grows above its current size.
class PeakMemory {
public:
  PeakMemory() {
    std::ofstream("/proc/self/clear_refs") << "5";
    Base = procStatusKb("VmRSS");
  }
  /// Peak growth so far, in MiB.
  double growthMb() const {
    uint64_t Peak = procStatusKb("VmHWM");
    return Peak > Base ? double(Peak - Base) / 1024.0 : 0.0;
  }

private:
  uint64_t Base = 0;
};

} // namespace spirv2llvm::bench

#endif
