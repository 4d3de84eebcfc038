// Small vector-to-scalar expansions shared by the scalarizer and the
// native-vector pass.
#include "passes/VectorOps.h"

#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

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
        if (!KeepAndOr)
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
    Value *Acc = HasStart ? II->getArgOperand(0) : nullptr;
    for (unsigned I = 0; I < VT->getNumElements(); ++I) {
      Value *E = B.CreateExtractElement(Vec, (uint64_t)I);
      if (!Acc) {
        Acc = E;
        continue;
      }
      switch (ID) {
      case Intrinsic::vector_reduce_fadd:
        Acc = B.CreateFAdd(Acc, E);
        break;
      case Intrinsic::vector_reduce_fmul:
        Acc = B.CreateFMul(Acc, E);
        break;
      case Intrinsic::vector_reduce_fmax:
        Acc = B.CreateBinaryIntrinsic(Intrinsic::maxnum, Acc, E);
        break;
      case Intrinsic::vector_reduce_fmin:
        Acc = B.CreateBinaryIntrinsic(Intrinsic::minnum, Acc, E);
        break;
      case Intrinsic::vector_reduce_add:
        Acc = B.CreateAdd(Acc, E);
        break;
      case Intrinsic::vector_reduce_mul:
        Acc = B.CreateMul(Acc, E);
        break;
      case Intrinsic::vector_reduce_and:
        Acc = B.CreateAnd(Acc, E);
        break;
      case Intrinsic::vector_reduce_or:
        Acc = B.CreateOr(Acc, E);
        break;
      case Intrinsic::vector_reduce_xor:
        Acc = B.CreateXor(Acc, E);
        break;
      case Intrinsic::vector_reduce_smax:
        Acc = B.CreateBinaryIntrinsic(Intrinsic::smax, Acc, E);
        break;
      case Intrinsic::vector_reduce_smin:
        Acc = B.CreateBinaryIntrinsic(Intrinsic::smin, Acc, E);
        break;
      case Intrinsic::vector_reduce_umax:
        Acc = B.CreateBinaryIntrinsic(Intrinsic::umax, Acc, E);
        break;
      default:
        Acc = B.CreateBinaryIntrinsic(Intrinsic::umin, Acc, E);
        break;
      }
    }
    II->replaceAllUsesWith(Acc);
    II->eraseFromParent();
  }
  return !Work.empty();
}


Value *scalarizeIntrinsicCall(IntrinsicInst *II) {
  Intrinsic::ID ID = II->getIntrinsicID();
  auto *VT = dyn_cast<FixedVectorType>(II->getType());
  if (!VT || !isTriviallyVectorizable(ID))
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
      Args.push_back(isVectorIntrinsicWithScalarOpAtArg(ID, A) ||
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
