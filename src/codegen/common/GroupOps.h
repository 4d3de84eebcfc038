//===- GroupOps.h - Group operation semantics shared by the back ends -*- C++ -*-===//
//
// The arithmetic GroupNonUniform operations (IAdd ... LogicalXor) as values:
// written once for the SIMD back end (a subgroup of W lanes) and the
// one-invocation back end (a subgroup of one).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_GROUPOPS_H
#define SPIRV2LLVM_CODEGEN_GROUPOPS_H

#include "llvm/IR/Constants.h"

#include <spirv/unified1/spirv.hpp11>

namespace spirv2llvm {

/// Identity of the arithmetic group operation \p Kind for scalar type
/// \p ScalarT, or nullptr if \p Kind is not one. \p ForFill asks for the
/// value that leaves every input unchanged (-0.0 for FAdd, so a sum of
/// -0.0 stays -0.0), otherwise the spec's identity (+0.0), which
/// ExclusiveScan gives the first lane.
llvm::Constant *groupIdentity(spv::Op Kind, llvm::Type *ScalarT,
                              bool ForFill);

} // namespace spirv2llvm

#endif
