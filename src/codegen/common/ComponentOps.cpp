//===- ComponentOps.cpp - Component-wise SPIR-V arithmetic ----------------===//
#include "codegen/common/ComponentOps.h"

#include "parser/OpcodeTable.h"

#include "llvm/IR/Intrinsics.h"

#include <functional>

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

Value *emitComponentBinary(IRBuilder<> &B, spv::Op Opcode, Value *X,
                           Value *Y) {
  using spv::Op;
  std::function<Value *(Value *, Value *)> Bin;
  switch (Opcode) {
  case Op::OpIAdd: Bin = [&](Value *X, Value *Y) { return B.CreateAdd(X, Y); }; break;
  case Op::OpISub: Bin = [&](Value *X, Value *Y) { return B.CreateSub(X, Y); }; break;
  case Op::OpIMul: Bin = [&](Value *X, Value *Y) { return B.CreateMul(X, Y); }; break;
  case Op::OpUDiv:
    Bin = [&](Value *X, Value *Y) {
      return B.CreateUDiv(X, safeDivisor(B, X, Y, false));
    };
    break;
  case Op::OpSDiv:
    Bin = [&](Value *X, Value *Y) {
      return B.CreateSDiv(X, safeDivisor(B, X, Y, true));
    };
    break;
  case Op::OpUMod:
    Bin = [&](Value *X, Value *Y) {
      return B.CreateURem(X, safeDivisor(B, X, Y, false));
    };
    break;
  case Op::OpSRem:
    Bin = [&](Value *X, Value *Y) {
      return B.CreateSRem(X, safeDivisor(B, X, Y, true));
    };
    break;
  case Op::OpSMod:
    // Sign of the result follows the divisor.
    Bin = [&](Value *X, Value *Y) {
      Value *R = B.CreateSRem(X, safeDivisor(B, X, Y, true));
      Value *Zero = Constant::getNullValue(R->getType());
      Value *Fix = B.CreateAnd(B.CreateICmpNE(R, Zero),
                               B.CreateICmpSLT(B.CreateXor(R, Y), Zero));
      return B.CreateSelect(Fix, B.CreateAdd(R, Y), R);
    };
    break;
  case Op::OpFAdd: Bin = [&](Value *X, Value *Y) { return B.CreateFAdd(X, Y); }; break;
  case Op::OpFSub: Bin = [&](Value *X, Value *Y) { return B.CreateFSub(X, Y); }; break;
  case Op::OpFMul: Bin = [&](Value *X, Value *Y) { return B.CreateFMul(X, Y); }; break;
  case Op::OpFDiv: Bin = [&](Value *X, Value *Y) { return B.CreateFDiv(X, Y); }; break;
  case Op::OpFRem: Bin = [&](Value *X, Value *Y) { return B.CreateFRem(X, Y); }; break;
  case Op::OpFMod:
    Bin = [&](Value *X, Value *Y) {
      Value *R = B.CreateFRem(X, Y);
      Value *Zero = ConstantFP::get(R->getType(), 0.0);
      Value *Fix = B.CreateAnd(
          B.CreateFCmpUNE(R, Zero),
          B.CreateXor(B.CreateFCmpOLT(R, Zero), B.CreateFCmpOLT(Y, Zero)));
      return B.CreateSelect(Fix, B.CreateFAdd(R, Y), R);
    };
    break;
  case Op::OpBitwiseAnd:
  case Op::OpLogicalAnd:
    Bin = [&](Value *X, Value *Y) { return B.CreateAnd(X, Y); };
    break;
  case Op::OpBitwiseOr:
  case Op::OpLogicalOr:
    Bin = [&](Value *X, Value *Y) { return B.CreateOr(X, Y); };
    break;
  case Op::OpBitwiseXor:
  case Op::OpLogicalNotEqual:
    Bin = [&](Value *X, Value *Y) { return B.CreateXor(X, Y); };
    break;
  case Op::OpLogicalEqual:
    Bin = [&](Value *X, Value *Y) { return B.CreateICmpEQ(X, Y); };
    break;
  case Op::OpShiftLeftLogical:
    Bin = [&](Value *X, Value *Y) { return B.CreateShl(X, shiftAmount(B, X, Y)); };
    break;
  case Op::OpShiftRightLogical:
    Bin = [&](Value *X, Value *Y) { return B.CreateLShr(X, shiftAmount(B, X, Y)); };
    break;
  case Op::OpShiftRightArithmetic:
    Bin = [&](Value *X, Value *Y) { return B.CreateAShr(X, shiftAmount(B, X, Y)); };
    break;
  default:
    break;
  }
  auto Cmp = [&](CmpInst::Predicate P) {
    Bin = [&, P](Value *X, Value *Y) { return B.CreateCmp(P, X, Y); };
  };
  switch (Opcode) {
  case Op::OpIEqual: Cmp(CmpInst::ICMP_EQ); break;
  case Op::OpINotEqual: Cmp(CmpInst::ICMP_NE); break;
  case Op::OpUGreaterThan: Cmp(CmpInst::ICMP_UGT); break;
  case Op::OpSGreaterThan: Cmp(CmpInst::ICMP_SGT); break;
  case Op::OpUGreaterThanEqual: Cmp(CmpInst::ICMP_UGE); break;
  case Op::OpSGreaterThanEqual: Cmp(CmpInst::ICMP_SGE); break;
  case Op::OpULessThan: Cmp(CmpInst::ICMP_ULT); break;
  case Op::OpSLessThan: Cmp(CmpInst::ICMP_SLT); break;
  case Op::OpULessThanEqual: Cmp(CmpInst::ICMP_ULE); break;
  case Op::OpSLessThanEqual: Cmp(CmpInst::ICMP_SLE); break;
  case Op::OpFOrdEqual: Cmp(CmpInst::FCMP_OEQ); break;
  case Op::OpFUnordEqual: Cmp(CmpInst::FCMP_UEQ); break;
  case Op::OpFOrdNotEqual: Cmp(CmpInst::FCMP_ONE); break;
  case Op::OpFUnordNotEqual: Cmp(CmpInst::FCMP_UNE); break;
  case Op::OpFOrdLessThan: Cmp(CmpInst::FCMP_OLT); break;
  case Op::OpFUnordLessThan: Cmp(CmpInst::FCMP_ULT); break;
  case Op::OpFOrdGreaterThan: Cmp(CmpInst::FCMP_OGT); break;
  case Op::OpFUnordGreaterThan: Cmp(CmpInst::FCMP_UGT); break;
  case Op::OpFOrdLessThanEqual: Cmp(CmpInst::FCMP_OLE); break;
  case Op::OpFUnordLessThanEqual: Cmp(CmpInst::FCMP_ULE); break;
  case Op::OpFOrdGreaterThanEqual: Cmp(CmpInst::FCMP_OGE); break;
  case Op::OpFUnordGreaterThanEqual: Cmp(CmpInst::FCMP_UGE); break;
  default:
    break;
  }
  if (!Bin)
    return nullptr;
  return Bin(X, Y);
}

Value *emitComponentUnary(IRBuilder<> &B, spv::Op Opcode, Value *X, Type *T) {
  using spv::Op;
  std::function<Value *(Value *, Type *)> Un;
  auto Sat = [&](Intrinsic::ID IID) {
    Un = [&, IID](Value *X, Type *T) {
      return B.CreateIntrinsic(IID, {T, X->getType()}, {X});
    };
  };
  switch (Opcode) {
  case Op::OpSNegate: Un = [&](Value *X, Type *) { return B.CreateNeg(X); }; break;
  case Op::OpFNegate: Un = [&](Value *X, Type *) { return B.CreateFNeg(X); }; break;
  case Op::OpNot:
  case Op::OpLogicalNot:
    Un = [&](Value *X, Type *) { return B.CreateNot(X); };
    break;
  case Op::OpConvertFToS: Sat(Intrinsic::fptosi_sat); break;
  case Op::OpConvertFToU: Sat(Intrinsic::fptoui_sat); break;
  case Op::OpConvertSToF: Un = [&](Value *X, Type *T) { return B.CreateSIToFP(X, T); }; break;
  case Op::OpConvertUToF: Un = [&](Value *X, Type *T) { return B.CreateUIToFP(X, T); }; break;
  case Op::OpUConvert: Un = [&](Value *X, Type *T) { return B.CreateZExtOrTrunc(X, T); }; break;
  case Op::OpSConvert: Un = [&](Value *X, Type *T) { return B.CreateSExtOrTrunc(X, T); }; break;
  case Op::OpFConvert: Un = [&](Value *X, Type *T) { return B.CreateFPCast(X, T); }; break;
  case Op::OpCopyObject:
  case Op::OpCopyLogical:
    Un = [&](Value *X, Type *) { return X; };
    break;
  case Op::OpBitcast:
    Un = [&](Value *X, Type *T) { return B.CreateBitCast(X, T); };
    break;
  default:
    break;
  }
  if (!Un)
    return nullptr;
  return Un(X, T);
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
