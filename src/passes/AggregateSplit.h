// Splitting of SSA aggregates that hold vectors, for the scalarizer.
#pragma once

namespace llvm {
class Function;
} // namespace llvm

namespace spirv2llvm {

/// Replaces every SSA value of struct or array type that holds a vector
/// ({<4 x float>, i32}, [4 x <4 x float>], ...) by its members, recursively
/// down to scalars and vectors ("leaves"), which LLVM's Scalarizer then
/// splits further:
///  - loads and stores of such aggregates become one access per leaf at the
///    leaf's byte offset (i8 GEPs; the memory layout is unchanged);
///  - insertvalue / extractvalue become leaf bookkeeping, phis, selects and
///    freezes one instruction per leaf;
///  - element-wise intrinsics returning a struct of vectors
///    (llvm.uadd.with.overflow.v4i32, llvm.frexp.v4f32.v4i32) become one
///    call of the scalar intrinsic per lane.
/// Uses it cannot follow (arguments of calls to functions whose signature is
/// not rewritten, returns of such functions) get the aggregate rebuilt from
/// its leaves. Unreachable blocks are removed first. Returns true if F
/// changed.
bool splitVectorAggregates(llvm::Function &F);

} // namespace spirv2llvm
