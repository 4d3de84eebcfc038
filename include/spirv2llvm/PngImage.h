//===- spirv2llvm/PngImage.h - PNG files in and out -------------*- C++ -*-===//
//
// Reading and writing PNG files through libpng, for `spirv2llvm run`,
// Amber's PNG images and the tests. A read converts any PNG (palette, grey,
// grey+alpha, RGB, RGBA; 1 to 16 bits) to RGBA8; writes take RGBA8 or
// RGBA16. No LLVM types.
//
//   auto Img = spirv2llvm::readPng("in.png");
//   if (!Img) { std::cerr << Img.status().message() << "\n"; return 1; }
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_PNGIMAGE_H
#define SPIRV2LLVM_PNGIMAGE_H

#include "spirv2llvm/Status.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace spirv2llvm {

/// An RGBA8 image, rows top to bottom, 4 bytes a texel, no padding.
struct Rgba8Image {
  uint32_t Width = 0, Height = 0;
  std::vector<uint8_t> Texels;
};

/// Reads a PNG file or PNG bytes into RGBA8: palettes and grey are
/// expanded, 16-bit channels scaled to 8 bits (v * 255 / 65535, rounded),
/// a missing alpha is 255 (tRNS transparency becomes alpha). Errors name
/// the file (or "<memory>") and what libpng found wrong.
Result<Rgba8Image> readPng(const std::string &Path);
Result<Rgba8Image> readPngBytes(std::span<const uint8_t> Bytes,
                                const std::string &Name = "<memory>");

/// Writes Width x Height RGBA texels (rows top to bottom) as an 8-bit or
/// 16-bit RGBA PNG. Texels must hold Width * Height * 4 values.
Status writePngRGBA8(const std::string &Path, uint32_t Width, uint32_t Height,
                     std::span<const uint8_t> Texels);
Status writePngRGBA16(const std::string &Path, uint32_t Width, uint32_t Height,
                      std::span<const uint16_t> Texels);

} // namespace spirv2llvm

#endif
