//===- SlotPromotion.h - SSA for the emitter's slots in large functions ---===//
//
// Promotes allocas that are only loaded and stored (the SIMD emitter's
// mask, back-edge and phi slots) to SSA values at a cost of each slot's
// live range, for functions where mem2reg and SSAUpdater grow faster than
// the size (SlotPromotion.cpp says why).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_SIMD_SLOTPROMOTION_H
#define SPIRV2LLVM_CODEGEN_SIMD_SLOTPROMOTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace spirv2llvm::simd {

/// Promotes each of \p Slots (allocas of \p F) that only whole-value,
/// non-volatile loads and stores use, and erases it. Returns the others.
llvm::SmallVector<llvm::AllocaInst *, 0>
promoteSlotsLinear(llvm::Function &F, llvm::ArrayRef<llvm::AllocaInst *> Slots);

} // namespace spirv2llvm::simd

#endif
