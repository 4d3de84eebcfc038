//===- Resources.cpp - Checking and laying out bound resources ------------===//
#include "runtime/Resources.h"

#include "spirv2llvm/ImageFormat.h"
#include "support/Diagnostic.h"

using namespace llvm;

namespace spirv2llvm {

/// What a binding holds, for messages.
static const char *descriptorKindName(ComputeInfo::DescriptorKind K) {
  using Kind = ComputeInfo::DescriptorKind;
  switch (K) {
  case Kind::UniformBuffer: return "uniform buffer";
  case Kind::StorageBuffer: return "storage buffer";
  case Kind::SampledImage: return "sampled image";
  case Kind::StorageImage: return "storage image";
  case Kind::Sampler: return "sampler";
  case Kind::CombinedImageSampler: return "combined image sampler";
  case Kind::UniformTexelBuffer: return "uniform texel buffer";
  case Kind::StorageTexelBuffer: return "storage texel buffer";
  case Kind::InputAttachment: return "input attachment";
  }
  return "resource";
}

static bool isBufferKind(ComputeInfo::DescriptorKind K) {
  return K == ComputeInfo::DescriptorKind::UniformBuffer ||
         K == ComputeInfo::DescriptorKind::StorageBuffer;
}

/// A storage image or texel buffer whose format the shader declares must
/// be bound with that format: code generation relies on it (inline reads
/// and writes, simd/EmitImage.cpp), and Vulkan requires it.
static Error checkImageFormat(const ComputeInfo::Binding &Bd, const s2l_descriptor &D,
                       const std::string &Where) {
  using Kind = ComputeInfo::DescriptorKind;
  if (!Bd.ImageFormat || !D.data || D.size != sizeof(s2l_image) ||
      (Bd.Kind != Kind::StorageImage && Bd.Kind != Kind::StorageTexelBuffer))
    return Error::success();
  uint32_t Bound = static_cast<const s2l_image *>(D.data)->format;
  if (Bound == Bd.ImageFormat)
    return Error::success();
  auto Name = [](uint32_t F) -> std::string {
    if (const FormatInfo *I = formatInfo(Format(F)))
      return std::string(I->Name);
    return "VkFormat " + std::to_string(F);
  };
  return makeError("the image at " + Where + " has format " + Name(Bound) +
                   ", the shader declares " + Name(Bd.ImageFormat));
}

/// Checks \p R against what the shader binds (\p Info).
Error checkResources(const ComputeInfo &Info, const DispatchResources &R) {
  for (const ComputeInfo::Binding &Bd : Info.Bindings) {
    std::string Where = "set " + std::to_string(Bd.Set) + ", binding " +
                        std::to_string(Bd.Binding);
    auto Arr = R.Arrays.find({Bd.Set, Bd.Binding});
    if (Bd.IsArray != (Arr != R.Arrays.end())) {
      if (Bd.IsArray)
        return makeError("the shader's " + Where +
                         " is a descriptor array: bind its elements with "
                         "bindArrayElement");
      return makeError("the shader's " + Where +
                       " is a single buffer, not a descriptor array");
    }
    if (Bd.IsArray) {
      const std::vector<s2l_descriptor> &Elems = Arr->second;
      if (Bd.ArraySize && Elems.size() > Bd.ArraySize)
        return makeError(Twine(Elems.size()) + " elements bound at " + Where +
                         ", the shader's array has " + Twine(Bd.ArraySize));
      for (size_t K = 0; K < Elems.size(); ++K)
        if (Error E = checkImageFormat(
                Bd, Elems[K], "element " + std::to_string(K) + " of " + Where))
          return E;
      for (size_t K = 0; K < Elems.size(); ++K)
        if (Elems[K].data && Elems[K].size < Bd.MinSize)
          return makeError("buffer " + Twine(K) + " at " + Where + " has " +
                           Twine(Elems[K].size) +
                           " bytes, the shader's type needs " +
                           Twine(Bd.MinSize));
      continue;
    }
    const s2l_descriptor *D =
        Bd.Set < R.Sets.size() && Bd.Binding < R.Sets[Bd.Set].size()
            ? &R.Sets[Bd.Set][Bd.Binding]
            : nullptr;
    if (!D || !D->data)
      return makeError(Twine("no ") + descriptorKindName(Bd.Kind) +
                       " bound at set " + Twine(Bd.Set) + ", binding " +
                       Twine(Bd.Binding));
    if (!isBufferKind(Bd.Kind) && D->size != Bd.MinSize)
      return makeError("set " + Twine(Bd.Set) + ", binding " +
                       Twine(Bd.Binding) + " is a " +
                       descriptorKindName(Bd.Kind) +
                       " in the shader: bind it with the matching "
                       "DispatchResources::bind call (its descriptor has " +
                       Twine(D->size) + " bytes, not " + Twine(Bd.MinSize) +
                       ")");
    if (Error E = checkImageFormat(Bd, *D, Where))
      return E;
    // Bounds-checked code reads zero past a short buffer's end. (Short
    // elements of descriptor arrays stay refused: nothing needs them.)
    if (D->size < Bd.MinSize && !Info.BoundsChecked)
      return makeError("buffer at set " + Twine(Bd.Set) + ", binding " +
                       Twine(Bd.Binding) + " has " + Twine(D->size) +
                       " bytes, the shader's type needs " + Twine(Bd.MinSize));
  }
  if (R.PushConstants.size() < Info.PushConstantSize)
    return makeError("the shader reads " + Twine(Info.PushConstantSize) +
                     " bytes of push constants, " +
                     Twine(R.PushConstants.size()) + " given");
  return Error::success();
}


DescriptorTable::DescriptorTable(const DispatchResources &R) : Sets(R.Sets) {
  // Single blocks as bound, and for each descriptor array a descriptor
  // pointing at its elements (abi.h).
  for (const auto &[Key, Elems] : R.Arrays) {
    auto [Set, Binding] = Key;
    if (Sets.size() <= Set)
      Sets.resize(Set + 1);
    if (Sets[Set].size() <= Binding)
      Sets[Set].resize(Binding + 1, s2l_descriptor{nullptr, 0});
    Sets[Set][Binding] = s2l_descriptor{
        const_cast<s2l_descriptor *>(Elems.data()), uint64_t(Elems.size())};
  }
  for (const auto &Set : Sets)
    SetTable.push_back(Set.data());
}

} // namespace spirv2llvm
