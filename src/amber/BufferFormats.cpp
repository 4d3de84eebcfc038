//===- BufferFormats.cpp - Amber data types and image formats -------------===//
//
// Layout rules follow Amber's: a vec3 occupies four components in both
// layouts; matrix columns are vectors (a 3-row column is padded to 4, and
// in STD140 every column is padded to 16 bytes); in STD140 the element of
// an array type (T[]) is padded to a multiple of 16 bytes.
//
//===----------------------------------------------------------------------===//
#include "amber/BufferFormats.h"

#include "spirv2llvm/ImageFormat.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <cstring>

using namespace llvm;

namespace spirv2llvm::amber {

unsigned BufferFormat::valuesPerElement() const {
  unsigned N = 0;
  for (const Component &C : Components)
    N += !C.Padding;
  return N;
}

const Component *BufferFormat::channel(char Ch) const {
  for (const Component &C : Components)
    if (C.Channel == Ch && !C.Padding)
      return &C;
  return nullptr;
}

namespace {

std::optional<Component> parseScalar(StringRef S) {
  Component C;
  if (S == "float16")
    C = {NumKind::Float, 16};
  else if (S == "float")
    C = {NumKind::Float, 32};
  else if (S == "double")
    C = {NumKind::Float, 64};
  else {
    bool Unsigned = S.consume_front("uint");
    if (!Unsigned && !S.consume_front("int"))
      return std::nullopt;
    unsigned Bits;
    if (S.getAsInteger(10, Bits) ||
        (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64))
      return std::nullopt;
    C = {Unsigned ? NumKind::UInt : NumKind::Int, uint8_t(Bits)};
  }
  return C;
}

void addVector(BufferFormat &F, Component C, unsigned N, uint32_t &Offset) {
  unsigned Slots = N == 3 ? 4 : N;
  for (unsigned I = 0; I < Slots; ++I) {
    Component X = C;
    X.Padding = I >= N;
    X.Offset = Offset;
    Offset += C.Bits / 8;
    F.Components.push_back(X);
  }
}

void padTo(BufferFormat &F, uint32_t &Offset, uint32_t Align) {
  while (Offset % Align) {
    Component P = {NumKind::UInt, 8, true};
    P.Offset = Offset++;
    F.Components.push_back(P);
  }
}

} // namespace

Expected<BufferFormat> parseDataType(StringRef Name, bool Std140) {
  BufferFormat F;
  F.Name = Name.str();
  F.Std140 = Std140;
  StringRef S = Name;
  bool IsArray = S.consume_back("[]");
  uint32_t Offset = 0;
  auto Bad = [&] { return makeError("unknown data type '" + Name + "'"); };
  if (S.starts_with("vec") || S.starts_with("mat")) {
    bool IsMat = S.starts_with("mat");
    S = S.drop_front(3);
    unsigned Cols = 1, Rows;
    if (S.size() < 2 || !isDigit(S[0]))
      return Bad();
    if (IsMat) {
      Cols = unsigned(S[0] - '0');
      if (S[1] != 'x' || S.size() < 3 || !isDigit(S[2]))
        return Bad();
      Rows = unsigned(S[2] - '0');
      S = S.drop_front(3);
    } else {
      Rows = unsigned(S[0] - '0');
      S = S.drop_front(1);
    }
    if (Cols < 1 || Cols > 4 || Rows < 2 || Rows > 4 ||
        !S.consume_front("<") || !S.consume_back(">"))
      return Bad();
    auto C = parseScalar(S);
    if (!C)
      return Bad();
    for (unsigned Col = 0; Col < Cols; ++Col) {
      addVector(F, *C, Rows, Offset);
      if (IsMat && Std140)
        padTo(F, Offset, 16);
    }
  } else if (auto C = parseScalar(S)) {
    C->Offset = 0;
    F.Components.push_back(*C);
    Offset = C->Bits / 8;
  } else {
    // A FORMAT name used as a data type (DATA_TYPE R8G8B8A8_UNORM).
    auto Img = parseImageFormat(S);
    if (!Img) {
      consumeError(Img.takeError());
      return Bad();
    }
    Img->Name = F.Name;
    Img->IsImage = false;
    return *Img;
  }
  if (IsArray && Std140)
    padTo(F, Offset, 16);
  F.ElementSize = Offset;
  return F;
}

namespace {

/// Appends the components of \p Type at \p Base; returns its size and
/// base alignment.
Error appendMember(StringRef Type, bool Std140, const StructTable &Structs,
                   uint32_t Base, BufferFormat &F, uint32_t &Size,
                   uint32_t &Align) {
  if (auto It = Structs.find(Type); It != Structs.end()) {
    uint32_t Offset = 0, MaxAlign = 1;
    for (const StructDef::Member &M : It->second.Members) {
      uint32_t MSize, MAlign;
      BufferFormat Tmp;
      // Alignment first (a dry run), then the real placement.
      if (Error E = appendMember(M.Type, Std140, Structs, 0, Tmp, MSize, MAlign))
        return E;
      uint32_t At = (Offset + MAlign - 1) / MAlign * MAlign;
      if (M.Offset) {
        if (*M.Offset < Offset)
          return makeError("member of type '" + M.Type + "' at OFFSET " +
                           Twine(*M.Offset) + " overlaps the previous one");
        At = *M.Offset;
      }
      if (Error E = appendMember(M.Type, Std140, Structs, Base + At, F, MSize,
                                 MAlign))
        return E;
      Offset = At + MSize;
      MaxAlign = std::max(MaxAlign, MAlign);
    }
    if (Std140)
      MaxAlign = std::max<uint32_t>(MaxAlign, 16);
    Align = MaxAlign;
    Size = (Offset + Align - 1) / Align * Align;
    return Error::success();
  }
  auto Plain = parseDataType(Type, false);
  if (!Plain)
    return Plain.takeError();
  if (Type.ends_with("[]") || Plain->IsImage || Plain->Packed || Type.starts_with("R") ||
      Type.starts_with("B"))
    return makeError("unsupported STRUCT member type '" + Type + "'");
  // Scalars, vectors, matrices: columns of Rows components.
  const Component &S0 = Plain->Components[0];
  uint32_t Scalar = S0.Bits / 8;
  unsigned Cols = 1, Rows = 1;
  if (Type.starts_with("vec"))
    Rows = unsigned(Type[3] - '0');
  else if (Type.starts_with("mat")) {
    Cols = unsigned(Type[3] - '0');
    Rows = unsigned(Type[5] - '0');
  }
  uint32_t VecAlign = Scalar * (Rows == 1 ? 1 : Rows == 2 ? 2 : 4);
  uint32_t ColStride = Cols > 1 || Type.starts_with("mat")
                           ? (Std140 ? std::max<uint32_t>(VecAlign, 16)
                                     : VecAlign)
                           : Scalar * Rows;
  for (unsigned C = 0; C < Cols; ++C)
    for (unsigned R = 0; R < Rows; ++R) {
      Component X = S0;
      X.Padding = false;
      X.Offset = Base + C * ColStride + R * Scalar;
      F.Components.push_back(X);
    }
  Align = Type.starts_with("mat") ? ColStride : VecAlign;
  Size = Type.starts_with("mat") ? Cols * ColStride : Scalar * Rows;
  return Error::success();
}

} // namespace

Expected<BufferFormat> layoutStruct(StringRef Name, const StructDef &Def,
                                    bool Std140, const StructTable &Structs) {
  BufferFormat F;
  F.Name = Name.str();
  F.Std140 = Std140;
  uint32_t Size, Align;
  if (Error E = appendMember(Name, Std140, Structs, 0, F, Size, Align))
    return std::move(E);
  // Gaps become padding bytes, so that walking the components in order
  // walks the element.
  std::stable_sort(F.Components.begin(), F.Components.end(),
                   [](const Component &A, const Component &B) {
                     return A.Offset < B.Offset;
                   });
  std::vector<Component> All;
  uint32_t At = 0;
  for (const Component &C : F.Components) {
    for (; At < C.Offset; ++At)
      All.push_back({NumKind::UInt, 8, true, 0, At});
    All.push_back(C);
    At = C.Offset + C.Bits / 8;
  }
  for (; At < Size; ++At)
    All.push_back({NumKind::UInt, 8, true, 0, At});
  F.Components = std::move(All);
  F.ElementSize = Size;
  return F;
}

namespace {

/// A colour _PACKnn format of the image library: one unsigned component
/// of the packed word's size. Amber's format parser makes a packed type a
/// single segment of PackSizeInBits, so each DATA or FILL value is the
/// whole word (0x01000001 in A8B8G8R8_UINT_PACK32 is R = 1, A = 1). The
/// shared-exponent E5B9G9R9_UFLOAT_PACK32 is such a word too; its texels
/// are decoded (probes, sampling) and encoded (clears, stores) by the
/// library's codec like the bit-field ones.
Expected<BufferFormat> packedFormat(StringRef Name) {
  std::optional<Format> Fmt = formatByName(std::string_view(Name));
  const FormatInfo *Info = Fmt ? formatInfo(*Fmt) : nullptr;
  if (!Info ||
      (Info->Layout != LayoutKind::Bits &&
       Info->Layout != LayoutKind::SharedExponent) ||
      Info->hasDepth() || Info->hasStencil())
    return makeError("unsupported format '" + Name + "'");
  BufferFormat F;
  F.Name = Name.str();
  F.IsImage = true;
  F.Packed = true;
  F.Srgb = Info->isSRGB();
  F.Components.push_back(
      {NumKind::UInt, uint8_t(Info->BlockBytes * 8), false, 0, 0});
  F.ElementSize = Info->BlockBytes;
  return F;
}

} // namespace

Expected<BufferFormat> parseImageFormat(StringRef Name) {
  BufferFormat F;
  F.Name = Name.str();
  F.IsImage = true;
  // Depth/stencil formats: channel 'D' (and 'S'), as Amber lays them out
  // in a buffer (depth first, the stencil byte after it).
  auto DS = [&](NumKind DK, uint8_t DBits, bool Stencil, uint32_t Size) {
    F.Components.push_back({DK, DBits, false, 'D', 0});
    if (Stencil)
      F.Components.push_back({NumKind::UInt, 8, false, 'S', DBits / 8u});
    for (uint32_t At = DBits / 8u + (Stencil ? 1 : 0); At < Size; ++At)
      F.Components.push_back({NumKind::UInt, 8, true, 0, At});
    F.ElementSize = Size;
    return F;
  };
  if (Name == "D32_SFLOAT")
    return DS(NumKind::Float, 32, false, 4);
  if (Name == "D16_UNORM")
    return DS(NumKind::UNorm, 16, false, 2);
  if (Name == "D32_SFLOAT_S8_UINT")
    return DS(NumKind::Float, 32, true, 8);
  // The 24-bit depth formats in bits 0-23 of a 32-bit texel, the stencil
  // byte (D24S8) in bits 24-31; D16S8 as 4 bytes, its last one unused:
  // the layouts of spirv2llvm's format table (lavapipe's).
  if (Name == "D24_UNORM_S8_UINT")
    return DS(NumKind::UNorm, 24, true, 4);
  if (Name == "X8_D24_UNORM_PACK32")
    return DS(NumKind::UNorm, 24, false, 4);
  if (Name == "D16_UNORM_S8_UINT")
    return DS(NumKind::UNorm, 16, true, 4);
  if (Name == "S8_UINT") {
    F.Components.push_back({NumKind::UInt, 8, false, 'S', 0});
    F.ElementSize = 1;
    return F;
  }
  if (Name.ends_with("_PACK8") || Name.ends_with("_PACK16") ||
      Name.ends_with("_PACK32"))
    return packedFormat(Name);
  auto [Channels, Suffix] = Name.split('_');
  NumKind Kind;
  if (Suffix == "UNORM")
    Kind = NumKind::UNorm;
  else if (Suffix == "SNORM")
    Kind = NumKind::SNorm;
  else if (Suffix == "UINT")
    Kind = NumKind::UInt;
  else if (Suffix == "SINT")
    Kind = NumKind::Int;
  else if (Suffix == "SFLOAT")
    Kind = NumKind::Float;
  else if (Suffix == "SRGB") {
    Kind = NumKind::UNorm;
    F.Srgb = true;
  } else
    return makeError("unsupported format '" + Name + "'");
  uint32_t Offset = 0;
  StringRef S = Channels;
  while (!S.empty()) {
    char Ch = S[0];
    if (Ch != 'R' && Ch != 'G' && Ch != 'B' && Ch != 'A')
      return makeError("unsupported format '" + Name + "'");
    S = S.drop_front();
    size_t Digits = S.find_first_not_of("0123456789");
    unsigned Bits;
    if (S.take_front(Digits).getAsInteger(10, Bits) ||
        (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64) ||
        (Kind == NumKind::Float && Bits == 8) ||
        ((Kind == NumKind::UNorm || Kind == NumKind::SNorm) && Bits > 16) ||
        (F.Srgb && Bits != 8))
      return makeError("unsupported format '" + Name + "'");
    S = S.drop_front(Digits == StringRef::npos ? S.size() : Digits);
    Component C = {Kind, uint8_t(Bits), false, Ch, Offset};
    Offset += Bits / 8;
    F.Components.push_back(C);
  }
  if (F.Components.empty())
    return makeError("unsupported format '" + Name + "'");
  F.ElementSize = Offset;
  return F;
}

uint16_t doubleToHalf(double D) {
  float Fl = float(D);
  uint32_t X;
  std::memcpy(&X, &Fl, 4);
  uint32_t Sign = (X >> 16) & 0x8000;
  int32_t Exp = int32_t((X >> 23) & 0xff) - 127 + 15;
  uint32_t Mant = X & 0x7fffff;
  if (((X >> 23) & 0xff) == 0xff) // inf / nan
    return uint16_t(Sign | 0x7c00 | (Mant ? 0x200 : 0));
  if (Exp >= 31)
    return uint16_t(Sign | 0x7c00);
  if (Exp <= 0) {
    if (Exp < -10)
      return uint16_t(Sign);
    Mant |= 0x800000;
    uint32_t Shift = uint32_t(14 - Exp);
    uint32_t H = Mant >> Shift;
    uint32_t Rem = Mant & ((1u << Shift) - 1), Half = 1u << (Shift - 1);
    if (Rem > Half || (Rem == Half && (H & 1)))
      ++H;
    return uint16_t(Sign | H);
  }
  uint32_t H = (uint32_t(Exp) << 10) | (Mant >> 13);
  uint32_t Rem = Mant & 0x1fff;
  if (Rem > 0x1000 || (Rem == 0x1000 && (H & 1)))
    ++H; // may carry into the exponent, which is right
  return uint16_t(Sign | H);
}

double halfToDouble(uint16_t H) {
  int Exp = (H >> 10) & 0x1f;
  int Mant = H & 0x3ff;
  double V;
  if (Exp == 0)
    V = std::ldexp(double(Mant), -24);
  else if (Exp == 31)
    V = Mant ? NAN : INFINITY;
  else
    V = std::ldexp(double(Mant | 0x400), Exp - 25);
  return (H & 0x8000) ? -V : V;
}

namespace {

void storeBits(uint64_t V, unsigned Bits, uint8_t *Dst) {
  std::memcpy(Dst, &V, Bits / 8); // little-endian host
}

uint64_t loadBits(unsigned Bits, const uint8_t *Src) {
  uint64_t V = 0;
  std::memcpy(&V, Src, Bits / 8);
  return V;
}

} // namespace

void writeComponentDouble(const Component &C, double V, uint8_t *Dst) {
  switch (C.Kind) {
  case NumKind::Float:
    if (C.Bits == 16)
      storeBits(doubleToHalf(V), 16, Dst);
    else if (C.Bits == 32) {
      float F = float(V);
      std::memcpy(Dst, &F, 4);
    } else
      std::memcpy(Dst, &V, 8);
    return;
  case NumKind::UNorm: {
    double Max = double((1ull << C.Bits) - 1);
    storeBits(uint64_t(std::nearbyint(std::clamp(V, 0.0, 1.0) * Max)), C.Bits,
              Dst);
    return;
  }
  case NumKind::SNorm: {
    double Max = double((1ull << (C.Bits - 1)) - 1);
    storeBits(uint64_t(int64_t(std::nearbyint(std::clamp(V, -1.0, 1.0) * Max))),
              C.Bits, Dst);
    return;
  }
  case NumKind::Int:
    storeBits(uint64_t(int64_t(V)), C.Bits, Dst);
    return;
  case NumKind::UInt:
    storeBits(V < 0 ? uint64_t(int64_t(V)) : uint64_t(V), C.Bits, Dst);
    return;
  }
}

Error writeComponent(const Component &C, StringRef V, uint8_t *Dst) {
  std::string Text = V.str();
  if (C.Kind == NumKind::Float) {
    char *End = nullptr;
    double D = std::strtod(Text.c_str(), &End);
    if (Text.empty() || *End)
      return makeError("malformed number '" + V + "'");
    writeComponentDouble(C, D, Dst);
    return Error::success();
  }
  // Integers and the integer representation of normalized formats.
  StringRef S = V;
  bool Neg = S.consume_front("-");
  if (!Neg)
    S.consume_front("+");
  uint64_t U;
  if (S.getAsInteger(0, U)) {
    // Amber accepts a float for an integer type; truncate like it.
    char *End = nullptr;
    double D = std::strtod(Text.c_str(), &End);
    if (Text.empty() || *End)
      return makeError("malformed number '" + V + "'");
    // Beyond 64 bits there is nothing to truncate to (and the conversion
    // would be undefined): a fuzz finding, 4e99 as an int32.
    if (!(D > -9223372036854775808.0 && D < 9223372036854775808.0))
      return makeError("number '" + V + "' is out of range for " +
                       Twine(unsigned(C.Bits)) + "-bit integers");
    storeBits(uint64_t(int64_t(D)), C.Bits, Dst);
    return Error::success();
  }
  // Two's complement negation in unsigned arithmetic (negating INT64_MIN
  // as int64_t would overflow).
  storeBits(Neg ? 0 - U : U, C.Bits, Dst);
  return Error::success();
}

int64_t readComponentInt(const Component &C, const uint8_t *Src) {
  uint64_t V = loadBits(C.Bits, Src);
  if (C.Bits < 64 && (V >> (C.Bits - 1)) & 1)
    V |= ~0ull << C.Bits;
  return int64_t(V);
}

uint64_t readComponentUInt(const Component &C, const uint8_t *Src) {
  return loadBits(C.Bits, Src);
}

double readComponent(const Component &C, const uint8_t *Src) {
  switch (C.Kind) {
  case NumKind::Float:
    if (C.Bits == 16)
      return halfToDouble(uint16_t(loadBits(16, Src)));
    if (C.Bits == 32) {
      float F;
      std::memcpy(&F, Src, 4);
      return F;
    } else {
      double D;
      std::memcpy(&D, Src, 8);
      return D;
    }
  case NumKind::Int:
  case NumKind::SNorm:
    return double(readComponentInt(C, Src));
  case NumKind::UInt:
  case NumKind::UNorm:
    return double(readComponentUInt(C, Src));
  }
  return 0;
}

double readComponentNormalized(const Component &C, const uint8_t *Src) {
  if (C.Kind == NumKind::UNorm)
    return readComponent(C, Src) / double((1ull << C.Bits) - 1);
  if (C.Kind == NumKind::SNorm)
    return std::max(-1.0, readComponent(C, Src) /
                              double((1ull << (C.Bits - 1)) - 1));
  return readComponent(C, Src);
}

} // namespace spirv2llvm::amber
