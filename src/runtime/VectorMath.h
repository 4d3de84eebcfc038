//===- VectorMath.h - Vector math calls from glibc's libmvec ----*- C++ -*-===//
//
// LLVM lowers llvm.sin.v16f32 and friends to one scalar libm call per lane.
// glibc's libmvec has vector versions (_ZGVeN16v_sinf for 16 lanes with
// AVX-512, _ZGVdN8v_sinf for 8 with AVX2, _ZGVbN4v_sinf for 4 with SSE),
// accurate to 4 ULP, well within Vulkan's precision for these functions.
// The JIT rewrites the intrinsics to those calls when the library loads and
// the host has the instruction set; otherwise the intrinsics stay.
// pow(x, y) becomes exp2(y * log2(x)), the expression Vulkan's precision
// for pow refers to (and lavapipe computes): libmvec's powf is accurate to
// 1 ULP and costs three times as much.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_VECTORMATH_H
#define SPIRV2LLVM_RUNTIME_VECTORMATH_H

#include "llvm/IR/Module.h"

namespace spirv2llvm {

/// Replaces vector float math intrinsics in \p M by libmvec calls (and
/// makes libmvec's symbols visible to the JIT). Returns how many calls it
/// replaced.
unsigned useVectorMathLibrary(llvm::Module &M);

/// Loads libmvec into the process (once) if it is there, so that code
/// compiled earlier with its calls (a compile cache hit) links.
void loadVectorMathLibrary();

} // namespace spirv2llvm

#endif
