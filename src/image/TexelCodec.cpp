//===- image/TexelCodec.cpp - Texels to values and back -------------------===//
//
// decodeTexel/encodeTexel for every uncompressed format: one walk over the
// format's components (from the table), one switch over NumericKind to
// convert a component (ScalarConversions.cpp). The only special layout is
// E5B9G9R9, whose exponent is shared.
//
//===----------------------------------------------------------------------===//
#include "image/TexelCodecInternal.h"
#include "spirv2llvm/ImageFormat.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <string>

namespace spirv2llvm {

namespace {

/// A texel of at most 16 bytes as a 128-bit little-endian integer.
struct TexelBits {
  uint64_t Word[2] = {0, 0};

  static TexelBits load(const void *Src, unsigned Bytes) {
    TexelBits T;
    if constexpr (std::endian::native == std::endian::little) {
      // The common host: the bytes are the words (s2l_image_op calls this
      // for every texel it filters).
      std::memcpy(T.Word, Src, Bytes);
      return T;
    }
    uint8_t Buffer[16] = {};
    std::memcpy(Buffer, Src, Bytes);
    for (unsigned I = 0; I < 16; ++I)
      T.Word[I / 8] |= uint64_t(Buffer[I]) << (8 * (I % 8));
    return T;
  }
  void store(void *Dst, unsigned Bytes) const {
    uint8_t Buffer[16];
    for (unsigned I = 0; I < 16; ++I)
      Buffer[I] = uint8_t(Word[I / 8] >> (8 * (I % 8)));
    std::memcpy(Dst, Buffer, Bytes);
  }
  static uint64_t mask(unsigned Bits) {
    return Bits == 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
  }
  // Components never straddle the two words (the widest is 32 bits at a
  // multiple of 32).
  uint32_t get(const ComponentInfo &C) const {
    assert(C.Offset % 64 + C.Bits <= 64 && "component straddles words");
    return uint32_t((Word[C.Offset / 64] >> (C.Offset % 64)) & mask(C.Bits));
  }
  void set(const ComponentInfo &C, uint32_t V) {
    uint64_t &W = Word[C.Offset / 64];
    uint64_t M = mask(C.Bits) << (C.Offset % 64);
    W = (W & ~M) | ((uint64_t(V) << (C.Offset % 64)) & M);
  }
};

int32_t signExtend(uint32_t V, unsigned Bits) {
  if (Bits == 32)
    return int32_t(V);
  uint32_t Sign = 1u << (Bits - 1);
  return int32_t((V ^ Sign) - Sign);
}

/// Where a component lands in the float4/int4/uint4 a shader sees.
unsigned slotOf(ChannelKind C) {
  switch (C) {
  case ChannelKind::R:
  case ChannelKind::Depth:
  case ChannelKind::Stencil:
    return 0;
  case ChannelKind::G:
    return 1;
  case ChannelKind::B:
    return 2;
  case ChannelKind::A:
    return 3;
  }
  return 0;
}

bool isIntegerKind(NumericKind N) {
  return N == NumericKind::UInt || N == NumericKind::SInt;
}

/// Whether component C takes part in view V.
bool inView(const ComponentInfo &C, ViewKind V) {
  switch (V) {
  case ViewKind::Float:
    return !isIntegerKind(C.Numeric);
  case ViewKind::UInt:
    return C.Numeric == NumericKind::UInt;
  case ViewKind::SInt:
    return C.Numeric == NumericKind::SInt;
  }
  return false;
}

const char *viewName(ViewKind V) {
  switch (V) {
  case ViewKind::Float:
    return "float";
  case ViewKind::SInt:
    return "int";
  case ViewKind::UInt:
    return "uint";
  }
  return "?";
}

/// Checks that F is an uncompressed format with at least one component in
/// view V; on success sets Info.
Status checkView(Format F, ViewKind V, const FormatInfo *&Info) {
  Info = formatInfo(F);
  if (!Info)
    return Status::error("unknown format " + std::to_string(uint32_t(F)),
                         StatusCode::InvalidArgument);
  if (Info->isCompressed())
    return Status::error("format " + std::string(Info->Name) +
                             " is block-compressed: decode it with decodeBlock",
                         StatusCode::InvalidArgument);
  if (Info->has64BitComponents())
    return Status::error("format " + std::string(Info->Name) +
                             " has 64-bit components: it has no 32-bit view "
                             "(a vertex format only)",
                         StatusCode::InvalidArgument);
  for (unsigned I = 0; I < Info->NumComponents; ++I)
    if (inView(Info->Components[I], V))
      return Status::success();
  return Status::error("format " + std::string(Info->Name) + " has no " +
                           viewName(V) + " view (it reads as " +
                           viewName(Info->view()) + "4)",
                       StatusCode::InvalidArgument);
}

float componentToFloat(const ComponentInfo &C, uint32_t Raw) {
  switch (C.Numeric) {
  case NumericKind::UNorm:
    return unormToFloat(Raw, C.Bits);
  case NumericKind::SNorm:
    return snormToFloat(signExtend(Raw, C.Bits), C.Bits);
  case NumericKind::UScaled:
    return float(Raw);
  case NumericKind::SScaled:
    return float(signExtend(Raw, C.Bits));
  case NumericKind::SFloat:
    return C.Bits == 16 ? halfToFloat(uint16_t(Raw))
                        : std::bit_cast<float>(Raw);
  case NumericKind::UFloat:
    return unsignedSmallFloatToFloat(Raw, C.Bits - 5);
  case NumericKind::SRGB:
    return srgbToLinear(unormToFloat(Raw, C.Bits));
  case NumericKind::UInt:
  case NumericKind::SInt:
    break;
  }
  assert(false && "integer component in the float view");
  return 0;
}

/// Scaled formats convert like an integer conversion of the float: round to
/// nearest even, clamped to the component's range.
uint32_t floatToScaled(float F, const ComponentInfo &C, bool Signed) {
  if (std::isnan(F))
    return 0;
  double Lo = Signed ? -std::ldexp(1.0, C.Bits - 1) : 0.0;
  double Hi =
      Signed ? std::ldexp(1.0, C.Bits - 1) - 1 : std::ldexp(1.0, C.Bits) - 1;
  double V = std::clamp(std::nearbyint(double(F)), Lo, Hi);
  return uint32_t(int64_t(V));
}

uint32_t floatToComponent(const ComponentInfo &C, float F) {
  switch (C.Numeric) {
  case NumericKind::UNorm:
    return floatToUNorm(F, C.Bits);
  case NumericKind::SNorm:
    return uint32_t(floatToSNorm(F, C.Bits));
  case NumericKind::UScaled:
    return floatToScaled(F, C, false);
  case NumericKind::SScaled:
    return floatToScaled(F, C, true);
  case NumericKind::SFloat:
    return C.Bits == 16 ? floatToHalf(F) : std::bit_cast<uint32_t>(F);
  case NumericKind::UFloat:
    return floatToUnsignedSmallFloat(F, C.Bits - 5);
  case NumericKind::SRGB:
    return floatToUNorm(linearToSRGB(F), C.Bits);
  case NumericKind::UInt:
  case NumericKind::SInt:
    break;
  }
  assert(false && "integer component in the float view");
  return 0;
}

template <typename T> constexpr ViewKind viewOf() {
  if constexpr (std::is_same_v<T, Float4>)
    return ViewKind::Float;
  else if constexpr (std::is_same_v<T, Int4>)
    return ViewKind::SInt;
  else
    return ViewKind::UInt;
}

template <typename T>
void decodeUnchecked(const FormatInfo *Info, const void *Src, T &Out) {
  constexpr ViewKind V = viewOf<T>();
  Out = T{0, 0, 0, 1};
  if (Info->Layout == LayoutKind::SharedExponent) {
    if constexpr (V == ViewKind::Float)
      Out = decodeRGB9E5(uint32_t(TexelBits::load(Src, 4).Word[0]));
    return;
  }
  TexelBits Bits = TexelBits::load(Src, Info->BlockBytes);
  for (unsigned I = 0; I < Info->NumComponents; ++I) {
    const ComponentInfo &C = Info->Components[I];
    if (!inView(C, V))
      continue;
    uint32_t Raw = Bits.get(C);
    if constexpr (V == ViewKind::Float)
      Out[slotOf(C.Channel)] = componentToFloat(C, Raw);
    else if constexpr (V == ViewKind::SInt)
      Out[slotOf(C.Channel)] = signExtend(Raw, C.Bits);
    else
      Out[slotOf(C.Channel)] = Raw;
  }
}

template <typename T> Status decode(Format F, const void *Src, T &Out) {
  const FormatInfo *Info;
  if (Status S = checkView(F, viewOf<T>(), Info); !S.ok())
    return S;
  decodeUnchecked(Info, Src, Out);
  return Status::success();
}

template <typename T>
void encodeUnchecked(const FormatInfo *Info, const T &In, void *Dst) {
  constexpr ViewKind V = viewOf<T>();
  if (Info->Layout == LayoutKind::SharedExponent) {
    if constexpr (V == ViewKind::Float) {
      TexelBits Bits;
      Bits.Word[0] = encodeRGB9E5(In);
      Bits.store(Dst, 4);
    }
    return;
  }
  // Combined depth/stencil: keep the other aspect's bits as they are.
  bool Combined = Info->hasDepth() && Info->hasStencil();
  TexelBits Bits;
  if (Combined)
    Bits = TexelBits::load(Dst, Info->BlockBytes);
  for (unsigned I = 0; I < Info->NumComponents; ++I) {
    const ComponentInfo &C = Info->Components[I];
    if (!inView(C, V))
      continue;
    auto Value = In[slotOf(C.Channel)];
    if constexpr (V == ViewKind::Float)
      Bits.set(C, floatToComponent(C, Value));
    else
      Bits.set(C, uint32_t(Value)); // Keeps the low bits (truncation).
  }
  Bits.store(Dst, Info->BlockBytes);
}

template <typename T> Status encode(Format F, const T &In, void *Dst) {
  const FormatInfo *Info;
  if (Status S = checkView(F, viewOf<T>(), Info); !S.ok())
    return S;
  encodeUnchecked(Info, In, Dst);
  return Status::success();
}

} // namespace

namespace detail {
bool hasView(const FormatInfo &Info, ViewKind V) {
  if (Info.isCompressed() || Info.has64BitComponents())
    return false;
  for (unsigned I = 0; I < Info.NumComponents; ++I)
    if (inView(Info.Components[I], V))
      return true;
  return false;
}
void decodeTexelUnchecked(const FormatInfo &Info, const void *Src,
                          Float4 &Out) {
  decodeUnchecked(&Info, Src, Out);
}
void decodeTexelUnchecked(const FormatInfo &Info, const void *Src, Int4 &Out) {
  decodeUnchecked(&Info, Src, Out);
}
void decodeTexelUnchecked(const FormatInfo &Info, const void *Src,
                          UInt4 &Out) {
  decodeUnchecked(&Info, Src, Out);
}
void encodeTexelUnchecked(const FormatInfo &Info, const Float4 &In,
                          void *Dst) {
  encodeUnchecked(&Info, In, Dst);
}
void encodeTexelUnchecked(const FormatInfo &Info, const Int4 &In, void *Dst) {
  encodeUnchecked(&Info, In, Dst);
}
void encodeTexelUnchecked(const FormatInfo &Info, const UInt4 &In,
                          void *Dst) {
  encodeUnchecked(&Info, In, Dst);
}
} // namespace detail

Status decodeTexel(Format F, const void *Src, Float4 &Out) {
  return decode(F, Src, Out);
}
Status decodeTexel(Format F, const void *Src, Int4 &Out) {
  return decode(F, Src, Out);
}
Status decodeTexel(Format F, const void *Src, UInt4 &Out) {
  return decode(F, Src, Out);
}
Status encodeTexel(Format F, const Float4 &In, void *Dst) {
  return encode(F, In, Dst);
}
Status encodeTexel(Format F, const Int4 &In, void *Dst) {
  return encode(F, In, Dst);
}
Status encodeTexel(Format F, const UInt4 &In, void *Dst) {
  return encode(F, In, Dst);
}

} // namespace spirv2llvm
