//===- ImageFormatMipChainTest.cpp - Mip levels made by linear blits ------===//
//
// blitLevelLinear / generateMipLevels (MipChain.h) against values worked
// out by hand from the rules in that header: lavapipe's byte lerp
// v0 + ((w * (v1 - v0) * 128 + 0x4000) >> 15) for 8-bit UNORM formats
// (halves round up at each step, so a 2x2 box is not the exact average),
// weights from u = (x + 0.5) * src / dst - 0.5 in 1/256 for odd sizes,
// float filtering for other formats, sRGB through linear, 3D across
// slices, array layers apart, and the formats a linear blit refuses.
//
//===----------------------------------------------------------------------===//
#include "ImageOpsTestUtil.h"

#include "spirv2llvm/MipChain.h"

using namespace spirv2llvm;
using namespace spirv2llvm::testing;

namespace {

uint8_t *texel(Image &I, uint32_t Level, uint32_t X, uint32_t Y = 0,
               uint32_t Z = 0) {
  return I.texelAddress(Level, X, Y, Z);
}

TEST(ImageMipChain, BoxOfFourBytesRoundsHalvesUpAtEachLerp) {
  Image I = makeImage({Format::R8G8B8A8_UNORM, S2L_VIEW_2D, 2, 2, 1, 1, 2});
  // Channel by channel, texels (0,0) (1,0) (0,1) (1,1):
  //   R: 10 20 30 41 -> rows 10 + 5 = 15 and 30 + 6 = 36 (5.5 up), then
  //      15 + 11 = 26 (10.5 up); the exact average 25.25 would give 25.
  //   G: 0 1 0 0 -> row 0: 0 + 1 (0.5 up), row 1: 0; then 1 + 0 = 1
  //      (exact 0.25 -> 0).
  //   B: 0 255 255 0 -> 128 and 128 -> 128.
  //   A: 255 255 255 255 -> 255.
  const uint8_t T[4][4] = {
      {10, 0, 0, 255}, {20, 1, 255, 255}, {30, 0, 255, 255}, {41, 0, 0, 255}};
  for (int K = 0; K < 4; ++K)
    std::memcpy(texel(I, 0, K & 1, K >> 1), T[K], 4);
  ASSERT_TRUE(blitLevelLinear(I.descriptor(), 0, 1).ok());
  const uint8_t *R = texel(I, 1, 0);
  EXPECT_EQ(R[0], 26);
  EXPECT_EQ(R[1], 1);
  EXPECT_EQ(R[2], 128);
  EXPECT_EQ(R[3], 255);
}

TEST(ImageMipChain, OddSizesUseScaledCoordinates) {
  // 5 -> 2 texels: u = 0.75 (texels 0 and 1, weight 192/256) and u = 3.25
  // (texels 3 and 4, weight 64/256): 0 + 75 = 75 and 200 - 40 = 160.
  Image I = makeImage({Format::R8_UNORM, S2L_VIEW_1D, 5, 1, 1, 1, 3});
  const uint8_t T[5] = {0, 100, 7, 200, 40};
  for (uint32_t X = 0; X < 5; ++X)
    *texel(I, 0, X) = T[X];
  ASSERT_TRUE(generateMipLevels(I.descriptor()).ok());
  EXPECT_EQ(*texel(I, 1, 0), 75);
  EXPECT_EQ(*texel(I, 1, 1), 160);
  // Level 2 comes from level 1 (not level 0): 2 -> 1 is u = 0.5, the
  // average of 75 and 160 = 117.5, rounded up: 118.
  EXPECT_EQ(*texel(I, 2, 0), 118);
}

TEST(ImageMipChain, ThreeToOneTakesTheMiddleTexel) {
  // u = 1.5 * 1 - 0.5 = 1.0 exactly: texel 1 with weight 0.
  Image I = makeImage({Format::R8_UNORM, S2L_VIEW_2D, 3, 3, 1, 1, 2});
  for (uint32_t Y = 0; Y < 3; ++Y)
    for (uint32_t X = 0; X < 3; ++X)
      *texel(I, 0, X, Y) = uint8_t(10 * (3 * Y + X) + 1);
  ASSERT_TRUE(blitLevelLinear(I.descriptor(), 0, 1).ok());
  EXPECT_EQ(*texel(I, 1, 0, 0), 41);
}

TEST(ImageMipChain, FloatFormatsFilterInFloat) {
  Image I = makeImage({Format::R32_SFLOAT, S2L_VIEW_2D, 2, 2, 1, 1, 2});
  const float T[4] = {1, 2, 3, 5};
  for (int K = 0; K < 4; ++K)
    std::memcpy(texel(I, 0, K & 1, K >> 1), &T[K], 4);
  ASSERT_TRUE(blitLevelLinear(I.descriptor(), 0, 1).ok());
  float R;
  std::memcpy(&R, texel(I, 1, 0), 4);
  EXPECT_EQ(R, 2.75f);
}

TEST(ImageMipChain, FloatFormatsUseUnquantizedWeights) {
  // 7 -> 3: u = 0.5 * 7 / 3 - 0.5 = 2/3 between texels 0 (0) and 1 (3):
  // 2.0; the byte path's 171/256 would give 2.0039.
  Image I = makeImage({Format::R32_SFLOAT, S2L_VIEW_1D, 7, 1, 1, 1, 2});
  const float T[2] = {0, 3};
  std::memcpy(texel(I, 0, 0), T, 8);
  ASSERT_TRUE(blitLevelLinear(I.descriptor(), 0, 1).ok());
  float R;
  std::memcpy(&R, texel(I, 1, 0), 4);
  EXPECT_FLOAT_EQ(R, 2.0f);
}

TEST(ImageMipChain, SrgbFiltersLinearValues) {
  // Black and white: linear 0.5, encoded 0.7354 * 255 = 187.5 -> 188 (an
  // average of the encoded bytes would be 128). Alpha is linear: 127.5 ->
  // 128 (round to nearest even).
  Image I = makeImage({Format::R8G8B8A8_SRGB, S2L_VIEW_2D, 2, 1, 1, 1, 2});
  const uint8_t T[2][4] = {{0, 0, 0, 0}, {255, 255, 255, 255}};
  std::memcpy(texel(I, 0, 0), T[0], 4);
  std::memcpy(texel(I, 0, 1), T[1], 4);
  ASSERT_TRUE(blitLevelLinear(I.descriptor(), 0, 1).ok());
  const uint8_t *R = texel(I, 1, 0);
  EXPECT_EQ(R[0], 188);
  EXPECT_EQ(R[2], 188);
  EXPECT_EQ(R[3], 128);
}

TEST(ImageMipChain, ThreeDimensionalImagesFilterAcrossSlices) {
  // 2x2x2 -> 1x1x1: slice 0 is 0 0 / 0 0, slice 1 is 100 100 / 100 100;
  // each slice lerps to itself, then 0 + 50 = 50. A blit of slice 0 alone
  // would give 0.
  Image I = makeImage({Format::R8_UNORM, S2L_VIEW_3D, 2, 2, 2, 1, 2});
  for (uint32_t Y = 0; Y < 2; ++Y)
    for (uint32_t X = 0; X < 2; ++X)
      *texel(I, 0, X, Y, 1) = 100;
  ASSERT_TRUE(blitLevelLinear(I.descriptor(), 0, 1).ok());
  EXPECT_EQ(*texel(I, 1, 0, 0, 0), 50);
}

TEST(ImageMipChain, ArrayLayersStayApart) {
  Image I = makeImage({Format::R8_UNORM, S2L_VIEW_2D_ARRAY, 2, 2, 1, 2, 2});
  for (uint32_t Y = 0; Y < 2; ++Y)
    for (uint32_t X = 0; X < 2; ++X) {
      *texel(I, 0, X, Y, 0) = 20;
      *texel(I, 0, X, Y, 1) = 200;
    }
  ASSERT_TRUE(blitLevelLinear(I.descriptor(), 0, 1).ok());
  EXPECT_EQ(*texel(I, 1, 0, 0, 0), 20);
  EXPECT_EQ(*texel(I, 1, 0, 0, 1), 200);
}

TEST(ImageMipChain, RefusesWhatALinearBlitCannotDo) {
  Image U = makeImage({Format::R32_UINT, S2L_VIEW_2D, 2, 2, 1, 1, 2});
  Status S = generateMipLevels(U.descriptor());
  ASSERT_FALSE(S.ok());
  EXPECT_NE(S.message().find("R32_UINT"), std::string::npos) << S.message();
  EXPECT_NE(S.message().find("integer"), std::string::npos) << S.message();
  Image D = makeImage({Format::D32_SFLOAT, S2L_VIEW_2D, 2, 2, 1, 1, 2});
  EXPECT_FALSE(generateMipLevels(D.descriptor()).ok());
  Image I = makeImage({Format::R8_UNORM, S2L_VIEW_2D, 2, 2, 1, 1, 2});
  Status Range = blitLevelLinear(I.descriptor(), 0, 2);
  ASSERT_FALSE(Range.ok());
  EXPECT_NE(Range.message().find("levels 0 -> 2"), std::string::npos);
}

} // namespace
