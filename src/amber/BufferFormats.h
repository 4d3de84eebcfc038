//===- BufferFormats.h - Amber data types and image formats -----*- C++ -*-===//
//
// One element of an Amber buffer is a list of components, padding included,
// so that reading, writing and comparing walk the same layout whatever the
// declaration was: DATA_TYPE (int8..uint64, float16, float, double, vecN<T>,
// matCxR<T>, T[] in STD140 or STD430) or a Vulkan FORMAT name
// (R8G8B8A8_UNORM, B8G8R8A8_UNORM, R32G32B32A32_SFLOAT, ...).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_BUFFERFORMATS_H
#define SPIRV2LLVM_AMBER_BUFFERFORMATS_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spirv2llvm::amber {

enum class NumKind : uint8_t { Int, UInt, Float, UNorm, SNorm };

struct Component {
  NumKind Kind = NumKind::Float;
  uint8_t Bits = 32;
  bool Padding = false;
  /// Image formats: the channel, 'R' 'G' 'B' 'A' (0 for data types).
  char Channel = 0;
  uint32_t Offset = 0; ///< byte offset in the element
};

struct BufferFormat {
  std::string Name;            ///< as declared
  std::vector<Component> Components;
  uint32_t ElementSize = 0;    ///< bytes, padding included
  bool IsImage = false;        ///< a FORMAT: pixels with channels
  bool Std140 = false;
  /// An _SRGB format: R, G and B hold sRGB-encoded UNORM values (probes
  /// compare them decoded to linear, clears encode).
  bool Srgb = false;
  /// A packed format (A8B8G8R8_UNORM_PACK32, B10G11R11_UFLOAT_PACK32, ...):
  /// its one component is the whole packed word, as Amber reads DATA and
  /// FILL values for it; clears and probes convert through the image
  /// library's texel codec, which knows the bit fields.
  bool Packed = false;

  /// Number of value-carrying (non-padding) components per element.
  unsigned valuesPerElement() const;
  /// The component of the channel \p C ('R'..'A'), or null.
  const Component *channel(char C) const;
};

/// Parses a DATA_TYPE (or a FORMAT name used as one) in \p Std140 layout.
llvm::Expected<BufferFormat> parseDataType(llvm::StringRef Name, bool Std140);

/// STRUCT name ... END: members in order, each a type (scalar, vecN<T>,
/// matCxR<T> or an earlier STRUCT) with an optional explicit OFFSET.
struct StructDef {
  struct Member {
    std::string Type;
    std::optional<uint32_t> Offset;
  };
  std::vector<Member> Members;
};
using StructTable = std::map<std::string, StructDef, std::less<>>;

/// Lays out STRUCT \p Def with GLSL's std140 or std430 rules (members at
/// their base alignment unless OFFSET says otherwise, the struct padded to
/// its alignment).
llvm::Expected<BufferFormat> layoutStruct(llvm::StringRef Name,
                                          const StructDef &Def, bool Std140,
                                          const StructTable &Structs);
/// Parses a Vulkan FORMAT name; only whole-byte channels (no packed,
/// depth or stencil formats).
llvm::Expected<BufferFormat> parseImageFormat(llvm::StringRef Name);

/// Writes value text \p V into component \p C at \p Dst (integers may be
/// hexadecimal; float16 rounds to nearest even). Fails on malformed text.
llvm::Error writeComponent(const Component &C, llvm::StringRef V,
                           uint8_t *Dst);
void writeComponentDouble(const Component &C, double V, uint8_t *Dst);
/// The component's value: integers and normalized formats as their
/// integer value, floats as their value.
double readComponent(const Component &C, const uint8_t *Src);
/// Integer value of an integer component (sign-extended for Int).
int64_t readComponentInt(const Component &C, const uint8_t *Src);
uint64_t readComponentUInt(const Component &C, const uint8_t *Src);
/// Normalized formats in [0,1] / [-1,1]; others as readComponent.
double readComponentNormalized(const Component &C, const uint8_t *Src);

/// IEEE half <-> double.
uint16_t doubleToHalf(double D);
double halfToDouble(uint16_t H);

} // namespace spirv2llvm::amber

#endif
