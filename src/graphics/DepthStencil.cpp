//===- graphics/DepthStencil.cpp - Depth and stencil tests and storage ----===//
//
// The per-sample half of Vulkan 1.3 "Fragment Operations" that is not
// colour: the compare and stencil operations of the depth and stencil
// tests, and the access to depth/stencil attachments (the depth in the
// low bits of a texel, the stencil byte after it, as ImageFormats.def lays
// them out). Colour merging is OutputMerge.cpp's; both implement
// OutputMerge.h.
//
// Limitation: texels are read as little-endian words, and only the seven
// depth/stencil formats of the table have a depth or stencil aspect.
//
//===----------------------------------------------------------------------===//
#include "graphics/OutputMerge.h"

#include <bit>
#include <cassert>
#include <cstring>

namespace spirv2llvm::graphics {

static_assert(std::endian::native == std::endian::little,
              "texels are accessed as little-endian words");

// --- Compare and stencil operations ----------------------------------------

namespace {
template <typename T> bool compareValues(CompareOp Op, T A, T B) {
  switch (Op) {
  case CompareOp::Never:
    return false;
  case CompareOp::Less:
    return A < B;
  case CompareOp::Equal:
    return A == B;
  case CompareOp::LessOrEqual:
    return A <= B;
  case CompareOp::Greater:
    return A > B;
  case CompareOp::NotEqual:
    return A != B;
  case CompareOp::GreaterOrEqual:
    return A >= B;
  case CompareOp::Always:
    return true;
  }
  return false;
}
} // namespace

bool compare(CompareOp Op, float A, float B) { return compareValues(Op, A, B); }
bool compare(CompareOp Op, uint32_t A, uint32_t B) {
  return compareValues(Op, A, B);
}

uint8_t applyStencilOp(StencilOp Op, uint8_t Current, uint8_t Reference) {
  switch (Op) {
  case StencilOp::Keep:
    return Current;
  case StencilOp::Zero:
    return 0;
  case StencilOp::Replace:
    return Reference;
  case StencilOp::IncrementAndClamp:
    return Current == 0xff ? Current : uint8_t(Current + 1);
  case StencilOp::DecrementAndClamp:
    return Current == 0 ? Current : uint8_t(Current - 1);
  case StencilOp::Invert:
    return uint8_t(~Current);
  case StencilOp::IncrementAndWrap:
    return uint8_t(Current + 1);
  case StencilOp::DecrementAndWrap:
    return uint8_t(Current - 1);
  }
  return Current;
}

bool stencilTest(const StencilOpState &S, uint8_t Current) {
  uint32_t Mask = S.CompareMask & 0xff;
  return compare(S.Compare, S.Reference & Mask, Current & Mask);
}

uint8_t stencilUpdate(const StencilOpState &S, uint8_t Current,
                      bool StencilPassed, bool DepthPassed) {
  StencilOp Op = !StencilPassed ? S.FailOp
                 : !DepthPassed ? S.DepthFailOp
                                : S.PassOp;
  uint8_t New = applyStencilOp(Op, Current, uint8_t(S.Reference));
  uint8_t Mask = uint8_t(S.WriteMask);
  return uint8_t((New & Mask) | (Current & ~Mask));
}

// --- Depth/stencil attachments ----------------------------------------------

namespace {
uint32_t load16(const uint8_t *P) {
  uint16_t V;
  std::memcpy(&V, P, 2);
  return V;
}
uint32_t load32(const uint8_t *P) {
  uint32_t V;
  std::memcpy(&V, P, 4);
  return V;
}
void store16(uint32_t V, uint8_t *P) {
  uint16_t H = uint16_t(V);
  std::memcpy(P, &H, 2);
}
void store32(uint32_t V, uint8_t *P) { std::memcpy(P, &V, 4); }

/// Byte offset of the stencil byte, or -1.
int stencilOffset(Format F) {
  switch (F) {
  case Format::S8_UINT:
    return 0;
  case Format::D16_UNORM_S8_UINT:
    return 2;
  case Format::D24_UNORM_S8_UINT:
    return 3;
  case Format::D32_SFLOAT_S8_UINT:
    return 4;
  default:
    return -1;
  }
}
} // namespace

bool hasDepth(Format F) {
  switch (F) {
  case Format::D16_UNORM:
  case Format::X8_D24_UNORM_PACK32:
  case Format::D32_SFLOAT:
  case Format::D16_UNORM_S8_UINT:
  case Format::D24_UNORM_S8_UINT:
  case Format::D32_SFLOAT_S8_UINT:
    return true;
  default:
    return false;
  }
}

bool hasStencil(Format F) { return stencilOffset(F) >= 0; }

float readDepth(Format F, const uint8_t *Texel) {
  switch (F) {
  case Format::D16_UNORM:
  case Format::D16_UNORM_S8_UINT:
    return unormToFloat(load16(Texel), 16);
  case Format::X8_D24_UNORM_PACK32:
  case Format::D24_UNORM_S8_UINT:
    return unormToFloat(load32(Texel) & 0xffffff, 24);
  case Format::D32_SFLOAT:
  case Format::D32_SFLOAT_S8_UINT:
    return std::bit_cast<float>(load32(Texel));
  default:
    assert(false && "readDepth of a format without depth");
    return 0;
  }
}

void writeDepth(Format F, float Depth, uint8_t *Texel) {
  switch (F) {
  case Format::D16_UNORM:
  case Format::D16_UNORM_S8_UINT:
    store16(floatToUNorm(Depth, 16), Texel);
    return;
  case Format::X8_D24_UNORM_PACK32:
  case Format::D24_UNORM_S8_UINT:
    // Bits 24-31 (stencil or X8) stay.
    store32((load32(Texel) & 0xff000000u) | floatToUNorm(Depth, 24), Texel);
    return;
  case Format::D32_SFLOAT:
  case Format::D32_SFLOAT_S8_UINT:
    store32(std::bit_cast<uint32_t>(Depth), Texel);
    return;
  default:
    assert(false && "writeDepth of a format without depth");
    return;
  }
}

float quantizeDepth(Format F, float Depth) {
  switch (F) {
  case Format::D16_UNORM:
  case Format::D16_UNORM_S8_UINT:
    return unormToFloat(floatToUNorm(Depth, 16), 16);
  case Format::X8_D24_UNORM_PACK32:
  case Format::D24_UNORM_S8_UINT:
    return unormToFloat(floatToUNorm(Depth, 24), 24);
  default:
    return Depth;
  }
}

uint8_t readStencil(Format F, const uint8_t *Texel) {
  int Offset = stencilOffset(F);
  assert(Offset >= 0 && "readStencil of a format without stencil");
  return Offset < 0 ? 0 : Texel[Offset];
}

void writeStencil(Format F, uint8_t S, uint8_t *Texel) {
  int Offset = stencilOffset(F);
  assert(Offset >= 0 && "writeStencil of a format without stencil");
  if (Offset >= 0)
    Texel[Offset] = S;
}

} // namespace spirv2llvm::graphics
