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
// is harmless.
//
//===----------------------------------------------------------------------===//
#include "codegen/SimdEmitter.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

PointerValue SimdEmitter::descriptorArrayPointer(uint32_t Var, Value *Sets) {
  const Variable &V = *M.findVariable(Var);
  Type *Ptr = B.getPtrTy();
  Type *I64 = B.getInt64Ty();
  uint32_t Set =
      M.decorationValue(Var, spv::Decoration::DescriptorSet).value_or(0);
  uint32_t Binding =
      M.decorationValue(Var, spv::Decoration::Binding).value_or(0);
  Value *SetPtr =
      B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_32(Ptr, Sets, Set), "set");
  Type *DescTy = StructType::get(Ptr, I64);
  Value *Desc = B.CreateConstInBoundsGEP1_32(DescTy, SetPtr, Binding);
  PointerValue P;
  P.Var = Var;
  P.Pointee = V.Pointee;
  P.InMemory = true;
  P.Storage = V.Storage;
  P.Offset = B.getInt64(0);
  P.DescArray = B.CreateLoad(Ptr, B.CreateStructGEP(DescTy, Desc, 0),
                             llvmName(Var) + ".descs");
  P.DescCount = B.CreateLoad(I64, B.CreateStructGEP(DescTy, Desc, 1),
                             llvmName(Var) + ".count");
  // A sized array (of arrays) never has more elements than its type says.
  uint64_t Total = 1;
  bool Sized = true;
  for (const spirv2llvm::Type *T = &M.type(V.Pointee);
       T->Kind == TypeKind::Array || T->Kind == TypeKind::RuntimeArray;
       T = &M.type(T->Element)) {
    Sized &= T->Kind == TypeKind::Array;
    Total *= T->Kind == TypeKind::Array ? T->Count : 1;
  }
  if (Sized)
    P.DescCount = B.CreateBinaryIntrinsic(Intrinsic::umin, P.DescCount,
                                          B.getInt64(Total));
  return P;
}

size_t SimdEmitter::indexDescriptorArray(const Instruction &I, size_t First,
                                         PointerValue &P) {
  Type *Ptr = B.getPtrTy();
  Type *I64 = B.getInt64Ty();
  Type *DescTy = StructType::get(Ptr, I64);
  std::string Name = llvmName(P.Var);
  // Arrays of arrays of blocks are one flat array of descriptors, the last
  // dimension varying fastest: index = (i0 * n1 + i1) * n2 + ...
  std::vector<uint32_t> Dims; // inner dimensions' lengths
  TypeId Block = P.Pointee;
  for (const spirv2llvm::Type *T = &M.type(Block);
       T->Kind == TypeKind::Array || T->Kind == TypeKind::RuntimeArray;
       T = &M.type(Block)) {
    if (Block != P.Pointee)
      Dims.push_back(T->Count);
    Block = T->Element;
  }
  size_t N = Dims.size() + 1;
  if (I.Operands.size() < First + N) {
    failAt(I, "an access chain must index every dimension of a descriptor "
              "array");
    return 0;
  }
  bool Varying = false;
  for (size_t K = 0; K < N; ++K)
    Varying |= get(I.Operands[First + K]).Comps[0]->getType()->isVectorTy();
  Type *IdxTy =
      Varying ? static_cast<Type *>(FixedVectorType::get(I64, W)) : I64;
  auto Index = [&](size_t K) {
    Value *X = get(I.Operands[First + K]).Comps[0];
    // Signed: a negative index is out of range, not a huge one.
    X = B.CreateSExtOrTrunc(X, X->getType()->isVectorTy()
                                   ? static_cast<Type *>(
                                         FixedVectorType::get(I64, W))
                                   : I64);
    return Varying ? splat(X) : X;
  };
  Value *X = Index(0);
  Value *InRange = nullptr;
  for (size_t K = 1; K < N; ++K) {
    Value *Y = Index(K);
    Value *Len = ConstantInt::get(IdxTy, Dims[K - 1]);
    Value *Ok = B.CreateICmpULT(Y, Len);
    InRange = InRange ? B.CreateAnd(InRange, Ok) : Ok;
    X = B.CreateAdd(B.CreateMul(X, Len), Y);
  }
  Value *InArray = B.CreateICmpULT(X, Varying ? splat(P.DescCount)
                                              : P.DescCount,
                                   Name + ".in.range");
  InRange = InRange ? B.CreateAnd(InRange, InArray) : InArray;
  if (!Varying) {
    // An out-of-range index reads the empty descriptor instead.
    GlobalVariable *Empty = LM->getNamedGlobal("s2l.empty.descriptor");
    if (!Empty)
      Empty = new GlobalVariable(*LM, DescTy, /*isConstant=*/true,
                                 GlobalValue::PrivateLinkage,
                                 Constant::getNullValue(DescTy),
                                 "s2l.empty.descriptor");
    Value *Elem = B.CreateGEP(DescTy, P.DescArray, X);
    Value *Desc = B.CreateSelect(InRange, Elem, Empty);
    P.Base = B.CreateLoad(Ptr, B.CreateStructGEP(DescTy, Desc, 0),
                          Name + ".base");
    P.Size = B.CreateLoad(I64, B.CreateStructGEP(DescTy, Desc, 1),
                          Name + ".size");
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
  P.Pointee = Block;
  return N;
}

} // namespace spirv2llvm::simd
