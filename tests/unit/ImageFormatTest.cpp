//===- ImageFormatTest.cpp - The format table and texel round trips -------===//
//
// The table against Vulkan's naming rules (component order and bit
// positions), name lookup, and for every uncompressed format: bits ->
// value -> bits is the identity on canonical bit patterns, so a broken
// component range or conversion of any format fails here.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/ImageFormat.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>

using namespace spirv2llvm;

namespace {

TEST(ImageFormatTable, VkFormatNumbersAndNames) {
  EXPECT_EQ(uint32_t(Format::R4G4_UNORM_PACK8), 1u);
  EXPECT_EQ(uint32_t(Format::R8G8B8A8_UNORM), 37u);
  EXPECT_EQ(uint32_t(Format::B8G8R8A8_SRGB), 50u);
  EXPECT_EQ(uint32_t(Format::A2B10G10R10_UINT_PACK32), 68u);
  EXPECT_EQ(uint32_t(Format::R16G16B16A16_SFLOAT), 97u);
  EXPECT_EQ(uint32_t(Format::R32G32B32A32_SFLOAT), 109u);
  EXPECT_EQ(uint32_t(Format::B10G11R11_UFLOAT_PACK32), 122u);
  EXPECT_EQ(uint32_t(Format::E5B9G9R9_UFLOAT_PACK32), 123u);
  EXPECT_EQ(uint32_t(Format::D32_SFLOAT_S8_UINT), 130u);
  EXPECT_EQ(uint32_t(Format::BC1_RGB_UNORM_BLOCK), 131u);
  EXPECT_EQ(uint32_t(Format::BC7_SRGB_BLOCK), 146u);
  EXPECT_EQ(uint32_t(Format::A4B4G4R4_UNORM_PACK16), 1000340001u);

  EXPECT_EQ(formatByName("R8G8B8A8_UNORM"), Format::R8G8B8A8_UNORM);
  EXPECT_EQ(formatByName("VK_FORMAT_D24_UNORM_S8_UINT"),
            Format::D24_UNORM_S8_UINT);
  EXPECT_EQ(formatByName("r8g8b8a8_unorm"), std::nullopt);
  EXPECT_EQ(formatByName("R8G8B8A8"), std::nullopt);
  EXPECT_EQ(formatByName(""), std::nullopt);
  EXPECT_EQ(formatInfo(Format(0)), nullptr);
  // G8B8G8R8_422_UNORM (a YCbCr format): not in the table.
  EXPECT_EQ(formatInfo(Format(1000156000)), nullptr);

  // Every row: found by its own number and name; size consistent with its
  // components.
  std::set<std::string_view> Names;
  for (const FormatInfo &I : allFormats()) {
    EXPECT_EQ(formatInfo(I.Fmt), &I) << I.Name;
    EXPECT_EQ(formatByName(I.Name), I.Fmt) << I.Name;
    EXPECT_TRUE(Names.insert(I.Name).second) << I.Name;
    if (I.Layout != LayoutKind::Bits)
      continue;
    unsigned End = 0;
    for (unsigned C = 0; C < I.NumComponents; ++C)
      End = std::max<unsigned>(End,
                               I.Components[C].Offset + I.Components[C].Bits);
    EXPECT_LE(End, I.BlockBytes * 8u) << I.Name;
    EXPECT_GE(End + 24, I.BlockBytes * 8u) << I.Name; // At most X8 padding.
  }
  EXPECT_EQ(allFormats().size(), 148u);
}

TEST(ImageFormatTable, Properties) {
  const FormatInfo *I = formatInfo(Format::BC3_SRGB_BLOCK);
  ASSERT_NE(I, nullptr);
  EXPECT_TRUE(I->isCompressed());
  EXPECT_TRUE(I->isSRGB());
  EXPECT_EQ(I->BlockBytes, 16);
  EXPECT_EQ(I->BlockWidth, 4);
  EXPECT_EQ(formatInfo(Format::BC1_RGB_UNORM_BLOCK)->BlockBytes, 8);
  EXPECT_EQ(formatInfo(Format::R32G32B32_SFLOAT)->BlockBytes, 12);
  EXPECT_EQ(formatInfo(Format::R8G8_SINT)->view(), ViewKind::SInt);
  EXPECT_EQ(formatInfo(Format::S8_UINT)->view(), ViewKind::UInt);
  const FormatInfo *DS = formatInfo(Format::D24_UNORM_S8_UINT);
  EXPECT_TRUE(DS->hasDepth());
  EXPECT_TRUE(DS->hasStencil());
  EXPECT_EQ(DS->view(), ViewKind::Float);
  EXPECT_FALSE(formatInfo(Format::D32_SFLOAT)->hasStencil());
  // sRGB formats keep a linear (UNORM) alpha.
  const FormatInfo *S = formatInfo(Format::R8G8B8A8_SRGB);
  EXPECT_EQ(S->Components[0].Numeric, NumericKind::SRGB);
  EXPECT_EQ(S->Components[3].Numeric, NumericKind::UNorm);
  EXPECT_TRUE(formatInfo(Format::A8B8G8R8_SRGB_PACK32)->isSRGB());
  EXPECT_FALSE(formatInfo(Format::A8B8G8R8_UNORM_PACK32)->isSRGB());
}

// Where each component sits, from Vulkan's naming rules: plain formats
// list components in byte order, packed formats from the most significant
// bit down.
TEST(ImageFormatLayout, ComponentPositions) {
  auto Enc16 = [](Format F, Float4 V) {
    uint16_t T = 0;
    EXPECT_TRUE(encodeTexel(F, V, &T).ok());
    return T;
  };
  auto Enc32 = [](Format F, Float4 V) {
    uint32_t T = 0;
    EXPECT_TRUE(encodeTexel(F, V, &T).ok());
    return T;
  };
  EXPECT_EQ(Enc16(Format::R5G6B5_UNORM_PACK16, {1, 0, 0, 1}), 0xf800);
  EXPECT_EQ(Enc16(Format::R5G6B5_UNORM_PACK16, {0, 1, 0, 1}), 0x07e0);
  EXPECT_EQ(Enc16(Format::B5G6R5_UNORM_PACK16, {1, 0, 0, 1}), 0x001f);
  EXPECT_EQ(Enc16(Format::R4G4B4A4_UNORM_PACK16, {0, 0, 0, 1}), 0x000f);
  EXPECT_EQ(Enc16(Format::A4R4G4B4_UNORM_PACK16, {0, 0, 0, 1}), 0xf000);
  EXPECT_EQ(Enc16(Format::A1R5G5B5_UNORM_PACK16, {0, 0, 0, 1}), 0x8000);
  EXPECT_EQ(Enc16(Format::R5G5B5A1_UNORM_PACK16, {0, 0, 0, 1}), 0x0001);
  EXPECT_EQ(Enc32(Format::A2B10G10R10_UNORM_PACK32, {1, 0, 0, 1}), 0xc00003ffu);
  EXPECT_EQ(Enc32(Format::A2R10G10B10_UNORM_PACK32, {1, 0, 0, 0}), 0x3ff00000u);
  EXPECT_EQ(Enc32(Format::A8B8G8R8_UNORM_PACK32, {1, 0, 0, 0}), 0x000000ffu);
  EXPECT_EQ(Enc32(Format::B10G11R11_UFLOAT_PACK32, {1, 0, 0, 0}), 0x3c0u);
  EXPECT_EQ(Enc32(Format::B10G11R11_UFLOAT_PACK32, {0, 0, 1, 0}), 0x1e0u << 22);
  uint8_t Bytes[4];
  ASSERT_TRUE(
      encodeTexel(Format::B8G8R8A8_UNORM, Float4{1, 0.5f, 0, 0}, Bytes).ok());
  EXPECT_EQ(Bytes[0], 0);
  EXPECT_EQ(Bytes[1], 128);
  EXPECT_EQ(Bytes[2], 255);
  EXPECT_EQ(Bytes[3], 0);
  // Missing components read as 0, alpha as 1.
  uint8_t R = 255;
  Float4 V;
  ASSERT_TRUE(decodeTexel(Format::R8_UNORM, &R, V).ok());
  EXPECT_EQ(V, (Float4{1, 0, 0, 1}));
  int8_t S = -5;
  Int4 I;
  ASSERT_TRUE(decodeTexel(Format::R8_SINT, &S, I).ok());
  EXPECT_EQ(I, (Int4{-5, 0, 0, 1}));
}

TEST(ImageFormatLayout, DepthStencil) {
  // D24S8: depth in bits 0-23, stencil in 24-31; each view writes its own
  // aspect only.
  uint32_t T = 0;
  ASSERT_TRUE(
      encodeTexel(Format::D24_UNORM_S8_UINT, Float4{1, 0, 0, 0}, &T).ok());
  EXPECT_EQ(T, 0x00ffffffu);
  ASSERT_TRUE(
      encodeTexel(Format::D24_UNORM_S8_UINT, UInt4{0xab, 0, 0, 0}, &T).ok());
  EXPECT_EQ(T, 0xabffffffu);
  Float4 D;
  UInt4 St;
  ASSERT_TRUE(decodeTexel(Format::D24_UNORM_S8_UINT, &T, D).ok());
  ASSERT_TRUE(decodeTexel(Format::D24_UNORM_S8_UINT, &T, St).ok());
  EXPECT_EQ(D, (Float4{1, 0, 0, 1}));
  EXPECT_EQ(St, (UInt4{0xab, 0, 0, 1}));
  // D32S8: a float then the stencil byte.
  uint8_t B[8] = {};
  ASSERT_TRUE(
      encodeTexel(Format::D32_SFLOAT_S8_UINT, Float4{0.25f, 0, 0, 0}, B).ok());
  ASSERT_TRUE(
      encodeTexel(Format::D32_SFLOAT_S8_UINT, UInt4{7, 0, 0, 0}, B).ok());
  float F;
  std::memcpy(&F, B, 4);
  EXPECT_EQ(F, 0.25f);
  EXPECT_EQ(B[4], 7);
  // X8_D24 and D16 are UNORM depth.
  uint16_t D16 = 0x8000;
  ASSERT_TRUE(decodeTexel(Format::D16_UNORM, &D16, D).ok());
  EXPECT_EQ(D[0], 32768.0f / 65535.0f);
  // Views a format does not have are errors, with the format's name.
  Status E = decodeTexel(Format::S8_UINT, &D16, D);
  EXPECT_FALSE(E.ok());
  EXPECT_EQ(E.message(),
            "format S8_UINT has no float view (it reads as uint4)");
  E = encodeTexel(Format::R8G8B8A8_UNORM, Int4{1, 2, 3, 4}, &T);
  EXPECT_EQ(E.message(),
            "format R8G8B8A8_UNORM has no int view (it reads as float4)");
  E = decodeTexel(Format::BC1_RGB_UNORM_BLOCK, &T, D);
  EXPECT_EQ(E.message(), "format BC1_RGB_UNORM_BLOCK is block-compressed: "
                         "decode it with decodeBlock");
  E = decodeTexel(Format(999), &T, D);
  EXPECT_EQ(E.message(), "unknown format 999");
}

// Whether a component's bit pattern is what the encoder produces for its
// decoded value (the only patterns a round trip must keep).
bool isCanonical(const ComponentInfo &C, uint32_t Raw) {
  switch (C.Numeric) {
  case NumericKind::SNorm: // The most negative value reads as -1 = -max.
    return Raw != 1u << (C.Bits - 1);
  case NumericKind::SFloat:
    if (C.Bits == 16) // A NaN keeps its payload only when quiet.
      return (Raw & 0x7c00) != 0x7c00 || (Raw & 0x3ff) == 0 || (Raw & 0x200);
    return true;
  case NumericKind::UFloat: { // One NaN.
    unsigned M = C.Bits - 5;
    uint32_t Exp = Raw >> M, Man = Raw & ((1u << M) - 1);
    return Exp != 0x1f || Man == 0 || Man == 1u << (M - 1);
  }
  default:
    return true;
  }
}

uint32_t getBits(const uint8_t *T, unsigned Offset, unsigned Bits) {
  uint32_t V = 0;
  for (unsigned B = 0; B < Bits; ++B)
    V |= uint32_t((T[(Offset + B) / 8] >> ((Offset + B) % 8)) & 1) << B;
  return V;
}

void putBits(uint8_t *T, unsigned Offset, unsigned Bits, uint32_t V) {
  for (unsigned B = 0; B < Bits; ++B) {
    uint8_t M = uint8_t(1u << ((Offset + B) % 8));
    T[(Offset + B) / 8] =
        uint8_t((T[(Offset + B) / 8] & ~M) | (((V >> B) & 1) ? M : 0));
  }
}

// For every uncompressed format with a per-component layout: random
// canonical texels (plus all-zero and all-one components) survive decode
// then encode in every view the format has.
TEST(ImageFormatRoundTrip, EveryFormatBitsToValueToBits) {
  std::mt19937 Rng(1234);
  unsigned Formats = 0;
  for (const FormatInfo &I : allFormats()) {
    // (The R64 formats have no view: ImageFormat64Bit below.)
    if (I.Layout != LayoutKind::Bits || I.has64BitComponents())
      continue;
    ++Formats;
    for (int Iter = 0; Iter < 3000; ++Iter) {
      uint8_t T[16] = {};
      for (unsigned C = 0; C < I.NumComponents; ++C) {
        const ComponentInfo &Comp = I.Components[C];
        uint32_t Mask = Comp.Bits == 32 ? ~0u : (1u << Comp.Bits) - 1;
        uint32_t Raw = Iter == 0 ? 0 : Iter == 1 ? Mask : Rng() & Mask;
        while (!isCanonical(Comp, Raw))
          Raw = Rng() & Mask;
        putBits(T, Comp.Offset, Comp.Bits, Raw);
      }
      uint8_t Out[16] = {};
      bool AnyView = false;
      for (ViewKind V : {ViewKind::Float, ViewKind::SInt, ViewKind::UInt}) {
        Status S;
        if (V == ViewKind::Float) {
          Float4 Val;
          if (!decodeTexel(I.Fmt, T, Val).ok())
            continue;
          S = encodeTexel(I.Fmt, Val, Out);
        } else if (V == ViewKind::SInt) {
          Int4 Val;
          if (!decodeTexel(I.Fmt, T, Val).ok())
            continue;
          S = encodeTexel(I.Fmt, Val, Out);
        } else {
          UInt4 Val;
          if (!decodeTexel(I.Fmt, T, Val).ok())
            continue;
          S = encodeTexel(I.Fmt, Val, Out);
        }
        ASSERT_TRUE(S.ok()) << I.Name << ": " << S.message();
        AnyView = true;
      }
      ASSERT_TRUE(AnyView) << I.Name;
      for (unsigned C = 0; C < I.NumComponents; ++C) {
        const ComponentInfo &Comp = I.Components[C];
        ASSERT_EQ(getBits(Out, Comp.Offset, Comp.Bits),
                  getBits(T, Comp.Offset, Comp.Bits))
            << I.Name << " component " << C << " iteration " << Iter;
      }
    }
  }
  EXPECT_EQ(Formats, 119u);
}

// The R64 formats are in the table (vertex input reads them) but have no
// 32-bit view: the codec says so instead of reading 32 bytes into 16.
TEST(ImageFormat64Bit, NoViewAndNoImage) {
  const FormatInfo *I = formatInfo(Format::R64G64B64A64_SFLOAT);
  ASSERT_TRUE(I);
  EXPECT_TRUE(I->has64BitComponents());
  EXPECT_EQ(I->BlockBytes, 32);
  EXPECT_EQ(I->Components[3].Offset, 192);
  EXPECT_FALSE(formatInfo(Format::R32G32_UINT)->has64BitComponents());
  EXPECT_EQ(formatByName("R64_UINT"), Format::R64_UINT);
  unsigned Wide = 0;
  for (const FormatInfo &F : allFormats())
    Wide += F.has64BitComponents();
  EXPECT_EQ(Wide, 12u); // VkFormat 110 to 121
  uint8_t T[32] = {};
  Float4 F;
  UInt4 U;
  Status S = decodeTexel(Format::R64G64B64A64_SFLOAT, T, F);
  EXPECT_EQ(S.message(), "format R64G64B64A64_SFLOAT has 64-bit components: "
                         "it has no 32-bit view (a vertex format only)");
  EXPECT_FALSE(decodeTexel(Format::R64_UINT, T, U).ok());
  EXPECT_FALSE(encodeTexel(Format::R64_UINT, UInt4{1, 0, 0, 1}, T).ok());
}

// Integer values in range survive value -> bits -> value, and out-of-range
// ones keep their low bits.
TEST(ImageFormatRoundTrip, IntegerValues) {
  uint8_t T[16];
  Int4 I;
  ASSERT_TRUE(
      encodeTexel(Format::R16G16B16A16_SINT, Int4{-32768, 32767, -1, 5}, T)
          .ok());
  ASSERT_TRUE(decodeTexel(Format::R16G16B16A16_SINT, T, I).ok());
  EXPECT_EQ(I, (Int4{-32768, 32767, -1, 5}));
  UInt4 U;
  ASSERT_TRUE(
      encodeTexel(Format::A2B10G10R10_UINT_PACK32, UInt4{1023, 0x401, 7, 6}, T)
          .ok());
  ASSERT_TRUE(decodeTexel(Format::A2B10G10R10_UINT_PACK32, T, U).ok());
  EXPECT_EQ(U, (UInt4{1023, 1, 7, 2}));
  ASSERT_TRUE(encodeTexel(Format::R32G32B32A32_UINT,
                          UInt4{0xffffffffu, 0, 1, 0x80000000u}, T)
                  .ok());
  ASSERT_TRUE(decodeTexel(Format::R32G32B32A32_UINT, T, U).ok());
  EXPECT_EQ(U, (UInt4{0xffffffffu, 0, 1, 0x80000000u}));
}

// E5B9G9R9: decode -> encode -> decode is stable for random texels (not
// every pattern is canonical: a mantissa below 256 could use a smaller
// exponent), and values the encoder produced come back bit for bit.
TEST(ImageFormatRoundTrip, SharedExponent) {
  std::mt19937 Rng(99);
  for (int Iter = 0; Iter < 20000; ++Iter) {
    uint32_t Raw = Rng();
    Float4 V, W;
    uint32_t Enc = 0, Enc2 = 0;
    ASSERT_TRUE(decodeTexel(Format::E5B9G9R9_UFLOAT_PACK32, &Raw, V).ok());
    ASSERT_TRUE(encodeTexel(Format::E5B9G9R9_UFLOAT_PACK32, V, &Enc).ok());
    ASSERT_TRUE(decodeTexel(Format::E5B9G9R9_UFLOAT_PACK32, &Enc, W).ok());
    ASSERT_EQ(V, W) << std::hex << Raw;
    ASSERT_TRUE(encodeTexel(Format::E5B9G9R9_UFLOAT_PACK32, W, &Enc2).ok());
    ASSERT_EQ(Enc, Enc2) << std::hex << Raw;
  }
}

} // namespace
