//===- Kernels.h - The bench shaders written in plain C++ -------*- C++ -*-===//
//
// The ceiling column of s2l-bench: each shader of bench/shaders/ as an
// ordinary C++ loop over its invocations, compiled by clang-19 with -O3
// -march=native, and again with -march=haswell (bench/CMakeLists.txt),
// whatever compiler builds the rest.
// A kernel runs the workgroups [First, End) of the dispatch (numbered
// x-fastest), so the bench can spread a dispatch over threads the way the
// shader's runtime does. Buffers come in the order of BenchCase::Buffers.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_BENCH_CPP_KERNELS_H
#define SPIRV2LLVM_BENCH_CPP_KERNELS_H

#include <cstdint>

namespace spirv2llvm::bench {

struct CppArgs {
  uint8_t *const *Buffers;
  const uint8_t *Push;
  uint32_t GroupsX, GroupsY;
};

using CppKernel = void (*)(const CppArgs &A, uint32_t First, uint32_t End);

/// The kernels compiled for this machine (-march=native) and for an
/// AVX2-only host (-march=haswell, s2l-bench --avx2-host): the same source
/// twice (bench/CMakeLists.txt). cppKernel is the C++ version of the bench
/// shader \p Name, or null; cppKernelFlags the flags the kernels were
/// compiled with (for the table's header).
namespace native {
CppKernel cppKernel(const char *Name);
const char *cppKernelFlags();
} // namespace native
namespace avx2 {
CppKernel cppKernel(const char *Name);
const char *cppKernelFlags();
} // namespace avx2

} // namespace spirv2llvm::bench

#endif
