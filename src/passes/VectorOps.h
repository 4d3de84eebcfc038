// Vector-to-scalar expansions shared by the DXIL passes.
#pragma once

namespace llvm {
class Function;
class IntrinsicInst;
class Value;
} // namespace llvm

namespace spirv2llvm {

/// llvm.vector.reduce.* become chains of scalar operations (left to right,
/// the order the ordered fadd/fmul reductions need). KeepAndOr leaves the
/// and/or reductions, which DXIL 1.9 has as VectorReduceAnd/Or.
bool expandReductions(llvm::Function &F, bool KeepAndOr);

/// Splits a trivially vectorizable intrinsic call on vectors into one scalar
/// call per element; returns the rebuilt vector, or null if not applicable.
llvm::Value *scalarizeIntrinsicCall(llvm::IntrinsicInst *II);

} // namespace spirv2llvm
