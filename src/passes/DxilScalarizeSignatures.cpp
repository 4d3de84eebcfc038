// dxil-scalarize-signatures: the module half of the scalar pipeline. A
// function pass cannot change a function's type, so this pass
//  - gives every internal function (local linkage, called directly only)
//    whose parameters or return value are or hold vectors a vector-free
//    signature: each such type T becomes VectorsToArrays' map of T
//    (<4 x float> -> [4 x float], {<3 x float>, i32} -> {[3 x float], i32});
//    the body and the call sites convert at the boundary, and dxil-scalarizer
//    is run again on every function touched, so the conversions become
//    extractvalue/insertvalue of scalars;
//  - deletes declarations whose type mentions a vector once nothing calls
//    them (the vector overloads of intrinsics the scalarizer split).
// Exported functions keep their signature: it is their ABI.
#include "passes/DxilPasses.h"
#include "passes/LayoutRewriter.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace spirv2llvm {
namespace {

bool mentionsVector(FunctionType *FT) {
  return containsVector(FT->getReturnType()) ||
         any_of(FT->params(), [](Type *T) { return containsVector(T); });
}

/// True when the remap changes some parameter or the return type (it keeps
/// scalable vectors, which have no array form).
bool remapChanges(FunctionType *FT, VectorsToArrays &Remap) {
  return Remap.changes(FT->getReturnType()) ||
         any_of(FT->params(), [&](Type *T) { return Remap.changes(T); });
}

/// V (of type From) as type To, where one is VectorsToArrays' map of the
/// other: vectors and arrays are converted element by element.
Value *convert(IRBuilder<> &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  Value *R = PoisonValue::get(To);
  if (auto *VT = dyn_cast<FixedVectorType>(From)) {
    for (unsigned K = 0; K < VT->getNumElements(); ++K)
      R = B.CreateInsertValue(R, B.CreateExtractElement(V, (uint64_t)K), K);
    return R;
  }
  if (auto *VT = dyn_cast<FixedVectorType>(To)) {
    for (unsigned K = 0; K < VT->getNumElements(); ++K)
      R = B.CreateInsertElement(R, B.CreateExtractValue(V, K), (uint64_t)K);
    return R;
  }
  unsigned N = From->isStructTy() ? From->getStructNumElements()
                                  : From->getArrayNumElements();
  for (unsigned K = 0; K < N; ++K) {
    Type *E = To->isStructTy() ? To->getStructElementType(K)
                               : To->getArrayElementType();
    R = B.CreateInsertValue(R, convert(B, B.CreateExtractValue(V, K), E), K);
  }
  return R;
}

bool onlyCalledDirectly(Function &F) {
  for (Use &U : F.uses()) {
    auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U) || CB->getFunctionType() != F.getFunctionType())
      return false;
  }
  return true;
}

/// Attributes that no longer fit a parameter or return value whose type
/// changed (a vector's `noundef` still fits an array, `align` would not).
AttributeSet fitAttributes(LLVMContext &Ctx, AttributeSet AS, Type *T) {
  return AS.removeAttributes(Ctx, AttributeFuncs::typeIncompatible(T));
}

AttributeList fitAttributeList(LLVMContext &Ctx, AttributeList AL,
                               FunctionType *FT) {
  SmallVector<AttributeSet, 8> Params;
  for (unsigned K = 0; K < FT->getNumParams(); ++K)
    Params.push_back(
        fitAttributes(Ctx, AL.getParamAttrs(K), FT->getParamType(K)));
  return AttributeList::get(
      Ctx, AL.getFnAttrs(),
      fitAttributes(Ctx, AL.getRetAttrs(), FT->getReturnType()), Params);
}

/// Rewrites F's signature; returns the new function and adds the callers
/// to Touched.
Function *rewriteSignature(Function &F, VectorsToArrays &Remap,
                           SetVector<Function *> &Touched) {
  FunctionType *OldFT = F.getFunctionType();
  SmallVector<Type *, 8> Params;
  for (Type *T : OldFT->params())
    Params.push_back(Remap.map(T));
  auto *NewFT =
      FunctionType::get(Remap.map(OldFT->getReturnType()), Params, false);
  LLVMContext &Ctx = F.getContext();

  Function *NF = Function::Create(NewFT, F.getLinkage(), F.getAddressSpace(),
                                  "", F.getParent());
  NF->copyAttributesFrom(&F);
  NF->copyMetadata(&F, 0);
  NF->setAttributes(fitAttributeList(Ctx, F.getAttributes(), NewFT));
  F.getParent()->getFunctionList().remove(NF);
  F.getParent()->getFunctionList().insert(F.getIterator(), NF);
  NF->takeName(&F);
  NF->splice(NF->begin(), &F);

  IRBuilder<> B(&*NF->getEntryBlock().getFirstInsertionPt());
  for (auto [Old, New] : zip(F.args(), NF->args())) {
    New.takeName(&Old);
    Old.replaceAllUsesWith(convert(B, &New, Old.getType()));
  }
  if (NewFT->getReturnType() != OldFT->getReturnType())
    for (BasicBlock &BB : *NF)
      if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator())) {
        B.SetInsertPoint(RI);
        RI->setOperand(0, convert(B, RI->getReturnValue(),
                                  NewFT->getReturnType()));
      }

  SmallVector<CallBase *, 8> Calls;
  for (User *U : F.users())
    Calls.push_back(cast<CallBase>(U));
  for (CallBase *CB : Calls) {
    auto *CI = dyn_cast<CallInst>(CB);
    B.SetInsertPoint(CB);
    SmallVector<Value *, 8> Args;
    for (unsigned K = 0; K < CB->arg_size(); ++K)
      Args.push_back(convert(B, CB->getArgOperand(K), Params[K]));
    SmallVector<OperandBundleDef, 1> Bundles;
    CB->getOperandBundlesAsDefs(Bundles);
    CallBase *NC;
    if (auto *II = dyn_cast<InvokeInst>(CB))
      NC = B.CreateInvoke(NewFT, NF, II->getNormalDest(), II->getUnwindDest(),
                          Args, Bundles);
    else
      NC = B.CreateCall(NewFT, NF, Args, Bundles);
    NC->setCallingConv(CB->getCallingConv());
    NC->setAttributes(fitAttributeList(Ctx, CB->getAttributes(), NewFT));
    NC->setDebugLoc(CB->getDebugLoc());
    if (CI)
      cast<CallInst>(NC)->setTailCallKind(CI->getTailCallKind());
    NC->takeName(CB);
    if (!CB->use_empty()) {
      if (CI) {
        B.SetInsertPoint(CI->getNextNode());
      } else {
        auto *II = cast<InvokeInst>(CB);
        B.SetInsertPoint(&*II->getNormalDest()->getFirstInsertionPt());
      }
      CB->replaceAllUsesWith(convert(B, NC, OldFT->getReturnType()));
    }
    Touched.insert(CB->getFunction());
    CB->eraseFromParent();
  }
  Touched.insert(NF);
  return NF;
}

} // namespace

PreservedAnalyses
DxilScalarizeSignaturesPass::run(Module &M, ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  VectorsToArrays Remap;
  SmallVector<Function *, 8> Work;
  for (Function &F : M)
    if (!F.isDeclaration() && F.hasLocalLinkage() && !F.isVarArg() &&
        remapChanges(F.getFunctionType(), Remap) && onlyCalledDirectly(F))
      Work.push_back(&F);
  SetVector<Function *> Touched;
  for (Function *F : Work) {
    FAM.clear(*F, F->getName());
    rewriteSignature(*F, Remap, Touched);
    Touched.remove(F);
    F->eraseFromParent();
  }
  // The conversions at the boundaries are vector code again: scalarize it.
  for (Function *F : Touched) {
    FAM.invalidate(*F, PreservedAnalyses::none());
    DxilScalarizerPass().run(*F, FAM);
  }
  bool Changed = !Work.empty();
  for (Function &F : make_early_inc_range(M))
    if (F.isDeclaration() && F.use_empty() &&
        mentionsVector(F.getFunctionType())) {
      F.eraseFromParent();
      Changed = true;
    }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace spirv2llvm
