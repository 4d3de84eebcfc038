//===- image/TexelCodecInternal.h - Texel conversions without checks ------===//
//
// The conversions of decodeTexel/encodeTexel for callers that have already
// looked the format up and checked its view once (the image operations,
// which convert several texels per call): no table lookup, no Status. The
// caller guarantees that Info is uncompressed and that hasView(Info, V)
// holds for the view it uses.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_IMAGE_TEXELCODECINTERNAL_H
#define SPIRV2LLVM_IMAGE_TEXELCODECINTERNAL_H

#include "spirv2llvm/ImageFormat.h"

namespace spirv2llvm::detail {

/// Whether uncompressed Info has a component in view V (false when
/// compressed).
bool hasView(const FormatInfo &Info, ViewKind V);

void decodeTexelUnchecked(const FormatInfo &Info, const void *Src,
                          Float4 &Out);
void decodeTexelUnchecked(const FormatInfo &Info, const void *Src, Int4 &Out);
void decodeTexelUnchecked(const FormatInfo &Info, const void *Src, UInt4 &Out);
void encodeTexelUnchecked(const FormatInfo &Info, const Float4 &In,
                          void *Dst);
void encodeTexelUnchecked(const FormatInfo &Info, const Int4 &In, void *Dst);
void encodeTexelUnchecked(const FormatInfo &Info, const UInt4 &In, void *Dst);

} // namespace spirv2llvm::detail

#endif
