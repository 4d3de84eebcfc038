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

#include "parser/OpcodeTable.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;


bool SimdEmitter::emitBitwise(const Instruction &I) {
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
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  LaneValue R;
  R.Varying = Varying;
  switch (Info.Eval) {
  case EvalKind::BitFieldInsert: {
    LaneValue Base = Operand(0), Ins = Operand(1);
    for (size_t C = 0; C < Base.Comps.size(); ++C) {
      Value *Off = Amount(2, Base.Comps[C]), *Cnt = Amount(3, Base.Comps[C]);
      R.Comps.push_back(
          emitBitFieldInsert(B, Base.Comps[C], Ins.Comps[C], Off, Cnt));
    }
    break;
  }
  case EvalKind::BitFieldExtract: {
    bool Signed = Info.Cast == CastKind::SExt;
    LaneValue Base = Operand(0);
    for (Value *X : Base.Comps) {
      Value *Off = Amount(1, X), *Cnt = Amount(2, X);
      R.Comps.push_back(emitBitFieldExtract(B, X, Off, Cnt, Signed));
    }
    break;
  }
  case EvalKind::UnaryIntrinsic: {
    LaneValue X = Operand(0);
    const std::vector<ScalarType> &RC = components(I.ResultType);
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Value *V = B.CreateUnaryIntrinsic(llvmIntrinsic(Info.Intr), X.Comps[C]);
      // OpBitCount's result may be narrower or wider than its operand.
      if (C < RC.size())
        V = B.CreateZExtOrTrunc(V, laneType(RC[C], Varying));
      R.Comps.push_back(V);
    }
    break;
  }
  case EvalKind::WithOverflow:
  case EvalKind::ExtendedMul: {
    // Result struct {result or low bits, carry or high bits}: all first
    // members' components, then all second members'.
    LaneValue X = Operand(0), Y = Operand(1);
    SmallVector<Value *, 4> Second;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      auto [Lo, Hi] =
          Info.Eval == EvalKind::WithOverflow
              ? emitWithOverflow(B, Info.Intr, X.Comps[C], Y.Comps[C])
              : emitExtendedMul(B, Info.Cast, X.Comps[C], Y.Comps[C]);
      R.Comps.push_back(Lo);
      Second.push_back(Hi);
    }
    R.Comps.append(Second.begin(), Second.end());
    break;
  }
  case EvalKind::Reduce: {
    LaneValue X = Operand(0);
    Value *Acc = X.Comps[0];
    for (size_t C = 1; C < X.Comps.size(); ++C)
      Acc = emitBinaryOp(B, Info.Bin, Acc, X.Comps[C]);
    R.Comps.push_back(Acc);
    break;
  }
  case EvalKind::FloatTest: {
    LaneValue X = Operand(0);
    for (Value *V : X.Comps)
      R.Comps.push_back(emitFloatTest(B, Info.Cmp, V));
    break;
  }
  case EvalKind::Quantize: {
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
