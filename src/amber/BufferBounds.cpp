//===- BufferBounds.cpp - Buffers smaller than the shader's blocks --------===//
#include "amber/BufferBounds.h"

namespace spirv2llvm::amber {

std::optional<std::string> undersizedBuffer(const ComputeInfo &Info,
                                            const DispatchResources &R) {
  if (Info.BoundsChecked)
    return std::nullopt;
  using Kind = ComputeInfo::DescriptorKind;
  for (const ComputeInfo::Binding &Bd : Info.Bindings) {
    // The runtime refuses short elements of descriptor arrays whatever
    // the code: nothing to translate again for.
    if ((Bd.Kind != Kind::UniformBuffer && Bd.Kind != Kind::StorageBuffer) ||
        Bd.IsArray)
      continue;
    if (Bd.Set >= R.Sets.size() || Bd.Binding >= R.Sets[Bd.Set].size())
      continue;
    const s2l_descriptor &D = R.Sets[Bd.Set][Bd.Binding];
    if (D.data && D.size < Bd.MinSize)
      return "buffer at set " + std::to_string(Bd.Set) + ", binding " +
             std::to_string(Bd.Binding) + " has " + std::to_string(D.size) +
             " bytes, the shader's type needs " + std::to_string(Bd.MinSize);
  }
  return std::nullopt;
}

} // namespace spirv2llvm::amber
