//===- image/MipChain.cpp - Mip levels made by linear blits ---------------===//
//
// vkCmdBlitImage with VK_FILTER_LINEAR from one whole level onto another,
// with lavapipe's rounding (MipChain.h says which and why). Each axis is
// resolved once per destination coordinate into two clamped source indices
// and an 8-bit weight; the texels are then blended in bytes (8-bit UNORM
// formats) or in float (every other filterable format).
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/MipChain.h"
#include "spirv2llvm/ImageFormat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace spirv2llvm {

namespace {

/// One destination coordinate along one axis: source indices I0 and I1
/// (clamped to the edge) and I1's weight, W in 1/256 (the byte path) and
/// F unquantized (the float path: llvmpipe filters other formats with
/// float weights). F goes with indices of its own, FI0 and FI1, since
/// rounding u to 1/256 may move it to the next texel.
struct AxisTap {
  uint32_t I0, I1;
  uint32_t W;
  uint32_t FI0, FI1;
  float F;
};

/// The taps of every destination coordinate of an axis scaled from
/// \p SrcSize to \p DstSize. u = (x + 0.5) * Src / Dst - 0.5 in units of
/// 1/256, rounded to nearest: floor((2x + 1) * Src * 128 / Dst - 128 +
/// 1/2), computed exactly in integers. An axis the image does not have
/// (sizes 1 and 1) gives index 0 with weight 0.
std::vector<AxisTap> axisTaps(uint32_t SrcSize, uint32_t DstSize) {
  std::vector<AxisTap> Taps(DstSize);
  int64_t Src = SrcSize, Dst = DstSize;
  for (int64_t X = 0; X < Dst; ++X) {
    // 2 * Dst * (u * 256 + 1/2) = (2x + 1) * Src * 256 - 256 * Dst + Dst.
    int64_t Num = (2 * X + 1) * Src * 256 - 256 * Dst + Dst;
    int64_t Den = 2 * Dst;
    int64_t Fixed = Num >= 0 ? Num / Den : -((-Num + Den - 1) / Den);
    int64_t I0 = Fixed >> 8; // floor, also for negative values
    auto Clamp = [&](int64_t I) {
      return uint32_t(std::clamp<int64_t>(I, 0, Src - 1));
    };
    double U = double(2 * X + 1) * double(Src) / double(2 * Dst) - 0.5;
    double Floor = std::floor(U);
    Taps[X] = {Clamp(I0),
               Clamp(I0 + 1),
               uint32_t(Fixed & 255),
               Clamp(int64_t(Floor)),
               Clamp(int64_t(Floor) + 1),
               float(U - Floor)};
  }
  return Taps;
}

/// lavapipe's 8-bit lerp (lp_build_lerp on 8-bit normalized values with
/// pre-scaled weights: a rounding multiply-high, halves rounded up).
uint8_t lerpByte(uint8_t V0, uint8_t V1, uint32_t W) {
  int32_t Delta = int32_t(V1) - int32_t(V0);
  int32_t R = (int32_t(W) * (Delta << 7) + 0x4000) >> 15;
  return uint8_t((int32_t(V0) + R) & 0xff);
}

float lerpFloat(float V0, float V1, float A) {
  return V0 + A * (V1 - V0);
}

bool allUnorm8(const FormatInfo &Info) {
  if (Info.Layout != LayoutKind::Bits ||
      Info.BlockBytes != Info.NumComponents)
    return false;
  for (unsigned C = 0; C < Info.NumComponents; ++C)
    if (Info.Components[C].Numeric != NumericKind::UNorm ||
        Info.Components[C].Bits != 8 || Info.Components[C].Offset % 8)
      return false;
  return true;
}

/// Why \p Info cannot be the source or destination of a linear blit, or
/// empty when it can.
std::string unfilterable(const FormatInfo &Info) {
  if (Info.isCompressed())
    return "a compressed format is no blit destination";
  if (Info.has64BitComponents())
    return "64-bit components cannot be filtered";
  if (Info.hasDepth() || Info.hasStencil())
    return "depth and stencil formats cannot be blitted with a linear filter";
  if (Info.view() != ViewKind::Float)
    return "integer formats cannot be blitted with a linear filter";
  return "";
}

/// The texel of a level: \p Base is the level's first byte.
struct LevelRef {
  uint8_t *Base;
  const s2l_image_level &L;
  uint32_t Bytes;
  uint8_t *at(uint32_t X, uint32_t Y, uint32_t Z) const {
    return Base + Z * L.slice_pitch + Y * L.row_pitch + uint64_t(X) * Bytes;
  }
};

/// The eight source texels of a destination texel and their weights
/// (Wx..Wz for bytes, Fx..Fz for floats; each with its own texels).
struct Corners {
  std::array<const uint8_t *, 8> P; // index: x bit 0, y bit 1, z bit 2
  uint32_t Wx, Wy, Wz;
  float Fx, Fy, Fz;
};

void blitBytes(const Corners &C, uint32_t Bytes, uint8_t *Out) {
  for (uint32_t B = 0; B < Bytes; ++B) {
    uint8_t Slice[2];
    for (int Z = 0; Z < 2; ++Z) {
      uint8_t Row0 = lerpByte(C.P[Z * 4][B], C.P[Z * 4 + 1][B], C.Wx);
      uint8_t Row1 = lerpByte(C.P[Z * 4 + 2][B], C.P[Z * 4 + 3][B], C.Wx);
      Slice[Z] = lerpByte(Row0, Row1, C.Wy);
    }
    Out[B] = lerpByte(Slice[0], Slice[1], C.Wz);
  }
}

Status blitFloat(Format F, const Corners &C, uint8_t *Out) {
  Float4 T[8];
  for (int K = 0; K < 8; ++K)
    if (Status S = decodeTexel(F, C.P[K], T[K]); !S.ok())
      return S;
  Float4 R;
  for (int Ch = 0; Ch < 4; ++Ch) {
    float Slice[2];
    for (int Z = 0; Z < 2; ++Z) {
      float Row0 = lerpFloat(T[Z * 4][Ch], T[Z * 4 + 1][Ch], C.Fx);
      float Row1 = lerpFloat(T[Z * 4 + 2][Ch], T[Z * 4 + 3][Ch], C.Fx);
      Slice[Z] = lerpFloat(Row0, Row1, C.Fy);
    }
    R[Ch] = lerpFloat(Slice[0], Slice[1], C.Fz);
  }
  return encodeTexel(F, R, Out);
}

} // namespace

Status blitLevelLinear(const s2l_image &Img, uint32_t Src, uint32_t Dst) {
  const FormatInfo *Info = formatInfo(Format(Img.format));
  if (!Info)
    return Status::error("blit: unknown format " + std::to_string(Img.format));
  if (std::string Why = unfilterable(*Info); !Why.empty())
    return Status::error("blit of " + std::string(Info->Name) + ": " + Why);
  if (Img.samples > 1)
    return Status::error("blit: multisampled images have no mip levels");
  if (Src >= Img.levels || Dst >= Img.levels || Src == Dst)
    return Status::error("blit: levels " + std::to_string(Src) + " -> " +
                         std::to_string(Dst) + " of an image with " +
                         std::to_string(Img.levels) + " levels");
  if (!Img.data)
    return Status::error("blit: the image has no memory");
  bool Is3D = Img.view_type == S2L_VIEW_3D;
  const s2l_image_level &SL = Img.level[Src], &DL = Img.level[Dst];
  auto *Data = static_cast<uint8_t *>(Img.data);
  LevelRef S{Data + SL.offset, SL, Info->BlockBytes};
  LevelRef D{Data + DL.offset, DL, Info->BlockBytes};
  std::vector<AxisTap> Xs = axisTaps(SL.width, DL.width),
                       Ys = axisTaps(SL.height, DL.height),
                       Zs = Is3D ? axisTaps(SL.depth, DL.depth)
                                 : std::vector<AxisTap>(Img.layers);
  // Array layers blit each onto itself: their "taps" are the layer.
  if (!Is3D)
    for (uint32_t L = 0; L < Img.layers; ++L)
      Zs[L] = {L, L, 0, L, L, 0.0f};
  bool Bytes = allUnorm8(*Info);
  for (uint32_t Z = 0; Z < Zs.size(); ++Z)
    for (uint32_t Y = 0; Y < DL.height; ++Y)
      for (uint32_t X = 0; X < DL.width; ++X) {
        Corners C;
        C.Wx = Xs[X].W;
        C.Wy = Ys[Y].W;
        C.Wz = Zs[Z].W;
        C.Fx = Xs[X].F;
        C.Fy = Ys[Y].F;
        C.Fz = Zs[Z].F;
        const AxisTap &Tx = Xs[X], &Ty = Ys[Y], &Tz = Zs[Z];
        for (int K = 0; K < 8; ++K)
          C.P[K] = Bytes ? S.at(K & 1 ? Tx.I1 : Tx.I0, K & 2 ? Ty.I1 : Ty.I0,
                                K & 4 ? Tz.I1 : Tz.I0)
                         : S.at(K & 1 ? Tx.FI1 : Tx.FI0,
                                K & 2 ? Ty.FI1 : Ty.FI0,
                                K & 4 ? Tz.FI1 : Tz.FI0);
        uint8_t *Out = D.at(X, Y, Z);
        if (Bytes) {
          blitBytes(C, Info->BlockBytes, Out);
        } else if (Status St = blitFloat(Info->Fmt, C, Out); !St.ok()) {
          return St;
        }
      }
  return Status::success();
}

Status generateMipLevels(const s2l_image &Img, uint32_t First) {
  for (uint32_t L = First + 1; L < Img.levels; ++L)
    if (Status S = blitLevelLinear(Img, L - 1, L); !S.ok())
      return S;
  return Status::success();
}

} // namespace spirv2llvm
