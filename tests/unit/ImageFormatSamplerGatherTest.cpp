//===- ImageFormatSamplerGatherTest.cpp - OpImageGather, DrefGather -------===//
//
// The four texels of the bilinear footprint i0 = floor(u - 0.5),
// j0 = floor(v - 0.5) in the spec's order i0j1, i1j1, i1j0, i0j0, one
// component of each; ConstOffsets (each texel its own offset); Offset;
// depth compare per texel; address modes; cube faces.
//
//===----------------------------------------------------------------------===//
#include "ImageOpsTestUtil.h"

using namespace spirv2llvm;
using namespace spirv2llvm::testing;

namespace {

Image grid() {
  Image I = makeImage({Format::R32G32B32A32_SFLOAT, S2L_VIEW_2D, 4, 4});
  fillFloat(I, [](uint32_t, uint32_t X, uint32_t Y, uint32_t) {
    return Float4{float(X), float(Y), float(X + 10 * Y), 100 + float(X)};
  });
  return I;
}

s2l_image_operands gatherOps(float S, float T, uint32_t Component) {
  s2l_image_operands O = sampleOps(Dim2D, S, T);
  O.op = S2L_IMAGE_OP_GATHER;
  O.component = Component;
  return O;
}

TEST(ImageSamplerGather, OrderAndComponents) {
  Image I = grid();
  s2l_sampler S = makeSampler(Nearest); // The filter does not matter.
  // u = v = 2.2: i0 = j0 = 1. Order (1,2), (2,2), (2,1), (1,1).
  Float4 R = runFloat(gatherOps(0.55f, 0.55f, 2), I, &S);
  EXPECT_EQ(R, (Float4{21, 22, 12, 11}));
  EXPECT_EQ(runFloat(gatherOps(0.55f, 0.55f, 0), I, &S),
            (Float4{1, 2, 2, 1}));
  EXPECT_EQ(runFloat(gatherOps(0.55f, 0.55f, 1), I, &S),
            (Float4{2, 2, 1, 1}));
  EXPECT_EQ(runFloat(gatherOps(0.55f, 0.55f, 3), I, &S),
            (Float4{101, 102, 102, 101}));
}

TEST(ImageSamplerGather, AddressModes) {
  Image I = grid();
  s2l_sampler S = makeSampler(Nearest, Repeat);
  // u = v = 0.2: i0 = j0 = -1 -> 3 with repeat; i1 = j1 = 0.
  EXPECT_EQ(runFloat(gatherOps(0.05f, 0.05f, 2), I, &S),
            (Float4{3, 0, 30, 33}));
  S = makeSampler(Nearest, ClampToBorder);
  S.border_color = 4; // White: 1 in every component.
  EXPECT_EQ(runFloat(gatherOps(0.05f, 0.05f, 2), I, &S),
            (Float4{1, 0, 1, 1}));
}

TEST(ImageSamplerGather, ConstOffsetsPerTexel) {
  Image I = grid();
  s2l_sampler S = makeSampler(Nearest);
  s2l_image_operands O = gatherOps(0.55f, 0.55f, 2);
  O.flags |= S2L_IMAGE_HAS_OFFSETS;
  const int32_t Offsets[4][2] = {{0, 0}, {1, 0}, {0, 1}, {-1, -1}};
  std::memcpy(O.gather_offsets, Offsets, sizeof(Offsets));
  // Texel k is i0j0 of the footprint at P + offset k (GLSL's
  // textureGatherOffsets); P's footprint has i0j0 = (1,1):
  // (1,1), (1,1)+(1,0) = (2,1), (1,1)+(0,1) = (1,2), (1,1)-(1,1) = (0,0).
  EXPECT_EQ(runFloat(O, I, &S), (Float4{11, 12, 21, 0}));
}

TEST(ImageSamplerGather, Offset) {
  Image I = grid();
  s2l_sampler S = makeSampler(Nearest);
  s2l_image_operands O = gatherOps(0.55f, 0.55f, 2);
  O.flags |= S2L_IMAGE_HAS_OFFSET;
  O.offset[0] = -1;
  O.offset[1] = 1;
  // Footprint at i0 = 0, j0 = 2.
  EXPECT_EQ(runFloat(O, I, &S), (Float4{30, 31, 21, 20}));
}

TEST(ImageSamplerGather, DepthCompare) {
  Image I = makeImage({Format::D32_SFLOAT, S2L_VIEW_2D, 2, 2});
  fillFloat(I, [](uint32_t, uint32_t X, uint32_t Y, uint32_t) {
    return Float4{0.2f + 0.4f * float(X) + 0.2f * float(Y), 0, 0, 1};
  });
  // Depths: (0,0) 0.2, (1,0) 0.6, (0,1) 0.4, (1,1) 0.8.
  s2l_sampler S = makeSampler(Linear);
  S.compare_enable = 1;
  S.compare_op = Less; // ref < D
  s2l_image_operands O = gatherOps(0.5f, 0.5f, 0);
  O.flags |= S2L_IMAGE_HAS_DREF;
  O.dref = 0.5f;
  // Order (0,1) 0.4, (1,1) 0.8, (1,0) 0.6, (0,0) 0.2.
  EXPECT_EQ(runFloat(O, I, &S), (Float4{0, 1, 1, 0}));
}

TEST(ImageSamplerGather, IntegerComponents) {
  Image I = makeImage({Format::R32G32_SINT, S2L_VIEW_2D, 2, 2});
  for (uint32_t Y = 0; Y < 2; ++Y)
    for (uint32_t X = 0; X < 2; ++X)
      ASSERT_TRUE(I.writeTexel(0, X, Y, 0, 0,
                               Int4{-int32_t(X + 2 * Y) - 1, 5, 0, 1})
                      .ok());
  s2l_sampler S = makeSampler(Nearest);
  s2l_image_operands O = gatherOps(0.5f, 0.5f, 0);
  O.kind = S2L_IMAGE_SINT;
  UInt4 R = runBits(O, &I.descriptor(), &S);
  EXPECT_EQ((Int4{int32_t(R[0]), int32_t(R[1]), int32_t(R[2]), int32_t(R[3])}),
            (Int4{-3, -4, -2, -1}));
}

TEST(ImageSamplerGather, CubeFace) {
  // 2x2 faces, texel (x, y) of face f = 100f + 10y + x. The centre of -Z
  // (direction (0, 0, -1)): u = v = 1, footprint i0 = j0 = 0.
  Image I = makeImage({Format::R32_SFLOAT, S2L_VIEW_CUBE, 2, 2, 1, 6});
  fillFloat(I, [](uint32_t, uint32_t X, uint32_t Y, uint32_t F) {
    return Float4{float(100 * F + 10 * Y + X), 0, 0, 1};
  });
  s2l_sampler S = makeSampler(Linear);
  s2l_image_operands O = gatherOps(0, 0, 0);
  O.dim = DimCube;
  O.coord[2] = -1;
  EXPECT_EQ(runFloat(O, I, &S), (Float4{510, 511, 501, 500}));
}

} // namespace
