// dxil-native-vectors (seed dxil-native-vectors.md, DXIL 1.9): vectors stay
// vectors in SSA values, allocas, globals and groupshared memory, and arrays
// of vectors stay arrays of vectors. This pass does what 1.9 still forbids:
//  - single-element vectors become scalars, in memory (globals, allocas) and
//    in SSA values; exported (externally visible) functions keep <1 x T> in
//    their signatures, converted at the boundary;
//  - vector reductions other than and/or (VectorReduceAnd/Or exist) and
//    vector calls of intrinsics without an element-wise DXIL operation are
//    scalarized.
// The pipeline then runs dxil-flatten-arrays (multi-dimensional arrays are
// still flattened) and dxil-op-lower<vectors> (vector dx.op overloads).
#include "passes/DxilPasses.h"
#include "passes/LayoutRewriter.h"
#include "passes/VectorOps.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace spirv2llvm {
namespace {

bool isOneVec(Type *T) {
  auto *VT = dyn_cast<FixedVectorType>(T);
  return VT && VT->getNumElements() == 1;
}

Type *scalarOf(Type *T) { return isOneVec(T) ? T->getScalarType() : T; }

bool involvesOneVec(Instruction &I) {
  if (isOneVec(I.getType()))
    return true;
  return any_of(I.operands(),
                [](Value *V) { return isOneVec(V->getType()); });
}

bool convertible(Instruction &I) {
  if (isa<BinaryOperator, UnaryOperator, CmpInst, CastInst, SelectInst,
          PHINode, LoadInst, StoreInst, FreezeInst, ExtractElementInst,
          InsertElementInst, ShuffleVectorInst>(I))
    return !isa<LoadInst>(I) || cast<LoadInst>(I).isSimple();
  if (auto *II = dyn_cast<IntrinsicInst>(&I))
    return isTriviallyVectorizable(II->getIntrinsicID());
  return false;
}

/// Rewrites every <1 x T> value of F as a T value.
class OneElementVectors {
public:
  explicit OneElementVectors(Function &F) : F(F) {}

  bool run() {
    ReversePostOrderTraversal<Function *> RPOT(&F);
    for (BasicBlock *BB : RPOT)
      for (Instruction &I : *BB)
        if (involvesOneVec(I) && convertible(I))
          Work.push_back(&I);
    if (Work.empty())
      return false;
    for (Instruction *I : Work)
      convert(I);
    for (auto &[Old, New] : Phis)
      for (unsigned K = 0; K < Old->getNumIncomingValues(); ++K)
        New->addIncoming(scalar(Old->getIncomingValue(K)),
                         Old->getIncomingBlock(K));
    // Users we did not convert (calls, returns, ...) get the vector back.
    SmallPtrSet<Instruction *, 32> Converted(Work.begin(), Work.end());
    for (Instruction *I : Work) {
      if (!isOneVec(I->getType()))
        continue;
      SmallVector<Use *, 4> Outside;
      for (Use &U : I->uses())
        if (!Converted.count(cast<Instruction>(U.getUser())))
          Outside.push_back(&U);
      if (Outside.empty())
        continue;
      IRBuilder<> B(I->getParent(),
                    isa<PHINode>(I) ? I->getParent()->getFirstInsertionPt()
                                    : I->getIterator());
      Value *V = B.CreateInsertElement(PoisonValue::get(I->getType()),
                                       scalar(I), (uint64_t)0);
      for (Use *U : Outside)
        U->set(V);
    }
    for (Instruction *I : Work)
      I->dropAllReferences();
    for (Instruction *I : Work)
      I->eraseFromParent();
    return true;
  }

private:
  /// The scalar standing for <1 x T> value V.
  Value *scalar(Value *V) {
    if (auto It = Map.find(V); It != Map.end())
      return It->second;
    Value *R;
    if (auto *C = dyn_cast<Constant>(V)) {
      R = C->getAggregateElement(0u);
    } else if (auto *A = dyn_cast<Argument>(V)) {
      IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
      R = B.CreateExtractElement(A, (uint64_t)0, A->getName() + ".s");
    } else {
      auto *I = cast<Instruction>(V);
      auto Pt = I->getInsertionPointAfterDef();
      IRBuilder<> B(I->getParent(), *Pt);
      R = B.CreateExtractElement(I, (uint64_t)0, I->getName() + ".s");
    }
    Map[V] = R;
    return R;
  }

  Value *op(Value *V) { return isOneVec(V->getType()) ? scalar(V) : V; }

  void convert(Instruction *I) {
    IRBuilder<> B(I);
    Value *N = nullptr;
    if (auto *BO = dyn_cast<BinaryOperator>(I)) {
      N = B.CreateBinOp(BO->getOpcode(), op(BO->getOperand(0)),
                        op(BO->getOperand(1)));
    } else if (auto *UO = dyn_cast<UnaryOperator>(I)) {
      N = B.CreateUnOp(UO->getOpcode(), op(UO->getOperand(0)));
    } else if (auto *Cmp = dyn_cast<CmpInst>(I)) {
      N = B.CreateCmp(Cmp->getPredicate(), op(Cmp->getOperand(0)),
                      op(Cmp->getOperand(1)));
    } else if (auto *Cast = dyn_cast<CastInst>(I)) {
      N = B.CreateCast(Cast->getOpcode(), op(Cast->getOperand(0)),
                       scalarOf(Cast->getType()));
    } else if (auto *Sel = dyn_cast<SelectInst>(I)) {
      N = B.CreateSelect(op(Sel->getCondition()), op(Sel->getTrueValue()),
                         op(Sel->getFalseValue()));
    } else if (auto *Phi = dyn_cast<PHINode>(I)) {
      PHINode *P = B.CreatePHI(scalarOf(Phi->getType()),
                               Phi->getNumIncomingValues());
      Phis.push_back({Phi, P});
      N = P;
    } else if (auto *LI = dyn_cast<LoadInst>(I)) {
      N = B.CreateAlignedLoad(scalarOf(LI->getType()), LI->getPointerOperand(),
                              LI->getAlign(), LI->isVolatile());
    } else if (auto *SI = dyn_cast<StoreInst>(I)) {
      B.CreateAlignedStore(op(SI->getValueOperand()), SI->getPointerOperand(),
                           SI->getAlign(), SI->isVolatile());
      return;
    } else if (auto *Fr = dyn_cast<FreezeInst>(I)) {
      N = B.CreateFreeze(op(Fr->getOperand(0)));
    } else if (auto *EE = dyn_cast<ExtractElementInst>(I)) {
      N = isOneVec(EE->getVectorOperandType())
              ? scalar(EE->getVectorOperand())
              : B.CreateExtractElement(EE->getVectorOperand(),
                                       EE->getIndexOperand());
    } else if (auto *IE = dyn_cast<InsertElementInst>(I)) {
      N = isOneVec(IE->getType())
              ? IE->getOperand(1)
              : B.CreateInsertElement(IE->getOperand(0), IE->getOperand(1),
                                      IE->getOperand(2));
    } else if (auto *SV = dyn_cast<ShuffleVectorInst>(I)) {
      unsigned K =
          cast<FixedVectorType>(SV->getOperand(0)->getType())->getNumElements();
      auto Lane = [&](int M) -> Value * {
        if (M < 0)
          return PoisonValue::get(SV->getType()->getScalarType());
        Value *Src = SV->getOperand(M / K);
        return K == 1 ? scalar(Src)
                      : B.CreateExtractElement(Src, (uint64_t)(M % K));
      };
      ArrayRef<int> Mask = SV->getShuffleMask();
      if (isOneVec(SV->getType())) {
        N = Lane(Mask[0]);
      } else {
        N = PoisonValue::get(SV->getType());
        for (unsigned L = 0; L < Mask.size(); ++L)
          N = B.CreateInsertElement(N, Lane(Mask[L]), (uint64_t)L);
      }
    } else {
      auto *II = cast<IntrinsicInst>(I);
      SmallVector<Type *, 4> Tys;
      Intrinsic::getIntrinsicSignature(II->getCalledFunction(), Tys);
      for (Type *&T : Tys)
        T = scalarOf(T);
      SmallVector<Value *, 4> Args;
      for (Value *A : II->args())
        Args.push_back(op(A));
      CallInst *C = B.CreateCall(
          Intrinsic::getDeclaration(F.getParent(), II->getIntrinsicID(), Tys),
          Args);
      C->copyFastMathFlags(II);
      N = C;
    }
    if (auto *NI = dyn_cast<Instruction>(N); NI && NI != I) {
      if (!isa<PHINode>(NI))
        NI->copyIRFlags(I);
      NI->takeName(I);
    }
    if (isOneVec(I->getType()))
      Map[I] = N;
    else
      I->replaceAllUsesWith(N);
  }

  Function &F;
  SmallVector<Instruction *, 32> Work;
  DenseMap<Value *, Value *> Map;
  SmallVector<std::pair<PHINode *, PHINode *>, 4> Phis;
};

/// Vector calls of intrinsics that have no element-wise DXIL operation are
/// split per element.
bool scalarizeNonElementwise(Function &F) {
  SmallVector<IntrinsicInst *, 8> Work;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (auto *VT = dyn_cast<FixedVectorType>(II->getType());
          VT && VT->getNumElements() > 1 &&
          !hasElementwiseDxilOp(II->getIntrinsicID()))
        Work.push_back(II);
  bool Changed = false;
  for (IntrinsicInst *II : Work)
    Changed |= scalarizeIntrinsicCall(II) != nullptr;
  return Changed;
}

bool containsOneVec(Type *T) {
  if (isOneVec(T))
    return true;
  if (auto *AT = dyn_cast<ArrayType>(T))
    return containsOneVec(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), [](Type *E) { return containsOneVec(E); });
  return false;
}

} // namespace

PreservedAnalyses DxilNativeVectorsPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  bool Changed = false;
  // Memory first: <1 x T> objects become T objects, their vector accesses
  // become scalar accesses rebuilt into <1 x T> values...
  SmallVector<Value *, 16> Objects;
  for (GlobalVariable &GV : M.globals())
    if (containsOneVec(GV.getValueType()) && !GV.getName().starts_with("llvm."))
      Objects.push_back(&GV);
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (containsOneVec(AI->getAllocatedType()))
          Objects.push_back(AI);
  OneElementVectorsToScalars Remap;
  for (Value *V : Objects) {
    std::string Name = V->getName().str();
    RewriteResult R = rewriteObject(V, Remap);
    Changed |= R.Changed;
    if (!R.Changed)
      WithColor::warning() << "dxil-native-vectors: " << Name
                           << " keeps its single-element vectors: "
                           << R.Failure << "\n";
  }
  // ...which the SSA rewrite then turns into plain scalars.
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    Changed |= expandReductions(F, /*KeepAndOr=*/true);
    Changed |= scalarizeNonElementwise(F);
    Changed |= OneElementVectors(F).run();
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace spirv2llvm
