//===- BenchCases.h - The shaders of the benchmark suite --------*- C++ -*-===//
//
// Each case names a shader in bench/shaders/, its buffers (initial contents
// generated from a fixed seed, so both implementations see the same bytes),
// push constants, the dispatch size and how to compare the outputs.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_BENCH_BENCHCASES_H
#define SPIRV2LLVM_BENCH_BENCHCASES_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace spirv2llvm::bench {

/// How an output buffer is compared: bit-exact integers, or floats within
/// max(AbsTol, RelTol * |reference|).
struct Compare {
  enum Kind { None, ExactU32, Float } K = None;
  float RelTol = 0, AbsTol = 0;
};

struct BenchBuffer {
  uint32_t Binding = 0;
  std::vector<uint8_t> Init;
  Compare Cmp; ///< None: an input
};

struct BenchCase {
  std::string Name;
  std::string File; ///< under bench/shaders/
  std::string Kind; ///< one-word description for the table
  std::vector<BenchBuffer> Buffers;
  std::vector<uint8_t> Push;
  std::array<uint32_t, 3> Groups = {1, 1, 1};
  uint64_t Invocations = 0;
};

/// The suite. \p Scale multiplies the problem sizes (1 = the default,
/// sized so that one all-core dispatch takes milliseconds, not
/// microseconds: dispatch overhead must not dominate).
std::vector<BenchCase> benchCases(unsigned Scale);

/// Compares \p Got with \p Want; on mismatch returns a message naming the
/// first bad element and the count of bad ones, else empty.
std::string compareBuffers(const Compare &C, const std::vector<uint8_t> &Got,
                           const std::vector<uint8_t> &Want);

} // namespace spirv2llvm::bench

#endif
