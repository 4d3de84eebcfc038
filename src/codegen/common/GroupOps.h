//===- GroupOps.h - Group operation semantics shared by the back ends -*- C++ -*-===//
//
// The combine operations of the opcode table (CombineKind: the arithmetic
// GroupNonUniform operations IAdd ... LogicalXor, and the atomics' updates)
// as LLVM values: written once for the SIMD back end (a subgroup of W
// lanes) and the one-invocation back end (a subgroup of one).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_GROUPOPS_H
#define SPIRV2LLVM_CODEGEN_GROUPOPS_H

#include "parser/OpcodeTable.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

namespace spirv2llvm {

/// Identity of the group combine operation \p Kind for scalar type
/// \p ScalarT, or nullptr if \p Kind has none (None, Sub, Exchange).
/// \p ForFill asks for the value that leaves every input unchanged (-0.0
/// for FAdd, so a sum of -0.0 stays -0.0), otherwise the spec's identity
/// (+0.0), which ExclusiveScan gives the first lane.
llvm::Constant *groupIdentity(CombineKind Kind, llvm::Type *ScalarT,
                              bool ForFill);

/// \p X combined with \p Y (component-wise for vectors) by \p Kind, which
/// must have an identity (groupIdentity). FMin and FMax are minnum and
/// maxnum: a NaN operand yields the other one.
llvm::Value *emitGroupCombine(llvm::IRBuilder<> &B, CombineKind Kind,
                              llvm::Value *X, llvm::Value *Y);

} // namespace spirv2llvm

#endif
