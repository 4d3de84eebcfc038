//===- EmitMatrix.cpp - Matrix and vector products, transposes ------------===//
//
// Matrices are flat component lists, column-major: component c*R + r is
// row r of column c. Products are written out as multiplies and adds (no
// fused multiply-add), so results do not depend on contraction and
// NoContraction needs nothing special.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

bool SimdEmitter::emitMatrix(const Instruction &I) {
  using spv::Op;
  // Only the Matrix family arrives here (EmitInstruction.cpp).
  if (opcodeInfo(I.Opcode).Family != OpcodeFamily::Matrix)
    return false;
  uint32_t Id = I.Result.value();
  bool Varying = isVarying(Id);
  auto Operand = [&](size_t K) { return coerce(get(I.Operands[K]), Varying); };
  // Columns and rows of a matrix type.
  auto Dims = [&](TypeId T) -> std::pair<uint32_t, uint32_t> {
    const spirv2llvm::Type &MT = M.type(T);
    return {MT.Count, M.type(MT.Element).Count};
  };
  auto Dot = [&](auto &&A, auto &&Bv, uint32_t N) {
    Value *Sum = nullptr;
    for (uint32_t K = 0; K < N; ++K) {
      Value *P = B.CreateFMul(A(K), Bv(K));
      Sum = Sum ? B.CreateFAdd(Sum, P) : P;
    }
    return Sum;
  };
  LaneValue R;
  R.Varying = Varying;
  switch (I.Opcode) {
  case Op::OpMatrixTimesVector: {
    LaneValue Mx = Operand(0), V = Operand(1);
    auto [C, Rows] = Dims(M.typeOf(I.Operands[0]));
    if (Mx.Comps.size() != C * Rows || V.Comps.size() != C)
      break;
    for (uint32_t Row = 0; Row < Rows; ++Row)
      R.Comps.push_back(Dot([&](uint32_t K) { return Mx.Comps[K * Rows + Row]; },
                            [&](uint32_t K) { return V.Comps[K]; }, C));
    break;
  }
  case Op::OpVectorTimesMatrix: {
    LaneValue V = Operand(0), Mx = Operand(1);
    auto [C, Rows] = Dims(M.typeOf(I.Operands[1]));
    if (Mx.Comps.size() != C * Rows || V.Comps.size() != Rows)
      break;
    for (uint32_t Col = 0; Col < C; ++Col)
      R.Comps.push_back(Dot([&](uint32_t K) { return V.Comps[K]; },
                            [&](uint32_t K) { return Mx.Comps[Col * Rows + K]; },
                            Rows));
    break;
  }
  case Op::OpMatrixTimesMatrix: {
    LaneValue A = Operand(0), Bm = Operand(1);
    auto [K, Rows] = Dims(M.typeOf(I.Operands[0]));
    auto [C, K2] = Dims(M.typeOf(I.Operands[1]));
    if (K != K2 || A.Comps.size() != K * Rows || Bm.Comps.size() != C * K)
      break;
    for (uint32_t Col = 0; Col < C; ++Col)
      for (uint32_t Row = 0; Row < Rows; ++Row)
        R.Comps.push_back(
            Dot([&](uint32_t J) { return A.Comps[J * Rows + Row]; },
                [&](uint32_t J) { return Bm.Comps[Col * K + J]; }, K));
    break;
  }
  case Op::OpOuterProduct: {
    LaneValue A = Operand(0), Bv = Operand(1);
    for (Value *BC : Bv.Comps)
      for (Value *AC : A.Comps)
        R.Comps.push_back(B.CreateFMul(AC, BC));
    break;
  }
  case Op::OpMatrixTimesScalar: {
    LaneValue Mx = Operand(0), S = Operand(1);
    for (Value *C : Mx.Comps)
      R.Comps.push_back(B.CreateFMul(C, S.Comps[0]));
    break;
  }
  case Op::OpTranspose: {
    LaneValue Mx = Operand(0);
    auto [C, Rows] = Dims(M.typeOf(I.Operands[0]));
    if (Mx.Comps.size() != C * Rows)
      break;
    for (uint32_t Row = 0; Row < Rows; ++Row)
      for (uint32_t Col = 0; Col < C; ++Col)
        R.Comps.push_back(Mx.Comps[Col * Rows + Row]);
    break;
  }
  default:
    break;
  }
  if (R.Comps.size() != components(I.ResultType).size()) {
    failAt(I, "operand shapes do not match the result type");
    return true;
  }
  set(Id, std::move(R));
  return true;
}

} // namespace spirv2llvm::simd
