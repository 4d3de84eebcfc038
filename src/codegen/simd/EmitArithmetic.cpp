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
#include "codegen/common/ComponentOps.h"
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

// Lane shapes (uniform / affine / varying) of the results are the lane-shape
// analysis's (uniformity/LaneShape.h), not tracked here.

LaneValue SimdEmitter::bitcastRepacked(const LaneValue &X,
                                       const std::vector<ScalarType> &To,
                                       bool Varying) {
  // OpBitcast between vectors of different lengths (u64 <-> uvec2,
  // vec4 of half <-> uvec2, ...): per lane, the operand's components are
  // concatenated, the first in the lowest bits, and cut into the result's.
  auto IntOf = [&](unsigned Bits) -> Type * {
    Type *T = B.getIntNTy(Bits);
    return Varying ? static_cast<Type *>(FixedVectorType::get(T, W)) : T;
  };
  unsigned Total = 0;
  for (Value *C : X.Comps)
    Total += C->getType()->getScalarSizeInBits();
  Value *Wide = ConstantInt::get(IntOf(Total), 0);
  unsigned Shift = 0;
  for (Value *C : X.Comps) {
    C = coerce(LaneValue{{C}, X.Varying}, Varying).Comps[0];
    unsigned Bits = C->getType()->getScalarSizeInBits();
    Value *AsInt = B.CreateBitCast(C, IntOf(Bits));
    Value *Part = B.CreateShl(B.CreateZExt(AsInt, IntOf(Total)),
                              ConstantInt::get(IntOf(Total), Shift));
    Wide = B.CreateOr(Wide, Part);
    Shift += Bits;
  }
  LaneValue R;
  R.Varying = Varying;
  Shift = 0;
  for (const ScalarType &S : To) {
    Value *Part = B.CreateLShr(Wide, ConstantInt::get(IntOf(Total), Shift));
    Value *Narrow = B.CreateTrunc(Part, IntOf(S.Bits));
    R.Comps.push_back(B.CreateBitCast(Narrow, laneType(S, Varying)));
    Shift += S.Bits;
  }
  return R;
}

bool SimdEmitter::emitArithmetic(const Instruction &I) {
  using spv::Op;
  uint32_t Id = I.Result.value();
  bool Varying = isVarying(Id);
  auto Operand = [&](size_t K) { return coerce(get(I.Operands[K]), Varying); };

  // Binary operations, component by component (ComponentOps.cpp).
  std::function<Value *(Value *, Value *)> Bin;
  if (isComponentBinary(I.Opcode))
    Bin = [&](Value *X, Value *Y) {
      return emitComponentBinary(B, I.Opcode, X, Y);
    };
  if (Bin) {
    LaneValue X = Operand(0), Y = Operand(1);
    if (X.Comps.size() != Y.Comps.size()) {
      failAt(I, "operands have different component counts");
      return true;
    }
    LaneValue R;
    R.Varying = Varying;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      R.Comps.push_back(Bin(X.Comps[C], Y.Comps[C]));
    }
    set(Id, std::move(R));
    return true;
  }

  // Unary operations and conversions (ComponentOps.cpp).
  std::function<Value *(Value *, Type *)> Un;
  if (isComponentUnary(I.Opcode))
    Un = [&](Value *X, Type *T) {
      return emitComponentUnary(B, I.Opcode, X, T);
    };
  if (Un) {
    if (opcodeInfo(I.Opcode).Unary == UnaryOpKind::Copy &&
        FS.Pointers.count(I.Operands[0])) {
      FS.Pointers[Id] = FS.Pointers[I.Operands[0]];
      return true;
    }
    LaneValue X = Operand(0);
    const std::vector<ScalarType> &ResultComps = components(I.ResultType);
    if (X.Comps.size() != ResultComps.size()) {
      if (opcodeInfo(I.Opcode).Cast != CastKind::BitCast) {
        failAt(I, "operand and result have different component counts");
        return true;
      }
      set(Id, bitcastRepacked(X, ResultComps, Varying));
      return true;
    }
    LaneValue R;
    R.Varying = Varying;
    for (size_t C = 0; C < X.Comps.size(); ++C) {
      Type *T = laneType(ResultComps[C], Varying);
      Value *V = Un(X.Comps[C], T);
      if (V->getType() != T) {
        failAt(I, "operand and result types do not match");
        return true;
      }
      R.Comps.push_back(V);
    }
    set(Id, std::move(R));
    return true;
  }

  // The rest: how the opcode table says the value is computed.
  switch (opcodeInfo(I.Opcode).Eval) {
  case EvalKind::Select: {
    // Pointers other than PhysicalStorageBuffer ones are not values.
    if (M.type(I.ResultType).Kind == TypeKind::Pointer &&
        !isPhysicalPointerType(I.ResultType))
      return emitPointerSelect(I);
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
  case EvalKind::Scale: {
    // A vector or a matrix (flat columns) times a scalar.
    LaneValue X = Operand(0), S = Operand(1);
    LaneValue R;
    R.Varying = Varying;
    for (Value *C : X.Comps)
      R.Comps.push_back(B.CreateFMul(C, S.Comps[0]));
    set(Id, std::move(R));
    return true;
  }
  case EvalKind::Dot: {
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
  case EvalKind::Undef: {
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
