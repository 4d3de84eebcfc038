//===- BufferBounds.cpp - Buffers smaller than the shader's blocks --------===//
#include "amber/BufferBounds.h"

namespace spirv2llvm::amber {

std::optional<std::string> undersizedBuffer(const ComputeInfo &Info,
                                            const DispatchResources &R) {
  if (Info.BoundsChecked)
    return std::nullopt;
  using Kind = ComputeInfo::DescriptorKind;
  for (const ComputeInfo::Binding &Bd : Info.Bindings) {
    if (Bd.Kind != Kind::UniformBuffer && Bd.Kind != Kind::StorageBuffer)
      continue;
    std::string Where = "set " + std::to_string(Bd.Set) + ", binding " +
                        std::to_string(Bd.Binding);
    auto Short = [&](const s2l_descriptor &D) {
      return D.data && D.size < Bd.MinSize;
    };
    auto Message = [&](const std::string &What, const s2l_descriptor &D) {
      return What + " has " + std::to_string(D.size) +
             " bytes, the shader's type needs " + std::to_string(Bd.MinSize);
    };
    if (Bd.IsArray) {
      auto Arr = R.Arrays.find({Bd.Set, Bd.Binding});
      if (Arr == R.Arrays.end())
        continue;
      for (size_t K = 0; K < Arr->second.size(); ++K)
        if (Short(Arr->second[K]))
          return Message("buffer " + std::to_string(K) + " at " + Where,
                         Arr->second[K]);
      continue;
    }
    if (Bd.Set < R.Sets.size() && Bd.Binding < R.Sets[Bd.Set].size() &&
        Short(R.Sets[Bd.Set][Bd.Binding]))
      return Message("buffer at " + Where, R.Sets[Bd.Set][Bd.Binding]);
  }
  return std::nullopt;
}

} // namespace spirv2llvm::amber
