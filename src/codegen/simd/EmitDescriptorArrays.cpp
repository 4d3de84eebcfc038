//===- EmitDescriptorArrays.cpp - Arrays of buffer blocks -----------------===//
//
// A StorageBuffer or Uniform variable whose type is an array of blocks is
// an arrayed binding: descriptor_sets[set][binding] holds, in `data`, an
// array of s2l_descriptor (one per element) and, in `size`, the element
// count (docs/abi.md). The first index of an access chain picks the
// element:
//   - a uniform index loads that element's base and size once (scalars);
//   - a varying (non-uniform) index gathers one base and size per lane, and
//     the pointer carries them as LaneBase/LaneSize: every later access is
//     a gather or scatter.
// An index outside [0, count) (or past a sized array's length) selects an
// empty buffer, and every access through an element is bounds-checked
// against the element's size, with or without robust buffer access: such
// loads read zero and stores do nothing, and an unbound (null, 0) element
// is harmless. The descriptor table reading is shared with the
// one-invocation back end (DescriptorArrays.h).
//
//===----------------------------------------------------------------------===//
#include "codegen/common/DescriptorArrays.h"
#include "codegen/simd/SimdEmitter.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

PointerValue SimdEmitter::descriptorArrayPointer(uint32_t Var, Value *Sets) {
  const Variable &V = *M.findVariable(Var);
  DescriptorFields D = loadBindingDescriptor(B, M, Var, Sets, llvmName(Var),
                                             ".descs", ".count");
  PointerValue P;
  P.Var = Var;
  P.Pointee = V.Pointee;
  P.InMemory = true;
  P.Storage = V.Storage;
  P.Offset = B.getInt64(0);
  P.DescArray = D.Data;
  P.DescCount =
      descriptorArrayCount(B, descriptorArrayShape(M, V.Pointee), D.Size);
  return P;
}

size_t SimdEmitter::indexDescriptorArray(const Instruction &I, size_t First,
                                         PointerValue &P) {
  Type *Ptr = B.getPtrTy();
  Type *I64 = B.getInt64Ty();
  std::string Name = llvmName(P.Var);
  DescriptorArrayShape Shape;
  std::string Error;
  size_t N = descriptorIndexCount(M, P.Pointee, I, First, Shape, Error);
  if (!N) {
    failAt(I, Error);
    return 0;
  }
  bool Varying = false;
  for (size_t K = 0; K < N; ++K)
    Varying |= get(I.Operands[First + K]).Comps[0]->getType()->isVectorTy();
  SmallVector<Value *, 4> Indices;
  for (size_t K = 0; K < N; ++K) {
    Value *X = get(I.Operands[First + K]).Comps[0];
    // Signed: a negative index is out of range, not a huge one.
    X = B.CreateSExtOrTrunc(X, X->getType()->isVectorTy()
                                   ? static_cast<Type *>(
                                         FixedVectorType::get(I64, W))
                                   : I64);
    Indices.push_back(Varying ? splat(X) : X);
  }
  auto [X, InRange] = flatDescriptorIndex(
      B, Indices, Shape.InnerDims,
      Varying ? splat(P.DescCount) : P.DescCount, Name);
  if (!Varying) {
    DescriptorFields D =
        loadDescriptorElement(B, *LM, P.DescArray, X, InRange, Name);
    P.Base = D.Data;
    P.Size = D.Size;
    P.AffineBase = P.Offset;
  } else {
    // One base and size per lane; lanes out of range get (null, 0).
    Value *Off = B.CreateMul(X, splat(B.getInt64(16)));
    Value *BasePtrs = B.CreateGEP(B.getInt8Ty(), P.DescArray, Off);
    Value *SizePtrs = B.CreateGEP(B.getInt8Ty(), P.DescArray,
                                  B.CreateAdd(Off, splat(B.getInt64(8))));
    auto *PtrVec = FixedVectorType::get(Ptr, W);
    auto *I64Vec = FixedVectorType::get(I64, W);
    P.LaneBase = B.CreateMaskedGather(PtrVec, BasePtrs, Align(8), InRange,
                                      Constant::getNullValue(PtrVec),
                                      Name + ".bases");
    P.LaneSize = B.CreateMaskedGather(I64Vec, SizePtrs, Align(8), InRange,
                                      Constant::getNullValue(I64Vec),
                                      Name + ".sizes");
    P.Base = nullptr;
    P.Size = nullptr;
    P.Offset = splat(P.Offset);
    P.AffineBase = nullptr;
  }
  P.AffineStride = 0;
  P.ForceBounds = true;
  P.DynamicBase = true;
  P.DescArray = nullptr;
  P.DescCount = nullptr;
  P.Pointee = Shape.Block;
  return N;
}

} // namespace spirv2llvm::simd
