//===- BitScan.cpp - Vector ctlz/cttz through the float exponent ----------===//
//
// See BitScan.h.
//
//===----------------------------------------------------------------------===//
#include "target/BitScan.h"
#include "target/Optimizer.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

/// For A/B measurements (never) and for tests on hosts with AVX-512 CD,
/// where the rewrite is otherwise off (always).
cl::opt<LoweringMode>
    Mode("s2l-bit-scan", cl::Hidden, cl::init(LoweringMode::Auto),
         cl::desc("vector ctlz/cttz through the float exponent (BitScan.h)"),
         loweringModeValues("on x86 targets without AVX-512 CD (default)"));

/// The index of the single bit of \p P (a power of two or 0; -127 for 0)
/// from the exponent of its conversion to float.
Value *exponentOf(IRBuilder<> &B, Value *P) {
  auto *VT = cast<FixedVectorType>(P->getType());
  auto *FT = FixedVectorType::get(B.getFloatTy(), VT->getNumElements());
  Value *Bits = B.CreateBitCast(B.CreateSIToFP(P, FT), VT);
  Value *Field = B.CreateAnd(B.CreateLShr(Bits, 23), 255);
  return B.CreateSub(Field, ConstantInt::get(VT, 127), "bit.index");
}

Value *lower(IntrinsicInst &II) {
  IRBuilder<> B(&II);
  Value *X = II.getArgOperand(0);
  auto *VT = cast<FixedVectorType>(X->getType());
  Constant *Zero = Constant::getNullValue(VT);
  bool ZeroIsPoison = cast<ConstantInt>(II.getArgOperand(1))->isOne();
  Value *R;
  if (II.getIntrinsicID() == Intrinsic::cttz) {
    R = exponentOf(B, B.CreateAnd(X, B.CreateSub(Zero, X)));
  } else {
    // Only the top bit of each run of ones is kept: no rounding up.
    Value *Y = B.CreateAnd(X, B.CreateNot(B.CreateLShr(X, 1)));
    R = B.CreateSub(ConstantInt::get(VT, 31), exponentOf(B, Y));
    // Bit 31 set: a negative int, whose float has the wrong magnitude.
    R = B.CreateSelect(B.CreateICmpSLT(X, Zero), Zero, R);
  }
  if (!ZeroIsPoison)
    R = B.CreateSelect(B.CreateICmpEQ(X, Zero), ConstantInt::get(VT, 32), R);
  return R;
}

} // namespace

bool lowerBitScans(Function &F) {
  SmallVector<IntrinsicInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if ((II->getIntrinsicID() == Intrinsic::ctlz ||
           II->getIntrinsicID() == Intrinsic::cttz) &&
          II->getType()->isVectorTy() &&
          II->getType()->getScalarType()->isIntegerTy(32))
        Calls.push_back(II);
  for (IntrinsicInst *II : Calls) {
    Value *R = lower(*II);
    R->takeName(II);
    II->replaceAllUsesWith(R);
    II->eraseFromParent();
  }
  return !Calls.empty();
}

bool needsBitScanLowering(const TargetMachine &TM) {
  return loweringApplies(Mode, TM, "+avx512cd");
}

PreservedAnalyses BitScanPass::run(Function &F, FunctionAnalysisManager &) {
  if (!lowerBitScans(F))
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace spirv2llvm
