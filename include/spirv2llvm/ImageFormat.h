//===- spirv2llvm/ImageFormat.h - Vulkan texel formats ----------*- C++ -*-===//
//
// The texel formats of Vulkan 1.3 that images, texel buffers and
// attachments use, a table of their properties, and the exact conversions
// between a texel in memory and the float4 / int4 / uint4 a shader sees
// (Vulkan 1.3 "Format Conversions", "Fixed-Point Data Conversions",
// "Floating Point Computation", "Shared Exponent"), plus block-compressed
// (BC1-BC7) decoding. No LLVM types: this compiles without LLVM's include
// path, like the other runtime headers.
//
//   const spirv2llvm::FormatInfo *I = spirv2llvm::formatInfo(Format::R8_UNORM);
//   spirv2llvm::Float4 V;
//   spirv2llvm::Status S = spirv2llvm::decodeTexel(Format::R8_UNORM, Bytes, V);
//
// Limitation: compressed formats are decoded, never encoded (docs/images.md).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_IMAGEFORMAT_H
#define SPIRV2LLVM_IMAGEFORMAT_H

#include "spirv2llvm/Status.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace spirv2llvm {

/// A texel format, numbered as VkFormat. UNDEFINED (0) is no format: it
/// has no table row (formatInfo gives null); pipeline state uses it for
/// "no attachment".
enum class Format : uint32_t {
  UNDEFINED = 0,
#define S2L_FORMAT(Name, Value, ...) Name = Value,
#include "spirv2llvm/ImageFormats.def"
};

/// How a component's bits are read (Vulkan's numeric format suffixes).
enum class NumericKind : uint8_t {
  UNorm,   // c / (2^b - 1)
  SNorm,   // max(c / (2^(b-1) - 1), -1)
  UScaled, // (float)c
  SScaled, // (float)signed c
  UInt,    // c
  SInt,    // signed c
  SFloat,  // IEEE binary16 / binary32
  UFloat,  // unsigned 10- or 11-bit floats (no sign bit)
  SRGB,    // sRGB EOTF of the UNORM value (colour components only)
};

/// Which value a component holds.
enum class ChannelKind : uint8_t { R, G, B, A, Depth, Stencil };

/// How a texel is laid out in memory.
enum class LayoutKind : uint8_t {
  /// Components at fixed bit ranges of the little-endian texel.
  Bits,
  /// E5B9G9R9: three 9-bit mantissas and one shared 5-bit exponent.
  SharedExponent,
  /// A 4x4 block of texels (BC1 to BC7), decoded as a whole.
  Compressed,
};

/// What a shader reads from a texel: float4 (sampled/float formats, depth),
/// int4 (SINT) or uint4 (UINT, stencil).
enum class ViewKind : uint8_t { Float, SInt, UInt };

struct ComponentInfo {
  ChannelKind Channel;
  NumericKind Numeric;
  /// Bit range in the little-endian texel (Layout Bits only).
  uint8_t Offset;
  uint8_t Bits;
};

struct FormatInfo {
  Format Fmt;
  /// The Vulkan name without VK_FORMAT_ ("R8G8B8A8_UNORM").
  std::string_view Name;
  LayoutKind Layout;
  /// Bytes of a texel, or of a block for compressed formats.
  uint8_t BlockBytes;
  /// 1x1, or 4x4 for compressed formats.
  uint8_t BlockWidth, BlockHeight;
  uint8_t NumComponents;
  /// Components in the order the format's name lists them.
  std::array<ComponentInfo, 4> Components;

  bool isCompressed() const { return Layout == LayoutKind::Compressed; }
  /// The R64 formats: vertex input reads them; they have no float4 / int4
  /// / uint4 view, so the texel codec and images reject them.
  bool has64BitComponents() const {
    return Layout == LayoutKind::Bits && Components[0].Bits == 64;
  }
  bool hasDepth() const;
  bool hasStencil() const;
  /// The view a shader reads: Float for a depth/stencil format with a
  /// depth component (stencil is read with readTexel's UInt view).
  ViewKind view() const;
  /// Whether the colour components are sRGB-encoded.
  bool isSRGB() const;
};

/// Every format of the table, ordered by VkFormat number.
std::span<const FormatInfo> allFormats();
/// The table row of F, or null when F is not a format of the table.
const FormatInfo *formatInfo(Format F);
/// Looks a format up by its Vulkan name, as Amber and Vulkan spell it:
/// "R8G8B8A8_UNORM" or "VK_FORMAT_R8G8B8A8_UNORM" (case sensitive).
std::optional<Format> formatByName(std::string_view Name);

using Float4 = std::array<float, 4>;
using Int4 = std::array<int32_t, 4>;
using UInt4 = std::array<uint32_t, 4>;

/// Texel to value. Components the format lacks read as 0, alpha as 1
/// (Vulkan "Conversion to RGBA"); depth reads into R (float view) and
/// stencil into R (uint view). Each fails with a message when the format
/// has no such view (uint view of R8_UNORM), is compressed or has 64-bit
/// components (R64_SFLOAT), and reads exactly formatInfo(F)->BlockBytes
/// bytes of Src.
Status decodeTexel(Format F, const void *Src, Float4 &Out);
Status decodeTexel(Format F, const void *Src, Int4 &Out);
Status decodeTexel(Format F, const void *Src, UInt4 &Out);

/// Value to texel, as an image store or attachment write converts it:
/// clamps and rounds to nearest even for normalized formats, rounds to
/// nearest even with the spec's overflow rules for small floats, truncates
/// integers to the component's bits. Writes BlockBytes bytes of Dst, except
/// for combined depth/stencil formats, where the float view writes only the
/// depth bits and the uint view only the stencil bits (the other aspect is
/// left as it was, as an aspect copy does). Fails as decodeTexel does.
Status encodeTexel(Format F, const Float4 &In, void *Dst);
Status encodeTexel(Format F, const Int4 &In, void *Dst);
Status encodeTexel(Format F, const UInt4 &In, void *Dst);

/// Decodes one compressed block (BlockBytes of Src) into
/// BlockWidth*BlockHeight float4 texels, row by row. SNORM/UNORM BC4 and
/// BC5 give their normalized values, BC6H its half-float values, sRGB
/// formats are converted to linear. Fails for uncompressed formats and
/// when Out has fewer than 16 elements.
Status decodeBlock(Format F, const void *Src, std::span<Float4> Out);

// The scalar conversions, exposed so that code generation and tests use
// the very functions the texel conversions use.

/// IEEE binary16 <-> float, round to nearest even, overflow to infinity,
/// NaN stays NaN (quiet).
float halfToFloat(uint16_t H);
uint16_t floatToHalf(float F);
/// Unsigned small floats with 5 exponent bits and MantissaBits (6 or 5)
/// mantissa bits: negative values and -Inf give 0, NaN gives NaN, finite
/// values above the largest finite value give that value, +Inf gives Inf.
float unsignedSmallFloatToFloat(uint32_t Bits, unsigned MantissaBits);
uint32_t floatToUnsignedSmallFloat(float F, unsigned MantissaBits);
/// E5B9G9R9 (Vulkan "Shared Exponent"), R in the low bits.
Float4 decodeRGB9E5(uint32_t Packed);
uint32_t encodeRGB9E5(const Float4 &RGB);
/// The sRGB transfer functions (Vulkan "sRGB EOTF"): encoded in [0,1] to
/// linear, and linear to encoded (NaN to 0, clamped to [0,1]).
float srgbToLinear(float Encoded);
float linearToSRGB(float Linear);
/// Normalized fixed point of Bits bits: value to float and back (clamp,
/// round to nearest even; NaN to 0).
float unormToFloat(uint32_t C, unsigned Bits);
uint32_t floatToUNorm(float F, unsigned Bits);
float snormToFloat(int32_t C, unsigned Bits);
int32_t floatToSNorm(float F, unsigned Bits);

} // namespace spirv2llvm

#endif
