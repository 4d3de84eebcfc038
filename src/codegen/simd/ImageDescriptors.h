//===- ImageDescriptors.h - s2l_image and s2l_sampler in IR -----*- C++ -*-===//
//
// The inline image paths (storage reads and writes, sampling) read the
// descriptors' fields from generated code; these are the two structs of
// abi.h as LLVM types, and the address of a descriptor with a null handle
// (an unbound array element) replaced by a zeroed one, whose sizes make
// every access out of range and whose format matches no inline path.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_SIMD_IMAGEDESCRIPTORS_H
#define SPIRV2LLVM_CODEGEN_SIMD_IMAGEDESCRIPTORS_H

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace spirv2llvm::simd {

/// s2l_image: {data, format, view_type, layers, levels, samples, reserved,
/// level[S2L_MAX_IMAGE_LEVELS]}, a level {offset, row, slice, width,
/// height, depth, reserved}.
llvm::StructType *imageStructType(llvm::LLVMContext &Ctx);
/// s2l_sampler, field for field.
llvm::StructType *samplerStructType(llvm::LLVMContext &Ctx);

/// Field indices of samplerStructType.
enum SamplerField : unsigned {
  SamplerMagFilter = 0,
  SamplerMinFilter = 1,
  SamplerMipmapMode = 2,
  SamplerAddressMode = 3,
  SamplerMipLodBias = 4,
  SamplerMinLod = 5,
  SamplerMaxLod = 6,
  SamplerMaxAnisotropy = 7,
  SamplerCompareEnable = 8,
  SamplerUnnormalized = 11,
};

/// \p Handle (an i64 address, uniform) as a pointer to a descriptor of
/// type \p Ty, or to a zeroed private global of that type when it is null.
llvm::Value *descriptorOrZero(llvm::IRBuilder<> &B, llvm::Module &LM,
                              llvm::Value *Handle, llvm::StructType *Ty);

} // namespace spirv2llvm::simd

#endif
