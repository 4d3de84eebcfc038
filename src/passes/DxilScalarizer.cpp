// dxil-scalarizer: the function-level scalarization of the DXIL scalarization
// proposal (seed dxil-scalarization.md, tickets 1-7).
//
//  1. SROA splits and promotes allocas (the seed's "what SROA can do").
//  2. Vector reductions become chains of scalar operations.
//  3. Allocas that still hold vectors get array types (vecM -> [M x T]);
//     every GEP, load, store and memcpy/memset on them is rewritten per
//     element (LayoutRewriter).
//  4. Accesses to globals holding vectors become scalar accesses at the
//     same byte offsets (the global's type is the module passes' business).
//  5. Struct/array SSA values holding vectors are split into their members
//     (AggregateSplit.h); GEPs whose source type still mentions a vector
//     become i8 GEPs with the equivalent byte offset.
//  6. LLVM's Scalarizer (load/store and variable insert/extract on) splits
//     every remaining vector operation, intrinsic call, bitcast, load and
//     store, and cleans up the extract/insert chains; DCE drops the rest.
#include "passes/AggregateSplit.h"
#include "passes/DxilPasses.h"
#include "passes/LayoutRewriter.h"
#include "passes/VectorOps.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/ScalarizeMaskedMemIntrin.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"

#define DEBUG_TYPE "dxil-scalarizer"

using namespace llvm;

namespace spirv2llvm {
namespace {

/// Bitcasts between a vector and a scalar (i4 <-> <4 x i1>, <2 x i16> ->
/// float, ...) which the Scalarizer leaves: element k is bits
/// [k*M, (k+1)*M) of the integer (little endian; mirrored for big endian).
bool expandScalarVectorBitcasts(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  SmallVector<BitCastInst *, 8> Work;
  for (Instruction &I : instructions(F))
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      if (BC->getSrcTy()->isVectorTy() != BC->getDestTy()->isVectorTy() &&
          isa<FixedVectorType>(BC->getSrcTy()->isVectorTy() ? BC->getSrcTy()
                                                            : BC->getDestTy()))
        Work.push_back(BC);
  for (BitCastInst *BC : Work) {
    IRBuilder<> B(BC);
    bool ToVector = BC->getDestTy()->isVectorTy();
    auto *VT = cast<FixedVectorType>(ToVector ? BC->getDestTy() : BC->getSrcTy());
    Type *Scalar = ToVector ? BC->getSrcTy() : BC->getDestTy();
    unsigned N = VT->getNumElements();
    unsigned M = VT->getScalarSizeInBits();
    Type *WideTy = B.getIntNTy(N * M);
    Type *EltIntTy = B.getIntNTy(M);
    auto Shift = [&](unsigned K) {
      return (uint64_t)(DL.isBigEndian() ? N - 1 - K : K) * M;
    };
    Value *R;
    if (ToVector) {
      Value *Bits = B.CreateBitCast(BC->getOperand(0), WideTy);
      R = PoisonValue::get(VT);
      for (unsigned K = 0; K < N; ++K) {
        Value *E = B.CreateTrunc(Shift(K) ? B.CreateLShr(Bits, Shift(K)) : Bits,
                                 EltIntTy);
        R = B.CreateInsertElement(R, B.CreateBitCast(E, VT->getElementType()),
                                  (uint64_t)K);
      }
    } else {
      Value *Bits = nullptr;
      for (unsigned K = 0; K < N; ++K) {
        Value *E = B.CreateZExt(
            B.CreateBitCast(
                B.CreateExtractElement(BC->getOperand(0), (uint64_t)K),
                EltIntTy),
            WideTy);
        if (Shift(K))
          E = B.CreateShl(E, Shift(K));
        Bits = Bits ? B.CreateOr(Bits, E) : E;
      }
      R = B.CreateBitCast(Bits, Scalar);
    }
    R->takeName(BC);
    BC->replaceAllUsesWith(R);
    BC->eraseFromParent();
  }
  return !Work.empty();
}

/// extract/insertelement with a constant index past the vector's end give
/// poison; LLVM 19's Scalarizer crashes on them, so they are folded first.
bool foldOutOfRangeLaneAccesses(Function &F) {
  SmallVector<Instruction *, 4> Work;
  for (Instruction &I : instructions(F)) {
    Value *Idx = nullptr;
    Type *VecTy = nullptr;
    if (auto *EE = dyn_cast<ExtractElementInst>(&I)) {
      Idx = EE->getIndexOperand();
      VecTy = EE->getVectorOperandType();
    } else if (auto *IE = dyn_cast<InsertElementInst>(&I)) {
      Idx = IE->getOperand(2);
      VecTy = IE->getType();
    }
    auto *C = dyn_cast_or_null<ConstantInt>(Idx);
    auto *VT = dyn_cast_or_null<FixedVectorType>(VecTy);
    if (C && VT && C->getValue().uge(VT->getNumElements()))
      Work.push_back(&I);
  }
  for (Instruction *I : Work) {
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
    I->eraseFromParent();
  }
  return !Work.empty();
}

/// Loads and stores of vectors of non-byte-sized elements (<4 x i1>), which
/// the Scalarizer leaves alone: in memory such a vector is its bitcast to
/// one integer, so they become integer accesses plus bitcasts (expanded by
/// expandScalarVectorBitcasts).
bool packBitVectorAccesses(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  auto IsBitVector = [&](Type *T) {
    auto *VT = dyn_cast<FixedVectorType>(T);
    return VT && VT->getScalarType()->isIntegerTy() &&
           DL.getTypeSizeInBits(VT->getElementType()) % 8 != 0;
  };
  SmallVector<Instruction *, 4> Work;
  for (Instruction &I : instructions(F))
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isSimple() &&
                                           IsBitVector(LI->getType()))
      Work.push_back(LI);
    else if (auto *SI = dyn_cast<StoreInst>(&I);
             SI && SI->isSimple() &&
             IsBitVector(SI->getValueOperand()->getType()))
      Work.push_back(SI);
  for (Instruction *I : Work) {
    IRBuilder<> B(I);
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      Type *IntTy = B.getIntNTy(DL.getTypeSizeInBits(LI->getType()));
      Value *V = B.CreateBitCast(
          B.CreateAlignedLoad(IntTy, LI->getPointerOperand(), LI->getAlign()),
          LI->getType());
      V->takeName(LI);
      LI->replaceAllUsesWith(V);
    } else {
      auto *SI = cast<StoreInst>(I);
      Value *V = SI->getValueOperand();
      B.CreateAlignedStore(
          B.CreateBitCast(V, B.getIntNTy(DL.getTypeSizeInBits(V->getType()))),
          SI->getPointerOperand(), SI->getAlign());
    }
    I->eraseFromParent();
  }
  return !Work.empty();
}

/// Constant expressions over vectors (bitcast (<4 x i16> ...) to i64) that
/// the DataLayout-aware folder can evaluate, and instructions on constants
/// only (so that a lane index computed from constants is seen as the
/// constant it is: an out-of-range one crashes LLVM 19's Scalarizer).
bool mentionsVector(Constant *C) {
  if (C->getType()->isVectorTy())
    return true;
  auto *CE = dyn_cast<ConstantExpr>(C);
  if (!CE)
    return false;
  if (auto *GEP = dyn_cast<GEPOperator>(CE);
      GEP && containsVector(GEP->getSourceElementType()))
    return true;
  return any_of(CE->operands(),
                [](Value *Op) { return mentionsVector(cast<Constant>(Op)); });
}

bool foldVectorConstantExprs(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  bool Changed = false;
  SmallVector<Instruction *, 8> Dead;
  for (Instruction &I : instructions(F)) {
    // Only expressions over vectors: the folder would also rewrite typed
    // GEPs over arrays into i8 GEPs.
    for (Use &U : I.operands())
      if (auto *CE = dyn_cast<ConstantExpr>(U.get()); CE && mentionsVector(CE))
        if (Constant *C = ConstantFoldConstant(CE, DL); C && C != CE) {
          U.set(C);
          Changed = true;
        }
    if (isa<PHINode>(I) || I.mayHaveSideEffects() || I.getType()->isVoidTy() ||
        !all_of(I.operands(), [](Value *V) { return isa<Constant>(V); }))
      continue;
    if (Constant *C = ConstantFoldInstruction(&I, DL)) {
      I.replaceAllUsesWith(C);
      Dead.push_back(&I);
      Changed = true;
    }
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
  return Changed;
}

/// A vector-free GEP (i8, byte offset) equivalent to a GEP over a type that
/// mentions vectors; constant GEP expressions fold to constants.
Value *byteGEP(IRBuilder<> &B, GEPOperator *GEP, const DataLayout &DL) {
  Value *Base = GEP->getPointerOperand();
  unsigned IdxBits = DL.getIndexTypeSizeInBits(GEP->getType());
  APInt C(IdxBits, 0);
  Value *Dyn = nullptr;
  for (auto GTI = gep_type_begin(GEP), E = gep_type_end(GEP); GTI != E;
       ++GTI) {
    if (StructType *ST = GTI.getStructTypeOrNull()) {
      unsigned F = cast<ConstantInt>(GTI.getOperand())->getZExtValue();
      C += DL.getStructLayout(ST)->getElementOffset(F);
      continue;
    }
    uint64_t S = GTI.getSequentialElementStride(DL).getFixedValue();
    Value *Idx = GTI.getOperand();
    if (auto *CI = dyn_cast<ConstantInt>(Idx)) {
      C += CI->getValue().sextOrTrunc(IdxBits) * S;
      continue;
    }
    Value *T = B.CreateMul(B.CreateSExtOrTrunc(Idx, B.getIntNTy(IdxBits)),
                           B.getIntN(IdxBits, S));
    Dyn = Dyn ? B.CreateAdd(Dyn, T) : T;
  }
  Value *Off = B.getInt(C);
  if (Dyn)
    Off = C.isZero() ? Dyn : B.CreateAdd(Dyn, Off);
  return GEP->isInBounds() ? B.CreateInBoundsGEP(B.getInt8Ty(), Base, Off)
                           : B.CreateGEP(B.getInt8Ty(), Base, Off);
}

Constant *lowerConstantGEPs(Constant *C, const DataLayout &DL,
                            DenseMap<Constant *, Constant *> &Done) {
  if (auto It = Done.find(C); It != Done.end())
    return It->second;
  Constant *R = C;
  if (auto *CE = dyn_cast<ConstantExpr>(C)) {
    SmallVector<Constant *, 4> Ops;
    bool Changed = false;
    for (Value *Op : CE->operands()) {
      Ops.push_back(lowerConstantGEPs(cast<Constant>(Op), DL, Done));
      Changed |= Ops.back() != Op;
    }
    if (Changed)
      R = CE->getWithOperands(Ops);
    if (auto *GEP = dyn_cast<GEPOperator>(R);
        GEP && containsVector(GEP->getSourceElementType())) {
      IRBuilder<> B(C->getContext());
      R = cast<Constant>(byteGEP(B, GEP, DL));
    }
  }
  Done[C] = R;
  return R;
}

bool lowerVectorGEPs(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  bool Changed = false;
  DenseMap<Constant *, Constant *> Done;
  SmallVector<GetElementPtrInst *, 16> GEPs;
  for (Instruction &I : instructions(F)) {
    for (Use &U : I.operands())
      if (auto *CE = dyn_cast<ConstantExpr>(U.get())) {
        Constant *N = lowerConstantGEPs(CE, DL, Done);
        if (N != CE) {
          U.set(N);
          Changed = true;
        }
      }
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
      if (containsVector(GEP->getSourceElementType()) &&
          !GEP->getType()->isVectorTy())
        GEPs.push_back(GEP);
  }
  for (GetElementPtrInst *GEP : GEPs) {
    IRBuilder<> B(GEP);
    Value *N = byteGEP(B, cast<GEPOperator>(GEP), DL);
    N->takeName(GEP);
    GEP->replaceAllUsesWith(N);
    GEP->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

bool scalarizeData(Function &F) {
  bool Changed = false;
  SmallVector<AllocaInst *, 8> Allocas;
  for (Instruction &I : instructions(F))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (containsVector(AI->getAllocatedType()))
        Allocas.push_back(AI);
  VectorsToArrays Remap;
  RewriteOptions Opts;
  Opts.ExpandMemIntrinsics = true;
  for (AllocaInst *AI : Allocas) {
    RewriteResult R = rewriteObject(AI, Remap, Opts);
    Changed |= R.Changed;
    if (R.Changed)
      continue;
    // Some use cannot be rewritten element-wise (the address escapes, ...):
    // keep the exact layout as bytes. With opaque pointers the allocated
    // type only gives size and alignment, so every access stays valid; the
    // vector loads and stores through it are split by the Scalarizer below.
    LLVM_DEBUG(dbgs() << "dxil-scalarizer: alloca kept as bytes: " << R.Failure
                      << "\n");
    const DataLayout &DL = F.getDataLayout();
    AI->setAlignment(AI->getAlign());
    AI->setAllocatedType(ArrayType::get(
        Type::getInt8Ty(F.getContext()),
        DL.getTypeAllocSize(AI->getAllocatedType()).getFixedValue()));
    Changed = true;
  }
  // Globals keep their types here (dxil-data-scalarization changes them);
  // their vector loads/stores and memory intrinsics become scalar.
  SmallSetVector<GlobalVariable *, 8> Globals;
  for (Instruction &I : instructions(F))
    for (Value *Op : I.operands())
      if (auto *GV = dyn_cast<GlobalVariable>(Op->stripPointerCasts()))
        if (containsVector(GV->getValueType()))
          Globals.insert(GV);
  // Constant-expression GEPs hide globals one level down.
  for (GlobalVariable &GV : F.getParent()->globals())
    if (containsVector(GV.getValueType()))
      for (User *U : GV.users())
        if (isa<ConstantExpr>(U))
          Globals.insert(&GV);
  Opts.AccessesOnly = true;
  Opts.RestrictTo = &F;
  for (GlobalVariable *GV : Globals) {
    RewriteResult R = rewriteObject(GV, Remap, Opts);
    Changed |= R.Changed;
  }
  return Changed;
}

} // namespace

PreservedAnalyses DxilScalarizerPass::run(Function &F,
                                          FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return PreservedAnalyses::all();
  // Masked loads/stores/gathers/scatters (no target says they are legal
  // here) become per-element conditional accesses; this adds blocks.
  FunctionPassManager Pre;
  Pre.addPass(ScalarizeMaskedMemIntrinPass());
  Pre.addPass(SROAPass(SROAOptions::PreserveCFG));
  Pre.run(F, FAM);

  bool Changed = foldVectorConstantExprs(F);
  Changed |= foldOutOfRangeLaneAccesses(F);
  Changed |= packBitVectorAccesses(F);
  Changed |= expandDxIntrinsics(F, /*KeepVectors=*/false);
  Changed |= expandReductions(F, /*KeepAndOr=*/false);
  Changed |= expandScalarVectorBitcasts(F);
  // clang's element-wise HLSL intrinsics, which the Scalarizer does not
  // know, are split here.
  SmallVector<IntrinsicInst *, 4> DxCalls;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (isElementwiseDxIntrinsic(II->getIntrinsicID()) &&
          II->getType()->isVectorTy())
        DxCalls.push_back(II);
  for (IntrinsicInst *II : DxCalls)
    Changed |= scalarizeIntrinsicCall(II) != nullptr;
  Changed |= scalarizeData(F);
  // Struct and array SSA values holding vectors (whole-struct loads and
  // copies, matrices as arrays of columns, the aggregates the data rewrite
  // rebuilt) are taken apart into their scalar and vector members.
  if (splitVectorAggregates(F)) {
    // Its leaves may be <N x i1> loads and stores.
    packBitVectorAccesses(F);
    expandScalarVectorBitcasts(F);
    Changed = true;
  }
  Changed |= lowerVectorGEPs(F);
  if (Changed)
    FAM.invalidate(F, PreservedAnalyses::none());

  ScalarizerPassOptions Opts;
  Opts.ScalarizeLoadStore = true;
  Opts.ScalarizeVariableInsertExtract = true;
  FunctionPassManager Post;
  Post.addPass(ScalarizerPass(Opts));
  Post.addPass(DCEPass());
  Post.run(F, FAM);
  // Bitcasts between vectors of different lengths (<4 x float> to
  // <16 x i8>) come out of the Scalarizer as scalar-to-vector bitcasts per
  // fragment; expand those and let the Scalarizer tidy up once more.
  if (expandScalarVectorBitcasts(F)) {
    FAM.invalidate(F, PreservedAnalyses::none());
    Post.run(F, FAM);
  }
  // The Scalarizer leaves lanes of constant vectors as constant expressions
  // (extractelement (bitcast <4 x float> C to <16 x i8>), 0); fold them.
  foldVectorConstantExprs(F);
  return PreservedAnalyses::none();
}

} // namespace spirv2llvm
