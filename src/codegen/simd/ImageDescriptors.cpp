//===- ImageDescriptors.cpp - s2l_image and s2l_sampler in IR -------------===//
#include "codegen/simd/ImageDescriptors.h"

#include "spirv2llvm/abi.h"

using namespace llvm;

namespace spirv2llvm::simd {

StructType *imageStructType(LLVMContext &Ctx) {
  if (StructType *T = StructType::getTypeByName(Ctx, "s2l_image"))
    return T;
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  StructType *Level =
      StructType::create(Ctx, {I64, I64, I64, I32, I32, I32, I32},
                         "s2l_image_level");
  return StructType::create(
      Ctx,
      {PointerType::getUnqual(Ctx), I32, I32, I32, I32, I32, I32,
       ArrayType::get(Level, S2L_MAX_IMAGE_LEVELS)},
      "s2l_image");
}

StructType *samplerStructType(LLVMContext &Ctx) {
  if (StructType *T = StructType::getTypeByName(Ctx, "s2l_sampler"))
    return T;
  Type *I32 = Type::getInt32Ty(Ctx), *F32 = Type::getFloatTy(Ctx);
  static_assert(sizeof(s2l_sampler) == 16 * 4, "s2l_sampler changed");
  return StructType::create(Ctx,
                            {I32, I32, I32, ArrayType::get(I32, 3), F32, F32,
                             F32, F32, I32, I32, I32, I32,
                             ArrayType::get(I32, 2)},
                            "s2l_sampler");
}

Value *descriptorOrZero(IRBuilder<> &B, Module &LM, Value *Handle,
                        StructType *Ty) {
  std::string Name = ("s2l.null." + Ty->getName()).str();
  GlobalVariable *Zero = LM.getGlobalVariable(Name, true);
  if (!Zero)
    Zero = new GlobalVariable(LM, Ty, /*isConstant=*/true,
                              GlobalValue::PrivateLinkage,
                              Constant::getNullValue(Ty), Name);
  Value *P = B.CreateIntToPtr(Handle, B.getPtrTy());
  return B.CreateSelect(B.CreateIsNull(P), Zero, P);
}

} // namespace spirv2llvm::simd
