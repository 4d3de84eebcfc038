//===- MaskWidening.cpp - Lane masks as full-width lanes ------------------===//
//
// See MaskWidening.h.
//
//===----------------------------------------------------------------------===//
#include "target/MaskWidening.h"
#include "target/Optimizer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

/// For A/B measurements (s2l-bench accepts it: never) and for tests on
/// hosts with AVX-512, where the rewrite is otherwise off (always).
cl::opt<LoweringMode>
    Mode("s2l-mask-widening", cl::Hidden, cl::init(LoweringMode::Auto),
         cl::desc("lane masks as <W x i32> sign masks (MaskWidening.h)"),
         loweringModeValues("on x86 targets without AVX-512 (default)"));

/// A lane mask of at least 8 lanes: the widths x86 without AVX-512
/// legalizes to narrower integer lanes than the values they select.
bool isWideMask(Type *T) {
  auto *VT = dyn_cast<FixedVectorType>(T);
  return VT && VT->getElementType()->isIntegerTy(1) &&
         VT->getNumElements() >= 8;
}

/// Whether \p I computes a mask from masks the way its twin can from
/// theirs: phis, logic, selects and freezes. Other masks (compares, masks
/// made from integers, call results) get a sign-extended twin.
bool isMaskLogic(const Instruction &I) {
  if (!isWideMask(I.getType()))
    return false;
  if (auto *BO = dyn_cast<BinaryOperator>(&I))
    return BO->getOpcode() == Instruction::And ||
           BO->getOpcode() == Instruction::Or ||
           BO->getOpcode() == Instruction::Xor;
  return isa<PHINode>(I) || isa<SelectInst>(I) || isa<FreezeInst>(I);
}

class Widener {
public:
  explicit Widener(Function &F) : F(F), DL(F.getParent()->getDataLayout()) {}

  bool run() {
    // Definitions before uses, but for phis: their twins come first.
    SmallVector<Instruction *, 64> Logic;
    SmallVector<Value *, 64> Masks;
    for (BasicBlock *BB : ReversePostOrderTraversal<Function *>(&F))
      for (Instruction &I : *BB)
        if (isWideMask(I.getType())) {
          Masks.push_back(&I);
          if (isMaskLogic(I))
            Logic.push_back(&I);
        }
    for (Argument &A : F.args())
      if (isWideMask(A.getType()))
        Masks.push_back(&A);
    if (Masks.empty())
      return false;

    for (Instruction *I : Logic)
      if (auto *P = dyn_cast<PHINode>(I))
        Twins[P] =
            PHINode::Create(twinType(P->getType()), P->getNumIncomingValues(),
                            P->getName() + ".lanes", P->getIterator());
    for (Instruction *I : Logic)
      if (!isa<PHINode>(I))
        Twins[I] = twinOfLogic(*I);
    for (Instruction *I : Logic)
      if (auto *P = dyn_cast<PHINode>(I)) {
        auto *T = cast<PHINode>(Twins[P]);
        for (unsigned K = 0; K < P->getNumIncomingValues(); ++K)
          T->addIncoming(twinOf(P->getIncomingValue(K)),
                         P->getIncomingBlock(K));
      }

    // Every other use narrows the twin where it is: a select's or a
    // masked access's condition, a bitcast to an integer (any lane).
    for (Value *V : Masks)
      for (Use &U : make_early_inc_range(V->uses())) {
        auto *User = cast<Instruction>(U.getUser());
        if (isMaskLogic(*User) || Made.count(User))
          continue;
        U.set(narrowBefore(V, User));
      }
    // The mask logic is used by itself at most now.
    for (Instruction *I : Logic)
      I->replaceAllUsesWith(PoisonValue::get(I->getType()));
    for (Instruction *I : Logic)
      I->eraseFromParent();
    return true;
  }

private:
  Function &F;
  const DataLayout &DL;
  DenseMap<Value *, Value *> Twins;
  /// The instructions this pass made (twins and narrowed masks), whose
  /// uses of masks stay.
  SmallPtrSet<Instruction *, 32> Made;

  static Type *twinType(Type *Mask) {
    auto *VT = cast<FixedVectorType>(Mask);
    return FixedVectorType::get(Type::getInt32Ty(Mask->getContext()),
                                VT->getNumElements());
  }

  Value *made(Value *V) {
    if (auto *I = dyn_cast<Instruction>(V))
      Made.insert(I);
    return V;
  }

  /// The twin of mask logic \p I: the same operation on its operands'
  /// twins, just before \p I.
  Value *twinOfLogic(Instruction &I) {
    IRBuilder<> B(&I);
    std::string Name = (I.getName() + ".lanes").str();
    if (auto *BO = dyn_cast<BinaryOperator>(&I))
      return made(B.CreateBinOp(BO->getOpcode(), twinOf(BO->getOperand(0)),
                                twinOf(BO->getOperand(1)), Name));
    if (auto *S = dyn_cast<SelectInst>(&I)) {
      Value *C = S->getCondition();
      if (isWideMask(C->getType()))
        C = narrowBefore(C, &I);
      return made(B.CreateSelect(C, twinOf(S->getTrueValue()),
                                 twinOf(S->getFalseValue()), Name));
    }
    return made(
        B.CreateFreeze(twinOf(cast<FreezeInst>(I).getOperand(0)), Name));
  }

  /// The <N x i32> twin of mask \p V: all ones where \p V is set.
  Value *twinOf(Value *V) {
    if (Value *T = Twins.lookup(V))
      return T;
    Type *Ty = twinType(V->getType());
    if (auto *C = dyn_cast<Constant>(V))
      if (Constant *Folded =
              ConstantFoldCastOperand(Instruction::SExt, C, Ty, DL))
        return Twins[V] = Folded;
    // Right after the definition, so that it dominates every use of the
    // mask.
    BasicBlock::iterator Where = F.getEntryBlock().getFirstInsertionPt();
    if (auto *I = dyn_cast<Instruction>(V))
      Where = isa<PHINode>(I) ? I->getParent()->getFirstInsertionPt()
                              : std::next(I->getIterator());
    IRBuilder<> B(&*Where->getParent(), Where);
    return Twins[V] = made(B.CreateSExt(V, Ty, V->getName() + ".lanes"));
  }

  /// Mask \p V again, from its twin, just before \p User.
  Value *narrowBefore(Value *V, Instruction *User) {
    Value *T = twinOf(V);
    IRBuilder<> B(User);
    return made(B.CreateICmpSLT(T, Constant::getNullValue(T->getType()),
                                V->getName() + ".mask"));
  }
};

} // namespace

bool widenMasks(Function &F) {
  if (F.isDeclaration())
    return false;
  return Widener(F).run();
}

bool needsMaskWidening(const TargetMachine &TM) {
  return loweringApplies(Mode, TM, "+avx512f");
}

PreservedAnalyses MaskWideningPass::run(Function &F,
                                        FunctionAnalysisManager &) {
  if (!widenMasks(F))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace spirv2llvm
