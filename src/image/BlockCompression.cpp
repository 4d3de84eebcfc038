//===- image/BlockCompression.cpp - BC1 to BC5, and the dispatch ----------===//
//
// decodeBlock for the S3TC/RGTC formats, following the Khronos Data Format
// Specification 1.3 ("S3TC Compressed Texture Image Formats", "RGTC
// Compressed Texture Image Formats"), which Vulkan cites: endpoints are
// expanded to float and interpolated in float; texel i of the 4x4 block
// (row-major) takes index bits [b*i, b*i + b) of its index word.
//
// BC7 is in BlockCompressionBPTC.cpp. Limitation: BC6H is not decoded yet;
// decodeBlock says so.
//
//===----------------------------------------------------------------------===//
#include "image/BlockDecoders.h"
#include "spirv2llvm/ImageFormat.h"

#include <cstring>
#include <string>

namespace spirv2llvm {

namespace {

uint64_t loadLE64(const uint8_t *P) {
  uint64_t V = 0;
  for (int I = 7; I >= 0; --I)
    V = V << 8 | P[I];
  return V;
}

Float4 rgb565(uint16_t C) {
  return {unormToFloat(C >> 11, 5), unormToFloat((C >> 5) & 0x3f, 6),
          unormToFloat(C & 0x1f, 5), 1.0f};
}

Float4 mix(const Float4 &A, float WA, const Float4 &B, float WB, float Div) {
  Float4 R;
  for (int I = 0; I < 4; ++I)
    R[I] = (WA * A[I] + WB * B[I]) / Div;
  return R;
}

/// The colour part of BC1/BC2/BC3 (8 bytes). FourColour forces the
/// interpolated mode (BC2/BC3 ignore the order of the endpoints);
/// PunchThrough makes index 3 of the three-colour mode transparent (BC1
/// RGBA) rather than opaque black (BC1 RGB).
void decodeColourBlock(const uint8_t *P, bool FourColour, bool PunchThrough,
                       std::span<Float4> Out) {
  uint16_t C0 = uint16_t(P[0] | P[1] << 8), C1 = uint16_t(P[2] | P[3] << 8);
  uint32_t Indices = uint32_t(P[4] | P[5] << 8 | P[6] << 16 | P[7] << 24);
  Float4 Palette[4];
  Palette[0] = rgb565(C0);
  Palette[1] = rgb565(C1);
  if (FourColour || C0 > C1) {
    Palette[2] = mix(Palette[0], 2, Palette[1], 1, 3);
    Palette[3] = mix(Palette[0], 1, Palette[1], 2, 3);
  } else {
    Palette[2] = mix(Palette[0], 1, Palette[1], 1, 2);
    Palette[3] = {0, 0, 0, PunchThrough ? 0.0f : 1.0f};
  }
  for (int I = 0; I < 16; ++I)
    Out[I] = Palette[(Indices >> (2 * I)) & 3];
}

/// An RGTC channel (BC3 alpha, BC4, BC5): two 8-bit endpoints and 3-bit
/// indices, into channel Slot of Out.
void decodeChannelBlock(const uint8_t *P, bool Signed, unsigned Slot,
                        std::span<Float4> Out) {
  // Signed endpoints: -128 reads as -127 (both are -1.0).
  float E0 = Signed ? snormToFloat(int8_t(P[0]), 8) : unormToFloat(P[0], 8);
  float E1 = Signed ? snormToFloat(int8_t(P[1]), 8) : unormToFloat(P[1], 8);
  bool EightValues = Signed ? int8_t(P[0]) > int8_t(P[1]) : P[0] > P[1];
  float Palette[8] = {E0, E1};
  if (EightValues) {
    for (int I = 1; I <= 6; ++I)
      Palette[I + 1] = ((7 - I) * E0 + I * E1) / 7;
  } else {
    for (int I = 1; I <= 4; ++I)
      Palette[I + 1] = ((5 - I) * E0 + I * E1) / 5;
    Palette[6] = Signed ? -1.0f : 0.0f;
    Palette[7] = 1.0f;
  }
  uint64_t Indices = loadLE64(P) >> 16;
  for (int I = 0; I < 16; ++I)
    Out[I][Slot] = Palette[(Indices >> (3 * I)) & 7];
}

void toLinear(std::span<Float4> Out) {
  for (Float4 &T : Out)
    for (int C = 0; C < 3; ++C)
      T[C] = srgbToLinear(T[C]);
}

} // namespace

Status decodeBlock(Format F, const void *Src, std::span<Float4> Out) {
  const FormatInfo *Info = formatInfo(F);
  if (!Info || !Info->isCompressed())
    return Status::error(
        "decodeBlock needs a block-compressed format, not " +
            (Info ? std::string(Info->Name) : std::to_string(uint32_t(F))),
        StatusCode::InvalidArgument);
  if (Out.size() < 16)
    return Status::error("decodeBlock of " + std::string(Info->Name) +
                             " needs room for 16 texels, got " +
                             std::to_string(Out.size()),
                         StatusCode::InvalidArgument);
  const auto *P = static_cast<const uint8_t *>(Src);
  Out = Out.first(16);
  for (Float4 &T : Out)
    T = {0, 0, 0, 1};
  switch (F) {
  case Format::BC1_RGB_UNORM_BLOCK:
  case Format::BC1_RGB_SRGB_BLOCK:
    decodeColourBlock(P, false, false, Out);
    break;
  case Format::BC1_RGBA_UNORM_BLOCK:
  case Format::BC1_RGBA_SRGB_BLOCK:
    decodeColourBlock(P, false, true, Out);
    break;
  case Format::BC2_UNORM_BLOCK:
  case Format::BC2_SRGB_BLOCK: {
    decodeColourBlock(P + 8, true, false, Out);
    uint64_t Alpha = loadLE64(P);
    for (int I = 0; I < 16; ++I)
      Out[I][3] = unormToFloat((Alpha >> (4 * I)) & 0xf, 4);
    break;
  }
  case Format::BC3_UNORM_BLOCK:
  case Format::BC3_SRGB_BLOCK:
    decodeColourBlock(P + 8, true, false, Out);
    decodeChannelBlock(P, false, 3, Out);
    break;
  case Format::BC4_UNORM_BLOCK:
  case Format::BC4_SNORM_BLOCK:
    decodeChannelBlock(P, F == Format::BC4_SNORM_BLOCK, 0, Out);
    break;
  case Format::BC5_UNORM_BLOCK:
  case Format::BC5_SNORM_BLOCK:
    decodeChannelBlock(P, F == Format::BC5_SNORM_BLOCK, 0, Out);
    decodeChannelBlock(P + 8, F == Format::BC5_SNORM_BLOCK, 1, Out);
    break;
  case Format::BC6H_UFLOAT_BLOCK:
  case Format::BC6H_SFLOAT_BLOCK:
    image::decodeBC6H(P, F == Format::BC6H_SFLOAT_BLOCK, Out);
    break;
  case Format::BC7_UNORM_BLOCK:
  case Format::BC7_SRGB_BLOCK:
    image::decodeBC7(P, Out);
    break;
  default:
    return Status::error("decoding " + std::string(Info->Name) +
                             " is not implemented yet (BC6H is listed but "
                             "not decoded)",
                         StatusCode::InvalidInput);
  }
  if (Info->isSRGB())
    toLinear(Out);
  return Status::success();
}

} // namespace spirv2llvm
