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
  // Only the Matrix family arrives here (EmitInstruction.cpp).
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  if (Info.Family != OpcodeFamily::Matrix)
    return false;
  uint32_t Id = I.Result.value();
  bool Varying = isVarying(Id);
  auto Operand = [&](size_t K) { return coerce(get(I.Operands[K]), Varying); };
  // Columns and rows of a matrix type.
  auto Dims = [&](TypeId T) -> std::pair<uint32_t, uint32_t> {
    const spirv2llvm::Type &MT = M.type(T);
    return {MT.Count, M.type(MT.Element).Count};
  };
  LaneValue R;
  R.Varying = Varying;
  switch (Info.Eval) {
  case EvalKind::Product: {
    // Lhs (Rows x Inner) times Rhs (Inner x Cols); a vector operand is one
    // column or one row (Lhs=, Rhs=). Rows and columns of operand K, which
    // has N components.
    auto Shape = [&](MatrixOperandKind Kind, size_t K,
                     size_t N) -> std::pair<uint32_t, uint32_t> {
      if (Kind == MatrixOperandKind::Matrix) {
        auto [Cols, Rows] = Dims(M.typeOf(I.Operands[K]));
        return {Rows, Cols};
      }
      return Kind == MatrixOperandKind::Column
                 ? std::pair<uint32_t, uint32_t>{uint32_t(N), 1}
                 : std::pair<uint32_t, uint32_t>{1, uint32_t(N)};
    };
    LaneValue A = Operand(0), Bm = Operand(1);
    auto [Rows, Inner] = Shape(Info.Lhs, 0, A.Comps.size());
    auto [Inner2, Cols] = Shape(Info.Rhs, 1, Bm.Comps.size());
    if (Inner != Inner2 || A.Comps.size() != Rows * Inner ||
        Bm.Comps.size() != Inner * Cols)
      break;
    // Element (r, c) of an operand with N rows is component c * N + r; the
    // result is column-major too (a vector result is its only row or
    // column). Each element sums its products in order, unfused.
    for (uint32_t Col = 0; Col < Cols; ++Col)
      for (uint32_t Row = 0; Row < Rows; ++Row) {
        Value *Sum = nullptr;
        for (uint32_t K = 0; K < Inner; ++K) {
          Value *P = B.CreateFMul(A.Comps[K * Rows + Row],
                                  Bm.Comps[Col * Inner + K]);
          Sum = Sum ? B.CreateFAdd(Sum, P) : P;
        }
        R.Comps.push_back(Sum);
      }
    break;
  }
  case EvalKind::Scale: {
    LaneValue Mx = Operand(0), S = Operand(1);
    for (Value *C : Mx.Comps)
      R.Comps.push_back(B.CreateFMul(C, S.Comps[0]));
    break;
  }
  case EvalKind::Transpose: {
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
