//===- spirv2llvm/MipChain.h - Mip levels made by linear blits --*- C++ -*-===//
//
// What an application does to fill a mip chain from its level 0 (and what
// Amber does for an IMAGE or BUFFER with MIP_LEVELS and data): for each
// level L > 0, vkCmdBlitImage of the whole level L - 1 onto the whole level
// L with VK_FILTER_LINEAR. A blit samples the source as a linear sampler
// with clamp-to-edge does at the centre of each destination texel, scaled
// to the source's size (Vulkan 1.3 "Image Copies with Scaling"); for sizes
// that halve exactly that is a 2x2 (3D: 2x2x2) box filter.
//
// The rounding is lavapipe's, so that results match the reference driver
// bit for bit where it is exact (docs/images.md, "Mip chains"):
//   * formats whose components are all 8-bit UNORM (R8, R8G8, R8G8B8A8,
//     B8G8R8A8, ...): the source coordinate u = (x + 0.5) * src / dst -
//     0.5 kept to 8 fractional bits, rounded to nearest (i0 = floor, w =
//     0..255), and each lerp on the bytes, v0 + round(w * (v1 - v0) / 256)
//     with halves rounded up, first along x, then y, then z;
//   * every other filterable format: in float on decodeTexel's values with
//     unquantized weights (i0 = floor(u), w = u - i0), stored through
//     encodeTexel (round to nearest even; sRGB decoded to linear and
//     encoded again).
// Integer, depth/stencil and compressed formats cannot be blitted with a
// linear filter (Vulkan requires FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR)
// and are refused with a message naming the format. No LLVM.
//
//   s2l_image Desc = Img.descriptor();             // levels of a chain
//   if (Status S = generateMipLevels(Desc); !S.ok()) ...
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_MIPCHAIN_H
#define SPIRV2LLVM_MIPCHAIN_H

#include "spirv2llvm/Status.h"
#include "spirv2llvm/abi.h"

#include <cstdint>

namespace spirv2llvm {

/// Blits the whole level \p Src of \p Img onto the whole level \p Dst with
/// a linear filter (every array layer; 3D images filter across slices
/// too). \p Img's data and level table must describe valid memory (as
/// spirv2llvm::Image's descriptor does). Fails for formats that cannot be
/// filtered, multisampled images and levels out of range.
Status blitLevelLinear(const s2l_image &Img, uint32_t Src, uint32_t Dst);

/// Fills levels \p First + 1 ... levels - 1 of \p Img, each from the one
/// above it, by blitLevelLinear.
Status generateMipLevels(const s2l_image &Img, uint32_t First = 0);

} // namespace spirv2llvm

#endif
