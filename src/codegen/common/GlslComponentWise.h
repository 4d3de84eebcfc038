//===- GlslComponentWise.h - Component-wise GLSL.std.450 --------*- C++ -*-===//
//
// The GLSL.std.450 instructions that act component by component with all
// operands of the result's type (Round .. Fma), as a function over one
// operand value each. The values may be scalars, SIMD lane vectors or SPIR-V
// vectors alike, so the SIMD and one-invocation back ends share the table.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_GLSLCOMPONENTWISE_H
#define SPIRV2LLVM_CODEGEN_GLSLCOMPONENTWISE_H

#include "codegen/common/MathBuilder.h"

#include <functional>
#include <optional>

namespace spirv2llvm {

struct GlslComponentOp {
  /// The operation on one value per operand; empty if the instruction is
  /// not component-wise.
  std::function<llvm::Value *(llvm::ArrayRef<llvm::Value *>)> Map;
  /// Float operands and result (else integer).
  bool FloatOp = true;
  /// Computed in float for half operands (MathBuilder::viaFloat).
  bool Transcendental = false;
};

/// \p B and \p MB must outlive the returned Map.
GlslComponentOp glslComponentOp(llvm::IRBuilder<> &B, MathBuilder &MB,
                                uint32_t Inst);

/// The shape of a GLSL.std.450 Pack/Unpack{S,U}norm4x8, {S,U}norm2x16 or
/// Half2x16 instruction (MathBuilder::packComponents / unpackComponents).
struct GlslPacking {
  bool Pack = true;  ///< Pack* (else Unpack*)
  unsigned Count = 4; ///< float components
  unsigned Bits = 8;  ///< bits per component
  bool Snorm = false;
  bool Half = false;
};
std::optional<GlslPacking> glslPacking(uint32_t Inst);

} // namespace spirv2llvm

#endif
