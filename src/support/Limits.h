//===- Limits.h - Resource limits on input modules --------------*- C++ -*-===//
//
// Input beyond these limits is rejected with a message that names the limit,
// so that translation time and memory stay bounded whatever the module
// (docs/robustness.md). Each is far above what real shaders need; they sit
// where the cost of the translator's algorithms (and of LLVM's mem2reg on
// the code it generates, which grows with blocks x mask slots) would turn
// from seconds into minutes. tests/limits generates modules at and beyond
// each limit.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_SUPPORT_LIMITS_H
#define SPIRV2LLVM_SUPPORT_LIMITS_H

#include <cstdint>

namespace spirv2llvm::limits {

/// Instructions in a module (a million translate in about 20 s and 1 GB;
/// code generation and LLVM's own passes are linear, so this only bounds
/// time and memory).
constexpr uint32_t MaxInstructions = uint32_t(1) << 20;
/// Ids: the header's bound (checked by the decoder, BinaryDecoder.cpp).
constexpr uint32_t MaxIdBound = 0x400000;
/// Blocks in one function (after canonicalization, which inlines calls).
constexpr uint32_t MaxBlocksPerFunction = 100000;
/// Structured constructs (selections, switches, loops) nested in each other
/// (1,000 nested loops translate in seconds; spirv-val stops at 1,023).
constexpr uint32_t MaxNestingDepth = 1000;
/// Types nested in each other (arrays of arrays, structs of structs).
constexpr uint32_t MaxTypeDepth = 256;
/// Bytes of one type: every variable is allocated in full.
constexpr uint64_t MaxTypeBytes = uint64_t(1) << 30;
/// Scalars in one whole value: a load, store or copy of a whole array or
/// struct, a composite built at once, a stage input or output variable.
/// The back ends copy such values element by element, and LLVM's scalar
/// replacement of aggregates then takes time that grows faster than the
/// size (a copy of 65,536 floats took 47 s in the invocation back end,
/// 16,384 about 1 s). Larger arrays are fine when accessed by element.
constexpr uint64_t MaxValueScalars = 16384;

} // namespace spirv2llvm::limits

#endif
