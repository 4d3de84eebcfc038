//===- DescriptorArrays.cpp - Bindings and arrays of buffer blocks --------===//
#include "codegen/common/DescriptorArrays.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace spirv2llvm {

namespace {
StructType *descriptorType(IRBuilder<> &B) {
  return StructType::get(B.getPtrTy(), B.getInt64Ty());
}
} // namespace

DescriptorFields loadBindingDescriptor(IRBuilder<> &B, const Module &M,
                                       uint32_t Var, Value *Sets,
                                       const std::string &Name,
                                       const char *DataSuffix,
                                       const char *SizeSuffix) {
  llvm::Type *Ptr = B.getPtrTy();
  uint32_t Set =
      M.decorationValue(Var, spv::Decoration::DescriptorSet).value_or(0);
  uint32_t Binding =
      M.decorationValue(Var, spv::Decoration::Binding).value_or(0);
  Value *SetPtr =
      B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_32(Ptr, Sets, Set), "set");
  StructType *DescTy = descriptorType(B);
  Value *Desc = B.CreateConstInBoundsGEP1_32(DescTy, SetPtr, Binding);
  DescriptorFields F;
  F.Data = B.CreateLoad(Ptr, B.CreateStructGEP(DescTy, Desc, 0),
                        Name + DataSuffix);
  F.Size = B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(DescTy, Desc, 1),
                        Name + SizeSuffix);
  return F;
}

DescriptorArrayShape descriptorArrayShape(const Module &M, TypeId Pointee) {
  DescriptorArrayShape S;
  S.Block = Pointee;
  for (const spirv2llvm::Type *T = &M.type(S.Block);
       T->Kind == TypeKind::Array || T->Kind == TypeKind::RuntimeArray;
       T = &M.type(S.Block)) {
    if (S.Block != Pointee)
      S.InnerDims.push_back(T->Count);
    S.Sized &= T->Kind == TypeKind::Array;
    S.Total *= T->Kind == TypeKind::Array ? T->Count : 1;
    S.Block = T->Element;
  }
  return S;
}

size_t descriptorIndexCount(const Module &M, TypeId Pointee,
                            const Instruction &I, size_t First,
                            DescriptorArrayShape &Shape, std::string &Error) {
  Shape = descriptorArrayShape(M, Pointee);
  size_t N = Shape.InnerDims.size() + 1;
  if (I.Operands.size() >= First + N)
    return N;
  Error = "an access chain must index every dimension of a descriptor array";
  return 0;
}

Value *descriptorArrayCount(IRBuilder<> &B, const DescriptorArrayShape &S,
                            Value *Count) {
  // A sized array (of arrays) never has more elements than its type says.
  if (!S.Sized)
    return Count;
  return B.CreateBinaryIntrinsic(Intrinsic::umin, Count, B.getInt64(S.Total));
}

std::pair<Value *, Value *>
flatDescriptorIndex(IRBuilder<> &B, ArrayRef<Value *> Indices,
                    ArrayRef<uint32_t> InnerDims, Value *Count,
                    const std::string &Name) {
  // index = (i0 * n1 + i1) * n2 + ...
  Value *X = Indices[0];
  Value *InRange = nullptr;
  for (size_t K = 1; K < Indices.size(); ++K) {
    Value *Len = ConstantInt::get(X->getType(), InnerDims[K - 1]);
    Value *Ok = B.CreateICmpULT(Indices[K], Len);
    InRange = InRange ? B.CreateAnd(InRange, Ok) : Ok;
    X = B.CreateAdd(B.CreateMul(X, Len), Indices[K]);
  }
  // Unsigned: a negative index is huge, so out of range.
  Value *InArray = B.CreateICmpULT(X, Count, Name + ".in.range");
  InRange = InRange ? B.CreateAnd(InRange, InArray) : InArray;
  return {X, InRange};
}

DescriptorFields loadDescriptorElement(IRBuilder<> &B, llvm::Module &LM,
                                       Value *Array, Value *Index,
                                       Value *InRange,
                                       const std::string &Name) {
  StructType *DescTy = descriptorType(B);
  // An out-of-range index reads the empty descriptor instead.
  GlobalVariable *Empty = LM.getNamedGlobal("s2l.empty.descriptor");
  if (!Empty)
    Empty = new GlobalVariable(LM, DescTy, /*isConstant=*/true,
                               GlobalValue::PrivateLinkage,
                               llvm::Constant::getNullValue(DescTy),
                               "s2l.empty.descriptor");
  Value *Elem = B.CreateGEP(DescTy, Array, Index);
  Value *Desc = B.CreateSelect(InRange, Elem, Empty);
  DescriptorFields F;
  F.Data = B.CreateLoad(B.getPtrTy(), B.CreateStructGEP(DescTy, Desc, 0),
                        Name + ".base");
  F.Size = B.CreateLoad(B.getInt64Ty(), B.CreateStructGEP(DescTy, Desc, 1),
                        Name + ".size");
  return F;
}

} // namespace spirv2llvm
