//===- image/BlockDecoders.h - Decoders of one compressed block -*- C++ -*-===//
//
// The per-family block decoders behind decodeBlock (BlockCompression.cpp),
// each in its own file.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_IMAGE_BLOCKDECODERS_H
#define SPIRV2LLVM_IMAGE_BLOCKDECODERS_H

#include "spirv2llvm/ImageFormat.h"

namespace spirv2llvm::image {

/// BC7 (BPTC UNORM): 16 bytes to 16 texels, row-major, as UNORM floats
/// (k / 255); sRGB conversion is the caller's. Reserved mode 8 (a first
/// byte of 0) decodes to transparent black, as the format specification
/// requires.
void decodeBC7(const uint8_t *Block, std::span<Float4> Out);

/// BC6H (BPTC float), unsigned or signed: 16 bytes to 16 texels, RGB as
/// the half values the format defines, alpha 1. Reserved modes decode to
/// black.
void decodeBC6H(const uint8_t *Block, bool Signed, std::span<Float4> Out);

} // namespace spirv2llvm::image

#endif
