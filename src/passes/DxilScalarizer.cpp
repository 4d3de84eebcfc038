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
//  5. GEPs whose source type still mentions a vector become i8 GEPs with
//     the equivalent byte offset.
//  6. LLVM's Scalarizer (load/store and variable insert/extract on) splits
//     every remaining vector operation, intrinsic call, bitcast, load and
//     store, and cleans up the extract/insert chains; DCE drops the rest.
#include "passes/DxilPasses.h"
#include "passes/LayoutRewriter.h"
#include "passes/VectorOps.h"

#include "llvm/ADT/SetVector.h"
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
#include "llvm/Transforms/Scalar/Scalarizer.h"

#define DEBUG_TYPE "dxil-scalarizer"

using namespace llvm;

namespace spirv2llvm {
namespace {

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
  FunctionPassManager Pre;
  Pre.addPass(SROAPass(SROAOptions::PreserveCFG));
  Pre.run(F, FAM);

  bool Changed = expandReductions(F, /*KeepAndOr=*/false);
  Changed |= scalarizeData(F);
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
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace spirv2llvm
