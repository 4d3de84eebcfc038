//===- ComponentOps.cpp - Component-wise SPIR-V arithmetic ----------------===//
#include "codegen/common/ComponentOps.h"

#include "parser/OpcodeTable.h"

#include "llvm/IR/Intrinsics.h"

#include "llvm/Support/ErrorHandling.h"

#include <iterator>

using namespace llvm;

namespace spirv2llvm {

using llvm::Constant;
using llvm::Type;

namespace {

/// Divisor that makes LLVM's division defined: 1 where \p D is 0, or where
/// a signed division would overflow (N = INT_MIN, D = -1).
Value *safeDivisor(IRBuilder<> &B, Value *N, Value *D, bool Signed) {
  Value *One = ConstantInt::get(D->getType(), 1);
  Value *Bad = B.CreateICmpEQ(D, Constant::getNullValue(D->getType()));
  if (Signed) {
    unsigned Bits = D->getType()->getScalarSizeInBits();
    Value *MinusOne = Constant::getAllOnesValue(D->getType());
    Value *Min = ConstantInt::get(D->getType(), APInt::getSignedMinValue(Bits));
    Bad = B.CreateOr(Bad, B.CreateAnd(B.CreateICmpEQ(D, MinusOne),
                                      B.CreateICmpEQ(N, Min)));
  }
  return B.CreateSelect(Bad, One, D);
}

/// ((1 << Count) - 1), also for Count == width (all ones) and 0.
Value *lowMask(IRBuilder<> &B, Value *Count) {
  Type *T = Count->getType();
  unsigned Bits = T->getScalarSizeInBits();
  Value *Width = ConstantInt::get(T, Bits);
  Value *Zero = Constant::getNullValue(T);
  // ~0 >> (width - count) is defined for count in [1, width].
  Value *Shift = B.CreateSub(Width, Count);
  Value *IsZero = B.CreateICmpEQ(Count, Zero);
  Value *SafeShift = B.CreateSelect(IsZero, Zero, Shift);
  Value *M = B.CreateLShr(Constant::getAllOnesValue(T), SafeShift);
  return B.CreateSelect(IsZero, Zero, M);
}

/// Shift amount modulo the bit width of \p V, in \p V's type.
Value *shiftAmount(IRBuilder<> &B, Value *V, Value *S) {
  S = B.CreateZExtOrTrunc(S, V->getType());
  unsigned Bits = V->getType()->getScalarSizeInBits();
  return B.CreateAnd(S, ConstantInt::get(V->getType(), Bits - 1));
}

} // namespace

Instruction::BinaryOps llvmBinaryOp(BinaryOpKind K) {
  // In BinaryOpKind's order; SMod and FMod start as SRem and FRem.
  static constexpr Instruction::BinaryOps Ops[] = {
      Instruction::BinaryOpsEnd, Instruction::Add,  Instruction::FAdd,
      Instruction::Sub,          Instruction::FSub, Instruction::Mul,
      Instruction::FMul,         Instruction::UDiv, Instruction::SDiv,
      Instruction::FDiv,         Instruction::URem, Instruction::SRem,
      Instruction::FRem,         Instruction::Shl,  Instruction::LShr,
      Instruction::AShr,         Instruction::And,  Instruction::Or,
      Instruction::Xor,          Instruction::SRem, Instruction::FRem};
  static_assert(std::size(Ops) == size_t(BinaryOpKind::FMod) + 1);
  assert(K != BinaryOpKind::None && "not a binary operator");
  return Ops[size_t(K)];
}

CmpInst::Predicate llvmPredicate(CompareKind K) {
  static constexpr CmpInst::Predicate Preds[] = {
      CmpInst::BAD_FCMP_PREDICATE, CmpInst::FCMP_OEQ, CmpInst::FCMP_OGT,
      CmpInst::FCMP_OGE,           CmpInst::FCMP_OLT, CmpInst::FCMP_OLE,
      CmpInst::FCMP_ONE,           CmpInst::FCMP_UNO, CmpInst::FCMP_UEQ,
      CmpInst::FCMP_UGT,           CmpInst::FCMP_UGE, CmpInst::FCMP_ULT,
      CmpInst::FCMP_ULE,           CmpInst::FCMP_UNE, CmpInst::ICMP_EQ,
      CmpInst::ICMP_NE,            CmpInst::ICMP_UGT, CmpInst::ICMP_UGE,
      CmpInst::ICMP_ULT,           CmpInst::ICMP_ULE, CmpInst::ICMP_SGT,
      CmpInst::ICMP_SGE,           CmpInst::ICMP_SLT, CmpInst::ICMP_SLE};
  static_assert(std::size(Preds) == size_t(CompareKind::ICMP_SLE) + 1);
  assert(K != CompareKind::None && "not a comparison");
  return Preds[size_t(K)];
}

Intrinsic::ID llvmIntrinsic(IntrinsicKind K) {
  static constexpr Intrinsic::ID IDs[] = {
      Intrinsic::not_intrinsic, Intrinsic::bitreverse, Intrinsic::ctpop,
      Intrinsic::uadd_with_overflow, Intrinsic::usub_with_overflow};
  static_assert(std::size(IDs) == size_t(IntrinsicKind::usub_with_overflow) + 1);
  assert(K != IntrinsicKind::None && "not an intrinsic");
  return IDs[size_t(K)];
}

Value *emitBinaryOp(IRBuilder<> &B, BinaryOpKind K, Value *X, Value *Y) {
  Instruction::BinaryOps Op = llvmBinaryOp(K);
  // The guards follow from LLVM's operation, not from the opcode.
  Value *Rhs = Y;
  if (Instruction::isShift(Op))
    Rhs = shiftAmount(B, X, Y);
  else if (Op == Instruction::UDiv || Op == Instruction::URem ||
           Op == Instruction::SDiv || Op == Instruction::SRem)
    Rhs = safeDivisor(B, X, Y, Op != Instruction::UDiv &&
                                   Op != Instruction::URem);
  Value *R = B.CreateBinOp(Op, X, Rhs);
  if (K == BinaryOpKind::SMod) {
    // Sign of the result follows the divisor.
    Value *Zero = Constant::getNullValue(R->getType());
    Value *Fix = B.CreateAnd(B.CreateICmpNE(R, Zero),
                             B.CreateICmpSLT(B.CreateXor(R, Y), Zero));
    return B.CreateSelect(Fix, B.CreateAdd(R, Y), R);
  }
  if (K == BinaryOpKind::FMod) {
    Value *Zero = ConstantFP::get(R->getType(), 0.0);
    Value *Fix = B.CreateAnd(
        B.CreateFCmpUNE(R, Zero),
        B.CreateXor(B.CreateFCmpOLT(R, Zero), B.CreateFCmpOLT(Y, Zero)));
    return B.CreateSelect(Fix, B.CreateFAdd(R, Y), R);
  }
  return R;
}

Value *emitCast(IRBuilder<> &B, CastKind K, Value *X, Type *T) {
  // In CastKind's order.
  static constexpr Instruction::CastOps Ops[] = {
      Instruction::CastOpsEnd, Instruction::ZExt,   Instruction::SExt,
      Instruction::FPExt,      Instruction::UIToFP, Instruction::SIToFP,
      Instruction::FPToUI,     Instruction::FPToSI, Instruction::BitCast};
  static_assert(std::size(Ops) == size_t(CastKind::BitCast) + 1);
  assert(K != CastKind::None && "not a conversion");
  Instruction::CastOps Op = Ops[size_t(K)];
  if (Op == Instruction::FPToUI || Op == Instruction::FPToSI)
    // Saturating: LLVM's out-of-range result is poison, SPIR-V's only an
    // undefined value.
    return B.CreateIntrinsic(Op == Instruction::FPToUI ? Intrinsic::fptoui_sat
                                                       : Intrinsic::fptosi_sat,
                             {T, X->getType()}, {X});
  bool Extends = Op == Instruction::ZExt || Op == Instruction::SExt ||
                 Op == Instruction::FPExt;
  if (Extends &&
      X->getType()->getScalarSizeInBits() > T->getScalarSizeInBits())
    Op = Op == Instruction::FPExt ? Instruction::FPTrunc : Instruction::Trunc;
  // The same type (a conversion to the operand's width) is X itself.
  return B.CreateCast(Op, X, T);
}

Value *emitComponentBinary(IRBuilder<> &B, spv::Op Opcode, Value *X,
                           Value *Y) {
  const OpcodeInfo &Info = opcodeInfo(Opcode);
  if (!(Info.Flags & OpcodeFlag::Binary))
    return nullptr;
  if (Info.Cmp != CompareKind::None)
    return B.CreateCmp(llvmPredicate(Info.Cmp), X, Y);
  return emitBinaryOp(B, Info.Bin, X, Y);
}

Value *emitComponentUnary(IRBuilder<> &B, spv::Op Opcode, Value *X, Type *T) {
  const OpcodeInfo &Info = opcodeInfo(Opcode);
  if (!(Info.Flags & OpcodeFlag::Unary))
    return nullptr;
  switch (Info.Unary) {
  case UnaryOpKind::Neg:
    return B.CreateNeg(X);
  case UnaryOpKind::FNeg:
    return B.CreateFNeg(X);
  case UnaryOpKind::Not:
    return B.CreateNot(X);
  case UnaryOpKind::Copy:
    return X;
  case UnaryOpKind::None:
    break;
  }
  return emitCast(B, Info.Cast, X, T);
}

Value *emitFloatTest(IRBuilder<> &B, CompareKind K, Value *X) {
  // isnan: |x| unordered with +inf; isinf: |x| == +inf.
  return B.CreateCmp(llvmPredicate(K),
                     B.CreateUnaryIntrinsic(Intrinsic::fabs, X),
                     ConstantFP::getInfinity(X->getType()));
}

std::pair<Value *, Value *> emitWithOverflow(IRBuilder<> &B, IntrinsicKind K,
                                             Value *X, Value *Y) {
  Value *Pair = B.CreateBinaryIntrinsic(llvmIntrinsic(K), X, Y);
  return {B.CreateExtractValue(Pair, 0),
          B.CreateZExt(B.CreateExtractValue(Pair, 1), X->getType())};
}

std::pair<Value *, Value *> emitExtendedMul(IRBuilder<> &B, CastKind K,
                                            Value *X, Value *Y) {
  Type *T = X->getType();
  unsigned Bits = T->getScalarSizeInBits();
  Type *Wide = T->getWithNewBitWidth(2 * Bits);
  Value *WX = emitCast(B, K, X, Wide);
  Value *WY = emitCast(B, K, Y, Wide);
  Value *P = B.CreateMul(WX, WY);
  return {B.CreateTrunc(P, T),
          B.CreateTrunc(B.CreateLShr(P, ConstantInt::get(Wide, Bits)), T)};
}

Value *emitBitFieldInsert(IRBuilder<> &B, Value *Base, Value *Insert,
                          Value *Off, Value *Cnt) {
  Value *Mask = B.CreateShl(lowMask(B, Cnt), Off);
  // Out-of-range Offset/Count give an undefined value in SPIR-V, not
  // undefined behaviour: freeze the shifts' poison into some value.
  return B.CreateFreeze(B.CreateOr(B.CreateAnd(Base, B.CreateNot(Mask)),
                                   B.CreateAnd(B.CreateShl(Insert, Off), Mask)));
}

Value *emitBitFieldExtract(IRBuilder<> &B, Value *X, Value *Off, Value *Cnt,
                           bool Signed) {
  Type *T = X->getType();
  Value *Zero = Constant::getNullValue(T);
  Value *Bits = ConstantInt::get(T, T->getScalarSizeInBits());
  if (Signed) {
    // Move the field to the top, then shift it down arithmetically.
    Value *Up = B.CreateSub(B.CreateSub(Bits, Off), Cnt);
    Value *IsZero = B.CreateICmpEQ(Cnt, Zero);
    Value *SafeUp = B.CreateSelect(IsZero, Zero, Up);
    Value *Down = B.CreateSelect(IsZero, Zero, B.CreateSub(Bits, Cnt));
    Value *V = B.CreateAShr(B.CreateShl(X, SafeUp), Down);
    return B.CreateFreeze(B.CreateSelect(IsZero, Zero, V));
  }
  return B.CreateFreeze(B.CreateAnd(B.CreateLShr(X, Off), lowMask(B, Cnt)));
}

bool isComponentBinary(spv::Op Op) {
  // The opcode table's Binary flag lists exactly what emitComponentBinary
  // implements.
  return hasOpcodeFlag(Op, OpcodeFlag::Binary);
}

bool isComponentUnary(spv::Op Op) {
  return hasOpcodeFlag(Op, OpcodeFlag::Unary);
}

} // namespace spirv2llvm
