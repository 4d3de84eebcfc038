//===- Linearizer.h - Masked control flow of one SIMD function --*- C++ -*-===//
//
// The linearization of Karrenberg and Hack ("Whole-Function Vectorization",
// CGO 2011) in its simplest form: blocks are emitted in the structure
// tree's order, which is a topological order of every loop level. Each
// block has a lane mask that its incoming edges OR into; the block runs
// behind an any-lane test of its mask, so an arm no lane takes is skipped.
// A branch computes one mask per outgoing edge (a uniform condition selects
// the whole mask or none). A loop is a real LLVM loop around its blocks: the
// back edge's mask becomes the header's mask for the next iteration, and the
// loop repeats while any lane continues. Phis become per-edge selects.
//
// The LLVM CFG is a chain in structure tree order: each block is
//
//   guard:  %mask = load mask slot; br (any lane of %mask), body, next
//   body:   phis from their slots; instructions; edge masks to successors
//   next:   the following item
//
// and each loop wraps its items in a header/latch pair whose back edge is
// taken while any lane continues.
//
// The linearizer owns the control state of one function (mask, back-edge
// and phi slots and when they are zeroed) and emits phis and terminators;
// everything else inside a block is the widening of instructions, which it
// hands to SimdEmitter::emitInstruction with the block's mask in
// FunctionState::CurMask.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_SIMD_LINEARIZER_H
#define SPIRV2LLVM_CODEGEN_SIMD_LINEARIZER_H

#include "cfg/FunctionAnalysis.h"
#include "parser/Module.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <unordered_map>
#include <vector>

namespace spirv2llvm::simd {

class SimdEmitter;

class Linearizer {
public:
  /// For the emitter's current function (SimdEmitter::beginFunction).
  explicit Linearizer(SimdEmitter &E);

  /// The mask, back-edge and phi slots of every block; the entry block's
  /// mask starts as the function's entry mask.
  void createSlots();
  /// Emits the function's blocks in structure order at the insertion point.
  void emitBody();
  /// After slot promotion: folds the always-true branches emitZeroStores
  /// left back into straight-line code.
  void foldZeroDiamonds();

private:
  void emitItems(uint32_t Node);
  void emitLoop(uint32_t Node);
  void emitBlock(cfg::BlockIndex Bk);
  void emitTerminator(cfg::BlockIndex Bk, const Instruction &T);
  /// Sends lanes \p EdgeMask from \p From to \p To: ORs them into To's mask
  /// (or its loop's continue mask for a back edge) and updates To's phis.
  /// \p Taken, if known, is a scalar that is true iff some lane takes the
  /// edge (a uniform branch's condition); otherwise it is computed from the
  /// mask when a uniform target or phi needs it.
  void addEdge(cfg::BlockIndex From, cfg::BlockIndex To, llvm::Value *EdgeMask,
               llvm::Value *Taken);
  /// The structure item before which the slots of block \p Bk start at
  /// zero (InitBefore).
  uint32_t initItem(cfg::BlockIndex Bk) const;
  /// Sets \p Slots to zero at the insertion point (see the .cpp for why
  /// through a diamond).
  void emitZeroStores(llvm::ArrayRef<llvm::AllocaInst *> Slots);
  /// Whether a divergent block is cheaper to run unguarded (with possibly
  /// no lane active) than behind an any-lane branch.
  bool isCheapUnguarded(const Block &Blk) const;
  /// llvm.loop metadata for the hints of the loop headed by \p Header.
  llvm::MDNode *loopMetadata(cfg::BlockIndex Header);

  SimdEmitter &E;
  llvm::IRBuilder<> &B;
  llvm::LLVMContext &Ctx;
  const Module &M;
  const Function &F;
  const cfg::FunctionAnalysis &A;

  /// Per block: lane mask (Varying block) or reached flag (Uniform block).
  std::vector<llvm::AllocaInst *> MaskSlots;
  /// Per loop header: the same for lanes taking the back edge.
  std::vector<llvm::AllocaInst *> ContSlots;
  /// Per phi result: one accumulator per component.
  std::unordered_map<uint32_t, llvm::SmallVector<llvm::AllocaInst *, 4>>
      PhiSlots;
  /// Per structure item: the slots (mask, back edge, phi) to set to zero
  /// just before it. A slot is set before the item, at its block's level,
  /// that holds the block's immediate dominator, not in the entry block, so
  /// that its live range (and the SSA construction's work on it) spans its
  /// construct rather than the function.
  std::unordered_map<uint32_t, llvm::SmallVector<llvm::AllocaInst *, 4>>
      InitBefore;
  /// Blocks ending in the always-true branch of emitZeroStores().
  std::vector<llvm::BasicBlock *> ZeroDiamonds;
};

} // namespace spirv2llvm::simd

#endif
