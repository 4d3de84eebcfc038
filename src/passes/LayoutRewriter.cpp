// See LayoutRewriter.h. Terminology: the "old" type X is the object's type
// before the rewrite, the "new" type NT = Remap.map(X). A "leaf" is a scalar
// member (int, float, pointer) of a type. Structural remaps keep the leaves
// and their order, so old and new layouts correspond leaf by leaf.
#include "passes/LayoutRewriter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace spirv2llvm {

bool containsVector(Type *T) {
  if (isa<VectorType>(T))
    return true;
  if (auto *AT = dyn_cast<ArrayType>(T))
    return containsVector(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(), [](Type *E) { return containsVector(E); });
  return false;
}

bool containsNestedArray(Type *T) {
  if (auto *AT = dyn_cast<ArrayType>(T))
    return isa<ArrayType>(AT->getElementType()) ||
           containsNestedArray(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T))
    return any_of(ST->elements(),
                  [](Type *E) { return containsNestedArray(E); });
  return false;
}

// ---- type remaps -----------------------------------------------------------

Type *TypeRemap::map(Type *T) {
  if (auto It = Cache.find(T); It != Cache.end())
    return It->second;
  Type *R = mapUncached(T);
  Cache[T] = R;
  return R;
}

Type *TypeRemap::mapUncached(Type *T) {
  if (auto *AT = dyn_cast<ArrayType>(T)) {
    Type *E = map(AT->getElementType());
    return E == AT->getElementType() ? T : ArrayType::get(E, AT->getNumElements());
  }
  auto *ST = dyn_cast<StructType>(T);
  if (!ST)
    return T;
  SmallVector<Type *, 8> Fields;
  bool Changed = false;
  for (Type *E : ST->elements()) {
    Fields.push_back(map(E));
    Changed |= Fields.back() != E;
  }
  if (!Changed)
    return ST;
  if (ST->isLiteral())
    return StructType::get(ST->getContext(), Fields, ST->isPacked());
  return StructType::create(ST->getContext(), Fields,
                            (ST->getName() + Suffix).str(), ST->isPacked());
}

Type *VectorsToArrays::mapUncached(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return ArrayType::get(VT->getElementType(), VT->getNumElements());
  return TypeRemap::mapUncached(T);
}

void VectorsToArrays::mapPath(Type *Old, ArrayRef<Value *> Path, IRBuilder<> &,
                              SmallVectorImpl<Value *> &Out) {
  Out.append(Path.begin(), Path.end()); // element i of a vector = entry i
}

Type *FlattenArrays::mapUncached(Type *T) {
  auto *AT = dyn_cast<ArrayType>(T);
  if (!AT)
    return TypeRemap::mapUncached(T);
  uint64_t N = 1;
  Type *E = AT;
  while (auto *A = dyn_cast<ArrayType>(E)) {
    N *= A->getNumElements();
    E = A->getElementType();
  }
  Type *NE = map(E);
  if (NE != E || isa<ArrayType>(AT->getElementType()))
    return ArrayType::get(NE, N);
  return T;
}

static Value *mulAdd(IRBuilder<> &B, Value *Acc, uint64_t Dim, Value *Idx) {
  if (!Acc)
    return Idx;
  Type *Ty = Acc->getType()->getIntegerBitWidth() >=
                     Idx->getType()->getIntegerBitWidth()
                 ? Acc->getType()
                 : Idx->getType();
  Acc = B.CreateSExtOrTrunc(Acc, Ty);
  Idx = B.CreateSExtOrTrunc(Idx, Ty);
  if (auto *C = dyn_cast<ConstantInt>(Acc); C && C->isZero())
    return Idx;
  Value *Scaled = B.CreateMul(Acc, ConstantInt::get(Ty, Dim));
  if (auto *C = dyn_cast<ConstantInt>(Idx); C && C->isZero())
    return Scaled;
  return B.CreateAdd(Scaled, Idx);
}

void FlattenArrays::mapPath(Type *Old, ArrayRef<Value *> Path, IRBuilder<> &B,
                            SmallVectorImpl<Value *> &Out) {
  Type *T = Old;
  size_t K = 0;
  while (K < Path.size()) {
    if (isa<ArrayType>(T)) {
      // One index for the whole chain; a path ending inside the chain
      // points at the first element of that sub-array.
      Value *Lin = nullptr;
      while (auto *A = dyn_cast<ArrayType>(T)) {
        Value *Idx = K < Path.size() ? Path[K++] : B.getInt32(0);
        Lin = mulAdd(B, Lin, A->getNumElements(), Idx);
        T = A->getElementType();
      }
      Out.push_back(Lin);
      continue;
    }
    Value *Idx = Path[K++];
    Out.push_back(Idx);
    if (auto *ST = dyn_cast<StructType>(T))
      T = ST->getElementType(cast<ConstantInt>(Idx)->getZExtValue());
    else
      T = cast<VectorType>(T)->getElementType();
  }
}

Type *OneElementVectorsToScalars::mapUncached(Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return VT->getNumElements() == 1 ? VT->getElementType() : T;
  return TypeRemap::mapUncached(T);
}

void OneElementVectorsToScalars::mapPath(Type *Old, ArrayRef<Value *> Path,
                                         IRBuilder<> &,
                                         SmallVectorImpl<Value *> &Out) {
  Type *T = Old;
  for (Value *Idx : Path) {
    if (auto *VT = dyn_cast<FixedVectorType>(T)) {
      if (VT->getNumElements() != 1)
        Out.push_back(Idx);
      T = VT->getElementType();
    } else if (auto *AT = dyn_cast<ArrayType>(T)) {
      Out.push_back(Idx);
      T = AT->getElementType();
    } else {
      Out.push_back(Idx);
      T = cast<StructType>(T)->getElementType(
          cast<ConstantInt>(Idx)->getZExtValue());
    }
  }
}

// ---- offsets and paths -----------------------------------------------------

namespace {

/// C + sum(V * Scale): a byte offset, or an index at one level of a type.
struct Affine {
  int64_t C = 0;
  SmallVector<std::pair<Value *, int64_t>, 2> Terms;

  void addTerm(Value *V, int64_t Scale) {
    for (auto &T : Terms)
      if (T.first == V) {
        T.second += Scale;
        return;
      }
    Terms.push_back({V, Scale});
  }
  /// Adds V * Scale, looking through constant scaling so that
  /// `gep i8, p, (mul i32 %i, 16)` is recognized as 16-byte steps of %i.
  /// Assumes non-wrapping index arithmetic, as in-bounds addressing does.
  void add(Value *V, int64_t Scale) {
    if (auto *CI = dyn_cast<ConstantInt>(V)) {
      C += CI->getSExtValue() * Scale;
      return;
    }
    if (auto *BO = dyn_cast<BinaryOperator>(V)) {
      auto *K = dyn_cast<ConstantInt>(BO->getOperand(1));
      if (K && BO->getOpcode() == Instruction::Mul) {
        add(BO->getOperand(0), Scale * K->getSExtValue());
        return;
      }
      if (K && BO->getOpcode() == Instruction::Shl) {
        add(BO->getOperand(0), Scale << K->getZExtValue());
        return;
      }
      // A negative constant stays with its index (a[i][j - 1] is index
      // j - 1 of the inner level): moved into the overall constant it would
      // be attributed to an outer level (row i - 1, column j + 2), which is
      // the same address only if no padding is removed in between.
      if (BO->getOpcode() == Instruction::Add && !(K && K->isNegative())) {
        add(BO->getOperand(0), Scale);
        add(BO->getOperand(1), Scale);
        return;
      }
    }
    if (auto *SE = dyn_cast<SExtInst>(V)) {
      add(SE->getOperand(0), Scale);
      return;
    }
    addTerm(V, Scale);
  }
};

struct Leaf {
  SmallVector<unsigned, 4> Sub; ///< Constant path below the sub-object.
  uint64_t Off;                 ///< Byte offset in the sub-object (old).
  Type *Ty;
};

/// A decoded location: per-level indices from the object down to a
/// sub-object of type Ty, plus a constant byte offset inside it (ranges).
struct Location {
  SmallVector<Affine, 4> Path;
  Type *Ty = nullptr;
  int64_t Rem = 0;
};

uint64_t elementStride(const DataLayout &DL, Type *T) {
  if (auto *AT = dyn_cast<ArrayType>(T))
    return DL.getTypeAllocSize(AT->getElementType());
  auto *E = cast<FixedVectorType>(T)->getElementType();
  return DL.getTypeSizeInBits(E) % 8 ? 0 : DL.getTypeSizeInBits(E) / 8;
}

uint64_t numElements(Type *T) {
  if (auto *AT = dyn_cast<ArrayType>(T))
    return AT->getNumElements();
  return cast<FixedVectorType>(T)->getNumElements();
}

Type *elementType(Type *T) {
  if (auto *AT = dyn_cast<ArrayType>(T))
    return AT->getElementType();
  return cast<FixedVectorType>(T)->getElementType();
}

bool isAggregateLike(Type *T) {
  return isa<ArrayType, FixedVectorType, StructType>(T);
}

/// Descends one level from L.Ty consuming offset E; false if impossible.
bool descend(const DataLayout &DL, Location &L, Affine &E, std::string &Err) {
  Type *T = L.Ty;
  if (isa<ArrayType, FixedVectorType>(T)) {
    uint64_t S = elementStride(DL, T);
    if (!S) {
      Err = "vector of non-byte-sized elements";
      return false;
    }
    // Floor division: with dynamic terms the constant part may be negative
    // (a[i - 1]); the index then carries it and the remainder stays in
    // [0, S).
    Affine I;
    I.C = E.C >= 0 ? E.C / (int64_t)S : -((-E.C + (int64_t)S - 1) / (int64_t)S);
    E.C -= I.C * (int64_t)S;
    for (auto It = E.Terms.begin(); It != E.Terms.end();) {
      if (It->second % (int64_t)S == 0 && It->second / (int64_t)S != 0) {
        I.addTerm(It->first, It->second / (int64_t)S);
        It = E.Terms.erase(It);
      } else
        ++It;
    }
    L.Path.push_back(I);
    L.Ty = elementType(T);
    return true;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    if (E.C < 0 || (uint64_t)E.C >= SL->getSizeInBytes()) {
      Err = "offset outside a struct";
      return false;
    }
    unsigned F = SL->getElementContainingOffset(E.C);
    E.C -= SL->getElementOffset(F);
    Affine I;
    I.C = F;
    L.Path.push_back(I);
    L.Ty = ST->getElementType(F);
    return true;
  }
  Err = "access does not match the members of the object";
  return false;
}

bool checkInObject(const DataLayout &DL, Type *X, const Affine &E,
                   std::string &Err) {
  int64_t Size = DL.getTypeAllocSize(X);
  // With dynamic terms only the sum must be in the object, which in-bounds
  // indexing guarantees; a constant offset alone is checked.
  if (E.Terms.empty() && (E.C < 0 || E.C >= Size)) {
    Err = "constant offset " + std::to_string(E.C) + " outside the object";
    return false;
  }
  for (auto &T : E.Terms)
    if (T.second >= Size || T.second <= -Size || T.second == 0) {
      Err = "dynamic index steps past the object";
      return false;
    }
  return true;
}

/// Location of an access of type Want at offset E in X.
bool decodeAccess(const DataLayout &DL, Type *X, Affine E, Type *Want,
                  Location &L, std::string &Err) {
  if (!checkInObject(DL, X, E, Err))
    return false;
  L.Ty = X;
  while (!(L.Ty == Want && E.C == 0 && E.Terms.empty()))
    if (!descend(DL, L, E, Err))
      return false;
  return true;
}

bool fitsInOneChild(const DataLayout &DL, Type *T, int64_t Lo, uint64_t Len) {
  if (isa<ArrayType, FixedVectorType>(T)) {
    uint64_t S = elementStride(DL, T);
    return S && Lo / S == (Lo + Len - 1) / S;
  }
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    if ((uint64_t)Lo >= SL->getSizeInBytes())
      return false;
    unsigned F = SL->getElementContainingOffset(Lo);
    return Lo + Len <= SL->getElementOffset(F) +
                           DL.getTypeAllocSize(ST->getElementType(F));
  }
  return false;
}

bool collectLeaves(const DataLayout &DL, Type *T, uint64_t Base, uint64_t Lo,
                   uint64_t Hi, SmallVectorImpl<unsigned> &Sub,
                   SmallVectorImpl<Leaf> &Out, unsigned Max,
                   std::string &Err) {
  uint64_t Size = DL.getTypeStoreSize(T);
  if (Base + Size <= Lo || Base >= Hi)
    return true;
  if (!isAggregateLike(T)) {
    if (Base < Lo || Base + Size > Hi) {
      Err = "memory intrinsic covers part of a scalar";
      return false;
    }
    if (Out.size() >= Max) {
      Err = "too many elements to expand";
      return false;
    }
    Out.push_back({SmallVector<unsigned, 4>(Sub.begin(), Sub.end()), Base, T});
    return true;
  }
  auto Recurse = [&](unsigned I, Type *E, uint64_t Off) {
    Sub.push_back(I);
    bool Ok = collectLeaves(DL, E, Base + Off, Lo, Hi, Sub, Out, Max, Err);
    Sub.pop_back();
    return Ok;
  };
  if (auto *ST = dyn_cast<StructType>(T)) {
    const StructLayout *SL = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (!Recurse(I, ST->getElementType(I), SL->getElementOffset(I)))
        return false;
    return true;
  }
  uint64_t S = elementStride(DL, T);
  if (!S) {
    Err = "vector of non-byte-sized elements";
    return false;
  }
  for (uint64_t I = 0, N = numElements(T); I < N; ++I)
    if (!Recurse(I, elementType(T), I * S))
      return false;
  return true;
}

/// Location and leaves of the byte range [E, E+Len) in X.
bool decodeRange(const DataLayout &DL, Type *X, Affine E, uint64_t Len,
                 Location &L, SmallVectorImpl<Leaf> &Leaves, unsigned Max,
                 std::string &Err) {
  if (!checkInObject(DL, X, E, Err))
    return false;
  L.Ty = X;
  while (!E.Terms.empty() || fitsInOneChild(DL, L.Ty, E.C, Len))
    if (!descend(DL, L, E, Err))
      return false;
  L.Rem = E.C;
  SmallVector<unsigned, 4> Sub;
  if (!collectLeaves(DL, L.Ty, 0, E.C, E.C + Len, Sub, Leaves, Max, Err))
    return false;
  if (Leaves.empty()) {
    Err = "memory intrinsic covers no element";
    return false;
  }
  return true;
}

/// True when [E, E+Len) in X holds no element, only padding.
bool isPaddingOnly(const DataLayout &DL, Type *X, Affine E, uint64_t Len) {
  std::string Err;
  if (!checkInObject(DL, X, E, Err))
    return false;
  Location L;
  L.Ty = X;
  while (!E.Terms.empty() || fitsInOneChild(DL, L.Ty, E.C, Len))
    if (!descend(DL, L, E, Err))
      return false;
  SmallVector<unsigned, 4> Sub;
  SmallVector<Leaf, 4> Leaves;
  return collectLeaves(DL, L.Ty, 0, E.C, E.C + Len, Sub, Leaves, 1, Err) &&
         Leaves.empty();
}

Constant *memsetLeafValue(Type *T, uint8_t Byte);

/// Per-instruction access record: which operands point into the object.
struct AccessSite {
  Instruction *I;
  SmallVector<std::pair<unsigned, Affine>, 2> PtrOps; // operand no, offset
};

class Rewriter {
public:
  Rewriter(Value *Root, TypeRemap &Remap, const RewriteOptions &Opts)
      : Root(Root), Remap(Remap), Opts(Opts),
        M(*(isa<GlobalVariable>(Root)
                ? cast<GlobalVariable>(Root)->getParent()
                : cast<AllocaInst>(Root)->getModule())),
        DL(M.getDataLayout()) {
    X = isa<GlobalVariable>(Root) ? cast<GlobalVariable>(Root)->getValueType()
                                  : cast<AllocaInst>(Root)->getAllocatedType();
    NT = Opts.AccessesOnly ? X : Remap.map(X);
  }

  RewriteResult run();

private:
  bool collect(std::string &Err);
  bool plan(AccessSite &S, std::string &Err);
  void emit(AccessSite &S);

  Value *materialize(IRBuilder<> &B, const Affine &A);
  /// Address of the sub-object at Path (+ constant Sub) in the new layout.
  Value *address(IRBuilder<> &B, const Location &L, ArrayRef<unsigned> Sub);
  /// New-layout byte offset of Path+Sub with dynamic indices taken as 0.
  int64_t staticNewOffset(IRBuilder<> &B, const Location &L,
                          ArrayRef<unsigned> Sub);
  /// True when the new layout keeps Leaves at the same offsets relative to
  /// the first one (no padding removed in between).
  bool keepsRelativeOffsets(IRBuilder<> &B, const Location &L,
                            ArrayRef<Leaf> Leaves) {
    int64_t New0 = staticNewOffset(B, L, Leaves.front().Sub);
    for (const Leaf &Lf : Leaves)
      if (staticNewOffset(B, L, Lf.Sub) - New0 !=
          (int64_t)(Lf.Off - Leaves.front().Off))
        return false;
    return true;
  }
  Value *loadLeaves(IRBuilder<> &B, Type *T, ArrayRef<Value *> Leaves,
                    unsigned &Next);
  void storeLeaves(IRBuilder<> &B, Value *V,
                   SmallVectorImpl<Value *> &Leaves);
  Align leafAlign(Type *T, MaybeAlign Orig) const {
    Align A = DL.getABITypeAlign(T);
    return Orig && *Orig < A ? *Orig : A;
  }

  Value *Root;
  TypeRemap &Remap;
  const RewriteOptions &Opts;
  Module &M;
  const DataLayout &DL;
  Type *X, *NT;
  Value *NewRoot = nullptr;
  MapVector<Instruction *, AccessSite> Sites;
  SmallVector<WeakTrackingVH, 16> Derived; // GEPs, in collection order
  SmallPtrSet<Instruction *, 4> PaddingOnly; // accesses of padding bytes
};

bool Rewriter::collect(std::string &Err) {
  SmallVector<std::pair<Value *, Affine>, 16> Work{{Root, Affine()}};
  while (!Work.empty()) {
    auto [P, E] = Work.pop_back_val();
    for (Use &U : P->uses()) {
      User *Usr = U.getUser();
      if (auto *I = dyn_cast<Instruction>(Usr))
        if (Opts.RestrictTo && I->getFunction() != Opts.RestrictTo)
          continue;
      if (auto *GEP = dyn_cast<GEPOperator>(Usr)) {
        if (U.getOperandNo() != 0 || GEP->getType()->isVectorTy()) {
          Err = "pointer used as a vector GEP or index";
          return false;
        }
        if (isa<Constant>(GEP)) {
          Err = "constant-expression GEP outside a function";
          return false;
        }
        Affine NE = E;
        for (auto GTI = gep_type_begin(GEP), End = gep_type_end(GEP);
             GTI != End; ++GTI) {
          if (StructType *ST = GTI.getStructTypeOrNull()) {
            unsigned F = cast<ConstantInt>(GTI.getOperand())->getZExtValue();
            NE.C += DL.getStructLayout(ST)->getElementOffset(F);
            continue;
          }
          TypeSize S = GTI.getSequentialElementStride(DL);
          if (S.isScalable() || GTI.getOperand()->getType()->isVectorTy()) {
            Err = "scalable or vector GEP index";
            return false;
          }
          NE.add(GTI.getOperand(), (int64_t)S.getFixedValue());
        }
        Derived.push_back(cast<Instruction>(GEP));
        Work.push_back({GEP, NE});
        continue;
      }
      auto *I = dyn_cast<Instruction>(Usr);
      if (!I) {
        if (Opts.AccessesOnly)
          continue; // the object itself is not changed
        Err = "used by a constant outside any function";
        return false;
      }
      bool Ok = false;
      if (auto *LI = dyn_cast<LoadInst>(I))
        Ok = U.getOperandNo() == LI->getPointerOperandIndex();
      else if (auto *SI = dyn_cast<StoreInst>(I))
        Ok = U.getOperandNo() == SI->getPointerOperandIndex();
      else if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
        Ok = U.getOperandNo() == RMW->getPointerOperandIndex();
      else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(I))
        Ok = U.getOperandNo() == CX->getPointerOperandIndex();
      else if (auto *MI = dyn_cast<MemIntrinsic>(I))
        Ok = isa<ConstantInt>(MI->getLength()) &&
             (U.getOperandNo() == 0 ||
              (isa<MemTransferInst>(MI) && U.getOperandNo() == 1));
      else if (auto *II = dyn_cast<IntrinsicInst>(I))
        Ok = II->isLifetimeStartOrEnd();
      if (!Ok && Opts.AccessesOnly)
        continue; // left as it is; the object does not change
      if (!Ok) {
        std::string S;
        raw_string_ostream OS(S);
        OS << "unsupported use: " << *I;
        Err = S;
        return false;
      }
      auto &Site = Sites[I];
      Site.I = I;
      Site.PtrOps.push_back({U.getOperandNo(), E});
    }
  }
  return true;
}

bool Rewriter::plan(AccessSite &S, std::string &Err) {
  Instruction *I = S.I;
  if (Opts.AccessesOnly) {
    Type *T = getLoadStoreType(I);
    bool Needed = isa<MemIntrinsic>(I) ? Opts.ExpandMemIntrinsics
                                       : T && containsVector(T);
    if (!Needed)
      return true;
  }
  if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
    uint64_t Len = cast<ConstantInt>(MI->getLength())->getZExtValue();
    if (Len == 0)
      return true;
    SmallVector<Leaf, 16> First;
    for (auto &[Op, E] : S.PtrOps) {
      Location L;
      SmallVector<Leaf, 16> Leaves;
      if (!decodeRange(DL, X, E, Len, L, Leaves, Opts.MaxLeaves, Err))
        return false;
      if (First.empty()) {
        First = Leaves;
        continue;
      }
      // Both sides in this object: they must cover the same elements.
      bool Same = First.size() == Leaves.size();
      for (unsigned K = 0; Same && K < Leaves.size(); ++K)
        Same = First[K].Ty == Leaves[K].Ty &&
               First[K].Off - First[0].Off == Leaves[K].Off - Leaves[0].Off;
      if (!Same) {
        Err = "memcpy within the object between different members";
        return false;
      }
    }
    // Expanded memsets store the byte pattern as each element's value.
    if (auto *MS = dyn_cast<MemSetInst>(MI)) {
      Location L;
      SmallVector<Leaf, 16> Leaves;
      decodeRange(DL, X, S.PtrOps[0].second, Len, L, Leaves, Opts.MaxLeaves,
                  Err);
      IRBuilder<> B(I);
      if (!Opts.ExpandMemIntrinsics && keepsRelativeOffsets(B, L, Leaves))
        return true;
      auto *V = dyn_cast<ConstantInt>(MS->getValue());
      for (Leaf &Lf : First)
        if (!V || !memsetLeafValue(Lf.Ty, V->getZExtValue())) {
          Err = "memset that cannot be expanded per element";
          return false;
        }
    }
    return true;
  }
  if (isa<IntrinsicInst>(I))
    return true; // lifetime marker
  Type *AccTy = getLoadStoreType(I);
  if (!AccTy) {
    if (auto *RMW = dyn_cast<AtomicRMWInst>(I))
      AccTy = RMW->getValOperand()->getType();
    else
      AccTy = cast<AtomicCmpXchgInst>(I)->getCompareOperand()->getType();
  }
  Location L;
  if (!decodeAccess(DL, X, S.PtrOps[0].second, AccTy, L, Err)) {
    // A load or store of padding only (SROA splits memcpys that way): the
    // new layout has no such bytes, so the store goes and the load is undef.
    if (isa<LoadInst, StoreInst>(I) &&
        isPaddingOnly(DL, X, S.PtrOps[0].second, DL.getTypeStoreSize(AccTy))) {
      PaddingOnly.insert(I);
      return true;
    }
    return false;
  }
  if (isAggregateLike(AccTy) && !isa<LoadInst, StoreInst>(I)) {
    Err = "atomic access of an aggregate";
    return false;
  }
  if (auto *LI = dyn_cast<LoadInst>(I); LI && !LI->isSimple() &&
                                         isAggregateLike(AccTy)) {
    Err = "volatile or atomic aggregate load";
    return false;
  }
  if (auto *SI = dyn_cast<StoreInst>(I); SI && !SI->isSimple() &&
                                          isAggregateLike(AccTy)) {
    Err = "volatile or atomic aggregate store";
    return false;
  }
  return true;
}

Value *Rewriter::materialize(IRBuilder<> &B, const Affine &A) {
  if (A.Terms.empty())
    return B.getInt32(A.C);
  bool Wide = any_of(A.Terms, [](auto &T) {
    return T.first->getType()->getIntegerBitWidth() > 32;
  });
  Type *Ty = Wide ? B.getInt64Ty() : B.getInt32Ty();
  Value *R = nullptr;
  for (auto &[V, Scale] : A.Terms) {
    Value *T = B.CreateSExtOrTrunc(V, Ty);
    if (Scale != 1)
      T = B.CreateMul(T, ConstantInt::get(Ty, Scale));
    R = R ? B.CreateAdd(R, T) : T;
  }
  if (A.C)
    R = B.CreateAdd(R, ConstantInt::get(Ty, A.C));
  return R;
}

Value *Rewriter::address(IRBuilder<> &B, const Location &L,
                         ArrayRef<unsigned> Sub) {
  SmallVector<Value *, 8> Path;
  for (const Affine &A : L.Path)
    Path.push_back(materialize(B, A));
  for (unsigned S : Sub)
    Path.push_back(B.getInt32(S));
  if (Opts.AccessesOnly) {
    // Same object, byte offset in its (unchanged) layout. The offset is
    // computed in the widest index type (sign-extending narrower indices,
    // never truncating), so that a data pass run afterwards can decode it.
    Type *T = X;
    Value *Off = nullptr;
    int64_t C = 0;
    Type *OffTy = B.getInt32Ty();
    for (Value *Idx : Path)
      if (Idx->getType()->getIntegerBitWidth() > 32)
        OffTy = B.getInt64Ty();
    for (Value *Idx : Path) {
      if (auto *ST = dyn_cast<StructType>(T)) {
        unsigned F = cast<ConstantInt>(Idx)->getZExtValue();
        C += DL.getStructLayout(ST)->getElementOffset(F);
        T = ST->getElementType(F);
        continue;
      }
      int64_t S = elementStride(DL, T);
      T = elementType(T);
      if (auto *CI = dyn_cast<ConstantInt>(Idx)) {
        C += CI->getSExtValue() * S;
        continue;
      }
      Value *Term = B.CreateMul(B.CreateSExtOrTrunc(Idx, OffTy),
                                ConstantInt::get(OffTy, S));
      Off = Off ? B.CreateAdd(Off, Term) : Term;
    }
    Value *CV = ConstantInt::get(OffTy, C);
    Off = Off ? (C ? B.CreateAdd(Off, CV) : Off) : CV;
    return B.CreateGEP(B.getInt8Ty(), Root, Off);
  }
  SmallVector<Value *, 8> Idx{B.getInt32(0)};
  Remap.mapPath(X, Path, B, Idx);
  return B.CreateGEP(NT, NewRoot, Idx);
}

int64_t Rewriter::staticNewOffset(IRBuilder<> &B, const Location &L,
                                  ArrayRef<unsigned> Sub) {
  Location Z;
  for (const Affine &A : L.Path) {
    Affine C;
    C.C = A.C;
    Z.Path.push_back(C);
  }
  SmallVector<Value *, 8> Path;
  for (const Affine &A : Z.Path)
    Path.push_back(B.getInt32(A.C));
  for (unsigned S : Sub)
    Path.push_back(B.getInt32(S));
  if (Opts.AccessesOnly)
    return DL.getIndexedOffsetInType(X, [&] {
      SmallVector<Value *, 8> P{B.getInt32(0)};
      P.append(Path.begin(), Path.end());
      return P;
    }());
  SmallVector<Value *, 8> Idx{B.getInt32(0)};
  Remap.mapPath(X, Path, B, Idx); // all constant: folds, emits nothing
  return DL.getIndexedOffsetInType(NT, Idx);
}

Value *Rewriter::loadLeaves(IRBuilder<> &B, Type *T, ArrayRef<Value *> Leaves,
                            unsigned &Next) {
  if (!isAggregateLike(T))
    return Leaves[Next++];
  Value *R = PoisonValue::get(T);
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      R = B.CreateInsertElement(R, Leaves[Next++], (uint64_t)I);
    return R;
  }
  unsigned N = isa<StructType>(T) ? T->getStructNumElements()
                                  : T->getArrayNumElements();
  for (unsigned I = 0; I < N; ++I) {
    Type *E = isa<StructType>(T) ? T->getStructElementType(I)
                                 : T->getArrayElementType();
    R = B.CreateInsertValue(R, loadLeaves(B, E, Leaves, Next), I);
  }
  return R;
}

void Rewriter::storeLeaves(IRBuilder<> &B, Value *V,
                           SmallVectorImpl<Value *> &Leaves) {
  Type *T = V->getType();
  if (!isAggregateLike(T)) {
    Leaves.push_back(V);
    return;
  }
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      Leaves.push_back(B.CreateExtractElement(V, (uint64_t)I));
    return;
  }
  unsigned N = isa<StructType>(T) ? T->getStructNumElements()
                                  : T->getArrayNumElements();
  for (unsigned I = 0; I < N; ++I)
    storeLeaves(B, B.CreateExtractValue(V, I), Leaves);
}

Constant *memsetLeafValue(Type *T, uint8_t Byte) {
  unsigned Bits = T->getPrimitiveSizeInBits();
  if (T->isPointerTy())
    return Byte ? nullptr : Constant::getNullValue(T);
  if (!Bits || Bits % 8)
    return nullptr;
  APInt V = APInt::getSplat(Bits, APInt(8, Byte));
  if (T->isIntegerTy())
    return ConstantInt::get(T, V);
  return ConstantFP::get(T->getContext(),
                         APFloat(T->getFltSemantics(), V));
}

void Rewriter::emit(AccessSite &S) {
  Instruction *I = S.I;
  IRBuilder<> B(I);
  if (Opts.AccessesOnly) {
    // The object keeps its type: only vector accesses and (on request)
    // memory intrinsics need rewriting; scalar accesses stay as they are.
    if (isa<MemIntrinsic>(I) ? !Opts.ExpandMemIntrinsics
                             : isa<IntrinsicInst>(I) ||
                                   !containsVector(getLoadStoreType(I)
                                                       ? getLoadStoreType(I)
                                                       : B.getInt8Ty()))
      return;
  }
  if (auto *II = dyn_cast<IntrinsicInst>(I); II && II->isLifetimeStartOrEnd()) {
    I->eraseFromParent();
    return;
  }
  if (auto *MI = dyn_cast<MemIntrinsic>(I)) {
    uint64_t Len = cast<ConstantInt>(MI->getLength())->getZExtValue();
    if (Len == 0) {
      I->eraseFromParent();
      return;
    }
    // Decode every operand pointing into the object (dst and/or src).
    struct Side {
      Location L;
      SmallVector<Leaf, 16> Leaves;
      bool Rewritten = false;
    } Sides[2];
    std::string Err;
    for (auto &[Op, E] : S.PtrOps) {
      Side &Sd = Sides[Op];
      Sd.Rewritten = true;
      decodeRange(DL, X, E, Len, Sd.L, Sd.Leaves, Opts.MaxLeaves, Err);
    }
    Side &Ref = Sides[0].Rewritten ? Sides[0] : Sides[1];
    bool IsSet = isa<MemSetInst>(MI);
    unsigned NumSides = IsSet ? 1 : 2;

    // One call suffices when the new layout keeps the covered elements at
    // the same relative offsets (no padding removed in between).
    bool Single = !Opts.ExpandMemIntrinsics;
    int64_t NewLen = 0;
    for (unsigned K = 0; K < NumSides && Single; ++K) {
      Side &Sd = Sides[K];
      if (!Sd.Rewritten)
        continue;
      Single = keepsRelativeOffsets(B, Sd.L, Sd.Leaves);
      NewLen = Sd.Leaves.back().Off + DL.getTypeStoreSize(Sd.Leaves.back().Ty) -
               Sd.Leaves.front().Off;
    }
    auto OtherAddr = [&](unsigned K, uint64_t LeafOff) -> Value * {
      Value *P = MI->getArgOperand(K);
      uint64_t Rel = LeafOff - Ref.L.Rem;
      return Rel ? B.CreateGEP(B.getInt8Ty(), P, B.getInt64(Rel)) : P;
    };
    if (Single) {
      Value *Ptr[2];
      for (unsigned K = 0; K < NumSides; ++K)
        Ptr[K] = Sides[K].Rewritten
                     ? address(B, Sides[K].L, Sides[K].Leaves.front().Sub)
                     : OtherAddr(K, Ref.Leaves.front().Off);
      for (unsigned K = 0; K < NumSides; ++K)
        MI->setArgOperand(K, Ptr[K]);
      MI->setLength(ConstantInt::get(MI->getLength()->getType(), NewLen));
      // Alignment may no longer hold at the new offsets.
      MI->setDestAlignment(std::nullopt);
      if (auto *MT = dyn_cast<MemTransferInst>(MI))
        MT->setSourceAlignment(std::nullopt);
      return;
    }
    SmallVector<Value *, 16> Vals;
    if (auto *MS = dyn_cast<MemSetInst>(MI)) {
      uint8_t Byte = cast<ConstantInt>(MS->getValue())->getZExtValue();
      for (Leaf &Lf : Ref.Leaves) {
        Vals.push_back(memsetLeafValue(Lf.Ty, Byte)); // checked by plan()
      }
    } else {
      // Load everything first, then store: correct for overlapping memmove.
      for (unsigned N = 0; N < Ref.Leaves.size(); ++N) {
        Side &Sd = Sides[1];
        Type *T = Ref.Leaves[N].Ty;
        Value *P = Sd.Rewritten ? address(B, Sd.L, Sd.Leaves[N].Sub)
                                : OtherAddr(1, Ref.Leaves[N].Off);
        Vals.push_back(B.CreateAlignedLoad(T, P, leafAlign(T, std::nullopt),
                                           MI->isVolatile()));
      }
    }
    for (unsigned N = 0; N < Ref.Leaves.size(); ++N) {
      Side &Sd = Sides[0];
      Type *T = Ref.Leaves[N].Ty;
      Value *P = Sd.Rewritten ? address(B, Sd.L, Sd.Leaves[N].Sub)
                              : OtherAddr(0, Ref.Leaves[N].Off);
      B.CreateAlignedStore(Vals[N], P, leafAlign(T, std::nullopt),
                           MI->isVolatile());
    }
    I->eraseFromParent();
    return;
  }

  if (PaddingOnly.count(I)) {
    if (isa<LoadInst>(I))
      I->replaceAllUsesWith(UndefValue::get(I->getType()));
    I->eraseFromParent();
    return;
  }
  // Loads, stores, atomics.
  auto [OpNo, E] = S.PtrOps[0];
  Type *AccTy = getLoadStoreType(I);
  if (!AccTy)
    AccTy = isa<AtomicRMWInst>(I)
                ? cast<AtomicRMWInst>(I)->getValOperand()->getType()
                : cast<AtomicCmpXchgInst>(I)->getCompareOperand()->getType();
  Location L;
  std::string Err;
  decodeAccess(DL, X, E, AccTy, L, Err);
  bool Direct = Opts.AccessesOnly ? !containsVector(AccTy)
                                  : !Remap.changes(AccTy);
  if (Direct) {
    I->setOperand(OpNo, address(B, L, {}));
    if (auto *LI = dyn_cast<LoadInst>(I))
      LI->setAlignment(leafAlign(AccTy, LI->getAlign()));
    else if (auto *SI = dyn_cast<StoreInst>(I))
      SI->setAlignment(leafAlign(AccTy, SI->getAlign()));
    return;
  }
  SmallVector<Leaf, 16> Leaves;
  SmallVector<unsigned, 4> Sub;
  collectLeaves(DL, AccTy, 0, 0, DL.getTypeStoreSize(AccTy), Sub, Leaves,
                ~0u, Err);
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    SmallVector<Value *, 16> Vals;
    for (Leaf &Lf : Leaves)
      Vals.push_back(B.CreateAlignedLoad(Lf.Ty, address(B, L, Lf.Sub),
                                         leafAlign(Lf.Ty, LI->getAlign())));
    unsigned Next = 0;
    Value *V = loadLeaves(B, AccTy, Vals, Next);
    V->takeName(LI);
    LI->replaceAllUsesWith(V);
  } else {
    auto *SI = cast<StoreInst>(I);
    SmallVector<Value *, 16> Vals;
    storeLeaves(B, SI->getValueOperand(), Vals);
    for (unsigned N = 0; N < Leaves.size(); ++N)
      B.CreateAlignedStore(Vals[N], address(B, L, Leaves[N].Sub),
                           leafAlign(Leaves[N].Ty, SI->getAlign()));
  }
  I->eraseFromParent();
}

RewriteResult Rewriter::run() {
  RewriteResult R;
  if (auto *AI = dyn_cast<AllocaInst>(Root)) {
    if (!AI->isStaticAlloca() ||
        !cast<ConstantInt>(AI->getArraySize())->isOne()) {
      R.Failure = "alloca with an array size";
      return R;
    }
  }
  if (auto *GV = dyn_cast<GlobalVariable>(Root)) {
    // Constant-expression GEPs become instructions so they can be decoded.
    convertUsersOfConstantsToInstructions({GV}, Opts.RestrictTo);
  }
  std::string Err;
  if (!collect(Err)) {
    R.Failure = Err;
    return R;
  }
  for (auto &[I, S] : Sites)
    if (!plan(S, Err)) {
      R.Failure = Err;
      return R;
    }

  // All uses are understood: create the new object, then rewrite.
  if (Opts.AccessesOnly) {
    NewRoot = Root;
  } else if (auto *GV = dyn_cast<GlobalVariable>(Root)) {
    Constant *Init = nullptr;
    if (GV->hasInitializer()) {
      Constant *Old = GV->getInitializer();
      if (Old->isNullValue())
        Init = Constant::getNullValue(NT);
      else if (isa<PoisonValue>(Old))
        Init = PoisonValue::get(NT);
      else if (isa<UndefValue>(Old))
        Init = UndefValue::get(NT);
      else {
        // Leaves of the old constant, in order, rebuild the new one.
        SmallVector<Constant *, 64> Leaves;
        std::function<void(Constant *)> Flat = [&](Constant *C) {
          if (!isAggregateLike(C->getType())) {
            Leaves.push_back(C);
            return;
          }
          unsigned N = isa<StructType>(C->getType())
                           ? C->getType()->getStructNumElements()
                           : numElements(C->getType());
          for (unsigned I = 0; I < N; ++I)
            Flat(C->getAggregateElement(I));
        };
        Flat(Old);
        unsigned Next = 0;
        std::function<Constant *(Type *)> Build = [&](Type *T) -> Constant * {
          if (!isAggregateLike(T))
            return Leaves[Next++];
          SmallVector<Constant *, 16> Elts;
          unsigned N = isa<StructType>(T) ? T->getStructNumElements()
                                          : numElements(T);
          for (unsigned I = 0; I < N; ++I)
            Elts.push_back(Build(isa<StructType>(T)
                                     ? T->getStructElementType(I)
                                     : elementType(T)));
          if (auto *ST = dyn_cast<StructType>(T))
            return ConstantStruct::get(ST, Elts);
          if (auto *AT = dyn_cast<ArrayType>(T))
            return ConstantArray::get(AT, Elts);
          return ConstantVector::get(Elts);
        };
        Init = Build(NT);
      }
    }
    auto *NG = new GlobalVariable(M, NT, GV->isConstant(), GV->getLinkage(),
                                  Init, "", GV, GV->getThreadLocalMode(),
                                  GV->getAddressSpace(),
                                  GV->isExternallyInitialized());
    NG->copyAttributesFrom(GV);
    NG->takeName(GV);
    NewRoot = NG;
  } else {
    auto *AI = cast<AllocaInst>(Root);
    auto *NA = new AllocaInst(NT, AI->getAddressSpace(), nullptr,
                              AI->getAlign(), "", AI->getIterator());
    NA->takeName(AI);
    NA->setDebugLoc(AI->getDebugLoc());
    NewRoot = NA;
  }

  // Dead-code cleanup may delete an alloca root: after it, Root is only
  // read through OldRoot (asking a deleted Root its kind is a use after free).
  auto *OldGlobal = dyn_cast<GlobalVariable>(Root);
  WeakTrackingVH OldRoot(Root);
  for (auto &[I, S] : Sites)
    emit(S);
  for (WeakTrackingVH &VH : reverse(Derived))
    if (auto *D = dyn_cast_or_null<Instruction>(VH); D && D->use_empty())
      RecursivelyDeleteTriviallyDeadInstructions(D);
  if (!Opts.AccessesOnly) {
    if (OldGlobal) {
      OldGlobal->removeDeadConstantUsers();
      OldGlobal->eraseFromParent();
    } else if (OldRoot) {
      cast<Instruction>(OldRoot)->eraseFromParent();
    }
  }
  R.Changed = true;
  return R;
}

} // namespace

RewriteResult rewriteObject(Value *Root, TypeRemap &Remap,
                            const RewriteOptions &Opts) {
  return Rewriter(Root, Remap, Opts).run();
}

} // namespace spirv2llvm
