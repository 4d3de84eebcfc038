//===- ResidentSet.h - The resident set of the process ----------*- C++ -*-===//
//
// What the memory tests (ShaderMemory.cpp, PipelineMemory.cpp) measure.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_STRESS_RESIDENTSET_H
#define SPIRV2LLVM_TESTS_STRESS_RESIDENTSET_H

#include <cstdlib>
#include <fstream>
#include <string>

#include <malloc.h>

namespace spirv2llvm::stress {

/// The resident set in KiB (/proc/self/status).
inline long residentKb() {
  std::ifstream In("/proc/self/status");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind("VmRSS:", 0) == 0)
      return std::atol(Line.c_str() + 6);
  return 0;
}

/// The resident set after giving freed memory back to the system, so
/// that what malloc merely caches does not count.
inline long settledKb() {
  malloc_trim(0);
  return residentKb();
}

} // namespace spirv2llvm::stress

#endif
