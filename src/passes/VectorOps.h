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

/// clang's HLSL intrinsics without a DXIL operation (llvm.dx.clamp, uclamp,
/// lerp, rcp, any, all, sdot, udot) become the operations DXC expands them
/// to. KeepVectors keeps vector arithmetic (native vectors) instead of
/// splitting any/all/sdot/udot into element chains.
bool expandDxIntrinsics(llvm::Function &F, bool KeepVectors);

/// clang's element-wise HLSL intrinsics with a DXIL operation (llvm.dx.frac,
/// rsqrt, isinf, imad, umad).
bool isElementwiseDxIntrinsic(unsigned IntrinsicID);

/// Splits a trivially vectorizable intrinsic call on vectors into one scalar
/// call per element; returns the rebuilt vector, or null if not applicable.
llvm::Value *scalarizeIntrinsicCall(llvm::IntrinsicInst *II);

} // namespace spirv2llvm
