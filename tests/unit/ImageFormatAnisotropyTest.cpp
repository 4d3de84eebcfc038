//===- ImageFormatAnisotropyTest.cpp - Anisotropic footprints -------------===//
//
// The footprint of an anisotropic sample (src/image/SamplerLod.cpp,
// SamplerFilter.cpp): rho_x, rho_y are the gradients' lengths in texels,
// eta = min(rho_max / rho_min, maxAnisotropy) (maxAnisotropy itself when
// rho_min is 0), ceil(eta) probes at (k + 0.5) / n - 0.5 of the major
// gradient around the centre, each at lambda = log2(rho_max / eta), and
// their mean. Vulkan leaves the footprint to the implementation; these
// tests pin down the one documented in docs/images.md ("Image
// operations"): the major axis along v, a diagonal one, a degenerate
// one, a non-integer ratio and a maxAnisotropy under 2, and the level the
// probes read. Each image's texels are chosen so that the probes' mean
// differs from the centre texel, and the expected values are computed
// from the rule and the texel function, with nearest filtering so that
// every probe reads one texel.
//
//===----------------------------------------------------------------------===//
#include "ImageOpsTestUtil.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace spirv2llvm;
using namespace spirv2llvm::testing;

namespace {

constexpr uint32_t Size = 16;

/// Texel (x, y) of level L: a function no straight line of probes
/// averages to its centre value.
float texelValue(uint32_t L, uint32_t X, uint32_t Y) {
  return float(10000 * L + X * X + 3 * Y * Y + X * Y);
}

/// A 16x16 R32_SFLOAT image of \p Levels levels holding texelValue.
Image footprintImage(uint32_t Levels = 1) {
  Image I =
      makeImage({Format::R32_SFLOAT, S2L_VIEW_2D, Size, Size, 1, 1, Levels});
  fillFloat(I, [](uint32_t L, uint32_t X, uint32_t Y, uint32_t) {
    return Float4{texelValue(L, X, Y), 0, 0, 1};
  });
  return I;
}

/// A sample at (S, T) with gradients \p Gx, \p Gy (in normalized
/// coordinates).
s2l_image_operands gradOps(float S, float T, std::array<float, 2> Gx,
                           std::array<float, 2> Gy) {
  s2l_image_operands O = sampleOps(Dim2D, S, T);
  O.flags |= S2L_IMAGE_HAS_GRAD;
  O.grad_x[0] = Gx[0];
  O.grad_x[1] = Gx[1];
  O.grad_y[0] = Gy[0];
  O.grad_y[1] = Gy[1];
  return O;
}

/// What the rule says: the mean of the probes' texels at the level
/// nearest mipmapping picks for lambda = log2(rho_max / eta).
float expectedSample(const s2l_image_operands &O, float MaxAniso,
                     uint32_t Levels) {
  auto Len = [](const float *G) {
    return std::sqrt(G[0] * Size * G[0] * Size + G[1] * Size * G[1] * Size);
  };
  float RhoX = Len(O.grad_x), RhoY = Len(O.grad_y);
  float RhoMax = std::max(RhoX, RhoY), RhoMin = std::min(RhoX, RhoY);
  float Eta = RhoMin > 0 ? std::min(RhoMax / RhoMin, MaxAniso) : MaxAniso;
  uint32_t N = uint32_t(std::ceil(Eta));
  float Lambda = std::log2(RhoMax / Eta);
  // Nearest mipmapping: d = 0 for d' <= 0.5, else ceil(d' + 0.5) - 1.
  float DPrime = std::clamp(Lambda, 0.0f, float(Levels - 1));
  uint32_t L = DPrime <= 0.5f ? 0 : uint32_t(std::ceil(DPrime + 0.5f) - 1);
  const float *G = RhoX >= RhoY ? O.grad_x : O.grad_y;
  uint32_t LevelSize = Size >> L;
  double Sum = 0;
  for (uint32_t K = 0; K < N; ++K) {
    float Step = (float(K) + 0.5f) / float(N) - 0.5f;
    float S = O.coord[0] + Step * G[0], T = O.coord[1] + Step * G[1];
    auto Texel = [&](float C) {
      return uint32_t(std::clamp(std::floor(C * float(LevelSize)), 0.0f,
                                 float(LevelSize - 1)));
    };
    Sum += texelValue(L, Texel(S), Texel(T));
  }
  return float(Sum / N);
}

/// The sample at the centre alone (what an isotropic sampler reads at
/// level 0).
float centreTexel(const s2l_image_operands &O) {
  return texelValue(0, uint32_t(O.coord[0] * Size),
                    uint32_t(O.coord[1] * Size));
}

// Coordinates a quarter texel off the centres: probes never land on a
// texel boundary, where float rounding would pick either side.
constexpr float C = 8.25f / Size;

TEST(ImageAnisotropy, MajorAxisAlongV) {
  Image I = footprintImage();
  s2l_sampler S = makeSampler(Nearest);
  S.max_anisotropy = 4;
  // rho_x = 1, rho_y = 4: four probes along v.
  s2l_image_operands O = gradOps(C, C, {1.0f / Size, 0}, {0, 4.0f / Size});
  float Want = expectedSample(O, 4, 1);
  EXPECT_NE(Want, centreTexel(O));
  EXPECT_FLOAT_EQ(runFloat(O, I, &S)[0], Want);
  // Isotropic (maxAnisotropy 1): the centre texel.
  S.max_anisotropy = 1;
  EXPECT_EQ(runFloat(O, I, &S)[0], centreTexel(O));
}

TEST(ImageAnisotropy, DiagonalFootprint) {
  Image I = footprintImage();
  s2l_sampler S = makeSampler(Nearest);
  S.max_anisotropy = 16;
  // The major gradient (3, 3) texels, the minor (-1, 1): eta = 3, probes
  // on the diagonal, both coordinates move.
  s2l_image_operands O =
      gradOps(C, C, {3.0f / Size, 3.0f / Size}, {-1.0f / Size, 1.0f / Size});
  float Want = expectedSample(O, 16, 1);
  EXPECT_NE(Want, centreTexel(O));
  EXPECT_FLOAT_EQ(runFloat(O, I, &S)[0], Want);
}

TEST(ImageAnisotropy, DegenerateFootprintTakesMaxAnisotropy) {
  Image I = footprintImage();
  s2l_sampler S = makeSampler(Nearest);
  // rho_y = 0: the ratio is infinite, eta is maxAnisotropy.
  s2l_image_operands O = gradOps(C, C, {8.0f / Size, 0}, {0, 0});
  for (float N : {2.0f, 4.0f, 8.0f}) {
    S.max_anisotropy = N;
    float Want = expectedSample(O, N, 1);
    EXPECT_NE(Want, centreTexel(O)) << "maxAnisotropy " << N;
    EXPECT_FLOAT_EQ(runFloat(O, I, &S)[0], Want) << "maxAnisotropy " << N;
  }
}

TEST(ImageAnisotropy, FractionalRatioAndLevel) {
  // rho_x = 10, rho_y = 4 texels of level 0: eta = 2.5, three probes, at
  // lambda = log2(10 / 2.5) = 2 (level 2); an isotropic sampler would
  // take log2(10) = 3.3, level 3.
  Image I = footprintImage(5);
  s2l_sampler S = makeSampler(Nearest);
  S.max_anisotropy = 16;
  s2l_image_operands O = gradOps(C, C, {10.0f / Size, 0}, {0, 4.0f / Size});
  float Want = expectedSample(O, 16, 5);
  EXPECT_GE(Want, 20000.0f);
  EXPECT_LT(Want, 30000.0f);
  EXPECT_FLOAT_EQ(runFloat(O, I, &S)[0], Want);
  S.max_anisotropy = 1;
  EXPECT_GE(runFloat(O, I, &S)[0], 30000.0f);
}

TEST(ImageAnisotropy, MaxAnisotropyUnderTwo) {
  // maxAnisotropy 1.5 caps eta at 1.5: two probes, lambda = log2(4 / 1.5)
  // = 1.4 (level 1, not level 2 as isotropic).
  Image I = footprintImage(5);
  s2l_sampler S = makeSampler(Nearest);
  S.max_anisotropy = 1.5f;
  s2l_image_operands O = gradOps(C, C, {4.0f / Size, 0}, {0, 1.0f / Size});
  float Want = expectedSample(O, 1.5f, 5);
  EXPECT_GE(Want, 10000.0f);
  EXPECT_LT(Want, 20000.0f);
  EXPECT_FLOAT_EQ(runFloat(O, I, &S)[0], Want);
}

} // namespace
