//===- EmitBitwise.cpp - Bit fields, counts, extended arithmetic, tests ---===//
//
// Bit-field operations are defined by SPIR-V for every offset and count
// with offset + count <= width, including count 0 and count == width, where
// the obvious shift expressions would shift by the full width (poison in
// LLVM); the masks below are built so that never happens.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ComponentOps.h"
#include "codegen/common/MathBuilder.h"
#include "codegen/simd/SimdEmitter.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;


bool SimdEmitter::emitBitwise(const Instruction &I) {
  using spv::Op;
  uint32_t Id = I.Result.value();
  bool Varying = Id && isVarying(Id);
  auto Operand = [&](size_t K) { return coerce(get(I.Operands[K]), Varying); };
  // An offset or count operand, matched to the width and shape of \p Like.
  auto Amount = [&](size_t K, Value *Like) {
    Value *A = Operand(K).Comps[0];
    A = B.CreateZExtOrTrunc(A, Like->getType()->isVectorTy()
                                   ? static_cast<Type *>(FixedVectorType::get(
                                         Like->getType()->getScalarType(), W))
                                   : Like->getType());
    return A;
  };
  LaneValue R;
  R.Varying = Varying;
  switch (I.Opcode) {
  case Op::OpBitFieldInsert: {
    LaneValue Base = Operand(0), Ins = Operand(1);
    for (size_t C = 0; C < Base.Comps.size(); ++C) {
      Value *Off = Amount(2, Base.Comps[C]), *Cnt = Amount(3, Base.Comps[C]);
      R.Comps.push_back(
          emitBitFieldInsert(B, Base.Comps[C], Ins.Comps[C], Off, Cnt));
    }
    break;
  }
  case Op::OpBitFieldSExtract:
  case Op::OpBitFieldUExtract: {
    bool Signed = I.Opcode == Op::OpBitFieldSExtract;
    LaneValue Base = Operand(0);
    for (Value *X : Base.Comps) {
      Value *Off = Amount(1, X), *Cnt = Amount(2, X);
      R.Comps.push_back(emitBitFieldExtract(B, X, Off, Cnt, Signed));
    }
    break;
  }
  case Op::OpBitReverse:
  case Op::OpBitCount: {
    LaneValue X = Operand(0);
    Intrinsic::ID IID =
        I.Opcode == Op::OpBitReverse ? Intrinsic::bitreverse : Intrinsic::ctpop;
    const std::vector<ScalarType> &RC = components(I.ResultType);
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Value *V = B.CreateUnaryIntrinsic(IID, X.Comps[C]);
      if (C < RC.size())
        V = B.CreateZExtOrTrunc(V, laneType(RC[C], Varying));
      R.Comps.push_back(V);
    }
    break;
  }
  case Op::OpIAddCarry:
  case Op::OpISubBorrow: {
    // Result struct {result, carry}: all result components, then carries.
    LaneValue X = Operand(0), Y = Operand(1);
    Intrinsic::ID IID = I.Opcode == Op::OpIAddCarry
                            ? Intrinsic::uadd_with_overflow
                            : Intrinsic::usub_with_overflow;
    SmallVector<Value *, 4> Carries;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Value *Pair = B.CreateBinaryIntrinsic(IID, X.Comps[C], Y.Comps[C]);
      R.Comps.push_back(B.CreateExtractValue(Pair, 0));
      Carries.push_back(
          B.CreateZExt(B.CreateExtractValue(Pair, 1), X.Comps[C]->getType()));
    }
    R.Comps.append(Carries.begin(), Carries.end());
    break;
  }
  case Op::OpUMulExtended:
  case Op::OpSMulExtended: {
    // Result struct {low bits, high bits}.
    bool Signed = I.Opcode == Op::OpSMulExtended;
    LaneValue X = Operand(0), Y = Operand(1);
    SmallVector<Value *, 4> High;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Type *T = X.Comps[C]->getType();
      unsigned Bits = T->getScalarSizeInBits();
      Type *Wide = T->getWithNewBitWidth(2 * Bits);
      Value *A = Signed ? B.CreateSExt(X.Comps[C], Wide)
                        : B.CreateZExt(X.Comps[C], Wide);
      Value *Bv = Signed ? B.CreateSExt(Y.Comps[C], Wide)
                         : B.CreateZExt(Y.Comps[C], Wide);
      Value *P = B.CreateMul(A, Bv);
      R.Comps.push_back(B.CreateTrunc(P, T));
      High.push_back(
          B.CreateTrunc(B.CreateLShr(P, ConstantInt::get(Wide, Bits)), T));
    }
    R.Comps.append(High.begin(), High.end());
    break;
  }
  case Op::OpAny:
  case Op::OpAll: {
    LaneValue X = Operand(0);
    Value *Acc = X.Comps[0];
    for (size_t C = 1; C < X.Comps.size(); ++C)
      Acc = I.Opcode == Op::OpAny ? B.CreateOr(Acc, X.Comps[C])
                                  : B.CreateAnd(Acc, X.Comps[C]);
    R.Comps.push_back(Acc);
    break;
  }
  case Op::OpIsNan:
  case Op::OpIsInf: {
    LaneValue X = Operand(0);
    for (Value *V : X.Comps) {
      if (I.Opcode == Op::OpIsNan) {
        R.Comps.push_back(B.CreateFCmpUNO(V, V));
      } else {
        Value *Abs = B.CreateUnaryIntrinsic(Intrinsic::fabs, V);
        R.Comps.push_back(B.CreateFCmpOEQ(
            Abs, ConstantFP::getInfinity(V->getType())));
      }
    }
    break;
  }
  case Op::OpQuantizeToF16: {
    LaneValue X = Operand(0);
    MathBuilder MB(B, *LM);
    for (Value *V : X.Comps)
      R.Comps.push_back(MB.quantizeToF16(V));
    break;
  }
  default:
    return false;
  }
  if (R.Comps.size() != components(I.ResultType).size()) {
    failAt(I, "operands do not match the result type");
    return true;
  }
  set(Id, std::move(R));
  return true;
}

} // namespace spirv2llvm::simd
