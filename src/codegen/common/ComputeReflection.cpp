//===- ComputeReflection.cpp - What a compute entry needs -----------------===//
#include "codegen/common/ComputeReflection.h"
#include "codegen/Codegen.h"
#include "codegen/common/ImageInstr.h"
#include "support/Diagnostic.h"
#include "uniformity/LaneShape.h"

#include "spirv2llvm/abi.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace spirv2llvm {

ComputeReflection reflectCompute(const Module &M, const EntryPoint &EP,
                                 MemoryLayout &ML) {
  ComputeReflection R;
  ComputeInfo &Compute = R.Info;
  auto fail = [&](const Twine &Msg) { R.Errors.push_back(Msg.str()); };
  auto &WorkgroupOffsets = R.WorkgroupOffsets;
  // Workgroup size (compute only; the lane-shape analysis reads the same
  // declaration). Bindings and push constants are reflected for every
  // stage: graphics hosts need them too.
  std::array<uint32_t, 3> WorkgroupSize = declaredWorkgroupSize(M, EP);
  for (uint32_t &S : WorkgroupSize)
    if (S == 0) {
      fail("workgroup size has a zero dimension");
      S = 1;
    }
  if (uint64_t(WorkgroupSize[0]) * WorkgroupSize[1] * WorkgroupSize[2] >
      1024 * 1024)
    fail("workgroup size " + Twine(WorkgroupSize[0]) + "x" +
         Twine(WorkgroupSize[1]) + "x" + Twine(WorkgroupSize[2]) +
         " is too large");
  Compute.WorkgroupSize = WorkgroupSize;

  uint64_t WgOffset = 0;
  uint64_t AliasedWorkgroupSize = 0;
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    switch (V.Storage) {
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::Uniform: {
      ComputeInfo::Binding Bd;
      Bd.Set = M.decorationValue(Id.value(), spv::Decoration::DescriptorSet)
                   .value_or(0);
      Bd.Binding =
          M.decorationValue(Id.value(), spv::Decoration::Binding).value_or(0);
      // An array of blocks is a descriptor array: sizes are per element.
      // Arrays of arrays of blocks are one flat array (EmitDescriptorArrays).
      TypeId Block = V.Pointee;
      uint64_t Elements = 1;
      for (const spirv2llvm::Type *VT = &M.type(Block);
           VT->Kind == TypeKind::Array || VT->Kind == TypeKind::RuntimeArray;
           VT = &M.type(Block)) {
        Bd.IsArray = true;
        Elements *= VT->Kind == TypeKind::Array ? VT->Count : 0;
        Block = VT->Element;
      }
      if (Bd.IsArray)
        Bd.ArraySize = uint32_t(std::min<uint64_t>(Elements, UINT32_MAX));
      Bd.IsUniform = V.Storage == spv::StorageClass::Uniform &&
                     !M.hasDecoration(Block.value(),
                                      spv::Decoration::BufferBlock);
      Bd.Kind = Bd.IsUniform ? ComputeInfo::DescriptorKind::UniformBuffer
                             : ComputeInfo::DescriptorKind::StorageBuffer;
      // What the shader can reach, not the stride-rounded size: a correct
      // host binds exactly the bytes up to the last element's end.
      Bd.MinSize = ML.extentOf(Block);
      const spirv2llvm::Type &PT = M.type(Block);
      if (PT.Kind == TypeKind::Struct && !PT.Members.empty() &&
          M.type(PT.Members.back()).Kind == TypeKind::RuntimeArray)
        Bd.HasRuntimeArray = true;
      Compute.Bindings.push_back(Bd);
      break;
    }
    case spv::StorageClass::UniformConstant: {
      // Images, samplers, texel buffers: a descriptor pointing to the
      // structure abi.h defines for the kind, which MinSize checks.
      ComputeInfo::Binding Bd;
      Bd.Set = M.decorationValue(Id.value(), spv::Decoration::DescriptorSet)
                   .value_or(0);
      Bd.Binding =
          M.decorationValue(Id.value(), spv::Decoration::Binding).value_or(0);
      TypeId Elem = V.Pointee;
      uint64_t Elements = 1;
      for (const spirv2llvm::Type *VT = &M.type(Elem);
           VT->Kind == TypeKind::Array || VT->Kind == TypeKind::RuntimeArray;
           VT = &M.type(Elem)) {
        Bd.IsArray = true;
        Elements *= VT->Kind == TypeKind::Array ? VT->Count : 0;
        Elem = VT->Element;
      }
      if (Bd.IsArray)
        Bd.ArraySize = uint32_t(std::min<uint64_t>(Elements, UINT32_MAX));
      const spirv2llvm::Type &ET = M.type(Elem);
      using Kind = ComputeInfo::DescriptorKind;
      const spirv2llvm::Type *IT = imageTypeOf(M, Id.value());
      if (ET.Kind == TypeKind::Sampler) {
        Bd.Kind = Kind::Sampler;
        Bd.MinSize = sizeof(s2l_sampler);
      } else if (IT) {
        bool Storage = IT->ImageSampled == 2;
        // A sampled image of a buffer (GLSL samplerBuffer) is a uniform
        // texel buffer in Vulkan: no sampler in its descriptor.
        Bd.Kind = IT->ImageDim == 5 ? (Storage ? Kind::StorageTexelBuffer
                                               : Kind::UniformTexelBuffer)
                  : ET.Kind == TypeKind::SampledImage ? Kind::CombinedImageSampler
                  : IT->ImageDim == 6                ? Kind::InputAttachment
                  : IT->ImageDim == 5 ? (Storage ? Kind::StorageTexelBuffer
                                                 : Kind::UniformTexelBuffer)
                  : Storage           ? Kind::StorageImage
                                      : Kind::SampledImage;
        Bd.MinSize = Bd.Kind == Kind::CombinedImageSampler
                         ? sizeof(s2l_combined_image_sampler)
                         : sizeof(s2l_image);
        Bd.ImageDim = IT->ImageDim;
        Bd.ImageArrayed = IT->ImageArrayed != 0;
        Bd.ImageMultisampled = IT->ImageMS != 0;
        Bd.ImageFormat = vkFormatOfImageFormat(IT->ImageFormat);
      } else {
        break; // other opaque types are reported where they are used
      }
      Compute.Bindings.push_back(Bd);
      break;
    }
    case spv::StorageClass::PushConstant:
      Compute.PushConstantSize =
          std::max<uint32_t>(Compute.PushConstantSize,
                             uint32_t(ML.sizeOf(V.Pointee)));
      break;
    case spv::StorageClass::Workgroup: {
      if (M.hasDecoration(V.Pointee.value(), spv::Decoration::Block)) {
        // WorkgroupMemoryExplicitLayoutKHR: Block-decorated Workgroup
        // variables have explicit layouts and all alias the same memory.
        WorkgroupOffsets[Id.value()] = 0;
        AliasedWorkgroupSize = std::max<uint64_t>(AliasedWorkgroupSize,
                                                  ML.sizeOf(V.Pointee));
        break;
      }
      uint32_t Align = std::max<uint32_t>(ML.alignOf(V.Pointee), 4);
      WgOffset = (WgOffset + Align - 1) / Align * Align;
      WorkgroupOffsets[Id.value()] = uint32_t(WgOffset);
      WgOffset += ML.sizeOf(V.Pointee);
      break;
    }
    default:
      break;
    }
  }
  WgOffset = std::max<uint64_t>(WgOffset, AliasedWorkgroupSize);
  Compute.WorkgroupMemorySize = uint32_t((WgOffset + 15) / 16 * 16);
  for (const Instruction &I : M.Insts) {
    if (I.Opcode == spv::Op::OpControlBarrier)
      Compute.HasBarriers = true;
    if (I.Opcode == spv::Op::OpKill ||
        I.Opcode == spv::Op::OpTerminateInvocation ||
        I.Opcode == spv::Op::OpDemoteToHelperInvocation)
      Compute.CanDiscard = true;
  }
  for (const auto &[Mode, Lits] : EP.Modes)
    if (Mode == spv::ExecutionMode::EarlyFragmentTests)
      Compute.EarlyFragmentTests = true;
  return R;
}

} // namespace spirv2llvm

namespace spirv2llvm {

Expected<EntryReflection> reflectEntryPoint(const Module &M,
                                            const EntryPoint &EP,
                                            unsigned Width) {
  EntryReflection R;
  MemoryLayout ML(M);
  ComputeReflection C = reflectCompute(M, EP, ML);
  if (!C.Errors.empty())
    return makeError(C.Errors.front());
  R.Compute = std::move(C.Info);
  Expected<InterfaceLayout> L = computeInterfaceLayout(M, EP, Width);
  if (!L)
    return L.takeError();
  R.Layout = std::move(*L);
  return R;
}

} // namespace spirv2llvm
