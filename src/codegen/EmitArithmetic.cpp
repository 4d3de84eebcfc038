//===- EmitArithmetic.cpp - Component-wise arithmetic, logic, conversion --===//
//
// Each operation is applied to every scalar component; a component is a
// scalar when the result is Uniform and <W x T> when it is Varying (uniform
// operands are splatted first). Operations whose LLVM counterpart has
// undefined behaviour where SPIR-V only has an undefined value are guarded:
// integer division by zero (and INT_MIN / -1) divides by 1 instead, shift
// amounts are taken modulo the bit width, float to integer conversions
// saturate.
//
//===----------------------------------------------------------------------===//
#include "codegen/SimdEmitter.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
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

/// Shift amount modulo the bit width of \p V, in \p V's type.
Value *shiftAmount(IRBuilder<> &B, Value *V, Value *S) {
  S = B.CreateZExtOrTrunc(S, V->getType());
  unsigned Bits = V->getType()->getScalarSizeInBits();
  return B.CreateAnd(S, ConstantInt::get(V->getType(), Bits - 1));
}

} // namespace

void SimdEmitter::trackAffine(spv::Op Opcode, Value *Result, Value *X,
                              Value *Y) {
  if (!Result->getType()->isIntOrIntVectorTy())
    return;
  auto AX = affineOf(X), AY = affineOf(Y);
  if (!AX || !AY)
    return;
  auto ConstOf = [](const AffineInfo &A) -> std::optional<int64_t> {
    if (A.Stride == 0)
      if (auto *C = dyn_cast<ConstantInt>(A.Base))
        return C->getSExtValue();
    return std::nullopt;
  };
  switch (Opcode) {
  case spv::Op::OpIAdd:
    setAffine(Result, B.CreateAdd(AX->Base, AY->Base), AX->Stride + AY->Stride);
    break;
  case spv::Op::OpISub:
    setAffine(Result, B.CreateSub(AX->Base, AY->Base), AX->Stride - AY->Stride);
    break;
  case spv::Op::OpIMul:
    if (auto C = ConstOf(*AY))
      setAffine(Result, B.CreateMul(AX->Base, AY->Base), AX->Stride * *C);
    else if (auto C = ConstOf(*AX))
      setAffine(Result, B.CreateMul(AX->Base, AY->Base), AY->Stride * *C);
    break;
  case spv::Op::OpShiftLeftLogical:
    if (auto C = ConstOf(*AY); C && *C >= 0 && *C < 32)
      // The shift amount may be narrower or wider than the shifted value
      // (uint64_t(id) << 5 shifts an i64 by an i32).
      setAffine(Result,
                B.CreateShl(AX->Base,
                            ConstantInt::get(AX->Base->getType(), *C)),
                AX->Stride * (int64_t(1) << *C));
    break;
  default:
    break;
  }
}

bool SimdEmitter::emitArithmetic(const Instruction &I) {
  using spv::Op;
  uint32_t Id = I.Result.value();
  bool Varying = isVarying(Id);
  auto Operand = [&](size_t K) { return coerce(get(I.Operands[K]), Varying); };

  // Binary operations, component by component.
  std::function<Value *(Value *, Value *)> Bin;
  switch (I.Opcode) {
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
  switch (I.Opcode) {
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
  if (Bin) {
    LaneValue X = Operand(0), Y = Operand(1);
    if (X.Comps.size() != Y.Comps.size()) {
      failAt(I, "operands have different component counts");
      return true;
    }
    LaneValue R;
    R.Varying = Varying;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Value *V = Bin(X.Comps[C], Y.Comps[C]);
      if (Varying)
        trackAffine(I.Opcode, V, X.Comps[C], Y.Comps[C]);
      R.Comps.push_back(V);
    }
    set(Id, std::move(R));
    return true;
  }

  // Unary operations and conversions.
  std::function<Value *(Value *, Type *)> Un;
  auto Sat = [&](Intrinsic::ID IID) {
    Un = [&, IID](Value *X, Type *T) {
      return B.CreateIntrinsic(IID, {T, X->getType()}, {X});
    };
  };
  switch (I.Opcode) {
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
  if (Un) {
    if (I.Opcode == Op::OpCopyObject && Pointers.count(I.Operands[0])) {
      Pointers[Id] = Pointers[I.Operands[0]];
      return true;
    }
    LaneValue X = Operand(0);
    const std::vector<ScalarType> &ResultComps = components(I.ResultType);
    if (I.Opcode == Op::OpBitcast && X.Comps.size() != ResultComps.size() &&
        !X.Comps.empty() && !ResultComps.empty()) {
      // Different component counts (vec2 of half <-> uint, ...): the
      // operand's components, lowest first, are concatenated into one
      // integer and cut into the result's components, lowest first, as
      // SPIR-V's OpBitcast maps lower-order bits to lower-numbered
      // components.
      unsigned SrcBits = X.Comps[0]->getType()->getScalarSizeInBits();
      unsigned DstBits = ResultComps[0].Bits;
      unsigned Total = SrcBits * unsigned(X.Comps.size());
      if (Total != DstBits * ResultComps.size() || Total > 128) {
        failAt(I, "operand and result have different sizes");
        return true;
      }
      auto LaneTy = [&](Type *S) -> Type * {
        return Varying ? FixedVectorType::get(S, W) : S;
      };
      Type *Wide = LaneTy(B.getIntNTy(Total));
      Value *Acc = Constant::getNullValue(Wide);
      for (size_t K = 0; K < X.Comps.size(); ++K) {
        Value *C = X.Comps[K];
        if (Varying && !C->getType()->isVectorTy())
          C = B.CreateVectorSplat(W, C);
        C = B.CreateBitCast(C, LaneTy(B.getIntNTy(SrcBits)));
        Acc = B.CreateOr(Acc, B.CreateShl(B.CreateZExt(C, Wide),
                                          ConstantInt::get(Wide, K * SrcBits)));
      }
      LaneValue R;
      R.Varying = Varying;
      for (size_t K = 0; K < ResultComps.size(); ++K) {
        Value *Part = B.CreateTrunc(
            B.CreateLShr(Acc, ConstantInt::get(Wide, K * DstBits)),
            LaneTy(B.getIntNTy(DstBits)));
        R.Comps.push_back(
            B.CreateBitCast(Part, laneType(ResultComps[K], Varying)));
      }
      set(Id, std::move(R));
      return true;
    }
    if (X.Comps.size() != ResultComps.size()) {
      failAt(I, "operand and result have different component counts "
                "(not supported yet)");
      return true;
    }
    LaneValue R;
    R.Varying = Varying;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Type *T = laneType(ResultComps[C], Varying);
      Value *V = Un(X.Comps[C], T);
      // Integer casts keep lane-affine values affine (indices do not wrap).
      if (Varying && V->getType()->isIntOrIntVectorTy() &&
          X.Comps[C]->getType()->isIntOrIntVectorTy())
        if (auto Af = affineOf(X.Comps[C]))
          setAffine(V,
                    I.Opcode == Op::OpUConvert
                        ? B.CreateZExtOrTrunc(Af->Base, T->getScalarType())
                        : B.CreateSExtOrTrunc(Af->Base, T->getScalarType()),
                    Af->Stride);
      if (V->getType() != T) {
        failAt(I, "operand and result types do not match");
        return true;
      }
      R.Comps.push_back(V);
    }
    set(Id, std::move(R));
    return true;
  }

  switch (I.Opcode) {
  case Op::OpSelect: {
    LaneValue Cond = get(I.Operands[0]);
    LaneValue X = Operand(1), Y = Operand(2);
    if (X.Comps.size() != Y.Comps.size() ||
        (Cond.Comps.size() != 1 && Cond.Comps.size() != X.Comps.size())) {
      failAt(I, "operands have different component counts");
      return true;
    }
    LaneValue R;
    R.Varying = Varying;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Value *K = Cond.Comps[Cond.Comps.size() == 1 ? 0 : C];
      R.Comps.push_back(B.CreateSelect(K, X.Comps[C], Y.Comps[C]));
    }
    set(Id, std::move(R));
    return true;
  }
  case Op::OpVectorTimesScalar: {
    LaneValue X = Operand(0), S = Operand(1);
    LaneValue R;
    R.Varying = Varying;
    for (Value *C : X.Comps)
      R.Comps.push_back(B.CreateFMul(C, S.Comps[0]));
    set(Id, std::move(R));
    return true;
  }
  case Op::OpDot: {
    LaneValue X = Operand(0), Y = Operand(1);
    Value *Sum = nullptr;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Value *P = B.CreateFMul(X.Comps[C], Y.Comps[C]);
      Sum = Sum ? B.CreateFAdd(Sum, P) : P;
    }
    LaneValue R;
    R.Varying = Varying;
    R.Comps.push_back(Sum);
    set(Id, std::move(R));
    return true;
  }
  case Op::OpUndef: {
    LaneValue R;
    for (const ScalarType &S : components(I.ResultType))
      R.Comps.push_back(Constant::getNullValue(scalarType(S)));
    set(Id, std::move(R));
    return true;
  }
  default:
    return false;
  }
}

} // namespace spirv2llvm::simd
