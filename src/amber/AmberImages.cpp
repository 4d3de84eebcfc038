//===- AmberImages.cpp - Amber images and samplers as descriptors ---------===//
#include "amber/AmberImages.h"
#include "support/Diagnostic.h"
#include "spirv2llvm/MipChain.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>

using namespace llvm;

namespace spirv2llvm::amber {

bool isImageBinding(BindKind K) {
  switch (K) {
  case BindKind::StorageImage:
  case BindKind::SampledImage:
  case BindKind::CombinedImageSampler:
  case BindKind::Sampler:
  case BindKind::UniformTexelBuffer:
  case BindKind::StorageTexelBuffer:
    return true;
  default:
    return false;
  }
}

namespace {

/// The Vulkan format of a buffer's texels: its FORMAT, or for a DATA_TYPE
/// of 1 to 4 equal components without padding the matching format
/// (float: R32_SFLOAT, vec4<int32>: R32G32B32A32_SINT), as Amber picks it.
std::optional<Format> texelFormat(const BufferFormat &F) {
  if (std::optional<Format> Named = formatByName(F.Name))
    return Named; // FORMAT f, or a format name as DATA_TYPE
  if (F.Components.empty() || F.Components.size() > 4)
    return std::nullopt;
  const Component &C0 = F.Components[0];
  std::string Name;
  for (size_t K = 0; K < F.Components.size(); ++K) {
    const Component &C = F.Components[K];
    if (C.Padding || C.Kind != C0.Kind || C.Bits != C0.Bits)
      return std::nullopt;
    Name += "RGBA"[K];
    Name += std::to_string(C.Bits);
  }
  Name += C0.Kind == NumKind::Int    ? "_SINT"
          : C0.Kind == NumKind::UInt ? "_UINT"
                                     : "_SFLOAT";
  return formatByName(Name);
}

/// texelFormat, or an error naming the buffer when it has none or its
/// elements are not texels of it.
Expected<Format> checkedFormat(const BufferDecl &Buf) {
  std::optional<Format> Fmt = texelFormat(Buf.Format);
  if (!Fmt)
    return makeError("buffer '" + Buf.Name + "' (" + Buf.Format.Name +
                     ") has no image format");
  const FormatInfo *Info = formatInfo(*Fmt);
  if (!Info || Info->BlockBytes != Buf.Format.ElementSize)
    return makeError("buffer '" + Buf.Name + "': texels of " +
                     Buf.Format.Name + " do not match the format's size");
  return *Fmt;
}

/// The shape of an image buffer (not a texel buffer): its format, view,
/// size and mip levels, as spirv2llvm::Image lays it out.
Expected<ImageDesc> imageDescOf(const BufferDecl &Buf) {
  auto Fmt = checkedFormat(Buf);
  if (!Fmt)
    return Fmt.takeError();
  if (Buf.Width == 0)
    return makeError("buffer '" + Buf.Name +
                     "' has no size: declare it with IMAGE ... WIDTH "
                     "(and HEIGHT), or give the pipeline a FRAMEBUFFER_SIZE "
                     "and bind it as color first");
  ImageDesc D;
  D.Fmt = *Fmt;
  D.ViewType = Buf.ImageDim == 1   ? S2L_VIEW_1D
               : Buf.ImageDim == 3 ? S2L_VIEW_3D
                                   : S2L_VIEW_2D;
  D.Width = Buf.Width;
  D.Height = Buf.ImageDim == 1 ? 1 : Buf.Height;
  D.Depth = Buf.ImageDim == 3 ? Buf.Depth : 1;
  D.Levels = Buf.MipLevels;
  // A multisampled image (SAMPLES n) holds each texel's samples one after
  // the other, the layout of the rasterizer's attachments and of
  // BufferDecl::mipLevel, so its bytes are the buffer's as they are.
  D.Samples = Buf.Samples;
  return D;
}

} // namespace

Error fillMipLevels(BufferDecl &Buf) {
  if (Buf.MipLevels <= 1)
    return Error::success();
  auto D = imageDescOf(Buf);
  if (!D)
    return D.takeError();
  // The layout only: the texels are the buffer's own bytes.
  Result<Image> Layout = Image::create(*D);
  if (!Layout.ok())
    return makeError("buffer '" + Buf.Name + "': " +
                     Layout.status().message());
  Buf.Data.resize(Layout->bytes().size());
  s2l_image Desc = Layout->descriptor();
  Desc.data = Buf.Data.data();
  if (Status S = generateMipLevels(Desc); !S.ok())
    return makeError("buffer '" + Buf.Name + "': " + S.message() +
                     " (Amber fills the mip levels by linear blits)");
  return Error::success();
}

Expected<const s2l_image *> ImageBindings::image(Script &S, const BindDecl &B,
                                                 const std::string &Name) {
  BufferDecl &Buf = *S.findBuffer(Name);
  bool Texel = B.Kind == BindKind::UniformTexelBuffer ||
               B.Kind == BindKind::StorageTexelBuffer;
  ImageDesc D;
  if (Texel) {
    auto Fmt = checkedFormat(Buf);
    if (!Fmt)
      return Fmt.takeError();
    D.Fmt = *Fmt;
    D.ViewType = S2L_VIEW_BUFFER;
    D.Width = uint32_t(Buf.Data.size() / Buf.Format.ElementSize);
  } else {
    auto Shape = imageDescOf(Buf);
    if (!Shape)
      return Shape.takeError();
    D = *Shape;
    if (B.BaseMipLevel >= Buf.MipLevels)
      return makeError(formatv("buffer '{0}': BASE_MIP_LEVEL {1}, but it has "
                               "{2} mip levels",
                               Name, B.BaseMipLevel, Buf.MipLevels)
                           .str());
  }
  Result<Image> I = Image::create(D);
  if (!I.ok())
    return makeError("buffer '" + Name + "': " + I.status().message());
  if (I->bytes().size() > Buf.Data.size())
    return makeError(formatv("buffer '{0}' has {1} bytes, its image needs {2}",
                             Name, Buf.Data.size(), I->bytes().size())
                         .str());
  s2l_image Desc = I->descriptor();
  Desc.data = Buf.Data.data();
  // The view starts at BASE_MIP_LEVEL.
  if (uint32_t Base = Texel ? 0 : B.BaseMipLevel) {
    for (uint32_t L = Base; L < Desc.levels; ++L)
      Desc.level[L - Base] = Desc.level[L];
    Desc.levels -= Base;
  }
  Images.push_back(Desc);
  return &Images.back();
}

Expected<const s2l_sampler *> ImageBindings::sampler(Script &S,
                                                     const std::string &Name) {
  const SamplerDecl &D = *S.findSampler(Name);
  auto Filter = [](StringRef F) { return F == "linear" ? 1u : 0u; };
  auto Address = [](StringRef A) {
    return StringSwitch<uint32_t>(A)
        .Case("repeat", 0)
        .Case("mirrored_repeat", 1)
        .Case("clamp_to_edge", 2)
        .Case("clamp_to_border", 3)
        .Case("mirrored_clamp_to_edge", 4)
        .Default(0);
  };
  s2l_sampler Smp{};
  Smp.mag_filter = Filter(D.MagFilter);
  Smp.min_filter = Filter(D.MinFilter);
  Smp.mipmap_mode = Filter(D.MipmapMode);
  Smp.address_mode[0] = Address(D.AddressU);
  Smp.address_mode[1] = Address(D.AddressV);
  Smp.address_mode[2] = Address(D.AddressW);
  Smp.min_lod = float(D.MinLod);
  Smp.max_lod = float(D.MaxLod);
  Smp.max_anisotropy = 1;
  Smp.compare_enable = D.Compare;
  Smp.compare_op = StringSwitch<uint32_t>(D.CompareOp)
                       .Case("never", 0)
                       .Case("less", 1)
                       .Case("equal", 2)
                       .Case("less_or_equal", 3)
                       .Case("greater", 4)
                       .Case("not_equal", 5)
                       .Case("greater_or_equal", 6)
                       .Case("always", 7)
                       .Default(0);
  Smp.border_color = StringSwitch<uint32_t>(D.BorderColor)
                         .Case("float_transparent_black", 0)
                         .Case("int_transparent_black", 1)
                         .Case("float_opaque_black", 2)
                         .Case("int_opaque_black", 3)
                         .Case("float_opaque_white", 4)
                         .Case("int_opaque_white", 5)
                         .Default(0);
  Smp.unnormalized_coordinates = !D.Normalized;
  Samplers.push_back(Smp);
  return &Samplers.back();
}

Error ImageBindings::bind(Script &S, const PipelineDecl &P,
                          const ComputeInfo &Info, DispatchResources &R) {
  DefaultSampler.max_anisotropy = 1;
  for (const BindDecl &B : P.Binds) {
    if (!isImageBinding(B.Kind))
      continue;
    size_t Elems = B.Kind == BindKind::Sampler
                       ? B.Samplers.size()
                       : std::max<size_t>(B.Array.size(), 1);
    bool IsArray = B.Kind == BindKind::Sampler ? B.Samplers.size() > 1
                                               : !B.Array.empty();
    for (size_t E = 0; E < Elems; ++E) {
      auto At = [&](const Twine &Msg) {
        return makeError(formatv("DESCRIPTOR_SET {0} BINDING {1}: ", B.Set,
                                 B.Binding)
                             .str() +
                         Msg);
      };
      const s2l_image *Img = nullptr;
      const s2l_sampler *Smp = nullptr;
      if (B.Kind != BindKind::Sampler) {
        auto I = image(S, B, B.Array.empty() ? B.Buffer : B.Array[E]);
        if (!I)
          return At(toString(I.takeError()));
        Img = *I;
      }
      if (B.Kind == BindKind::Sampler ||
          B.Kind == BindKind::CombinedImageSampler) {
        auto Sm = sampler(S, B.Samplers[std::min(E, B.Samplers.size() - 1)]);
        if (!Sm)
          return At(toString(Sm.takeError()));
        Smp = *Sm;
      }
      uint32_t Ix = uint32_t(E);
      if (B.Kind == BindKind::Sampler)
        IsArray ? R.bindSamplerArrayElement(B.Set, B.Binding, Ix, Smp)
                : R.bindSampler(B.Set, B.Binding, Smp);
      else if (B.Kind == BindKind::CombinedImageSampler) {
        if (!Smp)
          Smp = &DefaultSampler;
        IsArray ? R.bindCombinedImageSamplerArrayElement(B.Set, B.Binding, Ix,
                                                         Img, Smp)
                : R.bindCombinedImageSampler(B.Set, B.Binding, Img, Smp);
      }
      else
        IsArray ? R.bindImageArrayElement(B.Set, B.Binding, Ix, Img)
                : R.bindImage(B.Set, B.Binding, Img);
    }
  }
  return Error::success();
}

} // namespace spirv2llvm::amber
