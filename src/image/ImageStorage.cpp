//===- image/ImageStorage.cpp - Images that own their texels --------------===//
//
// Image::create checks a description against Vulkan's rules for image
// views (and against limits that keep every size computation far from
// overflow), lays the levels out tightly and fills the s2l_image
// descriptor that generated code and s2l_image_op read.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Image.h"

#include <algorithm>
#include <bit>
#include <string>

namespace spirv2llvm {

namespace {

// Limits well above what Vulkan implementations guarantee (maxImageDimension
// 4096, lavapipe 16384) and low enough that 64-bit size arithmetic cannot
// overflow: 16384^2 * 2048 layers * 64 samples * 16 bytes < 2^64.
constexpr uint32_t MaxSide = 16384;
constexpr uint32_t Max3DSide = 2048;
constexpr uint32_t MaxBufferElements = 1u << 27;
constexpr uint32_t MaxLayers = 2048;
constexpr uint32_t MaxSamples = 64;
constexpr uint64_t MaxBytes = uint64_t(1) << 30;

const char *viewName(uint32_t V) {
  static const char *Names[] = {"1D",         "2D",         "3D",
                                "cube",       "1D array",   "2D array",
                                "cube array", "texel buffer"};
  return V < std::size(Names) ? Names[V] : "?";
}

Status fail(const std::string &Msg) {
  return Status::error("image: " + Msg, StatusCode::InvalidArgument);
}

uint32_t mipChainLength(uint32_t Largest) {
  return uint32_t(std::bit_width(Largest)); // floor(log2) + 1
}

Status validate(const ImageDesc &D, const FormatInfo *Info) {
  if (!Info)
    return fail("unknown format " + std::to_string(uint32_t(D.Fmt)));
  if (Info->has64BitComponents())
    return fail("format " + std::string(Info->Name) +
                " has 64-bit components: it is a vertex format only");
  if (D.ViewType > S2L_VIEW_BUFFER)
    return fail("unknown view type " + std::to_string(D.ViewType));
  std::string View = viewName(D.ViewType);
  const std::pair<const char *, uint32_t> Sizes[] = {
      {"width", D.Width},   {"height", D.Height}, {"depth", D.Depth},
      {"layers", D.Layers}, {"levels", D.Levels}, {"samples", D.Samples}};
  for (auto [Name, Value] : Sizes)
    if (Value == 0)
      return fail(std::string(Name) + " is 0");
  bool Is1D = D.ViewType == S2L_VIEW_1D || D.ViewType == S2L_VIEW_1D_ARRAY ||
              D.ViewType == S2L_VIEW_BUFFER;
  bool Is3D = D.ViewType == S2L_VIEW_3D;
  bool IsCube = D.ViewType == S2L_VIEW_CUBE || D.ViewType == S2L_VIEW_CUBE_ARRAY;
  bool Arrayed = D.ViewType == S2L_VIEW_1D_ARRAY ||
                 D.ViewType == S2L_VIEW_2D_ARRAY || IsCube;
  if (Is1D && D.Height != 1)
    return fail("a " + View + " view has height 1, not " +
                std::to_string(D.Height));
  if (!Is3D && D.Depth != 1)
    return fail("a " + View + " view has depth 1, not " +
                std::to_string(D.Depth));
  if (!Arrayed && D.Layers != 1)
    return fail("a " + View + " view has 1 layer, not " +
                std::to_string(D.Layers));
  if (IsCube && D.Width != D.Height)
    return fail("a cube is square, not " + std::to_string(D.Width) + "x" +
                std::to_string(D.Height));
  if (D.ViewType == S2L_VIEW_CUBE && D.Layers != 6)
    return fail("a cube view has 6 layers, not " + std::to_string(D.Layers));
  if (D.ViewType == S2L_VIEW_CUBE_ARRAY && D.Layers % 6 != 0)
    return fail("a cube array has a multiple of 6 layers, not " +
                std::to_string(D.Layers));
  if (D.ViewType == S2L_VIEW_BUFFER) {
    if (D.Levels != 1 || D.Samples != 1)
      return fail("a texel buffer has 1 level and 1 sample");
    if (Info->isCompressed())
      return fail("a texel buffer cannot have the block-compressed format " +
                  std::string(Info->Name));
    if (D.Width > MaxBufferElements)
      return fail("texel buffer of " + std::to_string(D.Width) +
                  " elements exceeds the limit of " +
                  std::to_string(MaxBufferElements));
  } else {
    uint32_t Limit = Is3D ? Max3DSide : MaxSide;
    for (auto [Name, Value] : {std::pair{"width", D.Width},
                               std::pair{"height", D.Height},
                               std::pair{"depth", D.Depth}})
      if (Value > Limit)
        return fail(std::string(Name) + " " + std::to_string(Value) +
                    " exceeds the limit of " + std::to_string(Limit) +
                    " for a " + View + " view");
  }
  if (D.Layers > MaxLayers)
    return fail(std::to_string(D.Layers) + " layers exceed the limit of " +
                std::to_string(MaxLayers));
  uint32_t Chain =
      mipChainLength(std::max({D.Width, D.Height, Is3D ? D.Depth : 1u}));
  if (D.Levels > Chain || D.Levels > S2L_MAX_IMAGE_LEVELS)
    return fail(std::to_string(D.Levels) + " levels, but a " +
                std::to_string(D.Width) + "x" + std::to_string(D.Height) +
                (Is3D ? "x" + std::to_string(D.Depth) : std::string()) +
                " image has at most " +
                std::to_string(std::min<uint32_t>(Chain, S2L_MAX_IMAGE_LEVELS)));
  if (D.Samples > 1) {
    if (!std::has_single_bit(D.Samples) || D.Samples > MaxSamples)
      return fail("sample count " + std::to_string(D.Samples) +
                  " is not a power of two up to " +
                  std::to_string(MaxSamples));
    if (D.ViewType != S2L_VIEW_2D && D.ViewType != S2L_VIEW_2D_ARRAY)
      return fail("a multisampled image is 2D or a 2D array, not " + View);
    if (D.Levels != 1)
      return fail("a multisampled image has 1 level, not " +
                  std::to_string(D.Levels));
    if (Info->isCompressed())
      return fail("a multisampled image cannot have the block-compressed "
                  "format " + std::string(Info->Name));
  }
  return Status::success();
}

} // namespace

Result<Image> Image::create(const ImageDesc &D) {
  const FormatInfo *Info = spirv2llvm::formatInfo(D.Fmt);
  if (Status S = validate(D, Info); !S.ok())
    return S;
  Image I;
  I.Desc = D;
  I.Info = Info;
  I.Descriptor = std::make_unique<s2l_image>();
  s2l_image &Desc = *I.Descriptor;
  Desc.format = uint32_t(D.Fmt);
  Desc.view_type = D.ViewType;
  Desc.layers = D.Layers;
  Desc.levels = D.Levels;
  Desc.samples = D.Samples;
  bool Is3D = D.ViewType == S2L_VIEW_3D;
  uint64_t Offset = 0;
  for (uint32_t L = 0; L < D.Levels; ++L) {
    s2l_image_level &Lv = Desc.level[L];
    Lv.width = std::max(1u, D.Width >> L);
    Lv.height = std::max(1u, D.Height >> L);
    Lv.depth = Is3D ? std::max(1u, D.Depth >> L) : 1;
    uint64_t BlocksX = (Lv.width + Info->BlockWidth - 1) / Info->BlockWidth;
    uint64_t BlocksY = (Lv.height + Info->BlockHeight - 1) / Info->BlockHeight;
    Lv.offset = Offset;
    Lv.row_pitch = BlocksX * Info->BlockBytes * D.Samples;
    Lv.slice_pitch = Lv.row_pitch * BlocksY;
    Offset += Lv.slice_pitch * (Is3D ? Lv.depth : D.Layers);
    if (Offset > MaxBytes)
      return fail("needs more than " + std::to_string(MaxBytes >> 20) +
                  " MiB");
  }
  I.Size = size_t(Offset);
  I.Texels = std::make_unique<uint8_t[]>(I.Size); // Zeroed.
  Desc.data = I.Texels.get();
  return I;
}

Status Image::checkCoordinate(uint32_t Level, uint32_t X, uint32_t Y,
                              uint32_t ZOrLayer, uint32_t Sample) const {
  if (Level >= Desc.Levels)
    return fail("level " + std::to_string(Level) + " of " +
                std::to_string(Desc.Levels));
  const s2l_image_level &Lv = Descriptor->level[Level];
  uint32_t Slices = Desc.ViewType == S2L_VIEW_3D ? Lv.depth : Desc.Layers;
  if (X >= Lv.width || Y >= Lv.height || ZOrLayer >= Slices ||
      Sample >= Desc.Samples)
    return fail("texel (" + std::to_string(X) + ", " + std::to_string(Y) +
                ", " + std::to_string(ZOrLayer) + ") sample " +
                std::to_string(Sample) + " is outside level " +
                std::to_string(Level) + " (" + std::to_string(Lv.width) +
                "x" + std::to_string(Lv.height) + "x" +
                std::to_string(Slices) + ", " + std::to_string(Desc.Samples) +
                " samples)");
  return Status::success();
}

uint8_t *Image::texelAddress(uint32_t Level, uint32_t X, uint32_t Y,
                             uint32_t ZOrLayer, uint32_t Sample) {
  if (!checkCoordinate(Level, X, Y, ZOrLayer, Sample).ok())
    return nullptr;
  const s2l_image_level &Lv = Descriptor->level[Level];
  uint64_t BX = X / Info->BlockWidth, BY = Y / Info->BlockHeight;
  return Texels.get() + Lv.offset + ZOrLayer * Lv.slice_pitch +
         BY * Lv.row_pitch + (BX * Desc.Samples + Sample) * Info->BlockBytes;
}

template <typename T>
Status Image::read(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
                   uint32_t Sample, T &Out) const {
  if (Status S = checkCoordinate(Level, X, Y, ZOrLayer, Sample); !S.ok())
    return S;
  const uint8_t *P =
      const_cast<Image *>(this)->texelAddress(Level, X, Y, ZOrLayer, Sample);
  if (Info->isCompressed()) {
    if constexpr (std::is_same_v<T, Float4>) {
      Float4 Block[16];
      if (Status S = decodeBlock(Desc.Fmt, P, Block); !S.ok())
        return S;
      Out = Block[(Y % Info->BlockHeight) * Info->BlockWidth +
                  X % Info->BlockWidth];
      return Status::success();
    }
  }
  return decodeTexel(Desc.Fmt, P, Out);
}

template <typename T>
Status Image::write(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
                    uint32_t Sample, const T &In) {
  if (Status S = checkCoordinate(Level, X, Y, ZOrLayer, Sample); !S.ok())
    return S;
  if (Info->isCompressed())
    return fail("cannot write texels of the block-compressed format " +
                std::string(Info->Name));
  return encodeTexel(Desc.Fmt, In, texelAddress(Level, X, Y, ZOrLayer, Sample));
}

Status Image::readTexel(uint32_t L, uint32_t X, uint32_t Y, uint32_t Z,
                        uint32_t S, Float4 &Out) const {
  return read(L, X, Y, Z, S, Out);
}
Status Image::readTexel(uint32_t L, uint32_t X, uint32_t Y, uint32_t Z,
                        uint32_t S, Int4 &Out) const {
  return read(L, X, Y, Z, S, Out);
}
Status Image::readTexel(uint32_t L, uint32_t X, uint32_t Y, uint32_t Z,
                        uint32_t S, UInt4 &Out) const {
  return read(L, X, Y, Z, S, Out);
}
Status Image::writeTexel(uint32_t L, uint32_t X, uint32_t Y, uint32_t Z,
                         uint32_t S, const Float4 &In) {
  return write(L, X, Y, Z, S, In);
}
Status Image::writeTexel(uint32_t L, uint32_t X, uint32_t Y, uint32_t Z,
                         uint32_t S, const Int4 &In) {
  return write(L, X, Y, Z, S, In);
}
Status Image::writeTexel(uint32_t L, uint32_t X, uint32_t Y, uint32_t Z,
                         uint32_t S, const UInt4 &In) {
  return write(L, X, Y, Z, S, In);
}

} // namespace spirv2llvm
