//===- OutputMergeTest.cpp - Depth, stencil and colour merging ------------===//
//
// The output-merge stage (src/graphics/OutputMerge.h) against results
// worked out by hand from Vulkan 1.3 "Fragment Operations" and "The
// Framebuffer": dyadic values for the float blends (exact), 8-bit bytes
// whose exact values are at least 0.05 from a rounding tie for UNORM, and
// the specialized paths against the generic one, bit for bit.
//
//===----------------------------------------------------------------------===//
#include "graphics/OutputMerge.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace spirv2llvm;
using namespace spirv2llvm::graphics;

namespace {

const float Inf = std::numeric_limits<float>::infinity();
const float NaN = std::numeric_limits<float>::quiet_NaN();
using Bytes = std::vector<uint8_t>;

// --- Compare and stencil ----------------------------------------------------

TEST(OutputMerge, CompareOps) {
  // Expected for A < B, A == B, A > B.
  struct Row {
    CompareOp Op;
    bool Lt, Eq, Gt;
  } Rows[] = {
      {CompareOp::Never, false, false, false},
      {CompareOp::Less, true, false, false},
      {CompareOp::Equal, false, true, false},
      {CompareOp::LessOrEqual, true, true, false},
      {CompareOp::Greater, false, false, true},
      {CompareOp::NotEqual, true, false, true},
      {CompareOp::GreaterOrEqual, false, true, true},
      {CompareOp::Always, true, true, true},
  };
  for (const Row &R : Rows) {
    SCOPED_TRACE(uint32_t(R.Op));
    EXPECT_EQ(compare(R.Op, 0.25f, 0.5f), R.Lt);
    EXPECT_EQ(compare(R.Op, 0.5f, 0.5f), R.Eq);
    EXPECT_EQ(compare(R.Op, 0.75f, 0.5f), R.Gt);
    EXPECT_EQ(compare(R.Op, 1u, 2u), R.Lt);
    EXPECT_EQ(compare(R.Op, 2u, 2u), R.Eq);
    // Unsigned: 0xffffffff is the largest.
    EXPECT_EQ(compare(R.Op, 0xffffffffu, 2u), R.Gt);
  }
  // NaN: unordered, so only NotEqual and Always hold.
  EXPECT_FALSE(compare(CompareOp::Less, NaN, 1.0f));
  EXPECT_FALSE(compare(CompareOp::GreaterOrEqual, NaN, 1.0f));
  EXPECT_FALSE(compare(CompareOp::Equal, NaN, NaN));
  EXPECT_TRUE(compare(CompareOp::NotEqual, NaN, NaN));
  EXPECT_TRUE(compare(CompareOp::Always, NaN, NaN));
}

TEST(OutputMerge, StencilOps) {
  const uint8_t Current[] = {0x00, 0x01, 0x80, 0xfe, 0xff};
  struct Row {
    StencilOp Op;
    uint8_t Expected[5];
  } Rows[] = {
      {StencilOp::Keep, {0x00, 0x01, 0x80, 0xfe, 0xff}},
      {StencilOp::Zero, {0x00, 0x00, 0x00, 0x00, 0x00}},
      {StencilOp::Replace, {0x3c, 0x3c, 0x3c, 0x3c, 0x3c}},
      {StencilOp::IncrementAndClamp, {0x01, 0x02, 0x81, 0xff, 0xff}},
      {StencilOp::DecrementAndClamp, {0x00, 0x00, 0x7f, 0xfd, 0xfe}},
      {StencilOp::Invert, {0xff, 0xfe, 0x7f, 0x01, 0x00}},
      {StencilOp::IncrementAndWrap, {0x01, 0x02, 0x81, 0xff, 0x00}},
      {StencilOp::DecrementAndWrap, {0xff, 0x00, 0x7f, 0xfd, 0xfe}},
  };
  for (const Row &R : Rows)
    for (unsigned I = 0; I < 5; ++I)
      EXPECT_EQ(applyStencilOp(R.Op, Current[I], 0x3c), R.Expected[I])
          << "op " << uint32_t(R.Op) << " on " << unsigned(Current[I]);
}

TEST(OutputMerge, StencilUpdateChoosesTheOpAndHonoursTheWriteMask) {
  StencilOpState S;
  S.FailOp = StencilOp::Zero;
  S.DepthFailOp = StencilOp::Invert;
  S.PassOp = StencilOp::Replace;
  S.Reference = 0x1a5; // the low byte, 0xa5, is what Replace writes
  EXPECT_EQ(stencilUpdate(S, 0x0f, false, true), 0x00);
  EXPECT_EQ(stencilUpdate(S, 0x0f, false, false), 0x00);
  EXPECT_EQ(stencilUpdate(S, 0x0f, true, false), 0xf0);
  EXPECT_EQ(stencilUpdate(S, 0x0f, true, true), 0xa5);
  // (new & mask) | (old & ~mask).
  S.WriteMask = 0x0f;
  EXPECT_EQ(stencilUpdate(S, 0x3c, true, true), 0x35);
  S.WriteMask = 0xf0;
  EXPECT_EQ(stencilUpdate(S, 0x3c, true, false), 0xcc);
  S.WriteMask = 0;
  EXPECT_EQ(stencilUpdate(S, 0x3c, false, false), 0x3c);
  // Mask bits above the attachment's 8 do nothing.
  S.WriteMask = 0xffffff0f;
  EXPECT_EQ(stencilUpdate(S, 0x3c, true, true), 0x35);
}

TEST(OutputMerge, StencilTestMasksBothSides) {
  StencilOpState S;
  S.Reference = 0x13;
  S.Compare = CompareOp::Equal;
  S.CompareMask = 0x0f;
  EXPECT_TRUE(stencilTest(S, 0x23)); // 3 == 3
  S.CompareMask = 0xff;
  EXPECT_FALSE(stencilTest(S, 0x23)); // 0x13 != 0x23
  S.Compare = CompareOp::Less;
  S.CompareMask = 0xf0;
  EXPECT_TRUE(stencilTest(S, 0x23)); // reference first: 0x10 < 0x20
  S.Compare = CompareOp::Greater;
  EXPECT_FALSE(stencilTest(S, 0x23));
  // Only the reference's low 8 bits take part.
  S.Reference = 0x113;
  S.Compare = CompareOp::Equal;
  S.CompareMask = 0xffffffff;
  EXPECT_TRUE(stencilTest(S, 0x13));
  S.Compare = CompareOp::Never;
  EXPECT_FALSE(stencilTest(S, 0x13));
  S.Compare = CompareOp::Always;
  EXPECT_TRUE(stencilTest(S, 0x99));
}

// --- Depth/stencil attachments ----------------------------------------------

TEST(OutputMerge, DepthStencilAspects) {
  for (const FormatInfo &I : allFormats()) {
    SCOPED_TRACE(I.Name);
    EXPECT_EQ(hasDepth(I.Fmt), I.hasDepth());
    EXPECT_EQ(hasStencil(I.Fmt), I.hasStencil());
  }
  EXPECT_TRUE(hasDepth(Format::D24_UNORM_S8_UINT));
  EXPECT_TRUE(hasStencil(Format::D24_UNORM_S8_UINT));
  EXPECT_FALSE(hasStencil(Format::X8_D24_UNORM_PACK32));
  EXPECT_FALSE(hasDepth(Format::S8_UINT));
  EXPECT_FALSE(hasDepth(Format::UNDEFINED));
}

TEST(OutputMerge, D16) {
  for (Format F : {Format::D16_UNORM, Format::D16_UNORM_S8_UINT}) {
    SCOPED_TRACE(formatInfo(F)->Name);
    Bytes T = {0x11, 0x22, 0x33, 0x44};
    writeDepth(F, 0.5f, T.data()); // 32767.5: tie to even
    EXPECT_EQ(T, (Bytes{0x00, 0x80, 0x33, 0x44}));
    EXPECT_EQ(readDepth(F, T.data()), float(32768.0 / 65535.0));
    writeDepth(F, 0.25f, T.data()); // 16383.75
    EXPECT_EQ(T, (Bytes{0x00, 0x40, 0x33, 0x44}));
    writeDepth(F, 1.0f, T.data());
    EXPECT_EQ(T, (Bytes{0xff, 0xff, 0x33, 0x44}));
    EXPECT_EQ(readDepth(F, T.data()), 1.0f);
    writeDepth(F, 2.0f, T.data()); // clamped
    EXPECT_EQ(T, (Bytes{0xff, 0xff, 0x33, 0x44}));
    writeDepth(F, -0.5f, T.data());
    EXPECT_EQ(T, (Bytes{0x00, 0x00, 0x33, 0x44}));
    writeDepth(F, 0.5f, T.data());
    writeDepth(F, NaN, T.data());
    EXPECT_EQ(T, (Bytes{0x00, 0x00, 0x33, 0x44}));
    EXPECT_EQ(quantizeDepth(F, 0.00001f), float(1.0 / 65535.0)); // 0.66
    EXPECT_EQ(quantizeDepth(F, 0.000007f), 0.0f);                // 0.46
    EXPECT_EQ(quantizeDepth(F, 0.5f), float(32768.0 / 65535.0));
    EXPECT_EQ(quantizeDepth(F, 3.0f), 1.0f);
  }
  // Every code survives read then write.
  for (uint32_t C = 0; C < 65536; C += 1) {
    uint8_t T[2] = {uint8_t(C), uint8_t(C >> 8)}, U[2];
    writeDepth(Format::D16_UNORM, readDepth(Format::D16_UNORM, T), U);
    ASSERT_EQ(U[0] | U[1] << 8, int(C));
  }
}

TEST(OutputMerge, D24) {
  Bytes T = {0, 0, 0, 0xab};
  writeDepth(Format::D24_UNORM_S8_UINT, 0.5f, T.data()); // 8388607.5 -> even
  EXPECT_EQ(T, (Bytes{0x00, 0x00, 0x80, 0xab}));
  EXPECT_EQ(readDepth(Format::D24_UNORM_S8_UINT, T.data()),
            float(8388608.0 / 16777215.0));
  EXPECT_EQ(readStencil(Format::D24_UNORM_S8_UINT, T.data()), 0xab);
  // float(1/3) * (2^24 - 1) = 5592405.17
  writeDepth(Format::D24_UNORM_S8_UINT, 1.0f / 3.0f, T.data());
  EXPECT_EQ(T, (Bytes{0x55, 0x55, 0x55, 0xab}));
  writeStencil(Format::D24_UNORM_S8_UINT, 0x12, T.data());
  EXPECT_EQ(T, (Bytes{0x55, 0x55, 0x55, 0x12}));
  writeDepth(Format::D24_UNORM_S8_UINT, 7.0f, T.data());
  EXPECT_EQ(T, (Bytes{0xff, 0xff, 0xff, 0x12}));
  EXPECT_EQ(readDepth(Format::D24_UNORM_S8_UINT, T.data()), 1.0f);
  // X8_D24 keeps the X8 byte.
  Bytes X = {0, 0, 0, 0x7e};
  writeDepth(Format::X8_D24_UNORM_PACK32, 1.0f, X.data());
  EXPECT_EQ(X, (Bytes{0xff, 0xff, 0xff, 0x7e}));
  writeDepth(Format::X8_D24_UNORM_PACK32, -1.0f, X.data());
  EXPECT_EQ(X, (Bytes{0x00, 0x00, 0x00, 0x7e}));
  // 1e-7 * (2^24 - 1) = 1.68 -> 2.
  EXPECT_EQ(quantizeDepth(Format::X8_D24_UNORM_PACK32, 1e-7f),
            float(2.0 / 16777215.0));
}

TEST(OutputMerge, D32AndS8) {
  Bytes T = {1, 2, 3, 4, 5, 6, 7, 8};
  writeDepth(Format::D32_SFLOAT_S8_UINT, 0.3f, T.data());
  EXPECT_EQ(T, (Bytes{0x9a, 0x99, 0x99, 0x3e, 5, 6, 7, 8})); // 0x3e99999a
  EXPECT_EQ(readDepth(Format::D32_SFLOAT_S8_UINT, T.data()), 0.3f);
  EXPECT_EQ(readStencil(Format::D32_SFLOAT_S8_UINT, T.data()), 5);
  writeStencil(Format::D32_SFLOAT_S8_UINT, 0x5a, T.data());
  EXPECT_EQ(T, (Bytes{0x9a, 0x99, 0x99, 0x3e, 0x5a, 6, 7, 8}));
  // No clamping for float depth (the viewport's range is the
  // rasterizer's), and no quantization.
  Bytes D = {0, 0, 0, 0};
  writeDepth(Format::D32_SFLOAT, 1.5f, D.data());
  EXPECT_EQ(D, (Bytes{0x00, 0x00, 0xc0, 0x3f}));
  EXPECT_EQ(readDepth(Format::D32_SFLOAT, D.data()), 1.5f);
  EXPECT_EQ(quantizeDepth(Format::D32_SFLOAT, 0.3f), 0.3f);
  uint8_t S = 0;
  writeStencil(Format::S8_UINT, 0xc3, &S);
  EXPECT_EQ(S, 0xc3);
  EXPECT_EQ(readStencil(Format::S8_UINT, &S), 0xc3);
  Bytes S16 = {0x11, 0x22, 0x33, 0x44};
  EXPECT_EQ(readStencil(Format::D16_UNORM_S8_UINT, S16.data()), 0x33);
  writeStencil(Format::D16_UNORM_S8_UINT, 0x99, S16.data());
  EXPECT_EQ(S16, (Bytes{0x11, 0x22, 0x99, 0x44}));
}

// The layouts agree with the texel codec's (an independent reading of
// ImageFormats.def), and quantizeDepth is what a write then read gives.
TEST(OutputMerge, DepthStencilAgreeWithTheTexelCodec) {
  const Format Formats[] = {
      Format::D16_UNORM,         Format::X8_D24_UNORM_PACK32,
      Format::D32_SFLOAT,        Format::D16_UNORM_S8_UINT,
      Format::D24_UNORM_S8_UINT, Format::D32_SFLOAT_S8_UINT};
  std::mt19937 Rng(7);
  std::uniform_real_distribution<float> Dist(-0.1f, 1.1f);
  for (Format F : Formats) {
    SCOPED_TRACE(formatInfo(F)->Name);
    for (int I = 0; I < 2000; ++I) {
      float Z = Dist(Rng);
      uint8_t Ours[8] = {0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5, 0xa5};
      uint8_t Codec[8];
      std::memcpy(Codec, Ours, 8);
      writeDepth(F, Z, Ours);
      ASSERT_TRUE(encodeTexel(F, Float4{Z, 0, 0, 0}, Codec).ok());
      if (hasStencil(F)) {
        writeStencil(F, uint8_t(I), Ours);
        ASSERT_TRUE(
            encodeTexel(F, UInt4{uint32_t(I & 0xff), 0, 0, 0}, Codec).ok());
      }
      unsigned Size = formatInfo(F)->BlockBytes;
      // X8_D24's X8 bits: we keep them, the codec's encode is free there.
      if (F == Format::X8_D24_UNORM_PACK32)
        Ours[3] = Codec[3];
      ASSERT_EQ(std::memcmp(Ours, Codec, Size), 0) << Z;
      Float4 V;
      ASSERT_TRUE(decodeTexel(F, Codec, V).ok());
      EXPECT_EQ(readDepth(F, Ours), V[0]);
      EXPECT_EQ(quantizeDepth(F, Z), V[0]) << Z;
      EXPECT_EQ(quantizeDepth(F, quantizeDepth(F, Z)), quantizeDepth(F, Z));
    }
  }
}

// --- Colour: helpers --------------------------------------------------------

ColorValue floats(float R, float G, float B, float A) {
  ColorValue V;
  V.K = ColorValue::Kind::Float;
  V.F[0] = R, V.F[1] = G, V.F[2] = B, V.F[3] = A;
  return V;
}
ColorValue uints(uint32_t R, uint32_t G = 0, uint32_t B = 0, uint32_t A = 0) {
  ColorValue V;
  V.K = ColorValue::Kind::UInt;
  V.U[0] = R, V.U[1] = G, V.U[2] = B, V.U[3] = A;
  return V;
}
ColorValue ints(int32_t R, int32_t G = 0, int32_t B = 0, int32_t A = 0) {
  ColorValue V;
  V.K = ColorValue::Kind::SInt;
  V.I[0] = R, V.I[1] = G, V.I[2] = B, V.I[3] = A;
  return V;
}

ColorBlendAttachment blend(BlendFactor Src, BlendFactor Dst,
                           BlendOp Op = BlendOp::Add) {
  ColorBlendAttachment A;
  A.BlendEnable = true;
  A.SrcColor = A.SrcAlpha = Src;
  A.DstColor = A.DstAlpha = Dst;
  A.ColorOp = A.AlphaOp = Op;
  return A;
}

ColorMerger merger(Format F, const ColorBlendAttachment &A,
                   bool LogicOpEnable = false, LogicOp Op = LogicOp::Copy) {
  Result<ColorMerger> M = ColorMerger::create(F, A, LogicOpEnable, Op, 0);
  EXPECT_TRUE(M.ok()) << M.status().message();
  return M ? *M : ColorMerger();
}

/// Merges into a copy of Dst and returns it.
Bytes mergeInto(const ColorMerger &M, const ColorValue &Src, Bytes Dst,
                const ColorValue *Src1 = nullptr,
                std::array<float, 4> Constants = {0, 0, 0, 0}) {
  M.merge(Src, Src1, Constants, Dst.data());
  return Dst;
}

Bytes floatBytes(std::array<float, 4> V) {
  Bytes B(16);
  std::memcpy(B.data(), V.data(), 16);
  return B;
}
std::array<float, 4> bytesToFloats(const Bytes &B) {
  std::array<float, 4> V;
  std::memcpy(V.data(), B.data(), 16);
  return V;
}

const BlendFactor AllFactors[] = {
    BlendFactor::Zero,
    BlendFactor::One,
    BlendFactor::SrcColor,
    BlendFactor::OneMinusSrcColor,
    BlendFactor::DstColor,
    BlendFactor::OneMinusDstColor,
    BlendFactor::SrcAlpha,
    BlendFactor::OneMinusSrcAlpha,
    BlendFactor::DstAlpha,
    BlendFactor::OneMinusDstAlpha,
    BlendFactor::ConstantColor,
    BlendFactor::OneMinusConstantColor,
    BlendFactor::ConstantAlpha,
    BlendFactor::OneMinusConstantAlpha,
    BlendFactor::SrcAlphaSaturate,
    BlendFactor::Src1Color,
    BlendFactor::OneMinusSrc1Color,
    BlendFactor::Src1Alpha,
    BlendFactor::OneMinusSrc1Alpha,
};

// --- Colour: blending -------------------------------------------------------

// S = (.5, .25, .75, .75), D = (.25, .5, 1, .375), constants (.125, .375,
// .625, .875), Src1 = (.0625, .125, .5, .375): every product is exact.
// Each factor as the source factor (destination Zero: S * f) and as the
// destination factor (source Zero: D * f).
TEST(OutputMerge, EveryBlendFactorOnAFloatFormat) {
  const ColorValue S = floats(0.5f, 0.25f, 0.75f, 0.75f);
  const ColorValue S1 = floats(0.0625f, 0.125f, 0.5f, 0.375f);
  const Bytes D = floatBytes({0.25f, 0.5f, 1.0f, 0.375f});
  const std::array<float, 4> K = {0.125f, 0.375f, 0.625f, 0.875f};
  const std::array<float, 4> SrcSide[] = {
      {0, 0, 0, 0},                        // Zero
      {0.5, 0.25, 0.75, 0.75},             // One
      {0.25, 0.0625, 0.5625, 0.5625},      // SrcColor
      {0.25, 0.1875, 0.1875, 0.1875},      // OneMinusSrcColor
      {0.125, 0.125, 0.75, 0.28125},       // DstColor
      {0.375, 0.125, 0, 0.46875},          // OneMinusDstColor
      {0.375, 0.1875, 0.5625, 0.5625},     // SrcAlpha (.75)
      {0.125, 0.0625, 0.1875, 0.1875},     // OneMinusSrcAlpha (.25)
      {0.1875, 0.09375, 0.28125, 0.28125}, // DstAlpha (.375)
      {0.3125, 0.15625, 0.46875, 0.46875}, // OneMinusDstAlpha (.625)
      {0.0625, 0.09375, 0.46875, 0.65625}, // ConstantColor
      {0.4375, 0.15625, 0.28125, 0.09375}, // OneMinusConstantColor
      {0.4375, 0.21875, 0.65625, 0.65625}, // ConstantAlpha (.875)
      {0.0625, 0.03125, 0.09375, 0.09375}, // OneMinusConstantAlpha (.125)
      {0.3125, 0.15625, 0.46875, 0.75},   // SrcAlphaSaturate: min(.75, .625); 1
      {0.03125, 0.03125, 0.375, 0.28125}, // Src1Color
      {0.46875, 0.21875, 0.375, 0.46875}, // OneMinusSrc1Color
      {0.1875, 0.09375, 0.28125, 0.28125}, // Src1Alpha (.375)
      {0.3125, 0.15625, 0.46875, 0.46875}, // OneMinusSrc1Alpha (.625)
  };
  const std::array<float, 4> DstSide[] = {
      {0, 0, 0, 0},                       // Zero
      {0.25, 0.5, 1, 0.375},              // One
      {0.125, 0.125, 0.75, 0.28125},      // SrcColor
      {0.125, 0.375, 0.25, 0.09375},      // OneMinusSrcColor
      {0.0625, 0.25, 1, 0.140625},        // DstColor
      {0.1875, 0.25, 0, 0.234375},        // OneMinusDstColor
      {0.1875, 0.375, 0.75, 0.28125},     // SrcAlpha
      {0.0625, 0.125, 0.25, 0.09375},     // OneMinusSrcAlpha
      {0.09375, 0.1875, 0.375, 0.140625}, // DstAlpha
      {0.15625, 0.3125, 0.625, 0.234375}, // OneMinusDstAlpha
      {0.03125, 0.1875, 0.625, 0.328125}, // ConstantColor
      {0.21875, 0.3125, 0.375, 0.046875}, // OneMinusConstantColor
      {0.21875, 0.4375, 0.875, 0.328125}, // ConstantAlpha
      {0.03125, 0.0625, 0.125, 0.046875}, // OneMinusConstantAlpha
      {0.15625, 0.3125, 0.625, 0.375},    // SrcAlphaSaturate
      {0.015625, 0.0625, 0.5, 0.140625},  // Src1Color
      {0.234375, 0.4375, 0.5, 0.234375},  // OneMinusSrc1Color
      {0.09375, 0.1875, 0.375, 0.140625}, // Src1Alpha
      {0.15625, 0.3125, 0.625, 0.234375}, // OneMinusSrc1Alpha
  };
  for (unsigned I = 0; I < std::size(AllFactors); ++I) {
    SCOPED_TRACE("factor " + std::to_string(I));
    ColorMerger AsSrc = merger(Format::R32G32B32A32_SFLOAT,
                               blend(AllFactors[I], BlendFactor::Zero));
    EXPECT_EQ(bytesToFloats(mergeInto(AsSrc, S, D, &S1, K)), SrcSide[I]);
    ColorMerger AsDst = merger(Format::R32G32B32A32_SFLOAT,
                               blend(BlendFactor::Zero, AllFactors[I]));
    EXPECT_EQ(bytesToFloats(mergeInto(AsDst, S, D, &S1, K)), DstSide[I]);
  }
}

// S * .75 (SrcAlpha) and D * .25 (OneMinusSrcAlpha) combined by each op;
// Min and Max ignore the factors.
TEST(OutputMerge, EveryBlendOpOnAFloatFormat) {
  const ColorValue S = floats(0.5f, 0.25f, 0.75f, 0.75f);
  const Bytes D = floatBytes({0.25f, 0.5f, 1.0f, 0.375f});
  struct Row {
    BlendOp Op;
    std::array<float, 4> Expected;
  } Rows[] = {
      {BlendOp::Add, {0.4375, 0.3125, 0.8125, 0.65625}},
      {BlendOp::Subtract, {0.3125, 0.0625, 0.3125, 0.46875}},
      {BlendOp::ReverseSubtract, {-0.3125, -0.0625, -0.3125, -0.46875}},
      {BlendOp::Min, {0.25, 0.25, 0.75, 0.375}},
      {BlendOp::Max, {0.5, 0.5, 1, 0.75}},
  };
  for (const Row &R : Rows) {
    ColorMerger M = merger(
        Format::R32G32B32A32_SFLOAT,
        blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha, R.Op));
    EXPECT_EQ(bytesToFloats(mergeInto(M, S, D)), R.Expected)
        << "op " << uint32_t(R.Op);
  }
  // The colour and alpha equations are separate.
  ColorBlendAttachment A =
      blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha);
  A.AlphaOp = BlendOp::Max;
  EXPECT_EQ(
      bytesToFloats(mergeInto(merger(Format::R32G32B32A32_SFLOAT, A), S, D)),
      (std::array<float, 4>{0.4375, 0.3125, 0.8125, 0.75}));
  A = blend(BlendFactor::One, BlendFactor::Zero);
  A.SrcAlpha = BlendFactor::Zero;
  A.DstAlpha = BlendFactor::One;
  EXPECT_EQ(
      bytesToFloats(mergeInto(merger(Format::R32G32B32A32_SFLOAT, A), S, D)),
      (std::array<float, 4>{0.5, 0.25, 0.75, 0.375}));
}

TEST(OutputMerge, FloatFormatsDoNotClamp) {
  ColorMerger M = merger(Format::R32G32B32A32_SFLOAT,
                         blend(BlendFactor::One, BlendFactor::One));
  EXPECT_EQ(bytesToFloats(mergeInto(M, floats(2.0f, -3.0f, 0.5f, 8.0f),
                                    floatBytes({1.5f, 0.5f, -4.0f, 1.0f}),
                                    nullptr, {4, 4, 4, 4})),
            (std::array<float, 4>{3.5f, -2.5f, -3.5f, 9.0f}));
  // Constants are not clamped either: 3 * 0.5.
  ColorMerger C = merger(Format::R32G32B32A32_SFLOAT,
                         blend(BlendFactor::ConstantColor, BlendFactor::Zero));
  EXPECT_EQ(bytesToFloats(mergeInto(C, floats(0.5f, 0.5f, 0.5f, 0.5f),
                                    floatBytes({0, 0, 0, 0}), nullptr,
                                    {3, -2, 0.5f, 1})),
            (std::array<float, 4>{1.5f, -1.0f, 0.25f, 0.5f}));
}

// S = (.75, .52, .08, .09), D = bytes (212, 132, 114, 152), constants
// (.53, .22, .49, .70), Src1 = (.89, .88, .23, .38): exact values worked
// out with fractions, rounded to nearest (none is within 0.05 of a tie).
TEST(OutputMerge, EveryBlendFactorOnUNorm) {
  const ColorValue S = floats(0.75f, 0.52f, 0.08f, 0.09f);
  const ColorValue S1 = floats(0.89f, 0.88f, 0.23f, 0.38f);
  const Bytes D = {212, 132, 114, 152};
  const std::array<float, 4> K = {0.53f, 0.22f, 0.49f, 0.70f};
  const Bytes SrcSide[] = {
      {0, 0, 0, 0},       // Zero
      {191, 133, 20, 23}, // One: 191.25, 132.6, 20.4, 22.95
      {143, 69, 2, 2},    // SrcColor
      {48, 64, 19, 21},   // OneMinusSrcColor
      {159, 69, 9, 14},   // DstColor
      {32, 64, 11, 9},    // OneMinusDstColor
      {17, 12, 2, 2},     // SrcAlpha
      {174, 121, 19, 21}, // OneMinusSrcAlpha
      {114, 79, 12, 14},  // DstAlpha
      {77, 54, 8, 9},     // OneMinusDstAlpha
      {101, 29, 10, 16},  // ConstantColor
      {90, 103, 10, 7},   // OneMinusConstantColor
      {134, 93, 14, 16},  // ConstantAlpha
      {57, 40, 6, 7},     // OneMinusConstantAlpha
      {17, 12, 2, 23},    // SrcAlphaSaturate: min(.09, 1 - 152/255); 1
      {170, 117, 5, 9},   // Src1Color
      {21, 16, 16, 14},   // OneMinusSrc1Color
      {73, 50, 8, 9},     // Src1Alpha
      {119, 82, 13, 14},  // OneMinusSrc1Alpha
  };
  const Bytes DstSide[] = {
      {0, 0, 0, 0},         // Zero
      {212, 132, 114, 152}, // One
      {159, 69, 9, 14},     // SrcColor
      {53, 63, 105, 138},   // OneMinusSrcColor
      {176, 68, 51, 91},    // DstColor
      {36, 64, 63, 61},     // OneMinusDstColor
      {19, 12, 10, 14},     // SrcAlpha
      {193, 120, 104, 138}, // OneMinusSrcAlpha
      {126, 79, 68, 91},    // DstAlpha
      {86, 53, 46, 61},     // OneMinusDstAlpha
      {112, 29, 56, 106},   // ConstantColor
      {100, 103, 58, 46},   // OneMinusConstantColor
      {148, 92, 80, 106},   // ConstantAlpha
      {64, 40, 34, 46},     // OneMinusConstantAlpha
      {19, 12, 10, 152},    // SrcAlphaSaturate
      {189, 116, 26, 58},   // Src1Color
      {23, 16, 88, 94},     // OneMinusSrc1Color
      {81, 50, 43, 58},     // Src1Alpha
      {131, 82, 71, 94},    // OneMinusSrc1Alpha
  };
  for (unsigned I = 0; I < std::size(AllFactors); ++I) {
    SCOPED_TRACE("factor " + std::to_string(I));
    ColorMerger AsSrc =
        merger(Format::R8G8B8A8_UNORM, blend(AllFactors[I], BlendFactor::Zero));
    EXPECT_EQ(mergeInto(AsSrc, S, D, &S1, K), SrcSide[I]);
    ColorMerger AsDst =
        merger(Format::R8G8B8A8_UNORM, blend(BlendFactor::Zero, AllFactors[I]));
    EXPECT_EQ(mergeInto(AsDst, S, D, &S1, K), DstSide[I]);
  }
}

TEST(OutputMerge, EveryBlendOpOnUNorm) {
  // One/One: S * 255 = (191.25, 132.6, 20.4, 22.95), D as stored; results
  // clamp to [0, 1].
  const ColorValue S = floats(0.75f, 0.52f, 0.08f, 0.09f);
  const Bytes D = {212, 132, 114, 152};
  struct Row {
    BlendOp Op;
    Bytes Expected;
  } Rows[] = {
      {BlendOp::Add, {255, 255, 134, 175}},
      {BlendOp::Subtract, {0, 1, 0, 0}},
      {BlendOp::ReverseSubtract, {21, 0, 94, 129}},
      {BlendOp::Min, {191, 132, 20, 23}},
      {BlendOp::Max, {212, 133, 114, 152}},
  };
  for (const Row &R : Rows) {
    ColorMerger M = merger(Format::R8G8B8A8_UNORM,
                           blend(BlendFactor::One, BlendFactor::One, R.Op));
    EXPECT_EQ(mergeInto(M, S, D), R.Expected) << "op " << uint32_t(R.Op);
  }
  // The usual "over": S * .09 + D * .91 = 210.13, 132.05, 105.58, 140.39.
  ColorMerger Over =
      merger(Format::R8G8B8A8_UNORM,
             blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha));
  EXPECT_EQ(mergeInto(Over, S, D), (Bytes{210, 132, 106, 140}));
}

TEST(OutputMerge, UNormClampsSourcesConstantsAndFactors) {
  // Sources clamp before blending: -.25 adds nothing (not -64/255), -1 on
  // alpha neither; 1.5 + 10/255 saturates.
  ColorMerger M =
      merger(Format::R8G8B8A8_UNORM, blend(BlendFactor::One, BlendFactor::One));
  EXPECT_EQ(
      mergeInto(M, floats(-0.25f, 0.2f, 1.5f, -1.0f), Bytes{128, 51, 10, 200}),
      (Bytes{128, 102, 255, 200}));
  // A source above 1 used as a destination factor counts as 1: D stays
  // 102 (not 153).
  ColorMerger F = merger(Format::R8G8B8A8_UNORM,
                         blend(BlendFactor::Zero, BlendFactor::SrcColor));
  EXPECT_EQ(mergeInto(F, floats(1.5f, 1.5f, 1.5f, 1.5f), Bytes{102, 0, 0, 0}),
            (Bytes{102, 0, 0, 0}));
  // Constants clamp: (2, -1, .5, .2) -> (1, 0, .5, .2), times .4.
  ColorMerger C = merger(Format::R8G8B8A8_UNORM,
                         blend(BlendFactor::ConstantColor, BlendFactor::Zero));
  EXPECT_EQ(mergeInto(C, floats(0.4f, 0.4f, 0.4f, 0.4f), Bytes{0, 0, 0, 0},
                      nullptr, {2.0f, -1.0f, 0.5f, 0.2f}),
            (Bytes{102, 0, 51, 20}));
  // Without blending the source still converts with clamping (and .5 *
  // 255 = 127.5 rounds to even).
  ColorMerger Plain = merger(Format::R8G8B8A8_UNORM, ColorBlendAttachment());
  EXPECT_EQ(mergeInto(Plain, floats(1.5f, -0.5f, 0.5f, NaN), Bytes{1, 2, 3, 4}),
            (Bytes{255, 0, 128, 0}));
}

TEST(OutputMerge, SNormClampsFactorsToMinusOneOne) {
  // OneMinusSrcColor of -.5 is 1.5 -> 1: -.5 * 127 = -63.5 -> -64 (0xc0),
  // not -.75 * 127 = -95. G: -2 clamps to -1, its factor 2 to 1: -127.
  ColorMerger M =
      merger(Format::R8G8_SNORM,
             blend(BlendFactor::OneMinusSrcColor, BlendFactor::Zero));
  EXPECT_EQ(mergeInto(M, floats(-0.5f, -2.0f, 0, 0), Bytes{0, 0}),
            (Bytes{0xc0, 0x81}));
  // Destination -128 reads as -1: One/One with .25 gives -.75 -> -95.25.
  ColorMerger Add =
      merger(Format::R8_SNORM, blend(BlendFactor::One, BlendFactor::One));
  EXPECT_EQ(mergeInto(Add, floats(0.25f, 0, 0, 0), Bytes{0x80}),
            (Bytes{uint8_t(-95)}));
}

TEST(OutputMerge, SRGBBlendsInLinear) {
  // Stores encode: linear .5 -> 187.52, .25 -> 136.96, .1 -> 89.04; alpha
  // is linear (127.5 -> 128).
  ColorMerger Plain = merger(Format::R8G8B8A8_SRGB, ColorBlendAttachment());
  EXPECT_EQ(
      mergeInto(Plain, floats(0.5f, 0.25f, 0.1f, 0.5f), Bytes{0, 0, 0, 0}),
      (Bytes{188, 137, 89, 128}));
  // The destination is linearized: 1 * DstColor gives the stored 128
  // back (188 if it were blended in sRGB space).
  ColorMerger Dst = merger(Format::R8G8B8A8_SRGB,
                           blend(BlendFactor::DstColor, BlendFactor::Zero));
  EXPECT_EQ(mergeInto(Dst, floats(1, 1, 1, 1), Bytes{128, 128, 128, 128}),
            (Bytes{128, 128, 128, 128}));
  // 128 is .21586 linear; + .25 = .46586 -> 181.66. Alpha: 191.75.
  ColorMerger Add =
      merger(Format::R8G8B8A8_SRGB, blend(BlendFactor::One, BlendFactor::One));
  EXPECT_EQ(mergeInto(Add, floats(0.25f, 0.25f, 0.25f, 0.25f),
                      Bytes{128, 128, 128, 128}),
            (Bytes{182, 182, 182, 192}));
  // Half of 64 (.05127 linear) is 44.43 encoded, not 32 nor 99.
  ColorMerger Half =
      merger(Format::B8G8R8A8_SRGB,
             blend(BlendFactor::Zero, BlendFactor::ConstantColor));
  EXPECT_EQ(mergeInto(Half, floats(0, 0, 0, 0), Bytes{64, 64, 64, 64}, nullptr,
                      {0.5f, 0.5f, 0.5f, 0.5f}),
            (Bytes{44, 44, 44, 32}));
  // Sources clamp to [0, 1] as for UNORM: D * SrcColor with a source of 2
  // keeps D (doubling .21586 would give 175).
  ColorMerger Clamp = merger(Format::R8G8B8A8_SRGB,
                             blend(BlendFactor::Zero, BlendFactor::SrcColor));
  EXPECT_EQ(mergeInto(Clamp, floats(2, 2, 2, 2), Bytes{128, 128, 128, 128}),
            (Bytes{128, 128, 128, 128}));
}

TEST(OutputMerge, DestinationWithoutAlphaHasAlphaOne) {
  // R8G8B8: DstAlpha is 1, so the destination is kept: .2 * 0 + D * 1.
  ColorMerger M = merger(Format::R8G8B8_UNORM,
                         blend(BlendFactor::Zero, BlendFactor::DstAlpha));
  EXPECT_EQ(mergeInto(M, floats(0.2f, 0.2f, 0.2f, 0.2f), Bytes{10, 20, 30}),
            (Bytes{10, 20, 30}));
  // SrcAlphaSaturate: min(As, 1 - 1) = 0 for colour.
  ColorMerger Sat =
      merger(Format::R8G8B8_UNORM,
             blend(BlendFactor::SrcAlphaSaturate, BlendFactor::One));
  EXPECT_EQ(mergeInto(Sat, floats(1, 1, 1, 1), Bytes{10, 20, 30}),
            (Bytes{10, 20, 30}));
}

TEST(OutputMerge, IntegerFormatsIgnoreBlending) {
  ColorMerger M =
      merger(Format::R8G8B8A8_UINT, blend(BlendFactor::One, BlendFactor::One));
  EXPECT_FALSE(M.readsDestination());
  EXPECT_EQ(mergeInto(M, uints(5, 6, 7, 8), Bytes{1, 2, 3, 4}),
            (Bytes{5, 6, 7, 8}));
}

TEST(OutputMerge, IntegerOutputsSaturate) {
  ColorBlendAttachment None;
  EXPECT_EQ(
      mergeInto(merger(Format::R16_UINT, None), uints(65536), Bytes{0, 0}),
      (Bytes{0xff, 0xff}));
  EXPECT_EQ(
      mergeInto(merger(Format::R16_UINT, None), uints(65534), Bytes{0, 0}),
      (Bytes{0xfe, 0xff}));
  EXPECT_EQ(mergeInto(merger(Format::R8_SINT, None), ints(-200), Bytes{0}),
            (Bytes{0x80}));
  EXPECT_EQ(mergeInto(merger(Format::R8_SINT, None), ints(200), Bytes{0}),
            (Bytes{0x7f}));
  EXPECT_EQ(mergeInto(merger(Format::R8_SINT, None), ints(-3), Bytes{0}),
            (Bytes{0xfd}));
  // A signed output into an unsigned attachment: negative values give 0.
  EXPECT_EQ(mergeInto(merger(Format::R8_UINT, None), ints(-5), Bytes{9}),
            (Bytes{0}));
  EXPECT_EQ(mergeInto(merger(Format::R16G16_SINT, None), ints(-40000, 40000),
                      Bytes{0, 0, 0, 0}),
            (Bytes{0x00, 0x80, 0xff, 0x7f}));
  EXPECT_EQ(mergeInto(merger(Format::R32_UINT, None), uints(0xffffffff),
                      Bytes{0, 0, 0, 0}),
            (Bytes{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(mergeInto(merger(Format::R32_SINT, None), ints(INT32_MIN),
                      Bytes{0, 0, 0, 0}),
            (Bytes{0x00, 0x00, 0x00, 0x80}));
  // A2B10G10R10_UINT: R is bits 0-9, alpha 30-31 (saturates at 3).
  EXPECT_EQ(mergeInto(merger(Format::A2B10G10R10_UINT_PACK32, None),
                      uints(1024, 0, 0, 7), Bytes{0, 0, 0, 0}),
            (Bytes{0xff, 0x03, 0x00, 0xc0}));
}

TEST(OutputMerge, MismatchedOutputTypesAreDeterministic) {
  // Undefined in Vulkan; documented here as "the bits, read as the
  // attachment's type".
  ColorBlendAttachment None;
  EXPECT_EQ(mergeInto(merger(Format::R32_UINT, None), floats(1, 0, 0, 0),
                      Bytes{0, 0, 0, 0}),
            (Bytes{0x00, 0x00, 0x80, 0x3f}));
  EXPECT_EQ(mergeInto(merger(Format::R32_SFLOAT, None), uints(0x3f800000),
                      Bytes{0, 0, 0, 0}),
            (Bytes{0x00, 0x00, 0x80, 0x3f}));
}

// --- Colour: logic ops ------------------------------------------------------

struct LogicRow {
  LogicOp Op;
  uint8_t Expected; // for source 0xcc, destination 0xaa
};
const LogicRow LogicRows[] = {
    {LogicOp::Clear, 0x00},        {LogicOp::And, 0x88},
    {LogicOp::AndReverse, 0x44},   {LogicOp::Copy, 0xcc},
    {LogicOp::AndInverted, 0x22},  {LogicOp::NoOp, 0xaa},
    {LogicOp::Xor, 0x66},          {LogicOp::Or, 0xee},
    {LogicOp::Nor, 0x11},          {LogicOp::Equivalent, 0x99},
    {LogicOp::Invert, 0x55},       {LogicOp::OrReverse, 0xdd},
    {LogicOp::CopyInverted, 0x33}, {LogicOp::OrInverted, 0xbb},
    {LogicOp::Nand, 0x77},         {LogicOp::Set, 0xff},
};

TEST(OutputMerge, EveryLogicOpOnUNorm) {
  // 204/255 encodes to 0xcc exactly. Blending is off under a logic op.
  const float S = 204.0f / 255.0f;
  for (const LogicRow &R : LogicRows) {
    ColorMerger M =
        merger(Format::R8G8B8A8_UNORM,
               blend(BlendFactor::One, BlendFactor::One), true, R.Op);
    uint8_t E = R.Expected;
    EXPECT_EQ(mergeInto(M, floats(S, S, S, S), Bytes{0xaa, 0xaa, 0xaa, 0xaa}),
              (Bytes{E, E, E, E}))
        << "op " << uint32_t(R.Op);
  }
}

TEST(OutputMerge, EveryLogicOpOnUInt) {
  for (const LogicRow &R : LogicRows) {
    ColorMerger M =
        merger(Format::R32_UINT, ColorBlendAttachment(), true, R.Op);
    uint8_t E = R.Expected;
    EXPECT_EQ(mergeInto(M, uints(0xcccccccc), Bytes{0xaa, 0xaa, 0xaa, 0xaa}),
              (Bytes{E, E, E, E}))
        << "op " << uint32_t(R.Op);
    bool Reads = R.Op != LogicOp::Clear && R.Op != LogicOp::Copy &&
                 R.Op != LogicOp::CopyInverted && R.Op != LogicOp::Set;
    EXPECT_EQ(M.readsDestination(), Reads) << "op " << uint32_t(R.Op);
  }
}

TEST(OutputMerge, LogicOpsOnSNormUseTheEncodedBits) {
  // -1 encodes to 0x81; 0x81 ^ 0x7f = 0xfe.
  ColorMerger M =
      merger(Format::R8_SNORM, ColorBlendAttachment(), true, LogicOp::Xor);
  EXPECT_EQ(mergeInto(M, floats(-1, 0, 0, 0), Bytes{0x7f}), (Bytes{0xfe}));
}

TEST(OutputMerge, FloatAndSRGBIgnoreLogicOpsAndDoNotBlend) {
  // Xor would change the bits; blending (One/One) would give .75.
  ColorMerger F =
      merger(Format::R32_SFLOAT, blend(BlendFactor::One, BlendFactor::One),
             true, LogicOp::Xor);
  EXPECT_FALSE(F.readsDestination());
  EXPECT_EQ(mergeInto(F, floats(0.5f, 0, 0, 0), Bytes{0, 0, 0x80, 0x3e}),
            (Bytes{0x00, 0x00, 0x00, 0x3f}));
  ColorMerger S =
      merger(Format::R8G8B8A8_SRGB, blend(BlendFactor::One, BlendFactor::One),
             true, LogicOp::Clear);
  EXPECT_EQ(mergeInto(S, floats(0.5f, 0.25f, 0.1f, 0.5f), Bytes{9, 9, 9, 9}),
            (Bytes{188, 137, 89, 128}));
}

// --- Colour: write masks ----------------------------------------------------

TEST(OutputMerge, WriteMasksKeepTheOtherComponents) {
  ColorBlendAttachment A;
  A.WriteMask = ColorComponentR | ColorComponentB;
  ColorMerger M = merger(Format::R8G8B8A8_UNORM, A);
  EXPECT_TRUE(M.readsDestination());
  EXPECT_EQ(mergeInto(M, floats(1, 1, 1, 1), Bytes{0x10, 0x20, 0x30, 0x40}),
            (Bytes{0xff, 0x20, 0xff, 0x40}));
  // B8G8R8A8: R is the third byte.
  A.WriteMask = ColorComponentR;
  EXPECT_EQ(mergeInto(merger(Format::B8G8R8A8_UNORM, A), floats(1, 1, 1, 1),
                      Bytes{0x10, 0x20, 0x30, 0x40}),
            (Bytes{0x10, 0x20, 0xff, 0x40}));
  // R5G6B5: G is bits 5-10.
  A.WriteMask = ColorComponentG;
  EXPECT_EQ(mergeInto(merger(Format::R5G6B5_UNORM_PACK16, A),
                      floats(1, 1, 1, 1), Bytes{0x00, 0x00}),
            (Bytes{0xe0, 0x07}));
  // RGBA32F: alpha alone.
  A.WriteMask = ColorComponentA;
  EXPECT_EQ(
      bytesToFloats(mergeInto(merger(Format::R32G32B32A32_SFLOAT, A),
                              floats(5, 6, 7, 8), floatBytes({1, 2, 3, 4}))),
      (std::array<float, 4>{1, 2, 3, 8}));
  // With a logic op: only G's bits change (0xcc ^ 0xaa).
  A.WriteMask = ColorComponentG;
  EXPECT_EQ(mergeInto(merger(Format::R8G8_UINT, A, true, LogicOp::Xor),
                      uints(0xcc, 0xcc), Bytes{0xaa, 0xaa}),
            (Bytes{0xaa, 0x66}));
  // With blending: B keeps its bits, the rest blend (One/One).
  A = blend(BlendFactor::One, BlendFactor::One);
  A.WriteMask = ColorComponentR | ColorComponentG | ColorComponentA;
  EXPECT_EQ(mergeInto(merger(Format::R8G8B8A8_UNORM, A),
                      floats(0.2f, 0.2f, 0.2f, 0.2f), Bytes{51, 51, 51, 51}),
            (Bytes{102, 102, 51, 102}));
}

TEST(OutputMerge, MasksCoveringEveryComponentDoNotRead) {
  ColorBlendAttachment A;
  A.WriteMask = ColorComponentR | ColorComponentG;
  ColorMerger M = merger(Format::R8G8_UNORM, A); // B and A do not exist
  EXPECT_FALSE(M.readsDestination());
  EXPECT_TRUE(M.writes());
  A.WriteMask = 0;
  ColorMerger None = merger(Format::R8G8B8A8_UNORM, A);
  EXPECT_FALSE(None.writes());
  EXPECT_FALSE(None.readsDestination());
  EXPECT_EQ(mergeInto(None, floats(1, 1, 1, 1), Bytes{1, 2, 3, 4}),
            (Bytes{1, 2, 3, 4}));
  // A default merger (an unused location) writes nothing either.
  EXPECT_EQ(mergeInto(ColorMerger(), floats(1, 1, 1, 1), Bytes{1, 2, 3, 4}),
            (Bytes{1, 2, 3, 4}));
}

// --- Colour: what the rasterizer asks ---------------------------------------

TEST(OutputMerge, ReadsDestinationAndUsesSrc1) {
  ColorBlendAttachment Plain;
  EXPECT_FALSE(merger(Format::R8G8B8A8_UNORM, Plain).readsDestination());
  EXPECT_TRUE(
      merger(Format::R8G8B8A8_UNORM,
             blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha))
          .readsDestination());
  // A Zero destination factor on a normalized format: the destination
  // term is 0 whatever it holds.
  EXPECT_FALSE(merger(Format::R8G8B8A8_UNORM,
                      blend(BlendFactor::SrcColor, BlendFactor::Zero))
                   .readsDestination());
  EXPECT_TRUE(merger(Format::R8G8B8A8_UNORM,
                     blend(BlendFactor::DstColor, BlendFactor::Zero))
                  .readsDestination());
  EXPECT_TRUE(merger(Format::R8G8B8A8_UNORM,
                     blend(BlendFactor::One, BlendFactor::Zero, BlendOp::Min))
                  .readsDestination());
  // On a float format Inf * 0 is NaN, so the destination matters.
  EXPECT_TRUE(merger(Format::R32G32B32A32_SFLOAT,
                     blend(BlendFactor::One, BlendFactor::Zero))
                  .readsDestination());
  ColorMerger Keep = merger(Format::R32G32B32A32_SFLOAT,
                            blend(BlendFactor::One, BlendFactor::Zero));
  EXPECT_TRUE(std::isnan(bytesToFloats(
      mergeInto(Keep, floats(1, 1, 1, 1), floatBytes({Inf, 0, 0, 0})))[0]));
  EXPECT_TRUE(merger(Format::R8G8B8A8_UNORM,
                     blend(BlendFactor::Src1Color, BlendFactor::Zero))
                  .usesSrc1());
  ColorBlendAttachment A = blend(BlendFactor::One, BlendFactor::Zero);
  A.DstAlpha = BlendFactor::OneMinusSrc1Alpha;
  EXPECT_TRUE(merger(Format::R8G8B8A8_UNORM, A).usesSrc1());
  A.AlphaOp = BlendOp::Max; // factors ignored
  EXPECT_FALSE(merger(Format::R8G8B8A8_UNORM, A).usesSrc1());
  EXPECT_FALSE(merger(Format::R8G8B8A8_UNORM,
                      blend(BlendFactor::SrcAlpha, BlendFactor::One))
                   .usesSrc1());
  EXPECT_FALSE(
      merger(Format::R32_UINT, blend(BlendFactor::Src1Color, BlendFactor::Zero))
          .usesSrc1());
  ColorBlendAttachment Off = blend(BlendFactor::Src1Color, BlendFactor::Zero);
  Off.BlendEnable = false;
  EXPECT_FALSE(merger(Format::R8G8B8A8_UNORM, Off).usesSrc1());
}

TEST(OutputMerge, CreateRejectsWhatCannotBeAColourAttachment) {
  struct Row {
    Format F;
    const char *Message;
  } Rows[] = {
      {Format::D16_UNORM,
       "colour attachment 3: D16_UNORM is a depth/stencil format, not a "
       "colour format"},
      {Format::S8_UINT,
       "colour attachment 3: S8_UINT is a depth/stencil format, not a colour "
       "format"},
      {Format::BC1_RGB_UNORM_BLOCK,
       "colour attachment 3: BC1_RGB_UNORM_BLOCK is block-compressed: it "
       "cannot be a colour attachment"},
      {Format::E5B9G9R9_UFLOAT_PACK32,
       "colour attachment 3: E5B9G9R9_UFLOAT_PACK32 (shared exponent) cannot "
       "be a colour attachment"},
      {Format::R8G8_USCALED,
       "colour attachment 3: R8G8_USCALED: scaled formats cannot be colour "
       "attachments"},
      {Format::R64G64_SFLOAT,
       "colour attachment 3: R64G64_SFLOAT: 64-bit formats cannot be colour "
       "attachments"},
      {Format::UNDEFINED, "colour attachment 3: unknown format 0"},
      {Format(99999), "colour attachment 3: unknown format 99999"},
  };
  for (const Row &R : Rows) {
    Result<ColorMerger> M = ColorMerger::create(R.F, ColorBlendAttachment(),
                                                false, LogicOp::Copy, 3);
    ASSERT_FALSE(M.ok());
    EXPECT_EQ(M.status().message(), R.Message);
    EXPECT_EQ(M.status().code(), StatusCode::InvalidArgument);
  }
}

TEST(OutputMerge, CreateRejectsBadEnumsWhereTheyApply) {
  ColorBlendAttachment A = blend(BlendFactor(19), BlendFactor::Zero);
  Result<ColorMerger> M =
      ColorMerger::create(Format::R8G8B8A8_UNORM, A, false, LogicOp::Copy, 1);
  ASSERT_FALSE(M.ok());
  EXPECT_EQ(M.status().message(), "colour attachment 1: source colour blend "
                                  "factor 19 is not a Vulkan blend factor");
  // Unused when blending is off.
  A.BlendEnable = false;
  EXPECT_TRUE(
      ColorMerger::create(Format::R8G8B8A8_UNORM, A, false, LogicOp::Copy, 1)
          .ok());
  A = blend(BlendFactor::One, BlendFactor::Zero);
  A.AlphaOp = BlendOp(1000148000); // VK_BLEND_OP_ZERO_EXT
  M = ColorMerger::create(Format::R8G8B8A8_UNORM, A, false, LogicOp::Copy, 0);
  ASSERT_FALSE(M.ok());
  EXPECT_EQ(M.status().message(),
            "colour attachment 0: alpha blend op 1000148000 is not supported "
            "(only Add, Subtract, ReverseSubtract, Min and Max; no advanced "
            "blend ops)");
  M = ColorMerger::create(Format::R8G8B8A8_UNORM, ColorBlendAttachment(), true,
                          LogicOp(16), 2);
  ASSERT_FALSE(M.ok());
  EXPECT_EQ(M.status().message(),
            "colour attachment 2: logic op 16 is not a Vulkan logic op");
  A = ColorBlendAttachment();
  A.WriteMask = 0x1f;
  M = ColorMerger::create(Format::R8G8B8A8_UNORM, A, false, LogicOp::Copy, 0);
  ASSERT_FALSE(M.ok());
  EXPECT_EQ(M.status().message(), "colour attachment 0: write mask 31 has "
                                  "bits other than R, G, B and A (1, 2, 4, 8)");
}

// --- Colour: every format against the texel codec ---------------------------

/// Whether create() accepts F: everything but compressed, depth/stencil,
/// shared-exponent, 64-bit and scaled formats.
bool colourAttachable(const FormatInfo &I) {
  NumericKind N = I.Components[0].Numeric;
  return !I.isCompressed() && !I.hasDepth() && !I.hasStencil() &&
         I.Layout != LayoutKind::SharedExponent && !I.has64BitComponents() && N != NumericKind::UScaled &&
         N != NumericKind::SScaled;
}

// Stores write what encodeTexel writes (normalized formats clamp, integers
// in range are exact), and the destination reads as decodeTexel reads it:
// D * 1 - S * 0 with S = 0 is D, so a blend stores encode(decode(D)).
TEST(OutputMerge, EveryColourFormatConvertsAsTheTexelCodec) {
  std::mt19937 Rng(3);
  std::uniform_real_distribution<float> Dist(-1.5f, 1.5f);
  std::uniform_int_distribution<uint32_t> Bits;
  unsigned Checked = 0;
  for (const FormatInfo &I : allFormats()) {
    SCOPED_TRACE(I.Name);
    Result<ColorMerger> M = ColorMerger::create(I.Fmt, ColorBlendAttachment(),
                                                false, LogicOp::Copy, 0);
    ASSERT_EQ(M.ok(), colourAttachable(I)) << M.status().message();
    if (!M)
      continue;
    ++Checked;
    ColorBlendAttachment Keep =
        blend(BlendFactor::Zero, BlendFactor::One, BlendOp::ReverseSubtract);
    Result<ColorMerger> K =
        ColorMerger::create(I.Fmt, Keep, false, LogicOp::Copy, 0);
    ASSERT_TRUE(K.ok());
    unsigned Size = I.BlockBytes;
    for (int N = 0; N < 500; ++N) {
      uint8_t Got[16] = {}, Want[16] = {};
      switch (I.view()) {
      case ViewKind::Float: {
        Float4 V = {Dist(Rng), Dist(Rng), Dist(Rng), Dist(Rng)};
        M->merge(floats(V[0], V[1], V[2], V[3]), nullptr, {}, Got);
        ASSERT_TRUE(encodeTexel(I.Fmt, V, Want).ok());
        ASSERT_EQ(std::memcmp(Got, Want, Size), 0) << V[0] << " " << V[1];
        // The destination round trip.
        uint8_t D[16];
        for (uint8_t &B : D)
          B = uint8_t(Bits(Rng));
        Float4 DV;
        ASSERT_TRUE(decodeTexel(I.Fmt, D, DV).ok());
        if (std::isnan(DV[0]) || std::isnan(DV[1]) || std::isnan(DV[2]) ||
            std::isnan(DV[3]))
          break; // NaN payloads need not survive arithmetic
        ASSERT_TRUE(encodeTexel(I.Fmt, DV, Want).ok());
        std::memcpy(Got, D, 16);
        K->merge(floats(0, 0, 0, 0), nullptr, {}, Got);
        ASSERT_EQ(std::memcmp(Got, Want, Size), 0);
        break;
      }
      case ViewKind::UInt: {
        // In range of the narrowest component: no saturation.
        unsigned Narrowest = 32;
        for (unsigned C = 0; C < I.NumComponents; ++C)
          Narrowest = std::min<unsigned>(Narrowest, I.Components[C].Bits);
        uint32_t Mask = Narrowest == 32 ? ~0u : (1u << Narrowest) - 1;
        UInt4 V = {Bits(Rng) & Mask, Bits(Rng) & Mask, Bits(Rng) & Mask,
                   Bits(Rng) & Mask};
        M->merge(uints(V[0], V[1], V[2], V[3]), nullptr, {}, Got);
        ASSERT_TRUE(encodeTexel(I.Fmt, V, Want).ok());
        ASSERT_EQ(std::memcmp(Got, Want, Size), 0);
        break;
      }
      case ViewKind::SInt: {
        unsigned Narrowest = 32;
        for (unsigned C = 0; C < I.NumComponents; ++C)
          Narrowest = std::min<unsigned>(Narrowest, I.Components[C].Bits);
        Int4 V;
        for (int32_t &C : V)
          C = int32_t(Bits(Rng)) >> (32 - Narrowest);
        M->merge(ints(V[0], V[1], V[2], V[3]), nullptr, {}, Got);
        ASSERT_TRUE(encodeTexel(I.Fmt, V, Want).ok());
        ASSERT_EQ(std::memcmp(Got, Want, Size), 0);
        break;
      }
      }
    }
  }
  EXPECT_GE(Checked, 80u); // 86 of the table's formats today
}

// --- Colour: the specialized paths against the generic one ------------------

/// Source values that hit the conversions' edges: exact 8-bit values,
/// ties and their neighbours, out of range, NaN, infinities, signed zero,
/// half-float overflow and denormals; then random values.
std::vector<float> edgeFloats() {
  std::vector<float> V = {
      0.0f,     -0.0f,    1.0f,
      -1.0f,    0.5f,     2.0f,
      NaN,      Inf,      -Inf,
      65504.0f, 65520.0f, 1e-8f,
      6e-5f,    -1e-30f,  std::numeric_limits<float>::denorm_min()};
  for (int K = 0; K < 256; ++K)
    for (float X : {float(K) / 255.0f, (float(K) + 0.5f) / 255.0f}) {
      V.push_back(X);
      V.push_back(std::nextafter(X, 2.0f));
      V.push_back(std::nextafter(X, -1.0f));
    }
  return V;
}

/// Runs the fast merger and the generic one on the same inputs and
/// compares the texels.
void expectSameAsGeneric(Format F, const ColorBlendAttachment &A) {
  Result<ColorMerger> Fast = ColorMerger::create(F, A, false, LogicOp::Copy, 0);
  Result<ColorMerger> Slow =
      ColorMerger::createGeneric(F, A, false, LogicOp::Copy, 0);
  ASSERT_TRUE(Fast.ok() && Slow.ok());
  ASSERT_TRUE(Fast->isSpecialized()) << formatInfo(F)->Name;
  ASSERT_FALSE(Slow->isSpecialized());
  EXPECT_EQ(Fast->readsDestination(), Slow->readsDestination());
  unsigned Size = formatInfo(F)->BlockBytes;
  std::vector<float> Edge = edgeFloats();
  std::mt19937 Rng(42);
  std::uniform_real_distribution<float> Unit(-0.25f, 1.25f);
  std::uniform_int_distribution<uint32_t> Bits;
  std::array<float, 4> K = {0.5f, 0.5f, 0.5f, 0.5f};
  for (unsigned I = 0; I < 200000; ++I) {
    ColorValue S;
    for (unsigned C = 0; C < 4; ++C) {
      uint32_t Pick = Bits(Rng);
      S.F[C] = Pick % 4 == 0   ? Edge[(Pick >> 2) % Edge.size()]
               : Pick % 4 == 1 ? std::bit_cast<float>(Bits(Rng))
                               : Unit(Rng);
    }
    uint8_t Dst[16];
    for (unsigned B = 0; B < 16; B += 4) {
      uint32_t R = Bits(Rng);
      std::memcpy(Dst + B, &R, 4);
    }
    uint8_t A1[16], A2[16];
    std::memcpy(A1, Dst, 16);
    std::memcpy(A2, Dst, 16);
    Fast->merge(S, nullptr, K, A1);
    Slow->merge(S, nullptr, K, A2);
    ASSERT_EQ(std::memcmp(A1, A2, Size), 0)
        << formatInfo(F)->Name << " at " << I << ": " << S.F[0] << " " << S.F[1]
        << " " << S.F[2] << " " << S.F[3];
  }
}

TEST(OutputMerge, FastStoresMatchTheGenericPath) {
  for (Format F : {Format::R8G8B8A8_UNORM, Format::B8G8R8A8_UNORM,
                   Format::R32G32B32A32_SFLOAT, Format::R16G16B16A16_SFLOAT})
    expectSameAsGeneric(F, ColorBlendAttachment());
}

TEST(OutputMerge, FastBlendsMatchTheGenericPath) {
  ColorBlendAttachment Over =
      blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha);
  ColorBlendAttachment OverOne = Over;
  OverOne.SrcAlpha = BlendFactor::One;
  ColorBlendAttachment Premultiplied =
      blend(BlendFactor::One, BlendFactor::OneMinusSrcAlpha);
  ColorBlendAttachment Additive = blend(BlendFactor::One, BlendFactor::One);
  ColorBlendAttachment AdditiveAlpha =
      blend(BlendFactor::SrcAlpha, BlendFactor::One);
  for (Format F : {Format::R8G8B8A8_UNORM, Format::B8G8R8A8_UNORM})
    for (const ColorBlendAttachment &A :
         {Over, OverOne, Premultiplied, Additive, AdditiveAlpha})
      expectSameAsGeneric(F, A);
}

TEST(OutputMerge, EightBitConversionsMatchTheCodec) {
  // Every value near each code and each tie, through the fast store:
  // what floatToUNorm gives, in the right byte (B8G8R8A8 swaps R and B).
  ColorMerger Rgba = merger(Format::R8G8B8A8_UNORM, ColorBlendAttachment());
  ColorMerger Bgra = merger(Format::B8G8R8A8_UNORM, ColorBlendAttachment());
  ASSERT_TRUE(Rgba.isSpecialized() && Bgra.isSpecialized());
  for (float X : edgeFloats()) {
    uint8_t E = uint8_t(floatToUNorm(X, 8));
    EXPECT_EQ(mergeInto(Rgba, floats(X, 0, 0, 1), Bytes{9, 9, 9, 9}),
              (Bytes{E, 0, 0, 255}))
        << X;
    EXPECT_EQ(mergeInto(Bgra, floats(X, 0, 0, 1), Bytes{9, 9, 9, 9}),
              (Bytes{0, 0, E, 255}))
        << X;
  }
  // The fast blend decodes every destination byte as unormToFloat does:
  // "over" with a transparent source gives the destination back.
  for (Format F : {Format::R8G8B8A8_UNORM, Format::B8G8R8A8_UNORM}) {
    ColorMerger Over =
        merger(F, blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha));
    ASSERT_TRUE(Over.isSpecialized());
    for (unsigned C = 0; C < 256; ++C) {
      uint8_t B = uint8_t(C);
      EXPECT_EQ(mergeInto(Over, floats(0, 0, 0, 0), Bytes{B, 1, B, B}),
                (Bytes{B, 1, B, B}));
    }
  }
}

TEST(OutputMerge, SRGBEncodingMatchesTheCodecAtEveryCodeBoundary) {
  // The floats around each boundary between two 8-bit codes (linear value
  // of code + 1/2), and a spread of others.
  ColorMerger M = merger(Format::R8_SRGB, ColorBlendAttachment());
  std::vector<float> Xs = {
      0.0f,  -0.0f, -1.0f,
      1.0f,  2.0f,  NaN,
      Inf,   -Inf,  std::numeric_limits<float>::denorm_min(),
      1e-30f};
  for (int C = 0; C < 255; ++C) {
    float X = srgbToLinear((float(C) + 0.5f) / 255.0f);
    float Lo = X, Hi = X;
    for (int I = 0; I < 64; ++I) {
      Lo = std::nextafter(Lo, -1.0f);
      Hi = std::nextafter(Hi, 2.0f);
      Xs.push_back(Lo);
      Xs.push_back(Hi);
    }
    Xs.push_back(X);
  }
  std::mt19937 Rng(5);
  std::uniform_real_distribution<float> Unit(0.0f, 1.0f);
  for (int I = 0; I < 100000; ++I)
    Xs.push_back(std::ldexp(Unit(Rng), -int(I % 24)));
  for (float X : Xs) {
    uint8_t Want = uint8_t(floatToUNorm(linearToSRGB(X), 8));
    EXPECT_EQ(mergeInto(M, floats(X, 0, 0, 0), Bytes{0}), Bytes{Want}) << X;
  }
}

TEST(OutputMerge, SpecializedOnlyWhereItApplies) {
  ColorBlendAttachment Plain;
  EXPECT_TRUE(merger(Format::R8G8B8A8_UNORM, Plain).isSpecialized());
  EXPECT_FALSE(merger(Format::R8G8B8A8_SRGB, Plain).isSpecialized());
  EXPECT_FALSE(merger(Format::R8G8B8A8_UNORM, Plain, true, LogicOp::Xor)
                   .isSpecialized());
  ColorBlendAttachment Partial;
  Partial.WriteMask = ColorComponentR;
  EXPECT_FALSE(merger(Format::R8G8B8A8_UNORM, Partial).isSpecialized());
  EXPECT_FALSE(
      merger(Format::R8G8B8A8_UNORM, blend(BlendFactor::One, BlendFactor::Zero))
          .isSpecialized());
  EXPECT_FALSE(
      merger(Format::R8G8B8A8_UNORM,
             blend(BlendFactor::One, BlendFactor::One, BlendOp::Subtract))
          .isSpecialized());
  EXPECT_FALSE(
      merger(Format::R32G32B32A32_SFLOAT,
             blend(BlendFactor::SrcAlpha, BlendFactor::OneMinusSrcAlpha))
          .isSpecialized());
}

} // namespace
