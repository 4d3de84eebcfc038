//===- SlotPromotion.cpp - SSA for the emitter's slots in large functions -===//
//
// The masked code keeps block masks, back-edge masks and phi accumulators in
// allocas ("slots") and turns them into SSA values at the end. mem2reg's
// iterated dominance frontiers walk the whole dominator subtree of every
// block that defines a slot (or gets a phi for it), and in the emitter's
// chain of guarded blocks that subtree is the rest of the function.
// LLVM's SSAUpdater walks back from each load only, but recomputes
// dominators over the blocks it walked until they stop changing, which in
// nested loops takes about one round per loop level: 1,000 nested loops
// spent minutes there.
//
// This is the construction of Braun et al. ("Simple and Efficient
// Construction of Static Single Assignment Form", CC 2013) restricted to a
// slot's live range: the blocks where the slot is live on entry are found
// by walking back from the loads that read it before any store of their
// block; those blocks are visited in the function's reverse postorder, a
// block with one already-visited predecessor takes that predecessor's
// value and any other gets a phi; then phis whose operands are one value
// (or the phi itself) are replaced by that value until none is left. Each
// slot costs its live range (times log of it, for the sort), whatever the
// nesting.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SlotPromotion.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>

using namespace llvm;

namespace spirv2llvm::simd {

namespace {

/// Per-function state shared by all slots: block numbers in reverse
/// postorder and per-block scratch fields stamped with the slot being
/// promoted, so that nothing is cleared between slots.
class SlotPromoter {
public:
  explicit SlotPromoter(Function &F) : DT(F) {
    unsigned N = 0;
    for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
      Order[BB] = N++;
    // Unreachable blocks (none expected) go last.
    for (BasicBlock &BB : F)
      if (Order.try_emplace(&BB, N).second)
        ++N;
    Info.resize(N);
  }

  bool promote(AllocaInst *AI);

private:
  struct BlockInfo {
    unsigned Stamp = 0;   ///< slot generation this entry belongs to
    bool LiveIn = false;  ///< the slot's value on entry is read
    bool HasAccess = false;
    bool Visited = false; ///< value on exit known (OutVal)
    Value *OutVal = nullptr;
    PHINode *Phi = nullptr;
    SmallVector<llvm::Instruction *, 2> Accesses; ///< in block order
  };
  BlockInfo &info(BasicBlock *BB) {
    BlockInfo &I = Info[Order.lookup(BB)];
    if (I.Stamp != Stamp) {
      I = BlockInfo();
      I.Stamp = Stamp;
    }
    return I;
  }

  DominatorTree DT;
  DenseMap<BasicBlock *, unsigned> Order;
  std::vector<BlockInfo> Info;
  unsigned Stamp = 0;
};

bool SlotPromoter::promote(AllocaInst *AI) {
  Type *Ty = AI->getAllocatedType();
  for (User *U : AI->users()) {
    if (auto *L = dyn_cast<LoadInst>(U)) {
      if (L->getType() != Ty || L->isVolatile())
        return false;
    } else if (auto *S = dyn_cast<StoreInst>(U)) {
      if (S->getPointerOperand() != AI ||
          S->getValueOperand()->getType() != Ty || S->isVolatile())
        return false;
    } else {
      return false;
    }
  }
  ++Stamp;

  // The accesses of each block, in order.
  SmallVector<BasicBlock *, 32> Blocks;
  for (User *U : AI->users()) {
    auto *I = cast<llvm::Instruction>(U);
    BlockInfo &BI = info(I->getParent());
    if (!BI.HasAccess) {
      BI.HasAccess = true;
      Blocks.push_back(I->getParent());
    }
    BI.Accesses.push_back(I);
  }
  for (BasicBlock *BB : Blocks) {
    auto &Acc = info(BB).Accesses;
    if (Acc.size() > 1)
      llvm::sort(Acc, [](llvm::Instruction *A, llvm::Instruction *B) {
        return A->comesBefore(B);
      });
  }

  SmallVector<BasicBlock *, 8> StoreBlocks;
  for (BasicBlock *BB : Blocks)
    if (llvm::any_of(info(BB).Accesses,
                     [](auto *I) { return isa<StoreInst>(I); }))
      StoreBlocks.push_back(BB);

  // Live-in blocks: back from every block whose first access is a load,
  // through predecessors, stopping at blocks that store.
  SmallVector<BasicBlock *, 64> Region(Blocks.begin(), Blocks.end());
  SmallVector<BasicBlock *, 64> Work;
  for (BasicBlock *BB : Blocks) {
    BlockInfo &BI = info(BB);
    if (isa<LoadInst>(BI.Accesses.front())) {
      BI.LiveIn = true;
      Work.push_back(BB);
    }
  }
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    for (BasicBlock *P : predecessors(BB)) {
      BlockInfo &PI = info(P);
      bool Stores = PI.HasAccess && llvm::any_of(PI.Accesses, [](auto *I) {
                      return isa<StoreInst>(I);
                    });
      if (Stores || PI.LiveIn)
        continue;
      if (!PI.HasAccess) {
        PI.HasAccess = true; // in the region, no access of its own
        Region.push_back(P);
      }
      PI.LiveIn = true;
      Work.push_back(P);
    }
  }

  // Values along the region in reverse postorder. A block live on entry
  // takes the value of its only predecessor when that one is done, and a
  // phi otherwise (loop headers, joins); the phis get their operands once
  // every block is done.
  SmallVector<std::pair<unsigned, BasicBlock *>, 64> Sorted;
  Sorted.reserve(Region.size());
  for (BasicBlock *BB : Region)
    Sorted.push_back({Order.lookup(BB), BB});
  llvm::sort(Sorted, llvm::less_first());
  SmallVector<PHINode *, 32> Phis;
  Value *Undef = UndefValue::get(Ty);
  for (auto [Number, BB] : Sorted) {
    BlockInfo &BI = info(BB);
    Value *Cur = Undef;
    if (BI.LiveIn) {
      // One value from every predecessor (all done: a forward join) needs
      // no phi; a predecessor not done yet is a back edge.
      // A back edge brings the value on entry back unless the loop
      // stores: no phi then either. The loop's blocks are dominated by BB
      // and, reaching a latch, come before the last latch in reverse
      // postorder (the blocks after the loop that BB dominates do not).
      // Without this, every loop inside the slot's live range got a phi,
      // and removing those chains moved their uses outwards one loop at a
      // time (depth^2 per slot).
      Value *Same = nullptr;
      bool Phi = pred_empty(BB), BackEdge = false;
      unsigned LastLatch = 0;
      for (BasicBlock *P : predecessors(BB)) {
        BlockInfo &PI = info(P);
        if (!PI.Visited) {
          BackEdge = true;
          LastLatch = std::max(LastLatch, Order.lookup(P));
          continue;
        }
        if (Same && PI.OutVal != Same) {
          Phi = true;
          break;
        }
        Same = PI.OutVal;
      }
      if (!Phi && BackEdge) {
        constexpr size_t MaxStoresChecked = 16;
        Phi = !Same || StoreBlocks.size() > MaxStoresChecked ||
              llvm::any_of(StoreBlocks, [&](BasicBlock *D) {
                unsigned O = Order.lookup(D);
                return O >= Number && O <= LastLatch && DT.dominates(BB, D);
              });
      }
      if (pred_empty(BB)) {
        Cur = Undef; // read before any store: undefined, as in mem2reg
      } else if (!Phi) {
        Cur = Same;
      } else {
        BI.Phi = PHINode::Create(Ty, pred_size(BB), AI->getName(),
                                 BB->begin());
        Phis.push_back(BI.Phi);
        Cur = BI.Phi;
      }
    }
    for (llvm::Instruction *I : BI.Accesses) {
      if (auto *L = dyn_cast<LoadInst>(I)) {
        L->replaceAllUsesWith(Cur);
        L->eraseFromParent();
      } else {
        auto *S = cast<StoreInst>(I);
        Cur = S->getValueOperand();
        S->eraseFromParent();
      }
    }
    BI.Accesses.clear();
    BI.OutVal = Cur;
    BI.Visited = true;
  }
  for (PHINode *Phi : Phis) {
    BasicBlock *BB = Phi->getParent();
    for (BasicBlock *P : predecessors(BB)) {
      // Every predecessor of a live-in block is in the region: it stores,
      // or the walk above made it live-in.
      BlockInfo &PI = info(P);
      Phi->addIncoming(PI.Visited ? PI.OutVal : Undef, P);
    }
  }

  // Phis of one value (besides themselves) are that value; removing one
  // can make the phis that use it trivial in turn.
  SmallVector<PHINode *, 32> Queue(Phis.begin(), Phis.end());
  SmallPtrSet<PHINode *, 32> Erased;
  while (!Queue.empty()) {
    PHINode *Phi = Queue.pop_back_val();
    if (Erased.count(Phi))
      continue;
    Value *Same = nullptr;
    bool Trivial = true;
    for (Value *V : Phi->incoming_values()) {
      if (V == Phi || V == Same)
        continue;
      if (Same) {
        Trivial = false;
        break;
      }
      Same = V;
    }
    if (!Trivial)
      continue;
    if (!Same)
      Same = Undef; // unreachable or only a cycle of itself
    SmallVector<PHINode *, 4> Users;
    for (User *U : Phi->users())
      if (auto *UP = dyn_cast<PHINode>(U); UP && UP != Phi)
        Users.push_back(UP);
    Phi->replaceAllUsesWith(Same);
    Phi->eraseFromParent();
    Erased.insert(Phi);
    Queue.append(Users.begin(), Users.end());
  }
  AI->eraseFromParent();
  return true;
}

} // namespace

SmallVector<AllocaInst *, 0> promoteSlotsLinear(Function &F,
                                                ArrayRef<AllocaInst *> Slots) {
  SlotPromoter P(F);
  SmallVector<AllocaInst *, 0> Rest;
  for (AllocaInst *AI : Slots)
    if (!P.promote(AI))
      Rest.push_back(AI);
  return Rest;
}

} // namespace spirv2llvm::simd
