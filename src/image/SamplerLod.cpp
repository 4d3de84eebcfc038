//===- image/SamplerLod.cpp - Level of detail and level selection ---------===//
//
// Vulkan 1.3 "Level-of-Detail Operation" and "Image Level(s) Selection":
//   rho_x = |dU/dx| (texel space, level 0), rho_y = |dU/dy|
//   isotropic:   lambda_base = log2(max(rho_x, rho_y))
//   anisotropic: eta = min(rho_max / rho_min, maxAnisotropy),
//                lambda_base = log2(rho_max / eta), ceil(eta) probes
//   lambda' = lambda_base + clamp(sampler bias + Bias operand, +-16)
//   lambda  = lambda' clamped to [max(minLod, MinLod operand), maxLod]
//   d' = clamp(lambda, 0, q); nearest: d = 0 if d' <= 0.5 else
//   ceil(d' + 0.5) - 1; linear: d_hi = floor(d'), d_lo = min(d_hi + 1, q),
//   delta = d' - d_hi.
// An explicit Lod operand is lambda_base. Without Lod and derivatives
// (implicit lod outside fragment shaders) lambda_base is 0.
//
//===----------------------------------------------------------------------===//
#include "image/ImageOpsInternal.h"

#include <algorithm>
#include <cmath>

namespace spirv2llvm::imageops {

namespace {
float length3(const float V[3]) {
  return std::sqrt(V[0] * V[0] + V[1] * V[1] + V[2] * V[2]);
}
} // namespace

LodResult selectLod(const s2l_image_operands &Ops, const s2l_sampler &Sampler,
                    uint32_t Levels, const float DUx[3], const float DUy[3],
                    bool HaveDerivatives, bool MipLinear) {
  LodResult R;
  float LambdaBase = 0;
  if (Ops.flags & S2L_IMAGE_HAS_LOD) {
    LambdaBase = Ops.lod;
  } else if (HaveDerivatives) {
    float RhoX = length3(DUx), RhoY = length3(DUy);
    float RhoMax = std::max(RhoX, RhoY), RhoMin = std::min(RhoX, RhoY);
    R.ProbeAlongX = RhoX >= RhoY;
    // At most Vulkan's maxSamplerAnisotropy (16): the probe count stays
    // bounded whatever the descriptor holds.
    float MaxAniso = std::min(Sampler.max_anisotropy, MaxSamplerAnisotropy);
    if (MaxAniso > 1.0f && RhoMax > 0) {
      float Eta = RhoMin > 0 ? std::min(RhoMax / RhoMin, MaxAniso) : MaxAniso;
      // Infinite or NaN derivatives (the shader's values) make Eta NaN:
      // one probe, never a float-to-int conversion of NaN.
      if (!(Eta >= 1.0f))
        Eta = 1.0f;
      R.Probes = uint32_t(std::ceil(Eta));
      LambdaBase = std::log2(RhoMax / Eta);
    } else {
      LambdaBase = std::log2(RhoMax); // -inf for zero derivatives.
    }
  }
  float Bias = Sampler.mip_lod_bias;
  if (Ops.flags & S2L_IMAGE_HAS_BIAS)
    Bias += Ops.bias;
  R.LambdaPrime =
      LambdaBase + std::clamp(Bias, -MaxSamplerLodBias, MaxSamplerLodBias);
  float LodMin = Sampler.min_lod, LodMax = Sampler.max_lod;
  if (Ops.flags & S2L_IMAGE_HAS_MIN_LOD)
    LodMin = std::max(LodMin, Ops.min_lod);
  // lodmin > lodmax is undefined; lodmin wins here.
  float Lambda = R.LambdaPrime;
  if (Lambda > LodMax)
    Lambda = LodMax;
  if (Lambda < LodMin || std::isnan(Lambda))
    Lambda = LodMin;
  // A NaN lod clamp in the sampler (the embedder's) leaves Lambda NaN.
  if (std::isnan(Lambda))
    Lambda = 0;
  R.Lambda = Lambda;
  R.Magnify = Lambda <= 0;
  float Q = float(std::max<uint32_t>(Levels, 1) - 1);
  R.DPrime = std::clamp(Lambda, 0.0f, Q);
  if (Sampler.mipmap_mode == 1 && MipLinear) {
    float Hi = std::floor(R.DPrime);
    R.Level[0] = uint32_t(Hi);
    R.Level[1] = std::min(R.Level[0] + 1, uint32_t(Q));
    R.Delta = R.DPrime - Hi;
  } else {
    uint32_t D =
        R.DPrime <= 0.5f ? 0 : uint32_t(std::ceil(R.DPrime + 0.5f) - 1);
    R.Level[0] = R.Level[1] = std::min(D, uint32_t(Q));
  }
  return R;
}

} // namespace spirv2llvm::imageops
