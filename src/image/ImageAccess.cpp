//===- image/ImageAccess.cpp - Texel addresses, robust loads and stores ---===//
//
// The memory side of the image operations: where a texel of an s2l_image
// is (abi.h), reading it through a view with the unchecked conversions of
// TexelCodecInternal.h, and the coordinate layout of each SPIR-V Dim.
// Every access is bounds-checked against the descriptor: robust image
// access, so a coordinate, level, layer or sample out of range reads 0 and
// a store there does nothing.
//
//===----------------------------------------------------------------------===//
#include "image/ImageOpsInternal.h"
#include "image/TexelCodecInternal.h"

#include <array>
#include <bit>

namespace spirv2llvm::imageops {

bool ImageAccess::init(const s2l_image &I, uint32_t Kind) {
  Img = &I;
  Info = formatInfo(Format(I.format));
  // (No image of a 64-bit format can be made; a hand-made descriptor of
  // one is treated as unbound.)
  if (!Info || !I.data || Info->has64BitComponents())
    return false;
  if (Info->isCompressed())
    View = ViewKind::Float;
  else if (Kind == S2L_IMAGE_UINT && Info->hasStencil())
    View = ViewKind::UInt;
  else
    View = Info->view();
  return true;
}

uint8_t *ImageAccess::address(uint32_t Level, int32_t X, int32_t Y, int32_t Z,
                              int32_t S) const {
  uint32_t Samples = Img->samples ? Img->samples : 1;
  if (Level >= Img->levels || Level >= S2L_MAX_IMAGE_LEVELS)
    return nullptr;
  const s2l_image_level &L = Img->level[Level];
  if (X < 0 || Y < 0 || Z < 0 || S < 0 || uint32_t(X) >= L.width ||
      uint32_t(Y) >= L.height || uint32_t(Z) >= slices(Level) ||
      uint32_t(S) >= Samples)
    return nullptr;
  uint64_t BX = uint32_t(X) / Info->BlockWidth;
  uint64_t BY = uint32_t(Y) / Info->BlockHeight;
  return static_cast<uint8_t *>(Img->data) + L.offset +
         uint64_t(Z) * L.slice_pitch + BY * L.row_pitch +
         (BX * Samples + uint32_t(S)) * Info->BlockBytes;
}

bool ImageAccess::load(uint32_t Level, int32_t X, int32_t Y, int32_t Z,
                       int32_t S, Texel &Out) {
  const uint8_t *P = address(Level, X, Y, Z, S);
  // Out of range reads a texel of zero bits (robustImageAccess2, which
  // lavapipe implements): zero components, but alpha 1 where the format
  // has none, as the conversion to RGBA gives.
  static const uint8_t ZeroTexel[16] = {};
  bool InRange = P != nullptr;
  if (!InRange) {
    P = ZeroTexel;
    X = Y = 0;
  }
  switch (View) {
  case ViewKind::Float:
    if (Info->isCompressed()) {
      if (P != CachedBlock) {
        // Cannot fail: the format is compressed and Block has 16 texels.
        (void)decodeBlock(Info->Fmt, P, Block);
        CachedBlock = P;
      }
      Out = Block[(uint32_t(Y) % Info->BlockHeight) * Info->BlockWidth +
                  uint32_t(X) % Info->BlockWidth];
    } else if (Info->Fmt == Format::R8G8B8A8_UNORM ||
               Info->Fmt == Format::B8G8R8A8_UNORM) {
      // The most sampled formats: a table instead of the generic decoder
      // (the same conversion: the table is filled by it).
      static const auto Table = [] {
        std::array<float, 256> T;
        for (uint32_t C = 0; C < 256; ++C)
          T[C] = unormToFloat(C, 8);
        return T;
      }();
      bool Bgra = Info->Fmt == Format::B8G8R8A8_UNORM;
      Out = {Table[P[Bgra ? 2 : 0]], Table[P[1]], Table[P[Bgra ? 0 : 2]],
             Table[P[3]]};
    } else {
      detail::decodeTexelUnchecked(*Info, P, Out);
    }
    break;
  case ViewKind::SInt: {
    Int4 V;
    detail::decodeTexelUnchecked(*Info, P, V);
    for (int I = 0; I < 4; ++I)
      Out[I] = std::bit_cast<float>(V[I]);
    break;
  }
  case ViewKind::UInt: {
    UInt4 V;
    detail::decodeTexelUnchecked(*Info, P, V);
    for (int I = 0; I < 4; ++I)
      Out[I] = std::bit_cast<float>(V[I]);
    break;
  }
  }
  return InRange;
}

void ImageAccess::store(uint32_t Level, int32_t X, int32_t Y, int32_t Z,
                        int32_t S, const uint32_t Bits[4]) {
  if (Info->isCompressed())
    return;
  uint8_t *P = address(Level, X, Y, Z, S);
  if (!P)
    return;
  // The bits go to the format's own view whatever the shader's sampled type
  // (a mismatch is undefined in Vulkan; this keeps the bits).
  switch (View) {
  case ViewKind::Float: {
    Float4 V;
    for (int I = 0; I < 4; ++I)
      V[I] = std::bit_cast<float>(Bits[I]);
    detail::encodeTexelUnchecked(*Info, V, P);
    break;
  }
  case ViewKind::SInt: {
    Int4 V;
    for (int I = 0; I < 4; ++I)
      V[I] = int32_t(Bits[I]);
    detail::encodeTexelUnchecked(*Info, V, P);
    break;
  }
  case ViewKind::UInt: {
    UInt4 V{Bits[0], Bits[1], Bits[2], Bits[3]};
    detail::encodeTexelUnchecked(*Info, V, P);
    break;
  }
  }
}

TexelCoord splitTexelCoord(const int32_t C[4], uint32_t Dim,
                           uint32_t Arrayed) {
  TexelCoord T;
  switch (Dim) {
  case Dim1D:
  case DimBuffer:
    T.X = C[0];
    T.Z = Arrayed ? C[1] : 0;
    break;
  case Dim3D:
  case DimCube: // The face (6 * layer + face for arrays) is the third.
    T.X = C[0];
    T.Y = C[1];
    T.Z = C[2];
    break;
  default: // 2D, Rect, SubpassData.
    T.X = C[0];
    T.Y = C[1];
    T.Z = Arrayed ? C[2] : 0;
    break;
  }
  return T;
}

unsigned filteredAxes(uint32_t Dim) {
  switch (Dim) {
  case Dim1D:
  case DimBuffer:
    return 1;
  case Dim3D:
    return 3;
  default:
    return 2;
  }
}

} // namespace spirv2llvm::imageops
