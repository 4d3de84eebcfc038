//===- spirv2llvm/Image.h - An image that owns its texels -------*- C++ -*-===//
//
// An image with its texel memory and the s2l_image descriptor (abi.h) that
// generated code and s2l_image_op read: levels tightly packed one after the
// other, each level's slices (3D) or layers after one another, rows after
// one another, samples of a texel next to each other. No LLVM.
//
//   auto I = spirv2llvm::Image::create({Format::R8G8B8A8_UNORM, S2L_VIEW_2D,
//                                       64, 64});
//   if (!I) { std::cerr << I.status().message() << "\n"; return 1; }
//   I->writeTexel(0, 3, 4, 0, 0, Float4{1, 0, 0, 1});
//   Desc.data = (void *)&I->descriptor(); // an s2l_descriptor of a binding
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_IMAGE_H
#define SPIRV2LLVM_IMAGE_H

#include "spirv2llvm/ImageFormat.h"
#include "spirv2llvm/Status.h"
#include "spirv2llvm/abi.h"

#include <cstdint>
#include <memory>
#include <span>

namespace spirv2llvm {

struct ImageDesc {
  Format Fmt = Format::R8G8B8A8_UNORM;
  /// S2L_VIEW_*: how shaders see the image (cube views have 6 layers per
  /// cube; S2L_VIEW_BUFFER is a texel buffer of Width elements).
  uint32_t ViewType = S2L_VIEW_2D;
  uint32_t Width = 1, Height = 1, Depth = 1;
  uint32_t Layers = 1, Levels = 1, Samples = 1;
};

/// An image that owns its texels; move-only. The descriptor's data pointer
/// stays valid across moves (the texels live on the heap).
class Image {
public:
  /// Checks D and allocates zeroed texels. Fails with a message naming the
  /// problem: unknown format, a zero size, more levels than the mip chain
  /// has, a cube that is not square or whose layers are not a multiple of 6,
  /// a buffer view that is not 1D, multisampled images with mip levels or a
  /// 3D/compressed format, sizes beyond the limits (16384 per 1D/2D side,
  /// 2048 layers, 2048 per 3D side, 64 samples, 1 GiB in all).
  static Result<Image> create(const ImageDesc &D);

  Image(Image &&) noexcept = default;
  Image &operator=(Image &&) noexcept = default;
  Image(const Image &) = delete;
  Image &operator=(const Image &) = delete;

  const ImageDesc &desc() const { return Desc; }
  const FormatInfo &formatInfo() const { return *Info; }
  /// The descriptor to bind; its data points into bytes().
  const s2l_image &descriptor() const { return *Descriptor; }
  std::span<uint8_t> bytes() { return {Texels.get(), Size}; }
  std::span<const uint8_t> bytes() const { return {Texels.get(), Size}; }

  /// The first byte of texel (X, Y) of slice or layer ZOrLayer, sample
  /// Sample, of Level (for compressed formats, of the block holding it);
  /// null when out of range.
  uint8_t *texelAddress(uint32_t Level, uint32_t X, uint32_t Y,
                        uint32_t ZOrLayer, uint32_t Sample = 0);

  /// One texel through a view (decodeTexel/encodeTexel); compressed
  /// formats read through decodeBlock and cannot be written. Errors name
  /// the coordinate or the view that does not fit.
  Status readTexel(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
                   uint32_t Sample, Float4 &Out) const;
  Status readTexel(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
                   uint32_t Sample, Int4 &Out) const;
  Status readTexel(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
                   uint32_t Sample, UInt4 &Out) const;
  Status writeTexel(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
                    uint32_t Sample, const Float4 &In);
  Status writeTexel(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
                    uint32_t Sample, const Int4 &In);
  Status writeTexel(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
                    uint32_t Sample, const UInt4 &In);

private:
  Image() = default;
  template <typename T>
  Status read(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
              uint32_t Sample, T &Out) const;
  template <typename T>
  Status write(uint32_t Level, uint32_t X, uint32_t Y, uint32_t ZOrLayer,
               uint32_t Sample, const T &In);
  Status checkCoordinate(uint32_t Level, uint32_t X, uint32_t Y,
                         uint32_t ZOrLayer, uint32_t Sample) const;

  ImageDesc Desc;
  const FormatInfo *Info = nullptr;
  std::unique_ptr<uint8_t[]> Texels;
  size_t Size = 0;
  // On the heap so that a pointer to it (bound as a descriptor) survives
  // moves of the Image.
  std::unique_ptr<s2l_image> Descriptor;
};

} // namespace spirv2llvm

#endif
