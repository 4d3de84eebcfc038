// Small vector-to-scalar expansions shared by the scalarizer and the
// native-vector pass.
#include "passes/VectorOps.h"

#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsDirectX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

namespace spirv2llvm {

/// llvm.vector.reduce.* -> extracts combined left to right (the order the
/// ordered fadd/fmul reductions require; fine for the others).
bool expandReductions(Function &F, bool KeepAndOr) {
  SmallVector<IntrinsicInst *, 8> Work;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::vector_reduce_and:
      case Intrinsic::vector_reduce_or:
        // A one-element reduction is just the element (DXIL has no
        // single-element vectors).
        if (!KeepAndOr || cast<FixedVectorType>(II->getArgOperand(0)->getType())
                                  ->getNumElements() == 1)
          Work.push_back(II);
        break;
      case Intrinsic::vector_reduce_add:
      case Intrinsic::vector_reduce_mul:
      case Intrinsic::vector_reduce_xor:
      case Intrinsic::vector_reduce_smax:
      case Intrinsic::vector_reduce_smin:
      case Intrinsic::vector_reduce_umax:
      case Intrinsic::vector_reduce_umin:
      case Intrinsic::vector_reduce_fmax:
      case Intrinsic::vector_reduce_fmin:
      case Intrinsic::vector_reduce_fadd:
      case Intrinsic::vector_reduce_fmul:
        Work.push_back(II);
        break;
      default:
        break;
      }
  for (IntrinsicInst *II : Work) {
    IRBuilder<> B(II);
    B.setFastMathFlags(II->getFastMathFlags());
    Intrinsic::ID ID = II->getIntrinsicID();
    bool HasStart = ID == Intrinsic::vector_reduce_fadd ||
                    ID == Intrinsic::vector_reduce_fmul;
    Value *Vec = II->getArgOperand(HasStart ? 1 : 0);
    auto *VT = dyn_cast<FixedVectorType>(Vec->getType());
    if (!VT)
      continue;
    bool MinMax = ID == Intrinsic::vector_reduce_smax ||
                  ID == Intrinsic::vector_reduce_smin ||
                  ID == Intrinsic::vector_reduce_umax ||
                  ID == Intrinsic::vector_reduce_umin ||
                  ID == Intrinsic::vector_reduce_fmax ||
                  ID == Intrinsic::vector_reduce_fmin;
    Value *Acc = HasStart ? II->getArgOperand(0) : nullptr;
    for (unsigned I = 0; I < VT->getNumElements(); ++I) {
      Value *E = B.CreateExtractElement(Vec, (uint64_t)I);
      if (!Acc) {
        Acc = E;
        continue;
      }
      // LLVM's own mapping from a reduction to its binary operation (each
      // of the two asserts on the other kind).
      if (MinMax)
        Acc = B.CreateBinaryIntrinsic(getMinMaxReductionIntrinsicOp(ID), Acc,
                                      E);
      else
        Acc = B.CreateBinOp(
            Instruction::BinaryOps(getArithmeticReductionInstruction(ID)),
            Acc, E);
    }
    II->replaceAllUsesWith(Acc);
    II->eraseFromParent();
  }
  return !Work.empty();
}


bool isElementwiseDxIntrinsic(unsigned ID) {
  return ID == Intrinsic::dx_frac || ID == Intrinsic::dx_rsqrt ||
         ID == Intrinsic::dx_isinf || ID == Intrinsic::dx_imad ||
         ID == Intrinsic::dx_umad;
}

bool expandDxIntrinsics(Function &F, bool KeepVectors) {
  SmallVector<IntrinsicInst *, 8> Work;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::dx_clamp:
      case Intrinsic::dx_uclamp:
      case Intrinsic::dx_lerp:
      case Intrinsic::dx_rcp:
      case Intrinsic::dx_any:
      case Intrinsic::dx_all:
      case Intrinsic::dx_sdot:
      case Intrinsic::dx_udot:
        Work.push_back(II);
        break;
      default:
        break;
      }
  for (IntrinsicInst *II : Work) {
    IRBuilder<> B(II);
    Value *X = II->getArgOperand(0);
    Type *Ty = X->getType();
    bool FP = Ty->isFPOrFPVectorTy();
    Value *R;
    switch (II->getIntrinsicID()) {
    case Intrinsic::dx_clamp:
    case Intrinsic::dx_uclamp: {
      bool U = II->getIntrinsicID() == Intrinsic::dx_uclamp;
      Intrinsic::ID Max = FP ? Intrinsic::maxnum
                          : U ? Intrinsic::umax
                              : Intrinsic::smax;
      Intrinsic::ID Min = FP ? Intrinsic::minnum
                          : U ? Intrinsic::umin
                              : Intrinsic::smin;
      R = B.CreateBinaryIntrinsic(
          Min, B.CreateBinaryIntrinsic(Max, X, II->getArgOperand(1)),
          II->getArgOperand(2));
      break;
    }
    case Intrinsic::dx_lerp: // x + s * (y - x)
      R = B.CreateFAdd(X, B.CreateFMul(II->getArgOperand(2),
                                       B.CreateFSub(II->getArgOperand(1), X)));
      break;
    case Intrinsic::dx_rcp:
      R = B.CreateFDiv(ConstantFP::get(Ty, 1.0), X);
      break;
    case Intrinsic::dx_any:
    case Intrinsic::dx_all: {
      bool Any = II->getIntrinsicID() == Intrinsic::dx_any;
      Value *NZ = FP ? B.CreateFCmpUNE(X, Constant::getNullValue(Ty))
                     : B.CreateICmpNE(X, Constant::getNullValue(Ty));
      auto *VT = dyn_cast<FixedVectorType>(Ty);
      if (!VT) {
        R = NZ;
      } else if (KeepVectors) {
        R = Any ? B.CreateOrReduce(NZ) : B.CreateAndReduce(NZ);
      } else {
        R = nullptr;
        for (unsigned E = 0; E < VT->getNumElements(); ++E) {
          Value *L = B.CreateExtractElement(NZ, (uint64_t)E);
          R = !R ? L : Any ? B.CreateOr(R, L) : B.CreateAnd(R, L);
        }
      }
      break;
    }
    default: { // sdot / udot: sum of products
      Value *Y = II->getArgOperand(1);
      auto *VT = dyn_cast<FixedVectorType>(Ty);
      if (!VT) {
        R = B.CreateMul(X, Y);
        break;
      }
      R = nullptr;
      for (unsigned E = 0; E < VT->getNumElements(); ++E) {
        Value *P = B.CreateMul(B.CreateExtractElement(X, (uint64_t)E),
                               B.CreateExtractElement(Y, (uint64_t)E));
        R = R ? B.CreateAdd(R, P) : P;
      }
      break;
    }
    }
    R->takeName(II);
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
  }
  return !Work.empty();
}

Value *scalarizeIntrinsicCall(IntrinsicInst *II) {
  Intrinsic::ID ID = II->getIntrinsicID();
  auto *VT = dyn_cast<FixedVectorType>(II->getType());
  if (!VT || !(isTriviallyVectorizable(ID) || isElementwiseDxIntrinsic(ID)))
    return nullptr;
  SmallVector<Type *, 4> Overloads;
  if (!Intrinsic::getIntrinsicSignature(II->getCalledFunction(), Overloads))
    return nullptr;
  for (Type *&T : Overloads)
    T = T->getScalarType();
  Function *Scalar =
      Intrinsic::getDeclaration(II->getModule(), ID, Overloads);
  IRBuilder<> B(II);
  Value *R = PoisonValue::get(VT);
  for (unsigned E = 0; E < VT->getNumElements(); ++E) {
    SmallVector<Value *, 4> Args;
    for (unsigned A = 0; A < II->arg_size(); ++A) {
      Value *Op = II->getArgOperand(A);
      Args.push_back((isTriviallyVectorizable(ID) &&
                      isVectorIntrinsicWithScalarOpAtArg(ID, A)) ||
                             !Op->getType()->isVectorTy()
                         ? Op
                         : B.CreateExtractElement(Op, (uint64_t)E));
    }
    CallInst *C = B.CreateCall(Scalar, Args);
    C->copyFastMathFlags(II);
    R = B.CreateInsertElement(R, C, (uint64_t)E);
  }
  R->takeName(II);
  II->replaceAllUsesWith(R);
  II->eraseFromParent();
  return R;
}

} // namespace spirv2llvm
