// See AggregateSplit.h. A "leaf" of a type is a member that is not a struct
// or an array (a scalar, a pointer or a vector); leaves are numbered depth
// first, so the leaves of member K of an aggregate are a contiguous range
// of the aggregate's leaves. Each split value is a list of leaf values.
#include "passes/AggregateSplit.h"
#include "passes/LayoutRewriter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace spirv2llvm {
namespace {

/// Beyond this many leaves an aggregate is left whole (its loads would
/// become that many loads).
constexpr unsigned MaxLeaves = 4096;

bool isAggregate(Type *T) { return T->isStructTy() || T->isArrayTy(); }

bool isVectorAggregate(Type *T) { return isAggregate(T) && containsVector(T); }

Type *memberType(Type *T, unsigned K) {
  return T->isStructTy() ? T->getStructElementType(K)
                         : T->getArrayElementType();
}

unsigned numMembers(Type *T) {
  return T->isStructTy() ? T->getStructNumElements() : T->getArrayNumElements();
}

class Splitter {
public:
  explicit Splitter(Function &F) : F(F), DL(F.getDataLayout()) {}
  bool run();

private:
  using Leaves = SmallVector<Value *, 8>;

  unsigned numLeaves(Type *T);
  /// First leaf of the member at Indices, and that member's type.
  unsigned leafStart(Type *T, ArrayRef<unsigned> Indices, Type *&Sub);
  /// Leaf types and their byte offsets in memory.
  void leafLayout(Type *T, uint64_t Base,
                  SmallVectorImpl<std::pair<Type *, uint64_t>> &Out);
  /// The leaves of V (split before, a constant, or extracted from it).
  const Leaves &leavesOf(Value *V);
  void extractLeaves(IRBuilder<> &B, Value *V, Leaves &Out);
  Value *rebuild(IRBuilder<> &B, Type *T, ArrayRef<Value *> L, unsigned &Next);
  bool constantLeaves(Constant *C, Leaves &Out);
  /// Splits I (a producer of a vector aggregate); false if it cannot.
  bool split(Instruction &I);
  bool splitIntrinsic(IntrinsicInst &II, Leaves &Out);
  /// Rewrites a user of split values; true if I itself is now dead.
  bool rewriteUser(Instruction &I);

  Function &F;
  const DataLayout &DL;
  DenseMap<Type *, unsigned> LeafCount;
  DenseMap<Value *, Leaves> Split;
  DenseSet<Value *> IsSplit; ///< Replaced by their leaves (to be erased).
  SmallVector<std::pair<PHINode *, SmallVector<PHINode *, 8>>, 8> Phis;
  SmallVector<Instruction *, 16> Dead;
};

unsigned Splitter::numLeaves(Type *T) {
  if (!isAggregate(T))
    return 1;
  if (auto It = LeafCount.find(T); It != LeafCount.end())
    return It->second;
  uint64_t N = 0;
  if (T->isArrayTy())
    N = T->getArrayNumElements() * (uint64_t)numLeaves(T->getArrayElementType());
  else
    for (Type *E : T->subtypes())
      N += numLeaves(E);
  unsigned R = (unsigned)std::min<uint64_t>(N, ~0u);
  LeafCount[T] = R;
  return R;
}

unsigned Splitter::leafStart(Type *T, ArrayRef<unsigned> Indices,
                             Type *&Sub) {
  unsigned Start = 0;
  for (unsigned K : Indices) {
    if (T->isArrayTy())
      Start += K * numLeaves(T->getArrayElementType());
    else
      for (unsigned J = 0; J < K; ++J)
        Start += numLeaves(T->getStructElementType(J));
    T = memberType(T, K);
  }
  Sub = T;
  return Start;
}

void Splitter::leafLayout(Type *T, uint64_t Base,
                          SmallVectorImpl<std::pair<Type *, uint64_t>> &Out) {
  if (!isAggregate(T)) {
    Out.push_back({T, Base});
    return;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned K = 0; K < ST->getNumElements(); ++K)
      leafLayout(ST->getElementType(K), Base + SL->getElementOffset(K), Out);
    return;
  }
  uint64_t Stride = DL.getTypeAllocSize(T->getArrayElementType());
  for (uint64_t K = 0; K < T->getArrayNumElements(); ++K)
    leafLayout(T->getArrayElementType(), Base + K * Stride, Out);
}

bool Splitter::constantLeaves(Constant *C, Leaves &Out) {
  if (!isAggregate(C->getType())) {
    Out.push_back(C);
    return true;
  }
  for (unsigned K = 0, N = numMembers(C->getType()); K < N; ++K) {
    Constant *E = C->getAggregateElement(K);
    if (!E || !constantLeaves(E, Out))
      return false;
  }
  return true;
}

void Splitter::extractLeaves(IRBuilder<> &B, Value *V, Leaves &Out) {
  if (!isAggregate(V->getType())) {
    Out.push_back(V);
    return;
  }
  for (unsigned K = 0, N = numMembers(V->getType()); K < N; ++K)
    extractLeaves(B, B.CreateExtractValue(V, K), Out);
}

const Splitter::Leaves &Splitter::leavesOf(Value *V) {
  if (auto It = Split.find(V); It != Split.end())
    return It->second;
  Leaves L;
  if (!isAggregate(V->getType())) {
    L.push_back(V);
  } else if (auto *C = dyn_cast<Constant>(V); C && constantLeaves(C, L)) {
  } else {
    // An aggregate that is not split (an argument, a call result, a
    // constant expression): take its leaves right after it is defined.
    L.clear();
    IRBuilder<> B(F.getContext());
    if (auto *I = dyn_cast<Instruction>(V))
      B.SetInsertPoint(*I->getInsertionPointAfterDef());
    else
      B.SetInsertPoint(F.getEntryBlock().getFirstInsertionPt());
    extractLeaves(B, V, L);
  }
  return Split[V] = std::move(L);
}

Value *Splitter::rebuild(IRBuilder<> &B, Type *T, ArrayRef<Value *> L,
                         unsigned &Next) {
  if (!isAggregate(T))
    return L[Next++];
  Value *R = PoisonValue::get(T);
  for (unsigned K = 0, N = numMembers(T); K < N; ++K)
    R = B.CreateInsertValue(R, rebuild(B, memberType(T, K), L, Next), K);
  return R;
}

/// Element-wise intrinsics returning a literal struct of N-element vectors
/// from N-element vector operands (with.overflow, frexp): one scalar call
/// per lane; leaf J is field J, rebuilt lane by lane (the Scalarizer takes
/// the insertelement chains apart again).
bool Splitter::splitIntrinsic(IntrinsicInst &II, Leaves &Out) {
  auto *ST = dyn_cast<StructType>(II.getType());
  if (!ST || !ST->isLiteral() || ST->getNumElements() == 0)
    return false;
  unsigned N = 0;
  for (Type *E : ST->elements()) {
    auto *VT = dyn_cast<FixedVectorType>(E);
    if (!VT || (N && VT->getNumElements() != N))
      return false;
    N = VT->getNumElements();
  }
  for (Value *A : II.args()) {
    auto *VT = dyn_cast<FixedVectorType>(A->getType());
    if (!VT || VT->getNumElements() != N)
      return false;
  }
  switch (II.getIntrinsicID()) {
  case Intrinsic::sadd_with_overflow:
  case Intrinsic::uadd_with_overflow:
  case Intrinsic::ssub_with_overflow:
  case Intrinsic::usub_with_overflow:
  case Intrinsic::smul_with_overflow:
  case Intrinsic::umul_with_overflow:
  case Intrinsic::frexp:
    break;
  default:
    return false;
  }
  SmallVector<Type *, 4> Overloads;
  if (!Intrinsic::getIntrinsicSignature(II.getCalledFunction(), Overloads))
    return false;
  for (Type *&T : Overloads)
    T = T->getScalarType();
  Function *Scalar =
      Intrinsic::getDeclaration(II.getModule(), II.getIntrinsicID(), Overloads);
  IRBuilder<> B(&II);
  for (Type *E : ST->elements())
    Out.push_back(PoisonValue::get(E));
  for (unsigned Lane = 0; Lane < N; ++Lane) {
    SmallVector<Value *, 4> Args;
    for (Value *A : II.args())
      Args.push_back(B.CreateExtractElement(A, (uint64_t)Lane));
    CallInst *C = B.CreateCall(Scalar, Args);
    C->copyFastMathFlags(&II);
    for (unsigned J = 0; J < ST->getNumElements(); ++J)
      Out[J] = B.CreateInsertElement(Out[J], B.CreateExtractValue(C, J),
                                     (uint64_t)Lane);
  }
  return true;
}

bool Splitter::split(Instruction &I) {
  Type *T = I.getType();
  if (numLeaves(T) > MaxLeaves)
    return false;
  Leaves L;
  IRBuilder<> B(&I);
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    if (LI->isAtomic())
      return false;
    SmallVector<std::pair<Type *, uint64_t>, 16> Layout;
    leafLayout(T, 0, Layout);
    for (auto [Ty, Off] : Layout) {
      Value *P = Off ? B.CreateInBoundsGEP(B.getInt8Ty(),
                                           LI->getPointerOperand(),
                                           B.getInt64(Off))
                     : LI->getPointerOperand();
      L.push_back(B.CreateAlignedLoad(Ty, P, commonAlignment(LI->getAlign(), Off),
                                      LI->isVolatile()));
    }
  } else if (auto *IV = dyn_cast<InsertValueInst>(&I)) {
    L = leavesOf(IV->getAggregateOperand());
    Type *Sub;
    unsigned Start = leafStart(T, IV->getIndices(), Sub);
    const Leaves &V = leavesOf(IV->getInsertedValueOperand());
    std::copy(V.begin(), V.end(), L.begin() + Start);
  } else if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    const Leaves &A = leavesOf(EV->getAggregateOperand());
    Type *Sub;
    unsigned Start =
        leafStart(EV->getAggregateOperand()->getType(), EV->getIndices(), Sub);
    L.append(A.begin() + Start, A.begin() + Start + numLeaves(Sub));
  } else if (auto *PN = dyn_cast<PHINode>(&I)) {
    SmallVector<std::pair<Type *, uint64_t>, 16> Layout;
    leafLayout(T, 0, Layout);
    SmallVector<PHINode *, 8> New;
    for (unsigned K = 0; K < Layout.size(); ++K) {
      PHINode *NP = PHINode::Create(Layout[K].first, PN->getNumIncomingValues(),
                                    PN->getName() + "." + Twine(K),
                                    PN->getIterator());
      New.push_back(NP);
      L.push_back(NP);
    }
    Phis.push_back({PN, std::move(New)}); // incoming values once all are split
  } else if (auto *SI = dyn_cast<SelectInst>(&I)) {
    Leaves TL = leavesOf(SI->getTrueValue());
    const Leaves &FL = leavesOf(SI->getFalseValue());
    for (unsigned K = 0; K < TL.size(); ++K)
      L.push_back(B.CreateSelect(SI->getCondition(), TL[K], FL[K]));
  } else if (auto *FI = dyn_cast<FreezeInst>(&I)) {
    Leaves A = leavesOf(FI->getOperand(0));
    for (Value *V : A)
      L.push_back(B.CreateFreeze(V));
  } else if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    Leaves Fields;
    if (!splitIntrinsic(*II, Fields))
      return false;
    L = std::move(Fields);
  } else {
    return false;
  }
  Split[&I] = std::move(L);
  IsSplit.insert(&I);
  Dead.push_back(&I);
  return true;
}

bool Splitter::rewriteUser(Instruction &I) {
  if (auto *EV = dyn_cast<ExtractValueInst>(&I)) {
    Value *Agg = EV->getAggregateOperand();
    if (!IsSplit.count(Agg))
      return false;
    Leaves A = Split[Agg];
    Type *Sub;
    unsigned Start = leafStart(Agg->getType(), EV->getIndices(), Sub);
    IRBuilder<> B(EV);
    unsigned Next = Start;
    Value *R = rebuild(B, Sub, A, Next);
    R->takeName(EV);
    EV->replaceAllUsesWith(R);
    return true;
  }
  if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Value *V = SI->getValueOperand();
    if (!IsSplit.count(V) || SI->isAtomic())
      return false;
    Leaves L = Split[V];
    SmallVector<std::pair<Type *, uint64_t>, 16> Layout;
    leafLayout(V->getType(), 0, Layout);
    IRBuilder<> B(SI);
    for (unsigned K = 0; K < L.size(); ++K) {
      uint64_t Off = Layout[K].second;
      Value *P = Off ? B.CreateInBoundsGEP(B.getInt8Ty(),
                                           SI->getPointerOperand(),
                                           B.getInt64(Off))
                     : SI->getPointerOperand();
      B.CreateAlignedStore(L[K], P, commonAlignment(SI->getAlign(), Off),
                           SI->isVolatile());
    }
    return true;
  }
  // Anything else (a call argument, a return, an instruction that was not
  // split) takes the aggregate rebuilt from its leaves.
  for (Use &U : I.operands())
    if (IsSplit.count(U.get())) {
      IRBuilder<> B(&I);
      unsigned Next = 0;
      U.set(rebuild(B, U->getType(), Split[U.get()], Next));
    }
  return false;
}

bool Splitter::run() {
  bool Any = false;
  for (Instruction &I : instructions(F))
    if (isVectorAggregate(I.getType()) ||
        any_of(I.operands(),
               [](Value *V) { return isVectorAggregate(V->getType()); })) {
      Any = true;
      break;
    }
  if (!Any)
    return false;
  removeUnreachableBlocks(F);

  ReversePostOrderTraversal<Function *> RPOT(&F);
  SmallVector<Instruction *, 16> DeadUsers;
  for (BasicBlock *BB : RPOT) {
    SmallVector<Instruction *, 32> Insts;
    for (Instruction &I : *BB)
      Insts.push_back(&I);
    for (Instruction *I : Insts) {
      if (isVectorAggregate(I->getType()) && split(*I))
        continue;
      if (isa<PHINode>(I))
        continue;
      if (rewriteUser(*I))
        DeadUsers.push_back(I);
    }
  }
  for (auto &[PN, New] : Phis)
    for (unsigned In = 0; In < PN->getNumIncomingValues(); ++In) {
      const Leaves &L = leavesOf(PN->getIncomingValue(In));
      for (unsigned K = 0; K < New.size(); ++K)
        New[K]->addIncoming(L[K], PN->getIncomingBlock(In));
    }
  // Phis of aggregates too large to split that take a split one rebuild it
  // at the end of the incoming block.
  for (BasicBlock &BB : F)
    for (PHINode &PN : BB.phis()) {
      if (IsSplit.count(&PN))
        continue;
      for (unsigned In = 0; In < PN.getNumIncomingValues(); ++In) {
        Value *V = PN.getIncomingValue(In);
        if (!IsSplit.count(V))
          continue;
        IRBuilder<> B(PN.getIncomingBlock(In)->getTerminator());
        unsigned Next = 0;
        PN.setIncomingValue(In, rebuild(B, V->getType(), Split[V], Next));
      }
    }
  for (Instruction *I : DeadUsers)
    I->eraseFromParent();
  for (Instruction *I : Dead)
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction *I : Dead)
    I->eraseFromParent();
  return true;
}

} // namespace

bool splitVectorAggregates(Function &F) { return Splitter(F).run(); }

} // namespace spirv2llvm
