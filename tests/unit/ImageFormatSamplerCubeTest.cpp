//===- ImageFormatSamplerCubeTest.cpp - Cube faces, seams, derivatives ----===//
//
// Face selection at one direction per row of the spec's table ("Cube Map
// Face Selection"), seamless filtering across an edge and at a corner
// (the neighbours worked out from the cube's geometry in the comments),
// cube arrays, and the level of detail from derivatives of directions.
//
//===----------------------------------------------------------------------===//
#include "ImageOpsTestUtil.h"

using namespace spirv2llvm;
using namespace spirv2llvm::testing;

namespace {

/// Texel (x, y) of face f (of every cube of the array c) holds
/// 1000c + 100f + 10y + x.
Image cube(uint32_t N, uint32_t Cubes = 1, uint32_t Levels = 1) {
  Image I = makeImage({Format::R32_SFLOAT,
                       Cubes > 1 ? uint32_t(S2L_VIEW_CUBE_ARRAY)
                                 : uint32_t(S2L_VIEW_CUBE),
                       N, N, 1, 6 * Cubes, Levels});
  fillFloat(I, [](uint32_t L, uint32_t X, uint32_t Y, uint32_t Layer) {
    return Float4{float(1000 * (Layer / 6) + 100 * (Layer % 6) + 10 * Y + X +
                        10000 * L),
                  0, 0, 1};
  });
  return I;
}

float value(uint32_t Face, uint32_t X, uint32_t Y) {
  return float(100 * Face + 10 * Y + X);
}

TEST(ImageSamplerCube, FaceSelectionTable) {
  Image I = cube(4);
  s2l_sampler S = makeSampler(Nearest);
  // Direction, then by the table (sc, tc, ma) and s = (sc/|ma| + 1) / 2,
  // t = (tc/|ma| + 1) / 2, texel floor(4s), floor(4t):
  struct Row {
    float R[3];
    uint32_t Face, X, Y;
  } Rows[] = {
      // +X: sc = -rz = -0.5, tc = -ry = 1, ma = 2: s = 0.375, t = 0.75.
      {{2, -1, 0.5f}, 0, 1, 3},
      // -X: sc = +rz = 0.5, tc = -ry = 1: s = 0.625, t = 0.75.
      {{-2, -1, 0.5f}, 1, 2, 3},
      // +Y: sc = +rx = 0.5, tc = +rz = -1: s = 0.625, t = 0.25.
      {{0.5f, 2, -1}, 2, 2, 1},
      // -Y: sc = +rx = 0.5, tc = -rz = 1: s = 0.625, t = 0.75.
      {{0.5f, -2, -1}, 3, 2, 3},
      // +Z: sc = +rx = 0.5, tc = -ry = 1: s = 0.625, t = 0.75.
      {{0.5f, -1, 2}, 4, 2, 3},
      // -Z: sc = -rx = -0.5, tc = -ry = 1: s = 0.375, t = 0.75.
      {{0.5f, -1, -2}, 5, 1, 3},
  };
  for (const Row &R : Rows)
    EXPECT_EQ(runFloat(sampleOps(DimCube, R.R[0], R.R[1], R.R[2]), I, &S)[0],
              value(R.Face, R.X, R.Y))
        << "direction " << R.R[0] << " " << R.R[1] << " " << R.R[2];
  // Ties (Vulkan leaves them to the implementation): z, then y, as
  // llvmpipe. (1, 1, 1) is +Z with sc = 1, tc = -1: texel (3, 0).
  EXPECT_EQ(runFloat(sampleOps(DimCube, 1, 1, 1), I, &S)[0], value(4, 3, 0));
  // (1, -1, 0.5) is -Y: sc = 1, tc = -0.5: s = 1, t = 0.25.
  EXPECT_EQ(runFloat(sampleOps(DimCube, 1, -1, 0.5f), I, &S)[0],
            value(3, 3, 1));
}

TEST(ImageSamplerCube, SeamlessEdge) {
  // 2x2 faces. On +X at s = 0.125, t = 0.25 (direction (1, 0.5, 0.75):
  // sc = -rz = -0.75, tc = -ry = -0.5): u = 0.25, v = 0.5, so i0 = -1 with
  // alpha = 0.75, j0 = 0 with beta = 0. Texel (-1, 0) of +X lies past its
  // sc = -1 edge, where rz = +1: that is the +Z face's sc = rx = +1 edge,
  // column 1, same row (both faces have tc = -ry).
  Image I = cube(2);
  s2l_sampler S = makeSampler(Linear);
  Float4 R = runFloat(sampleOps(DimCube, 1, 0.5f, 0.75f), I, &S);
  EXPECT_FLOAT_EQ(R[0], 0.25f * value(4, 1, 0) + 0.75f * value(0, 0, 0));
}

TEST(ImageSamplerCube, SeamlessCornerAveragesThreeTexels) {
  // On +X at s = t = 0.125 (direction (1, 0.75, 0.75)): i0 = j0 = -1,
  // alpha = beta = 0.75. Texel (0, -1) of +X lies past tc = -1, where
  // ry = +1: the +Y face's tc = rz, sc = rx = +1 texel row 1 column 1.
  // The corner (-1, -1) is the average of the three texels at the
  // (+x, +y, +z) corner: +X (0, 0), +Z (1, 0), +Y (1, 1).
  Image I = cube(2);
  s2l_sampler S = makeSampler(Linear);
  float Corner = (value(0, 0, 0) + value(4, 1, 0) + value(2, 1, 1)) / 3;
  float E = 0.25f * 0.25f * Corner + 0.75f * 0.25f * value(2, 1, 1) +
            0.25f * 0.75f * value(4, 1, 0) + 0.75f * 0.75f * value(0, 0, 0);
  Float4 R = runFloat(sampleOps(DimCube, 1, 0.75f, 0.75f), I, &S);
  EXPECT_NEAR(R[0], E, 1e-3);
}

TEST(ImageSamplerCube, CubeArrayLayer) {
  Image I = cube(2, 3);
  s2l_sampler S = makeSampler(Nearest);
  s2l_image_operands O = sampleOps(DimCube, 0.5f, -1, 0.5f, 1.6f);
  O.arrayed = 1;
  // -Y face (sc = rx = 0.5, tc = -rz = -0.5: texel (1, 0)) of cube 2.
  EXPECT_EQ(runFloat(O, I, &S)[0], 2000 + value(3, 1, 0));
  O.coord[3] = 7; // Clamped to the last cube.
  EXPECT_EQ(runFloat(O, I, &S)[0], 2000 + value(3, 1, 0));
}

TEST(ImageSamplerCube, LodFromDirectionDerivatives) {
  // 8x8 faces, 4 levels; level L adds 10000 L.
  Image I = cube(8, 1, 4);
  s2l_sampler S = makeSampler(Nearest);
  s2l_image_operands O = sampleOps(DimCube, 1, 0, 0);
  O.flags |= S2L_IMAGE_HAS_GRAD;
  // Along z at the centre of +X: dsc = -drz = -0.5, ma = 1, so
  // ds = dsc / 2 = -0.25, 2 texels: lambda = 1.
  O.grad_x[2] = 0.5f;
  // Level 1 is 4x4: the centre is texel (2, 2).
  EXPECT_EQ(runFloat(O, I, &S)[0], 10000 + value(0, 2, 2));
  // Along the major axis at sc = -0.5 (direction (1, 0, 0.5)):
  // ds = (dsc |ma| - sc d|ma|) / (2 ma^2) = (0 + 0.5) / 2 = 0.25, 2 texels.
  O.coord[2] = 0.5f;
  O.grad_x[0] = 1;
  O.grad_x[2] = 0;
  // s = 0.25 -> texel 1 of level 1's 4x4, t = 0.5 -> 2.
  EXPECT_EQ(runFloat(O, I, &S)[0], 10000 + value(0, 1, 2));
}

} // namespace
