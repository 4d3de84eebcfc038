//===- ImageOpsTestUtil.h - Helpers of the s2l_image_op tests ---*- C++ -*-===//
//
// Images, samplers and operands for the ImageFormatSampler*/ImageOps*
// tests, which call s2l_image_op as generated code does.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_IMAGEOPSTESTUTIL_H
#define SPIRV2LLVM_TESTS_IMAGEOPSTESTUTIL_H

#include "spirv2llvm/Image.h"
#include "spirv2llvm/abi.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <cmath>
#include <functional>

namespace spirv2llvm::testing {

// SPIR-V Dim.
enum : uint32_t { Dim1D, Dim2D, Dim3D, DimCube, DimRect, DimBuffer, DimSubpass };
// VkFilter, VkSamplerMipmapMode, VkSamplerAddressMode, VkCompareOp.
enum : uint32_t { Nearest = 0, Linear = 1 };
enum : uint32_t {
  Repeat = 0,
  MirroredRepeat = 1,
  ClampToEdge = 2,
  ClampToBorder = 3,
  MirrorClampToEdge = 4
};
enum : uint32_t {
  Never,
  Less,
  Equal,
  LessOrEqual,
  Greater,
  NotEqual,
  GreaterOrEqual,
  Always
};

inline Image makeImage(const ImageDesc &D) {
  auto R = Image::create(D);
  if (!R) {
    ADD_FAILURE() << R.status().message();
    std::abort();
  }
  return std::move(*R);
}

/// Fills every texel of every level and layer of a float-view image with
/// F(level, x, y, z or layer).
inline void fillFloat(Image &I,
                      const std::function<Float4(uint32_t, uint32_t, uint32_t,
                                                 uint32_t)> &F) {
  const s2l_image &D = I.descriptor();
  for (uint32_t L = 0; L < D.levels; ++L) {
    const s2l_image_level &Lv = D.level[L];
    uint32_t Slices = D.view_type == S2L_VIEW_3D ? Lv.depth : D.layers;
    for (uint32_t Z = 0; Z < Slices; ++Z)
      for (uint32_t Y = 0; Y < Lv.height; ++Y)
        for (uint32_t X = 0; X < Lv.width; ++X)
          for (uint32_t S = 0; S < D.samples; ++S)
            EXPECT_TRUE(I.writeTexel(L, X, Y, Z, S, F(L, X, Y, Z)).ok());
  }
}

/// A sampler with the given filter for mag and min, nearest mipmaps, one
/// address mode on every axis and no lod limits.
inline s2l_sampler makeSampler(uint32_t Filter = Nearest,
                               uint32_t Address = ClampToEdge) {
  s2l_sampler S = {};
  S.mag_filter = S.min_filter = Filter;
  S.mipmap_mode = Nearest;
  S.address_mode[0] = S.address_mode[1] = S.address_mode[2] = Address;
  S.min_lod = 0;
  S.max_lod = 1000;
  S.max_anisotropy = 1;
  return S;
}

inline s2l_image_operands sampleOps(uint32_t Dim, float S, float T = 0,
                                    float R = 0, float Q = 0) {
  s2l_image_operands O = {};
  O.op = S2L_IMAGE_OP_SAMPLE;
  O.dim = Dim;
  O.kind = S2L_IMAGE_FLOAT;
  O.coord[0] = S;
  O.coord[1] = T;
  O.coord[2] = R;
  O.coord[3] = Q;
  return O;
}

inline s2l_image_operands withLod(s2l_image_operands O, float Lod) {
  O.flags |= S2L_IMAGE_HAS_LOD;
  O.lod = Lod;
  return O;
}

inline Float4 runFloat(const s2l_image_operands &O, const Image &I,
                       const s2l_sampler *S) {
  uint32_t R[4] = {1, 1, 1, 1};
  EXPECT_EQ(s2l_image_op(&O, &I.descriptor(), S, R), 0u);
  return {std::bit_cast<float>(R[0]), std::bit_cast<float>(R[1]),
          std::bit_cast<float>(R[2]), std::bit_cast<float>(R[3])};
}

inline UInt4 runBits(const s2l_image_operands &O, const s2l_image *I,
                     const s2l_sampler *S) {
  uint32_t R[4] = {1, 1, 1, 1};
  EXPECT_EQ(s2l_image_op(&O, I, S, R), 0u);
  return {R[0], R[1], R[2], R[3]};
}

/// The spec's linear weight: frac(u - 0.5) kept to 8 bits (lavapipe's
/// subTexelPrecisionBits), computed here from its definition.
inline float weight8(double U) {
  double F = U - 0.5 - std::floor(U - 0.5);
  return float(std::floor(F * 256.0) / 256.0);
}

} // namespace spirv2llvm::testing

#endif
