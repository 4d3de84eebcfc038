//===- ImageFormatBlockTest.cpp - BC1 to BC7 decoding ---------------------===//
//
// Blocks built by hand and their texels computed by hand from the Khronos
// Data Format Specification's S3TC and RGTC sections: endpoint modes,
// palette interpolation, index bit order, punch-through alpha, signed
// endpoints, sRGB.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/ImageFormat.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace spirv2llvm;

namespace {

std::array<Float4, 16> decode(Format F, std::initializer_list<uint8_t> Bytes) {
  std::array<Float4, 16> Out;
  std::vector<uint8_t> B(Bytes);
  Status S = decodeBlock(F, B.data(), Out);
  EXPECT_TRUE(S.ok()) << S.message();
  return Out;
}

void expectNear(const Float4 &A, const Float4 &B, const char *What) {
  for (int I = 0; I < 4; ++I)
    EXPECT_NEAR(A[I], B[I], 1e-6) << What << " component " << I;
}

// Red (0xf800) and blue (0x001f); texels 0..3 use indices 0..3, the rest 0.
const std::initializer_list<uint8_t> RedBlue = {0x00, 0xf8, 0x1f, 0x00,
                                                0xe4, 0x00, 0x00, 0x00};
const std::initializer_list<uint8_t> BlueRed = {0x1f, 0x00, 0x00, 0xf8,
                                                0xe4, 0x00, 0x00, 0x00};

TEST(ImageFormatBlock, BC1FourColours) {
  // color0 > color1: two interpolated colours at 1/3 and 2/3.
  auto T = decode(Format::BC1_RGB_UNORM_BLOCK, RedBlue);
  expectNear(T[0], {1, 0, 0, 1}, "index 0");
  expectNear(T[1], {0, 0, 1, 1}, "index 1");
  expectNear(T[2], {2.0f / 3, 0, 1.0f / 3, 1}, "index 2");
  expectNear(T[3], {1.0f / 3, 0, 2.0f / 3, 1}, "index 3");
  for (int I = 4; I < 16; ++I)
    expectNear(T[I], {1, 0, 0, 1}, "rest");
  // RGBA decodes the four-colour mode the same (all opaque).
  auto A = decode(Format::BC1_RGBA_UNORM_BLOCK, RedBlue);
  expectNear(A[3], {1.0f / 3, 0, 2.0f / 3, 1}, "rgba index 3");
}

TEST(ImageFormatBlock, BC1ThreeColoursAndPunchThrough) {
  // color0 <= color1: the mid-point, then black (RGB) or transparent black.
  auto T = decode(Format::BC1_RGB_UNORM_BLOCK, BlueRed);
  expectNear(T[2], {0.5f, 0, 0.5f, 1}, "index 2");
  expectNear(T[3], {0, 0, 0, 1}, "index 3 opaque");
  auto A = decode(Format::BC1_RGBA_UNORM_BLOCK, BlueRed);
  expectNear(A[3], {0, 0, 0, 0}, "index 3 transparent");
  // Green's 6 bits: 0x07e0 is full green, 0x0020 is 1/63.
  auto G = decode(Format::BC1_RGB_UNORM_BLOCK,
                  {0xe0, 0x07, 0x20, 0x00, 0x04, 0, 0, 0});
  expectNear(G[0], {0, 1, 0, 1}, "green");
  expectNear(G[1], {0, 1.0f / 63, 0, 1}, "1/63 green");
}

TEST(ImageFormatBlock, BC1SRGB) {
  // 0x8410: R = 16/31, G = 32/63, B = 16/31, converted to linear.
  auto T =
      decode(Format::BC1_RGB_SRGB_BLOCK, {0x10, 0x84, 0x00, 0x00, 0, 0, 0, 0});
  expectNear(T[0],
             {srgbToLinear(16.0f / 31), srgbToLinear(32.0f / 63),
              srgbToLinear(16.0f / 31), 1},
             "srgb");
  EXPECT_NEAR(T[0][0], 0.2292748f, 1e-6); // ((16/31 + 0.055) / 1.055)^2.4
}

TEST(ImageFormatBlock, BC2) {
  // Alpha nibbles: texel 0 = 15, texel 1 = 0, texel 2 = 5; the colour part
  // (blue, red: color0 < color1) still uses four colours.
  auto T = decode(Format::BC2_UNORM_BLOCK,
                  {0x0f, 0x05, 0, 0, 0, 0, 0, 0, //
                   0x1f, 0x00, 0x00, 0xf8, 0xe4, 0x00, 0x00, 0x00});
  expectNear(T[0], {0, 0, 1, 1}, "texel 0");
  expectNear(T[1], {1, 0, 0, 0}, "texel 1");
  expectNear(T[2], {1.0f / 3, 0, 2.0f / 3, 5.0f / 15}, "texel 2");
  expectNear(T[3], {2.0f / 3, 0, 1.0f / 3, 0}, "texel 3");
}

TEST(ImageFormatBlock, BC3AndBC4Unsigned) {
  // alpha0 = 16 < alpha1 = 240: six-value mode. Texels 0..3 use indices
  // 6 (0.0), 7 (1.0), 2 ((4*16 + 240) / 5 / 255) and 1 (240/255).
  std::initializer_list<uint8_t> Alpha = {0x10, 0xf0, 0xbe, 0x02, 0, 0, 0, 0};
  auto T = decode(Format::BC3_UNORM_BLOCK,
                  {0x10, 0xf0, 0xbe, 0x02, 0, 0, 0, 0, //
                   0x00, 0xf8, 0x1f, 0x00, 0x00, 0x00, 0x00, 0x00});
  EXPECT_NEAR(T[0][3], 0.0f, 1e-6);
  EXPECT_NEAR(T[1][3], 1.0f, 1e-6);
  EXPECT_NEAR(T[2][3], 60.8f / 255, 1e-6);
  EXPECT_NEAR(T[3][3], 240.0f / 255, 1e-6);
  EXPECT_NEAR(T[4][3], 16.0f / 255, 1e-6);
  expectNear({T[0][0], T[0][1], T[0][2], 1}, {1, 0, 0, 1}, "colour");
  // BC4 reads the same bits into red.
  auto R = decode(Format::BC4_UNORM_BLOCK, Alpha);
  EXPECT_NEAR(R[2][0], 60.8f / 255, 1e-6);
  expectNear(R[1], {1, 0, 0, 1}, "bc4 texel 1");
  // alpha0 = 240 > alpha1 = 16: eight values; index 2 is (6*240 + 16)/7.
  auto E = decode(Format::BC4_UNORM_BLOCK, {0xf0, 0x10, 0x02, 0, 0, 0, 0, 0});
  EXPECT_NEAR(E[0][0], (6 * 240 + 16) / 7.0f / 255, 1e-6);
  EXPECT_NEAR(E[1][0], 240.0f / 255, 1e-6);
}

TEST(ImageFormatBlock, BC4AndBC5Signed) {
  // red0 = -128 (reads as -1, like -127), red1 = 127: -128 > 127 is false,
  // so six values plus -1 and +1. Indices 0, 1, 2, 6, 7 for texels 0..4.
  uint8_t Idx[6] = {};
  uint64_t Bits = 0 | 1u << 3 | 2u << 6 | 6u << 9 | 7u << 12;
  for (int I = 0; I < 6; ++I)
    Idx[I] = uint8_t(Bits >> (8 * I));
  auto T = decode(Format::BC4_SNORM_BLOCK,
                  {0x80, 0x7f, Idx[0], Idx[1], Idx[2], Idx[3], Idx[4], Idx[5]});
  EXPECT_EQ(T[0][0], -1.0f);
  EXPECT_EQ(T[1][0], 1.0f);
  EXPECT_NEAR(T[2][0], -0.6f, 1e-6);
  EXPECT_EQ(T[3][0], -1.0f);
  EXPECT_EQ(T[4][0], 1.0f);
  // red0 = 127 > red1 = -127: eight values; index 2 is (6 - 1) / 7.
  auto E = decode(Format::BC4_SNORM_BLOCK, {0x7f, 0x81, 0x02, 0, 0, 0, 0, 0});
  EXPECT_NEAR(E[0][0], 5.0f / 7, 1e-6);
  // BC5: red block then green block.
  auto G = decode(Format::BC5_SNORM_BLOCK, {0x7f, 0x81, 0, 0, 0, 0, 0, 0, //
                                            0x81, 0x7f, 0x01, 0, 0, 0, 0, 0});
  // Green: -127 > 127 is false (six values); texel 0 takes index 1 (+1),
  // texel 1 index 0 (-1).
  expectNear(G[0], {1, 1, 0, 1}, "bc5 texel 0");
  expectNear(G[1], {1, -1, 0, 1}, "bc5 texel 1");
  auto U = decode(Format::BC5_UNORM_BLOCK, {0xff, 0, 0, 0, 0, 0, 0, 0, //
                                            0, 0xff, 0, 0, 0, 0, 0, 0});
  expectNear(U[5], {1, 0, 0, 1}, "bc5 unorm");
}

// Writes bit fields from the least significant bit of byte 0 up, as BC7
// stores them.
struct BitWriter {
  std::array<uint8_t, 16> B{};
  unsigned Pos = 0;
  void put(uint32_t V, unsigned N) {
    for (unsigned I = 0; I < N; ++I, ++Pos)
      B[Pos / 8] |= uint8_t(((V >> I) & 1) << (Pos % 8));
  }
};

TEST(ImageFormatBlock, BC7Mode6) {
  // Mode 6 (bit 6 first): 7-bit RGBA endpoints, a P-bit per endpoint,
  // 4-bit indices (3 for the anchor, texel 0).
  BitWriter W;
  W.put(1u << 6, 7);
  for (uint32_t V : {127u, 0u, 0u, 127u, 0u, 0u, 127u, 127u}) // R G B A
    W.put(V, 7);
  W.put(1, 1);  // P0: endpoint 0 is 127 << 1 | 1 = 255 where 127, else 1
  W.put(0, 1);  // P1: endpoint 1 is 254 where 127, else 0
  W.put(0, 3);  // texel 0: index 0
  W.put(15, 4); // texel 1: index 15 (weight 64)
  W.put(8, 4);  // texel 2: index 8 (weight 34)
  for (int T = 3; T < 16; ++T)
    W.put(0, 4);
  ASSERT_EQ(W.Pos, 128u);
  std::array<Float4, 16> T;
  ASSERT_TRUE(decodeBlock(Format::BC7_UNORM_BLOCK, W.B.data(), T).ok());
  EXPECT_EQ(T[0], (Float4{1, 1 / 255.0f, 1 / 255.0f, 1}));
  EXPECT_EQ(T[1], (Float4{0, 254 / 255.0f, 0, 254 / 255.0f}));
  // ((64 - 34) * e0 + 34 * e1 + 32) >> 6: R 7682 >> 6 = 120, G 8698 >> 6 =
  // 135, B 62 >> 6 = 0, A 16318 >> 6 = 254.
  EXPECT_EQ(T[2], (Float4{120 / 255.0f, 135 / 255.0f, 0, 254 / 255.0f}));
  EXPECT_EQ(T[15], T[0]);
}

TEST(ImageFormatBlock, BC7Mode1SharedPBitsAndPartition) {
  // Mode 1 (bit 1): two subsets, partition 0 (subset 1 = columns 2 and 3,
  // anchor texel 15), 6-bit endpoints, one P-bit per subset, 3-bit indices.
  BitWriter W;
  W.put(1u << 1, 2);
  W.put(0, 6); // partition 0
  // R of s0e0, s0e1, s1e0, s1e1, then G, then B.
  for (uint32_t V : {63u, 63u, 0u, 0u, 0u, 0u, 63u, 0u, 0u, 0u, 0u, 0u})
    W.put(V, 6);
  W.put(1, 1); // subset 0 P-bit: 63 -> 127 -> 255, 0 -> 1 -> 2
  W.put(0, 1); // subset 1 P-bit: 63 -> 126 -> 253 (126 << 1 | 126 >> 6)
  for (int T = 0; T < 16; ++T)
    W.put(0, T == 0 || T == 15 ? 2 : 3); // every texel index 0
  ASSERT_EQ(W.Pos, 128u);
  std::array<Float4, 16> T;
  ASSERT_TRUE(decodeBlock(Format::BC7_UNORM_BLOCK, W.B.data(), T).ok());
  EXPECT_EQ(T[0], (Float4{1, 2 / 255.0f, 2 / 255.0f, 1})); // subset 0: red
  EXPECT_EQ(T[1], T[0]);
  EXPECT_EQ(T[2], (Float4{0, 253 / 255.0f, 0, 1})); // subset 1: green
  EXPECT_EQ(T[15], (Float4{0, 253 / 255.0f, 0, 1}));
  // A first byte of 0 is the reserved mode: transparent black.
  uint8_t Zero[16] = {};
  ASSERT_TRUE(decodeBlock(Format::BC7_UNORM_BLOCK, Zero, T).ok());
  EXPECT_EQ(T[5], (Float4{0, 0, 0, 0}));
}

TEST(ImageFormatBlock, BC6HMode11) {
  // Mode 11 (mode bits 00011): one region, 10-bit endpoints stored whole,
  // 4-bit indices (3 for texel 0).
  auto Block = [](uint32_t R0, uint32_t G0, bool Signed) {
    BitWriter W;
    W.put(3, 5);
    for (uint32_t V : {R0, G0, 0u, 0u, 0u, 0u}) // r0 g0 b0 r1 g1 b1
      W.put(V, 10);
    W.put(0, 3);  // texel 0: index 0
    W.put(15, 4); // texel 1: index 15
    W.put(8, 4);  // texel 2: index 8 (weight 34)
    for (int T = 3; T < 16; ++T)
      W.put(0, 4);
    EXPECT_EQ(W.Pos, 128u);
    std::array<Float4, 16> T;
    Status S = decodeBlock(Signed ? Format::BC6H_SFLOAT_BLOCK
                                  : Format::BC6H_UFLOAT_BLOCK,
                           W.B.data(), T);
    EXPECT_TRUE(S.ok()) << S.message();
    return T;
  };
  auto T = Block(1023, 512, false);
  // r0 = 1023 is the maximum: 0xffff, then * 31 >> 6 = 0x7bff = 65504.
  // g0 = 512: ((512 << 16) + 0x8000) >> 10 = 32800; * 31 >> 6 = 0x3e0f,
  // the half 1 + 527/1024.
  EXPECT_EQ(T[0], (Float4{65504.0f, 1.0f + 527.0f / 1024, 0, 1}));
  EXPECT_EQ(T[1], (Float4{0, 0, 0, 1}));
  // Red at weight 34: (65535 * 30 + 32) >> 6 = 30720; * 31 >> 6 = 0x3a20,
  // the half 0.5 * (1 + 544/1024).
  EXPECT_EQ(T[2][0], 0.5f * (1.0f + 544.0f / 1024));
  // Signed: r0 = 0x3ff is -1; unquantized -(((1 << 15) + 0x4000) >> 9) =
  // -96; then -(96 * 31 >> 5) = -93: the half 0x8000 | 93.
  auto S = Block(0x3ff, 0, true);
  EXPECT_EQ(S[0][0], -93 * std::ldexp(1.0f, -24));
}

TEST(ImageFormatBlock, Errors) {
  std::array<Float4, 16> Out;
  uint8_t B[16] = {};
  Status S = decodeBlock(Format::R8_UNORM, B, Out);
  EXPECT_EQ(S.message(),
            "decodeBlock needs a block-compressed format, not R8_UNORM");
  S = decodeBlock(Format::BC1_RGB_UNORM_BLOCK, B, std::span(Out).first(4));
  EXPECT_EQ(S.message(), "decodeBlock of BC1_RGB_UNORM_BLOCK needs room for "
                         "16 texels, got 4");
}

} // namespace
