//===- RunImages.cpp - `run --image` and `--sampler` ----------------------===//
//
// Option values are split at ':' (images) or ',' (samplers); every error
// names the part that is wrong and what was expected, without repeating
// the option, which the caller prefixes.
//
//===----------------------------------------------------------------------===//
#include "RunImages.h"

#include "spirv2llvm/PngImage.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace llvm;

namespace spirv2llvm {

namespace {

Error makeError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

std::optional<uint32_t> parseView(StringRef S) {
  return StringSwitch<std::optional<uint32_t>>(S)
      .Case("1d", S2L_VIEW_1D)
      .Case("2d", S2L_VIEW_2D)
      .Case("3d", S2L_VIEW_3D)
      .Case("cube", S2L_VIEW_CUBE)
      .Case("1darray", S2L_VIEW_1D_ARRAY)
      .Case("2darray", S2L_VIEW_2D_ARRAY)
      .Case("cubearray", S2L_VIEW_CUBE_ARRAY)
      .Case("buffer", S2L_VIEW_BUFFER)
      .Default(std::nullopt);
}

/// "WxH[xD]", or "W" (a 1D image or texel buffer).
bool parseSize(StringRef S, RunImage &I) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, 'x');
  if (Parts.size() > 3 || !parseU32(Parts[0], I.Width))
    return false;
  I.Height = I.Depth = 1;
  if (Parts.size() > 1 && !parseU32(Parts[1], I.Height))
    return false;
  if (Parts.size() > 2 && !parseU32(Parts[2], I.Depth))
    return false;
  return true;
}

/// Formats whose texels are PNG's RGBA8 bytes as they are.
bool isRgba8Layout(const FormatInfo &F) {
  return StringRef(F.Name.data(), F.Name.size()).starts_with("R8G8B8A8_");
}

/// Every component 8 bits of UNORM or sRGB: dumped as RGBA8 exactly.
bool isEightBitNormalized(const FormatInfo &F) {
  if (F.Layout != LayoutKind::Bits || F.view() != ViewKind::Float)
    return false;
  for (unsigned C = 0; C < F.NumComponents; ++C)
    if (F.Components[C].Bits != 8 ||
        (F.Components[C].Numeric != NumericKind::UNorm &&
         F.Components[C].Numeric != NumericKind::SRGB))
      return false;
  return true;
}

bool hasAlpha(const FormatInfo &F) {
  for (unsigned C = 0; C < F.NumComponents; ++C)
    if (F.Components[C].Channel == ChannelKind::A)
      return true;
  return false;
}

uint16_t clampTo16(double V) { return uint16_t(std::clamp(V, 0.0, 65535.0)); }

} // namespace

bool parseBindingRef(StringRef S, uint32_t &Set, uint32_t &Binding,
                     std::optional<uint32_t> &Index) {
  Set = 0;
  Index.reset();
  if (S.ends_with("]")) {
    auto [Ref, IndexText] = S.drop_back().split('[');
    uint32_t I;
    if (!S.contains('[') || !parseU32(IndexText, I))
      return false;
    Index = I;
    S = Ref;
  }
  if (S.contains('.')) {
    auto [SetText, BindingText] = S.split('.');
    return parseU32(SetText, Set) && parseU32(BindingText, Binding);
  }
  return parseU32(S, Binding);
}

const char *viewOptionName(uint32_t ViewType) {
  static const char *const Names[] = {
      "1d", "2d", "3d", "cube", "1darray", "2darray", "cubearray", "buffer"};
  return ViewType <= S2L_VIEW_BUFFER ? Names[ViewType] : "?";
}

std::optional<uint32_t> viewForShader(const ComputeInfo::Binding &B) {
  using Kind = ComputeInfo::DescriptorKind;
  if (B.Kind == Kind::UniformBuffer || B.Kind == Kind::StorageBuffer ||
      B.Kind == Kind::Sampler)
    return std::nullopt;
  // SPIR-V Dim: 1D, 2D, 3D, Cube, Rect, Buffer, SubpassData.
  switch (B.ImageDim) {
  case 0:
    return B.ImageArrayed ? S2L_VIEW_1D_ARRAY : S2L_VIEW_1D;
  case 1:
  case 4:
  case 6:
    return B.ImageArrayed ? S2L_VIEW_2D_ARRAY : S2L_VIEW_2D;
  case 2:
    return S2L_VIEW_3D;
  case 3:
    return B.ImageArrayed ? S2L_VIEW_CUBE_ARRAY : S2L_VIEW_CUBE;
  case 5:
    return S2L_VIEW_BUFFER;
  default:
    return std::nullopt;
  }
}

Expected<RunImage> parseImageSpec(StringRef V) {
  RunImage I;
  I.Spec = V.str();
  const char *Expected =
      "expected [SET.]BINDING[[INDEX]]:WxH[xD][:FORMAT][:levels=N]"
      "[:layers=N][:samples=N][:view=VIEW][:init=KIND] or "
      "[SET.]BINDING[[INDEX]]:FILE.png";
  if (!V.contains(':'))
    return makeError(Expected);
  auto [Ref, Rest] = V.split(':');
  if (!parseBindingRef(Ref, I.Set, I.Binding, I.Index))
    return makeError("malformed binding '" + Ref +
                     "' (expected [SET.]BINDING or [SET.]BINDING[INDEX])");
  auto [First, Options] = Rest.split(':');
  if (First.empty())
    return makeError(Expected);
  if (First.lower().ends_with(".png")) {
    I.PngPath = First.str();
  } else {
    if (!parseSize(First, I))
      return makeError("malformed size '" + First +
                       "' (expected WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH, for "
                       "example 64x64)");
    if (!I.Width || !I.Height || !I.Depth)
      return makeError("size '" + First + "' has a zero side");
  }
  while (!Options.empty()) {
    // init=KIND takes the rest: its KIND may contain ':' (file:PATH).
    if (Options.starts_with("init=")) {
      if (!I.PngPath.empty())
        return makeError("init= does not apply to a PNG image (its texels "
                         "come from the file)");
      auto Init = parseBufferInit(Options.drop_front(5));
      if (!Init)
        return Init.takeError();
      I.Init = std::move(*Init);
      break;
    }
    auto [Item, Next] = Options.split(':');
    Options = Next;
    auto [Key, Value] = Item.split('=');
    if (!Item.contains('=')) {
      std::optional<Format> F = formatByName(Item.str());
      if (!F)
        return makeError("unknown format '" + Item +
                         "' (a Vulkan format name such as R8G8B8A8_UNORM, "
                         "R32_SFLOAT or R32_UINT)");
      if (I.Fmt)
        return makeError("more than one format ('" + formatInfo(*I.Fmt)->Name +
                         "' and '" + Item + "')");
      I.Fmt = *F;
    } else if (Key == "levels" || Key == "layers" || Key == "samples") {
      uint32_t N;
      if (!parseU32(Value, N) || N == 0)
        return makeError("malformed " + Key + " '" + Value +
                         "' (a positive count)");
      if (Key == "levels")
        I.Levels = N;
      else if (Key == "layers")
        I.Layers = N;
      else
        I.Samples = N;
    } else if (Key == "view") {
      I.ViewType = parseView(Value);
      if (!I.ViewType)
        return makeError("unknown view '" + Value +
                         "' (1d, 2d, 3d, cube, 1darray, 2darray, cubearray "
                         "or buffer)");
    } else {
      return makeError("unknown image option '" + Item +
                       "' (FORMAT, levels=N, layers=N, samples=N, view=VIEW "
                       "or init=KIND)");
    }
  }
  if (!I.PngPath.empty() && I.Fmt && !isRgba8Layout(*formatInfo(*I.Fmt)))
    return makeError("a PNG image is read as RGBA8: its format is one of "
                     "R8G8B8A8_UNORM, R8G8B8A8_SRGB, ..., not " +
                     formatInfo(*I.Fmt)->Name);
  return I;
}

s2l_sampler defaultSampler() {
  s2l_sampler S{};
  S.mag_filter = S.min_filter = 0;
  S.mipmap_mode = 0;
  S.address_mode[0] = S.address_mode[1] = S.address_mode[2] = 2;
  S.mip_lod_bias = 0;
  S.min_lod = 0;
  S.max_lod = 1000; // VK_LOD_CLAMP_NONE
  S.max_anisotropy = 1;
  S.compare_enable = 0;
  S.compare_op = 0;
  S.border_color = 0;
  S.unnormalized_coordinates = 0;
  return S;
}

Expected<RunSampler> parseSamplerSpec(StringRef V) {
  RunSampler R;
  R.Spec = V.str();
  R.Sampler = defaultSampler();
  auto [Ref, Rest] = V.split(':');
  if (!parseBindingRef(Ref, R.Set, R.Binding, R.Index))
    return makeError("malformed binding '" + Ref +
                     "' (expected [SET.]BINDING or [SET.]BINDING[INDEX])");
  if (V.contains(':') && Rest.empty())
    return makeError("nothing after ':' (expected KEY=VALUE,...)");
  SmallVector<StringRef, 8> Items;
  if (!Rest.empty())
    Rest.split(Items, ',');
  s2l_sampler &S = R.Sampler;
  for (StringRef Item : Items) {
    auto [Key, Value] = Item.split('=');
    auto Bad = [&](const char *Want) {
      return makeError("bad " + Key + " '" + Value + "' (" + Want + ")");
    };
    if (Item == "unnormalized") {
      S.unnormalized_coordinates = 1;
      continue;
    }
    if (!Item.contains('=') || Value.empty())
      return makeError("malformed sampler option '" + Item +
                       "' (expected KEY=VALUE or unnormalized)");
    if (Key == "filter" || Key == "mag" || Key == "min") {
      auto F = StringSwitch<std::optional<uint32_t>>(Value)
                   .Case("nearest", 0)
                   .Case("linear", 1)
                   .Default(std::nullopt);
      if (!F)
        return Bad("nearest or linear");
      if (Key != "min")
        S.mag_filter = *F;
      if (Key != "mag")
        S.min_filter = *F;
    } else if (Key == "mipmap") {
      auto F = StringSwitch<std::optional<uint32_t>>(Value)
                   .Case("nearest", 0)
                   .Case("linear", 1)
                   .Default(std::nullopt);
      if (!F)
        return Bad("nearest or linear");
      S.mipmap_mode = *F;
    } else if (Key == "address" || Key == "address-u" || Key == "address-v" ||
               Key == "address-w") {
      auto A = StringSwitch<std::optional<uint32_t>>(Value)
                   .Case("repeat", 0)
                   .Case("mirror", 1)
                   .Case("clamp", 2)
                   .Case("border", 3)
                   .Case("mirror-clamp", 4)
                   .Default(std::nullopt);
      if (!A)
        return Bad("repeat, mirror, clamp, border or mirror-clamp");
      for (unsigned K = 0; K < 3; ++K)
        if (Key == "address" || Key.back() == "uvw"[K])
          S.address_mode[K] = *A;
    } else if (Key == "border") {
      auto B = StringSwitch<std::optional<uint32_t>>(Value)
                   .Cases("transparent-black", "float-transparent-black", 0)
                   .Case("int-transparent-black", 1)
                   .Cases("opaque-black", "float-opaque-black", 2)
                   .Case("int-opaque-black", 3)
                   .Cases("opaque-white", "float-opaque-white", 4)
                   .Case("int-opaque-white", 5)
                   .Default(std::nullopt);
      if (!B)
        return Bad("[int-]transparent-black, [int-]opaque-black or "
                   "[int-]opaque-white");
      S.border_color = *B;
    } else if (Key == "compare") {
      auto C = StringSwitch<std::optional<uint32_t>>(Value)
                   .Case("never", 0)
                   .Case("less", 1)
                   .Case("equal", 2)
                   .Case("less-or-equal", 3)
                   .Case("greater", 4)
                   .Case("not-equal", 5)
                   .Case("greater-or-equal", 6)
                   .Case("always", 7)
                   .Default(std::nullopt);
      if (!C)
        return Bad("never, less, equal, less-or-equal, greater, not-equal, "
                   "greater-or-equal or always");
      S.compare_enable = 1;
      S.compare_op = *C;
    } else if (Key == "lod") {
      auto [Min, Max] = Value.split(':');
      if (!Value.contains(':') || !parseF32(Min, S.min_lod) ||
          !parseF32(Max, S.max_lod) || !(S.min_lod <= S.max_lod))
        return Bad("MIN:MAX with MIN <= MAX, for example 0:4");
    } else if (Key == "bias") {
      if (!parseF32(Value, S.mip_lod_bias) || !std::isfinite(S.mip_lod_bias))
        return Bad("a finite number");
    } else if (Key == "anisotropy") {
      // VkSamplerCreateInfo::maxAnisotropy: 1 is off; Vulkan allows up to
      // maxSamplerAnisotropy, 16 here as on lavapipe.
      if (!parseF32(Value, S.max_anisotropy) || !(S.max_anisotropy >= 1) ||
          !(S.max_anisotropy <= 16))
        return Bad("a number from 1 (off) to 16");
    } else {
      return makeError("unknown sampler option '" + Key +
                       "' (filter, mag, min, mipmap, address, address-u/v/w, "
                       "border, compare, lod, bias, anisotropy or "
                       "unnormalized)");
    }
  }
  return R;
}

Expected<Image> createRunImage(const RunImage &I,
                               const ComputeInfo::Binding *B) {
  std::optional<uint32_t> ShaderView = B ? viewForShader(*B) : std::nullopt;
  ImageDesc D;
  D.ViewType = I.ViewType    ? *I.ViewType
               : ShaderView  ? *ShaderView
               : I.Depth > 1 ? uint32_t(S2L_VIEW_3D)
                             : uint32_t(S2L_VIEW_2D);
  if (I.ViewType && ShaderView && *I.ViewType != *ShaderView)
    return makeError(Twine("view ") + viewOptionName(*I.ViewType) +
                     ", but the shader declares a " +
                     viewOptionName(*ShaderView) +
                     " image (view=" + viewOptionName(*ShaderView) + ")");
  bool Arrayed = D.ViewType == S2L_VIEW_1D_ARRAY ||
                 D.ViewType == S2L_VIEW_2D_ARRAY ||
                 D.ViewType == S2L_VIEW_CUBE_ARRAY;
  if (I.Depth > 1 && D.ViewType != S2L_VIEW_3D)
    return makeError(Twine("a depth of ") + Twine(I.Depth) + " needs view=3d" +
                     (Arrayed || D.ViewType == S2L_VIEW_CUBE
                          ? " (array layers are given with layers=N)"
                          : "") +
                     "; this image's view is " + viewOptionName(D.ViewType));
  bool IsCube =
      D.ViewType == S2L_VIEW_CUBE || D.ViewType == S2L_VIEW_CUBE_ARRAY;
  D.Layers = I.Layers.value_or(IsCube ? 6 : 1);
  D.Fmt = I.Fmt                 ? *I.Fmt
          : B && B->ImageFormat ? Format(B->ImageFormat)
                                : Format::R8G8B8A8_UNORM;
  // Vulkan makes a storage image's declared format and its view's format
  // match (else the texels read and written are undefined): refuse instead.
  if (I.Fmt && B && B->ImageFormat && uint32_t(*I.Fmt) != B->ImageFormat &&
      (B->Kind == ComputeInfo::DescriptorKind::StorageImage ||
       B->Kind == ComputeInfo::DescriptorKind::StorageTexelBuffer)) {
    const FormatInfo *Declared = formatInfo(Format(B->ImageFormat));
    return makeError("format " + formatInfo(*I.Fmt)->Name +
                     ", but the shader declares " +
                     "the storage image with format " +
                     (Declared ? std::string(Declared->Name)
                               : std::to_string(B->ImageFormat)) +
                     " (leave FORMAT out to use it)");
  }
  D.Levels = I.Levels;
  D.Samples = I.Samples;
  if (B && viewForShader(*B) && B->ImageMultisampled != (D.Samples > 1))
    return makeError(B->ImageMultisampled
                         ? "the shader declares a multisampled image: give "
                           "samples=N (2, 4, ...)"
                         : "samples=" + std::to_string(D.Samples) +
                               ", but the shader's image is not "
                               "multisampled");
  std::optional<Rgba8Image> Png;
  if (!I.PngPath.empty()) {
    auto P = readPng(I.PngPath);
    if (!P)
      return makeError(P.status().message());
    if (!formatInfo(D.Fmt) || !isRgba8Layout(*formatInfo(D.Fmt)))
      return makeError(
          "a PNG image is read as RGBA8, but the shader declares the format " +
          (formatInfo(D.Fmt) ? std::string(formatInfo(D.Fmt)->Name)
                             : std::to_string(uint32_t(D.Fmt))) +
          " (give one of R8G8B8A8_UNORM, R8G8B8A8_SRGB, ... after the file)");
    D.Width = P->Width;
    D.Height = P->Height;
    Png = std::move(*P);
  } else {
    D.Width = I.Width;
    D.Height = I.Height;
    D.Depth = I.Depth;
  }
  auto Img = Image::create(D);
  if (!Img)
    return makeError(Img.status().message());
  if (Png) {
    for (uint32_t Y = 0; Y < D.Height; ++Y)
      std::memcpy(Img->texelAddress(0, 0, Y, 0),
                  &Png->Texels[size_t(Y) * D.Width * 4], size_t(D.Width) * 4);
  } else if (Error E = fillBuffer(I.Init,
                                  {Img->bytes().data(), Img->bytes().size()})) {
    return E;
  }
  return std::move(*Img);
}

Error dumpImage(const Image &Img, const std::string &Path) {
  auto WriteError = [&](const Twine &Why) {
    return makeError(Path + ": cannot write: " + Why);
  };
  if (!StringRef(Path).lower().ends_with(".png")) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
    if (!EC) {
      auto Bytes = Img.bytes();
      OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
      OS.close();
      EC = OS.error();
    }
    return EC ? WriteError(EC.message()) : Error::success();
  }
  // Level 0, sample 0; layers (or 3D slices) stacked top to bottom.
  const s2l_image &Desc = Img.descriptor();
  const FormatInfo &F = Img.formatInfo();
  uint32_t W = Desc.level[0].width, H = Desc.level[0].height;
  uint32_t Slices =
      Desc.view_type == S2L_VIEW_3D ? Desc.level[0].depth : Desc.layers;
  uint64_t Texels = uint64_t(W) * H * Slices;
  if (Texels * 4 > (uint64_t(1) << 31))
    return WriteError("the image is too large for a PNG dump (use a path "
                      "not ending in .png for the raw bytes)");
  bool Eight = isEightBitNormalized(F);
  std::vector<uint8_t> Out8(Eight ? Texels * 4 : 0);
  std::vector<uint16_t> Out16(Eight ? 0 : Texels * 4);
  bool Alpha = hasAlpha(F);
  size_t At = 0;
  for (uint32_t Z = 0; Z < Slices; ++Z)
    for (uint32_t Y = 0; Y < H; ++Y)
      for (uint32_t X = 0; X < W; ++X, At += 4) {
        Status S = Status::success();
        if (F.view() == ViewKind::Float) {
          Float4 V;
          S = Img.readTexel(0, X, Y, Z, 0, V);
          for (unsigned C = 0; S.ok() && C < 4; ++C) {
            float Value = V[C];
            // readTexel decodes sRGB to linear; the PNG holds the encoding.
            if (F.isSRGB() && C < 3)
              Value = linearToSRGB(Value);
            if (Eight)
              Out8[At + C] = uint8_t(floatToUNorm(Value, 8));
            else
              Out16[At + C] = uint16_t(floatToUNorm(Value, 16));
          }
        } else if (F.view() == ViewKind::UInt) {
          UInt4 V;
          S = Img.readTexel(0, X, Y, Z, 0, V);
          for (unsigned C = 0; S.ok() && C < 4; ++C)
            Out16[At + C] = clampTo16(double(V[C]));
        } else {
          Int4 V;
          S = Img.readTexel(0, X, Y, Z, 0, V);
          for (unsigned C = 0; S.ok() && C < 4; ++C)
            Out16[At + C] = clampTo16(double(V[C]));
        }
        if (!S.ok())
          return WriteError(S.message() + " (use a path not ending in .png "
                                          "for the raw bytes)");
        // Integer views read a missing alpha as 1; the picture is opaque.
        if (F.view() != ViewKind::Float && !Alpha)
          Out16[At + 3] = 65535;
      }
  Status S = Eight ? writePngRGBA8(Path, W, H * Slices, Out8)
                   : writePngRGBA16(Path, W, H * Slices, Out16);
  return S.ok() ? Error::success() : makeError(S.message());
}

} // namespace spirv2llvm
