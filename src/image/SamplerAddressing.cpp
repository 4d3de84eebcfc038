//===- image/SamplerAddressing.cpp - Address modes and border colours -----===//
//
// Vulkan 1.3 "Wrapping Operation" and "Texel Replacement": where an integer
// texel index on one axis lands for each VkSamplerAddressMode, and the
// border colours that replace texels outside the image with
// CLAMP_TO_BORDER.
//
//===----------------------------------------------------------------------===//
#include "image/ImageOpsInternal.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace spirv2llvm::imageops {

namespace {
/// The spec's "mod": the result is in [0, M).
int32_t floorMod(int32_t A, int32_t M) {
  int32_t R = A % M;
  return R < 0 ? R + M : R;
}
/// The spec's mirror(a): a for a >= 0, -(1 + a) otherwise.
int32_t mirror(int32_t A) { return A >= 0 ? A : -(1 + A); }
} // namespace

int32_t wrapIndex(int32_t I, int32_t Size, uint32_t Mode) {
  if (Size <= 0) // A malformed descriptor: no texel at all.
    return -1;
  switch (Mode) {
  case AddressRepeat:
    return floorMod(I, Size);
  case AddressMirroredRepeat:
    return (Size - 1) - mirror(floorMod(I, 2 * Size) - Size);
  case AddressClampToBorder:
    return I < 0 || I >= Size ? -1 : I;
  case AddressMirrorClampToEdge:
    return std::clamp(mirror(I), 0, Size - 1);
  case AddressClampToEdge:
  default: // An unknown mode clamps: never a read out of bounds.
    return std::clamp(I, 0, Size - 1);
  }
}

Texel borderTexel(uint32_t BorderColor, ViewKind View) {
  // VkBorderColor: 0/1 transparent black, 2/3 opaque black, 4/5 opaque
  // white (even: float, odd: int). The view decides the representation:
  // a float colour with an integer format is undefined in Vulkan, and
  // this gives the integer of the same colour.
  float RGB = BorderColor >= 4 && BorderColor <= 5 ? 1.0f : 0.0f;
  float A = BorderColor >= 2 && BorderColor <= 5 ? 1.0f : 0.0f;
  if (View == ViewKind::Float)
    return {RGB, RGB, RGB, A};
  auto Bits = [](float V) { return std::bit_cast<float>(uint32_t(V)); };
  return {Bits(RGB), Bits(RGB), Bits(RGB), Bits(A)};
}

int32_t floorToInt(float X) {
  if (std::isnan(X))
    return 0;
  // Far beyond any image (16384 texels at most), so that wrapping still
  // sees a coordinate outside the image, and well within int32_t.
  constexpr float Limit = 1 << 28;
  return int32_t(std::floor(std::clamp(X, -Limit, Limit)));
}

} // namespace spirv2llvm::imageops
