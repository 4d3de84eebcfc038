//===- GroupOps.cpp - Group operation semantics shared by the back ends ---===//
#include "codegen/common/GroupOps.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

/// The LLVM form of a combine operation: a binary instruction, or a binary
/// intrinsic where LLVM has no instruction (the minima and maxima).
struct CombineInst {
  unsigned BinOp = 0;
  Intrinsic::ID Intr = Intrinsic::not_intrinsic;
};

CombineInst combineInst(CombineKind Kind) {
  switch (Kind) {
  case CombineKind::Add: return {Instruction::Add};
  case CombineKind::FAdd: return {Instruction::FAdd};
  case CombineKind::Mul: return {Instruction::Mul};
  case CombineKind::FMul: return {Instruction::FMul};
  case CombineKind::And: return {Instruction::And};
  case CombineKind::Or: return {Instruction::Or};
  case CombineKind::Xor: return {Instruction::Xor};
  case CombineKind::SMin: return {0, Intrinsic::smin};
  case CombineKind::UMin: return {0, Intrinsic::umin};
  case CombineKind::FMin: return {0, Intrinsic::minnum};
  case CombineKind::SMax: return {0, Intrinsic::smax};
  case CombineKind::UMax: return {0, Intrinsic::umax};
  case CombineKind::FMax: return {0, Intrinsic::maxnum};
  case CombineKind::None:
  case CombineKind::Sub:      // not associative: no group operation
  case CombineKind::Exchange: // atomics only
    break;
  }
  return {};
}

} // namespace

Constant *groupIdentity(CombineKind Kind, Type *T, bool ForFill) {
  CombineInst C = combineInst(Kind);
  if (C.BinOp)
    // FAdd: -0.0 unless signed zeros may be ignored (NSZ), which is the
    // spec's +0.0.
    return ConstantExpr::getBinOpIdentity(C.BinOp, T,
                                          /*AllowRHSConstant=*/false,
                                          /*NSZ=*/!ForFill);
  // LLVM knows the integer minima's and maxima's identities; minnum and
  // maxnum have the infinities (a NaN never wins).
  if (C.Intr == Intrinsic::minnum || C.Intr == Intrinsic::maxnum)
    return ConstantFP::getInfinity(T, /*Negative=*/C.Intr == Intrinsic::maxnum);
  if (C.Intr != Intrinsic::not_intrinsic)
    return ConstantExpr::getIntrinsicIdentity(C.Intr, T);
  return nullptr;
}

Value *emitGroupCombine(IRBuilder<> &B, CombineKind Kind, Value *X, Value *Y) {
  CombineInst C = combineInst(Kind);
  if (C.BinOp)
    return B.CreateBinOp(Instruction::BinaryOps(C.BinOp), X, Y);
  assert(C.Intr != Intrinsic::not_intrinsic && "not a group combine operation");
  return B.CreateBinaryIntrinsic(C.Intr, X, Y);
}

} // namespace spirv2llvm
