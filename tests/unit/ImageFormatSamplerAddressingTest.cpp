//===- ImageFormatSamplerAddressingTest.cpp - Address modes, borders ------===//
//
// Every VkSamplerAddressMode on a 4-texel axis, at texel indices -5..8,
// against tables written from the spec's "Wrapping Operation" formulas;
// the six border colours in float and integer views.
//
//===----------------------------------------------------------------------===//
#include "ImageOpsTestUtil.h"

using namespace spirv2llvm;
using namespace spirv2llvm::testing;

namespace {

constexpr int Border = -1;
// Texel index i = -5 .. 8 -> the texel read (size 4), by hand:
//   repeat: i mod 4; mirrored repeat: 3 - mirror((i mod 8) - 4);
//   clamp to edge: clamp(i, 0, 3); border outside [0, 3];
//   mirror clamp to edge: clamp(mirror(i), 0, 3), mirror(a) = -(1 + a) < 0.
struct ModeCase {
  uint32_t Mode;
  int Expected[14];
};
const ModeCase Cases[] = {
    {Repeat, {3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0}},
    {MirroredRepeat, {3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 0}},
    {ClampToEdge, {0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3}},
    {ClampToBorder,
     {Border, Border, Border, Border, Border, 0, 1, 2, 3, Border, Border,
      Border, Border, Border}},
    {MirrorClampToEdge, {3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3}},
};

TEST(ImageSamplerAddressing, EveryModeNearest1D) {
  Image I = makeImage({Format::R32_SFLOAT, S2L_VIEW_1D, 4});
  fillFloat(I, [](uint32_t, uint32_t X, uint32_t, uint32_t) {
    return Float4{float(10 + X), 0, 0, 1};
  });
  for (const ModeCase &C : Cases) {
    s2l_sampler S = makeSampler(Nearest, C.Mode);
    S.border_color = 4; // Opaque white: R = 1.
    for (int Idx = -5; Idx <= 8; ++Idx) {
      // The centre of texel Idx, normalized.
      float Coord = (float(Idx) + 0.5f) / 4.0f;
      Float4 R = runFloat(sampleOps(Dim1D, Coord), I, &S);
      int E = C.Expected[Idx + 5];
      EXPECT_EQ(R[0], E == Border ? 1.0f : float(10 + E))
          << "mode " << C.Mode << " texel " << Idx;
    }
  }
}

TEST(ImageSamplerAddressing, ModesPerAxis2D) {
  Image I = makeImage({Format::R32_SFLOAT, S2L_VIEW_2D, 4, 4});
  fillFloat(I, [](uint32_t, uint32_t X, uint32_t Y, uint32_t) {
    return Float4{float(X + 10 * Y), 0, 0, 1};
  });
  s2l_sampler S = makeSampler(Nearest, ClampToEdge);
  S.address_mode[0] = Repeat;
  S.address_mode[1] = MirroredRepeat;
  // u texel 5 -> 1 (repeat), v texel -1 -> 0 (mirror).
  Float4 R = runFloat(sampleOps(Dim2D, 5.5f / 4, -0.5f / 4), I, &S);
  EXPECT_EQ(R[0], 1.0f);
  // u texel -2 -> 2, v texel 5 -> 2.
  R = runFloat(sampleOps(Dim2D, -1.5f / 4, 5.5f / 4), I, &S);
  EXPECT_EQ(R[0], 22.0f);
}

TEST(ImageSamplerAddressing, ThirdAxisOf3D) {
  Image I = makeImage({Format::R32_SFLOAT, S2L_VIEW_3D, 2, 2, 4});
  fillFloat(I, [](uint32_t, uint32_t X, uint32_t Y, uint32_t Z) {
    return Float4{float(X + 10 * Y + 100 * Z), 0, 0, 1};
  });
  s2l_sampler S = makeSampler(Nearest, ClampToEdge);
  S.address_mode[2] = Repeat;
  // w texel 6 -> 2 with repeat; u, v texel 1.
  Float4 R = runFloat(sampleOps(Dim3D, 0.75f, 0.75f, 6.5f / 4), I, &S);
  EXPECT_EQ(R[0], 211.0f);
  S.address_mode[2] = ClampToBorder;
  S.border_color = 2; // Opaque black.
  R = runFloat(sampleOps(Dim3D, 0.75f, 0.75f, 6.5f / 4), I, &S);
  EXPECT_EQ(R, (Float4{0, 0, 0, 1}));
}

TEST(ImageSamplerAddressing, BorderColoursFloat) {
  Image I = makeImage({Format::R32G32B32A32_SFLOAT, S2L_VIEW_2D, 2, 2});
  fillFloat(I, [](uint32_t, uint32_t, uint32_t, uint32_t) {
    return Float4{0.5f, 0.5f, 0.5f, 0.5f};
  });
  const Float4 Expected[6] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 1},
                              {0, 0, 0, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};
  for (uint32_t B = 0; B < 6; ++B) {
    s2l_sampler S = makeSampler(Nearest, ClampToBorder);
    S.border_color = B;
    EXPECT_EQ(runFloat(sampleOps(Dim2D, -0.25f, 0.5f), I, &S), Expected[B])
        << "border colour " << B;
    // Inside, the texel.
    EXPECT_EQ(runFloat(sampleOps(Dim2D, 0.25f, 0.5f), I, &S)[0], 0.5f);
  }
}

TEST(ImageSamplerAddressing, BorderColoursInteger) {
  Image I = makeImage({Format::R32G32B32A32_UINT, S2L_VIEW_2D, 2, 2});
  const UInt4 Expected[6] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 1},
                             {0, 0, 0, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}};
  for (uint32_t B = 0; B < 6; ++B) {
    s2l_sampler S = makeSampler(Nearest, ClampToBorder);
    S.border_color = B;
    s2l_image_operands O = sampleOps(Dim2D, 0.5f, 1.5f);
    O.kind = S2L_IMAGE_UINT;
    EXPECT_EQ(runBits(O, &I.descriptor(), &S), Expected[B])
        << "border colour " << B;
  }
}

TEST(ImageSamplerAddressing, LinearFilterBlendsWithBorder) {
  // Half way between texel 0 and the border texel -1: alpha = 0.5.
  Image I = makeImage({Format::R32_SFLOAT, S2L_VIEW_1D, 4});
  fillFloat(I, [](uint32_t, uint32_t, uint32_t, uint32_t) {
    return Float4{0.5f, 0, 0, 1};
  });
  s2l_sampler S = makeSampler(Linear, ClampToBorder);
  S.border_color = 4;
  Float4 R = runFloat(sampleOps(Dim1D, 0.0f), I, &S);
  EXPECT_FLOAT_EQ(R[0], 0.5f * 1.0f + 0.5f * 0.5f);
  EXPECT_FLOAT_EQ(R[3], 1.0f);
}

} // namespace
