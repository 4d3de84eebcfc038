//===- ImageFormatConversionTest.cpp - The spec's pinned conversions ------===//
//
// The values Vulkan 1.3 fixes ("Fixed-Point Data Conversions", the small
// float sections, "Shared Exponent", sRGB), checked against numbers worked
// out by hand or from the IEEE definitions, not against our own formulas.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/ImageFormat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace spirv2llvm;

namespace {

const float Inf = std::numeric_limits<float>::infinity();
const float NaN = std::numeric_limits<float>::quiet_NaN();

TEST(ImageFormatConversion, UNorm) {
  EXPECT_EQ(unormToFloat(0, 8), 0.0f);
  EXPECT_EQ(unormToFloat(255, 8), 1.0f);
  EXPECT_EQ(unormToFloat(65535, 16), 1.0f);
  EXPECT_EQ(unormToFloat(1, 8), 1.0f / 255.0f);
  EXPECT_EQ(floatToUNorm(0.0f, 8), 0u);
  EXPECT_EQ(floatToUNorm(1.0f, 8), 255u);
  EXPECT_EQ(floatToUNorm(1.0f, 16), 65535u);
  EXPECT_EQ(floatToUNorm(1.0f, 24), 0xffffffu);
  EXPECT_EQ(floatToUNorm(-0.5f, 8), 0u);  // clamped
  EXPECT_EQ(floatToUNorm(7.0f, 8), 255u); // clamped
  EXPECT_EQ(floatToUNorm(Inf, 8), 255u);
  EXPECT_EQ(floatToUNorm(NaN, 8), 0u);
  EXPECT_EQ(floatToUNorm(0.5f, 8), 128u); // 127.5: tie to even
  EXPECT_EQ(floatToUNorm(0.5f, 1), 0u);   // 0.5: tie to even
  EXPECT_EQ(floatToUNorm(0.3f, 2), 1u);   // 0.9 -> 1
  EXPECT_EQ(floatToUNorm(0.1f, 4), 2u);   // 1.5 -> 2
  // Every 8-bit value survives decode then encode.
  for (uint32_t C = 0; C < 256; ++C)
    EXPECT_EQ(floatToUNorm(unormToFloat(C, 8), 8), C);
}

TEST(ImageFormatConversion, SNorm) {
  // Both -128 and -127 are -1.0 (the spec's max(c / 127, -1)).
  EXPECT_EQ(snormToFloat(-128, 8), -1.0f);
  EXPECT_EQ(snormToFloat(-127, 8), -1.0f);
  EXPECT_EQ(snormToFloat(127, 8), 1.0f);
  EXPECT_EQ(snormToFloat(0, 8), 0.0f);
  EXPECT_EQ(snormToFloat(-32768, 16), -1.0f);
  EXPECT_EQ(snormToFloat(64, 8), 64.0f / 127.0f);
  EXPECT_EQ(floatToSNorm(-1.0f, 8), -127);
  EXPECT_EQ(floatToSNorm(-3.0f, 8), -127);
  EXPECT_EQ(floatToSNorm(1.0f, 8), 127);
  EXPECT_EQ(floatToSNorm(NaN, 8), 0);
  EXPECT_EQ(floatToSNorm(-1.0f, 16), -32767);
  EXPECT_EQ(floatToSNorm(-1.0f, 2), -1);
  // And through a texel: 0x80 reads -1, writes back as 0x81.
  int8_t T = -128;
  Float4 V;
  ASSERT_TRUE(decodeTexel(Format::R8_SNORM, &T, V).ok());
  EXPECT_EQ(V[0], -1.0f);
  ASSERT_TRUE(encodeTexel(Format::R8_SNORM, V, &T).ok());
  EXPECT_EQ(T, -127);
}

TEST(ImageFormatConversion, SRGB) {
  // Published sRGB -> linear values (IEC 61966-2-1).
  EXPECT_EQ(srgbToLinear(0.0f), 0.0f);
  EXPECT_EQ(srgbToLinear(1.0f), 1.0f);
  EXPECT_NEAR(srgbToLinear(128 / 255.0f), 0.2158605f, 1e-6);
  EXPECT_NEAR(srgbToLinear(188 / 255.0f), 0.5028865f, 1e-6);
  EXPECT_NEAR(srgbToLinear(10 / 255.0f), 0.0030353f, 1e-7); // linear part
  EXPECT_NEAR(srgbToLinear(11 / 255.0f), 0.0033465f, 1e-7); // power part
  EXPECT_EQ(linearToSRGB(NaN), 0.0f);
  EXPECT_EQ(linearToSRGB(-1.0f), 0.0f);
  EXPECT_EQ(linearToSRGB(2.0f), 1.0f);
  EXPECT_NEAR(linearToSRGB(0.5f), 0.7353570f, 1e-6);
  EXPECT_NEAR(linearToSRGB(0.003f), 0.03876f, 1e-6); // 12.92 * 0.003
  // Through a texel: linear 0.5 is sRGB 188; alpha stays linear.
  uint8_t T[4];
  ASSERT_TRUE(
      encodeTexel(Format::R8G8B8A8_SRGB, Float4{0.5f, 1, 0, 0.5f}, T).ok());
  EXPECT_EQ(T[0], 188);
  EXPECT_EQ(T[1], 255);
  EXPECT_EQ(T[2], 0);
  EXPECT_EQ(T[3], 128);
  // Every 8-bit sRGB value survives decode then encode.
  for (uint32_t C = 0; C < 256; ++C) {
    uint8_t In[4] = {uint8_t(C), 0, 0, 0}, Out[4];
    Float4 V;
    ASSERT_TRUE(decodeTexel(Format::R8G8B8A8_SRGB, In, V).ok());
    ASSERT_TRUE(encodeTexel(Format::R8G8B8A8_SRGB, V, Out).ok());
    EXPECT_EQ(Out[0], C);
  }
}

TEST(ImageFormatConversion, Half) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff); // below the half-way point
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // ties to even: infinity
  EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalf(Inf), 0x7c00);
  EXPECT_EQ(floatToHalf(-Inf), 0xfc00);
  uint16_t N = floatToHalf(NaN);
  EXPECT_EQ(N & 0x7c00, 0x7c00);
  EXPECT_NE(N & 0x3ff, 0);
  // Rounding to nearest even at 1.0's ulp (2^-10).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)),
            0x3c01);
  // Denormals: multiples of 2^-24.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);     // tie to 0
  EXPECT_EQ(floatToHalf(3 * std::ldexp(1.0f, -25)), 0x0002); // tie to 2
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -26)), 0x0000);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  EXPECT_EQ(floatToHalf(std::ldexp(1023.0f, -24)), 0x03ff);
  EXPECT_EQ(floatToHalf(-std::ldexp(1.0f, -24)), 0x8001);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(halfToFloat(0x8001), -std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(halfToFloat(0x7c00), Inf);
  EXPECT_EQ(halfToFloat(0xfc00), -Inf);
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7c01))); // signalling NaN
  EXPECT_TRUE(std::signbit(halfToFloat(0x8000)));
  // Every finite half survives decode then encode.
  for (uint32_t H = 0; H < 0x10000; ++H) {
    if ((H & 0x7c00) == 0x7c00)
      continue;
    ASSERT_EQ(floatToHalf(halfToFloat(uint16_t(H))), H) << std::hex << H;
  }
}

TEST(ImageFormatConversion, UnsignedSmallFloats) {
  // 11-bit: 5 exponent bits, 6 mantissa bits, bias 15.
  EXPECT_EQ(floatToUnsignedSmallFloat(1.0f, 6), 0x3c0u);
  EXPECT_EQ(unsignedSmallFloatToFloat(0x3c0, 6), 1.0f);
  EXPECT_EQ(unsignedSmallFloatToFloat(0x7bf, 6), 65024.0f); // max finite
  EXPECT_EQ(floatToUnsignedSmallFloat(65024.0f, 6), 0x7bfu);
  EXPECT_EQ(floatToUnsignedSmallFloat(65535.0f, 6), 0x7bfu); // clamps
  EXPECT_EQ(floatToUnsignedSmallFloat(1e30f, 6), 0x7bfu);
  EXPECT_EQ(floatToUnsignedSmallFloat(Inf, 6), 0x7c0u);
  EXPECT_EQ(unsignedSmallFloatToFloat(0x7c0, 6), Inf);
  EXPECT_EQ(floatToUnsignedSmallFloat(-1.0f, 6), 0u);
  EXPECT_EQ(floatToUnsignedSmallFloat(-Inf, 6), 0u);
  uint32_t N = floatToUnsignedSmallFloat(NaN, 6);
  EXPECT_EQ(N >> 6, 0x1fu);
  EXPECT_NE(N & 0x3f, 0u);
  EXPECT_TRUE(std::isnan(unsignedSmallFloatToFloat(0x7c1, 6)));
  // Denormals: multiples of 2^-20 (11-bit) and 2^-19 (10-bit).
  EXPECT_EQ(unsignedSmallFloatToFloat(0x001, 6), std::ldexp(1.0f, -20));
  EXPECT_EQ(floatToUnsignedSmallFloat(std::ldexp(1.0f, -20), 6), 0x001u);
  EXPECT_EQ(floatToUnsignedSmallFloat(std::ldexp(63.0f, -20), 6), 0x03fu);
  EXPECT_EQ(floatToUnsignedSmallFloat(std::ldexp(1.0f, -14), 6), 0x040u);
  // Rounding to nearest even: 1 + 1/128 is half-way between 1 and 1+1/64.
  EXPECT_EQ(floatToUnsignedSmallFloat(1.0f + 1.0f / 128, 6), 0x3c0u);
  EXPECT_EQ(floatToUnsignedSmallFloat(1.0f + 3.0f / 128, 6), 0x3c2u);
  // Rounding up into the next exponent: 2 - 1/128 -> 2.0.
  EXPECT_EQ(floatToUnsignedSmallFloat(2.0f - 1.0f / 128, 6), 0x400u);
  // 10-bit: 5 mantissa bits.
  EXPECT_EQ(unsignedSmallFloatToFloat(0x3df, 5), 64512.0f);
  EXPECT_EQ(floatToUnsignedSmallFloat(65000.0f, 5), 0x3dfu);
  EXPECT_EQ(floatToUnsignedSmallFloat(Inf, 5), 0x3e0u);
  EXPECT_EQ(floatToUnsignedSmallFloat(0.5f, 5), 14u << 5);
  EXPECT_EQ(unsignedSmallFloatToFloat(0x001, 5), std::ldexp(1.0f, -19));
  // Every finite value survives decode then encode.
  for (unsigned M : {5u, 6u})
    for (uint32_t B = 0; B < (0x1fu << M); ++B)
      ASSERT_EQ(floatToUnsignedSmallFloat(unsignedSmallFloatToFloat(B, M), M),
                B);
}

TEST(ImageFormatConversion, SharedExponent) {
  // 1.0: exponent 16, mantissa 256 (1.0 = 256 * 2^(16-15-9)).
  EXPECT_EQ(encodeRGB9E5({1, 0, 0, 0}), (16u << 27) | 256u);
  EXPECT_EQ(decodeRGB9E5((16u << 27) | 256u), (Float4{1, 0, 0, 1}));
  // Just below 1.0: the first exponent gives a mantissa of 511.75, which
  // rounds to 512 and does not fit: the exponent goes up by one.
  float Below = 1.0f - std::ldexp(1.0f, -11);
  EXPECT_EQ(encodeRGB9E5({Below, 0, 0, 0}), (16u << 27) | 256u);
  // The shared exponent comes from the largest component; the others lose
  // precision (0.25 at exponent 16 is 64; 2^-10 rounds to 0).
  EXPECT_EQ(encodeRGB9E5({1, 0.25f, std::ldexp(1.0f, -10), 0}),
            (16u << 27) | (64u << 9) | 256u);
  // floor(x + 0.5) rounding: at exponent 16 a unit is 2^-8, and 3/512 is
  // 1.5 units -> 2.
  EXPECT_EQ(encodeRGB9E5({1, 3.0f / 512, 0, 0}),
            (16u << 27) | (2u << 9) | 256u);
  // Clamping: above sharedexp_max (65408), negative and NaN.
  EXPECT_EQ(encodeRGB9E5({1e10f, -5, NaN, 0}), (31u << 27) | 511u);
  EXPECT_EQ(encodeRGB9E5({Inf, 0, 0, 0}), (31u << 27) | 511u);
  EXPECT_EQ(decodeRGB9E5((31u << 27) | 511u)[0], 65408.0f);
  // The smallest value: 2^-24 with exponent 0.
  EXPECT_EQ(encodeRGB9E5({std::ldexp(1.0f, -24), 0, 0, 0}), 1u);
  EXPECT_EQ(decodeRGB9E5(1u)[0], std::ldexp(1.0f, -24));
  EXPECT_EQ(encodeRGB9E5({0, 0, 0, 0}), 0u);
  // Below the smallest exponent the spec clamps floor(log2(max)) to
  // -B - 1, so the exponent stays 0 and the mantissa shrinks (the
  // denormal-like range): 2^-20 is 16 units of 2^-24, 2^-24 one unit,
  // 2^-25 is half a unit and rounds up (floor(0.5 + 0.5)), 2^-26 to 0.
  EXPECT_EQ(encodeRGB9E5({std::ldexp(1.0f, -20), std::ldexp(1.0f, -24),
                          std::ldexp(1.0f, -26), 0}),
            16u | (1u << 9));
  EXPECT_EQ(encodeRGB9E5({std::ldexp(1.0f, -25), 0, 0, 0}), 1u);
  EXPECT_EQ(decodeRGB9E5(16u | (511u << 18)),
            (Float4{std::ldexp(1.0f, -20), 0, 511 * std::ldexp(1.0f, -24), 1}));
  // A float denormal input (2^-130) is far below a unit: 0.
  EXPECT_EQ(encodeRGB9E5({std::ldexp(1.0f, -130), 0, 0, 0}), 0u);
  // The largest finite value encodes to itself; anything above it,
  // +Inf included, clamps to it, and -Inf to 0.
  EXPECT_EQ(encodeRGB9E5({65408, 65408, 65408, 0}), 0xffffffffu);
  EXPECT_EQ(encodeRGB9E5({-Inf, 65409, 0, 0}), (31u << 27) | (511u << 9));
  // Component order: R low, B high.
  EXPECT_EQ(decodeRGB9E5((16u << 27) | (256u << 18)), (Float4{0, 0, 1, 1}));
}

} // namespace
