//===- EmitPointerSelect.cpp - OpSelect of buffer and workgroup pointers --===//
//
// Variable pointers (VariablePointersStorageBuffer, VariablePointers):
// OpSelect between two StorageBuffer or two Workgroup pointers, which may
// point into different variables. A memory pointer is a base, a size and an
// offset (PointerValue), so the select is field by field: with a uniform
// condition and scalar bases the result keeps one base (a scalar select);
// with a per-lane condition, or when an operand already has per-lane bases,
// the result has per-lane bases and sizes (LaneBase/LaneSize), the form
// descriptor arrays indexed by a varying index use, whose accesses gather
// and scatter. Sizes go along, so robust buffer access still checks each
// lane against the buffer it points into.
//
// Not handled (refused with a message): pointers to variables kept in
// registers (Function, Private; VariablePointers does not allow selecting
// them either), un-indexed arrays of buffer blocks, and two pointees with
// different matrix layouts (the layout is a property of the pointer here,
// not of each lane). OpPhi of pointers and pointers stored in variables are
// not done yet (docs/amber.md "Variable pointers").
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

using namespace llvm;

namespace spirv2llvm::simd {

bool SimdEmitter::emitPointerSelect(const Instruction &I) {
  uint32_t Id = I.Result.value();
  PointerValue X, Y;
  if (!pointerOf(I.Operands[1], X) || !pointerOf(I.Operands[2], Y))
    return true;
  auto Selectable = [](const PointerValue &P) {
    return P.InMemory && (P.Storage == spv::StorageClass::StorageBuffer ||
                          P.Storage == spv::StorageClass::Workgroup);
  };
  if (!Selectable(X) || !Selectable(Y) || X.Storage != Y.Storage) {
    failAt(I, "unsupported: OpSelect of these pointers (variable pointers "
              "select two StorageBuffer or two Workgroup pointers)");
    return true;
  }
  if (X.DescArray || Y.DescArray) {
    failAt(I, "an array of buffer blocks must be indexed before it is "
              "selected");
    return true;
  }
  if (X.ML.RowMajor != Y.ML.RowMajor || X.ML.Stride != Y.ML.Stride ||
      X.VecStride != Y.VecStride) {
    failAt(I, "unsupported: OpSelect of pointers to matrices with different "
              "layouts");
    return true;
  }
  LaneValue Cond = get(I.Operands[0]);
  if (Cond.Comps.size() != 1) {
    failAt(I, "the condition of a pointer select must be a scalar");
    return true;
  }
  Value *K = Cond.Comps[0];
  bool VaryingCond = K->getType()->isVectorTy();
  auto Pick = [&](Value *A, Value *C, const Twine &Name) -> Value * {
    if (A == C)
      return A;
    bool Vec = VaryingCond || A->getType()->isVectorTy() ||
               C->getType()->isVectorTy();
    if (!Vec)
      return B.CreateSelect(K, A, C, Name);
    return B.CreateSelect(VaryingCond ? K : splat(K), splat(A), splat(C),
                          Name);
  };
  std::string Name = llvmName(Id);

  PointerValue R = X;
  R.ForceBounds = X.ForceBounds || Y.ForceBounds;
  R.Offset = Pick(X.Offset, Y.Offset, Name + ".offset");
  // Lane offsets stay affine when both sides are, with one stride, and the
  // condition is the same for every lane.
  bool Affine = !VaryingCond && X.AffineBase && Y.AffineBase &&
                X.AffineStride == Y.AffineStride;
  R.AffineBase =
      Affine ? Pick(X.AffineBase, Y.AffineBase, Name + ".abase") : nullptr;
  R.AffineStride = Affine ? X.AffineStride : 0;

  bool OneBase = !X.LaneBase && !Y.LaneBase;
  if (OneBase && X.Base == Y.Base && X.Size == Y.Size) {
    // The same variable: only the offset differs.
    setPointer(Id, R);
    return true;
  }
  R.DynamicBase = true;
  if (OneBase && !VaryingCond) {
    R.Base = B.CreateSelect(K, X.Base, Y.Base, Name + ".base");
    R.Size = X.Size && Y.Size ? B.CreateSelect(K, X.Size, Y.Size,
                                               Name + ".size")
                              : nullptr;
    setPointer(Id, R);
    return true;
  }
  // Per-lane bases and sizes; the offset is per lane too.
  auto LaneOf = [&](Value *Lanes, Value *One) {
    return Lanes ? Lanes : (One ? splat(One) : nullptr);
  };
  Value *KV = VaryingCond ? K : splat(K);
  R.LaneBase = B.CreateSelect(KV, LaneOf(X.LaneBase, X.Base),
                              LaneOf(Y.LaneBase, Y.Base), Name + ".bases");
  Value *SX = LaneOf(X.LaneSize, X.Size), *SY = LaneOf(Y.LaneSize, Y.Size);
  R.LaneSize = SX && SY ? B.CreateSelect(KV, SX, SY, Name + ".sizes") : nullptr;
  R.Base = nullptr;
  R.Size = nullptr;
  R.Offset = splat(R.Offset);
  R.AffineBase = nullptr;
  R.AffineStride = 0;
  setPointer(Id, R);
  return true;
}

} // namespace spirv2llvm::simd
