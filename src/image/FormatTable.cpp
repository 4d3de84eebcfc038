//===- image/FormatTable.cpp - The format table and its lookups -----------===//
//
// The rows of spirv2llvm/ImageFormats.def as FormatInfo values, ordered by
// VkFormat number (formatInfo is a binary search), and name lookup.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/ImageFormat.h"

#include <array>

#include <algorithm>

namespace spirv2llvm {

namespace {

#define S2L_C(Ch, Num, Off, Bits)                                              \
  ComponentInfo { ChannelKind::Ch, NumericKind::Num, Off, Bits }
#define S2L_NONE                                                               \
  ComponentInfo { ChannelKind::R, NumericKind::UNorm, 0, 0 }
#define S2L_FORMAT(Name, Value, Layout, Bytes, BW, BH, N, C0, C1, C2, C3)      \
  FormatInfo{Format::Name, #Name, LayoutKind::Layout, Bytes, BW,               \
             BH,           N,     {C0, C1, C2, C3}},
constexpr FormatInfo Table[] = {
#include "spirv2llvm/ImageFormats.def"
};
#undef S2L_C
#undef S2L_NONE

constexpr bool isSortedByValue() {
  for (size_t I = 1; I < std::size(Table); ++I)
    if (uint32_t(Table[I - 1].Fmt) >= uint32_t(Table[I].Fmt))
      return false;
  return true;
}
static_assert(isSortedByValue(), "ImageFormats.def must be sorted by value");

} // namespace

bool FormatInfo::hasDepth() const {
  for (unsigned I = 0; I < NumComponents; ++I)
    if (Components[I].Channel == ChannelKind::Depth)
      return true;
  return false;
}

bool FormatInfo::hasStencil() const {
  for (unsigned I = 0; I < NumComponents; ++I)
    if (Components[I].Channel == ChannelKind::Stencil)
      return true;
  return false;
}

ViewKind FormatInfo::view() const {
  // The first component decides: colour formats never mix numeric classes
  // (sRGB alpha is UNORM, still a float view), and a depth/stencil format
  // lists depth first.
  switch (Components[0].Numeric) {
  case NumericKind::UInt:
    return ViewKind::UInt;
  case NumericKind::SInt:
    return ViewKind::SInt;
  default:
    return ViewKind::Float;
  }
}

bool FormatInfo::isSRGB() const {
  // Not only the first component: A8B8G8R8_SRGB_PACK32 lists alpha first.
  for (unsigned I = 0; I < NumComponents; ++I)
    if (Components[I].Numeric == NumericKind::SRGB)
      return true;
  return false;
}

std::span<const FormatInfo> allFormats() { return Table; }

namespace {
/// Row of each VkFormat below DirectLimit, -1 where none: the per-call
/// image path looks formats up on every call (8 ns as a binary search).
constexpr uint32_t DirectLimit = 256;
constexpr std::array<int16_t, DirectLimit> DirectIndex = [] {
  std::array<int16_t, DirectLimit> A{};
  for (int16_t &I : A)
    I = -1;
  for (size_t K = 0; K < std::size(Table); ++K)
    if (uint32_t(Table[K].Fmt) < DirectLimit)
      A[uint32_t(Table[K].Fmt)] = int16_t(K);
  return A;
}();
} // namespace

const FormatInfo *formatInfo(Format F) {
  if (uint32_t(F) < DirectLimit) {
    int16_t I = DirectIndex[uint32_t(F)];
    return I < 0 ? nullptr : &Table[I];
  }
  auto It =
      std::lower_bound(std::begin(Table), std::end(Table), F,
                       [](const FormatInfo &I, Format V) { return I.Fmt < V; });
  return It != std::end(Table) && It->Fmt == F ? &*It : nullptr;
}

std::optional<Format> formatByName(std::string_view Name) {
  constexpr std::string_view Prefix = "VK_FORMAT_";
  if (Name.starts_with(Prefix))
    Name.remove_prefix(Prefix.size());
  for (const FormatInfo &I : Table)
    if (I.Name == Name)
      return I.Fmt;
  return std::nullopt;
}

} // namespace spirv2llvm
