//===- ComponentOps.h - Component-wise SPIR-V arithmetic --------*- C++ -*-===//
//
// The core arithmetic, logical, comparison and conversion instructions that
// act component by component, as IRBuilder calls on one operand value. The
// value may be a scalar, a SIMD lane vector <W x T> (SIMD back end) or a
// SPIR-V vector <N x T> (one-invocation back end): the operations are the
// same, so both back ends share them. Which LLVM operation an opcode is
// comes from the opcode table's Bin, Cmp, Unary and Cast columns (and Intr
// and Cast for the per-component Eval kinds below), not from a switch over
// opcodes.
//
// Where LLVM has undefined behaviour and SPIR-V only an undefined value the
// operation is guarded: integer division by zero (and INT_MIN / -1) divides
// by 1 instead, shift amounts are taken modulo the bit width, float to
// integer conversions saturate.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_COMPONENTOPS_H
#define SPIRV2LLVM_CODEGEN_COMPONENTOPS_H

#include "parser/OpcodeTable.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"

#include <spirv/unified1/spirv.hpp11>

namespace spirv2llvm {

/// \p Op applied to \p X and \p Y (binary arithmetic, logic, shifts and
/// comparisons: the opcode table's Bin and Cmp columns), or nullptr if \p Op
/// is not such an instruction.
llvm::Value *emitComponentBinary(llvm::IRBuilder<> &B, spv::Op Op,
                                 llvm::Value *X, llvm::Value *Y);

/// \p Op applied to \p X with result type \p T (negation, not,
/// conversions, bitcast, copies: the Unary and Cast columns), or nullptr if
/// \p Op is not such an instruction.
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

/// The binary operator \p K on \p X and \p Y, guarded as the file comment
/// says (a shift amount of another width is converted to \p X's).
llvm::Value *emitBinaryOp(llvm::IRBuilder<> &B, BinaryOpKind K,
                          llvm::Value *X, llvm::Value *Y);
/// \p X converted to \p T by \p K (CastKind: extensions truncate where
/// \p T is narrower, float to integer saturates).
llvm::Value *emitCast(llvm::IRBuilder<> &B, CastKind K, llvm::Value *X,
                      llvm::Type *T);
/// Eval=FloatTest: |X| compared with +infinity by \p K (isnan, isinf).
llvm::Value *emitFloatTest(llvm::IRBuilder<> &B, CompareKind K,
                           llvm::Value *X);
/// Eval=WithOverflow: {result, carry or borrow as X's type}.
std::pair<llvm::Value *, llvm::Value *>
emitWithOverflow(llvm::IRBuilder<> &B, IntrinsicKind K, llvm::Value *X,
                 llvm::Value *Y);
/// Eval=ExtendedMul: {low, high} halves of the product of \p X and \p Y
/// extended to twice their width by \p K.
std::pair<llvm::Value *, llvm::Value *>
emitExtendedMul(llvm::IRBuilder<> &B, CastKind K, llvm::Value *X,
                llvm::Value *Y);

/// LLVM's names for the opcode table's columns.
llvm::Instruction::BinaryOps llvmBinaryOp(BinaryOpKind K);
llvm::CmpInst::Predicate llvmPredicate(CompareKind K);
llvm::Intrinsic::ID llvmIntrinsic(IntrinsicKind K);

bool isComponentBinary(spv::Op Op);
bool isComponentUnary(spv::Op Op);

} // namespace spirv2llvm

#endif
