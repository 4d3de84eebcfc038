//===- Contraction.h - Floating-point contraction --------------*- C++ -*-===//
//
// SPIR-V lets an implementation fuse a multiply and an add into one
// rounding (contraction) unless the result is decorated NoContraction
// (GLSL's `precise`); lavapipe fuses wherever it may. Emission marks the
// operations of NoContraction results with this metadata, so the emitted
// IR stays free of fast-math flags, and the JIT gives every other
// floating-point add, subtract and multiply the `contract` flag before
// code generation (target/Optimizer.h, allowContraction), which fuses them
// on hosts with FMA.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_SUPPORT_CONTRACTION_H
#define SPIRV2LLVM_SUPPORT_CONTRACTION_H

#include "llvm/ADT/StringRef.h"

namespace spirv2llvm {

/// Metadata kind of floating-point operations that must not be contracted,
/// and the module flag of modules none of whose operations may be
/// (TranslateOptions::Contract off).
inline constexpr llvm::StringLiteral NoContractionMetadata = "s2l.nocontract";

} // namespace spirv2llvm

#endif
