//===- ComponentOps.h - Component-wise SPIR-V arithmetic --------*- C++ -*-===//
//
// The core arithmetic, logical, comparison and conversion instructions that
// act component by component, as IRBuilder calls on one operand value. The
// value may be a scalar, a SIMD lane vector <W x T> (SIMD back end) or a
// SPIR-V vector <N x T> (one-invocation back end): the operations are the
// same, so both back ends share them.
//
// Where LLVM has undefined behaviour and SPIR-V only an undefined value the
// operation is guarded: integer division by zero (and INT_MIN / -1) divides
// by 1 instead, shift amounts are taken modulo the bit width, float to
// integer conversions saturate.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_COMPONENTOPS_H
#define SPIRV2LLVM_CODEGEN_COMPONENTOPS_H

#include "llvm/IR/IRBuilder.h"

#include <spirv/unified1/spirv.hpp11>

namespace spirv2llvm {

/// \p Op applied to \p X and \p Y (binary arithmetic, logic, shifts and
/// comparisons), or nullptr if \p Op is not such an instruction.
llvm::Value *emitComponentBinary(llvm::IRBuilder<> &B, spv::Op Op,
                                 llvm::Value *X, llvm::Value *Y);

/// \p Op applied to \p X with result type \p T (negation, not,
/// conversions, bitcast, copies), or nullptr if \p Op is not such an
/// instruction.
llvm::Value *emitComponentUnary(llvm::IRBuilder<> &B, spv::Op Op,
                                llvm::Value *X, llvm::Type *T);

/// OpBitFieldInsert / OpBitFieldSExtract / OpBitFieldUExtract on one
/// value; \p Offset and \p Count already have \p Base's type (scalar or
/// vector). Defined for every offset + count <= width, count 0 and count ==
/// width included (no shift by the full width).
llvm::Value *emitBitFieldInsert(llvm::IRBuilder<> &B, llvm::Value *Base,
                                llvm::Value *Insert, llvm::Value *Offset,
                                llvm::Value *Count);
llvm::Value *emitBitFieldExtract(llvm::IRBuilder<> &B, llvm::Value *X,
                                 llvm::Value *Offset, llvm::Value *Count,
                                 bool Signed);

bool isComponentBinary(spv::Op Op);
bool isComponentUnary(spv::Op Op);

} // namespace spirv2llvm

#endif
