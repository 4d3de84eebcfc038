//===- graphics/OutputMerge.cpp - Depth, stencil and colour merging -------===//
//
// Vulkan 1.3 "Fragment Operations" (depth and stencil tests) and "The
// Framebuffer" (blending, logic ops, write masks) for one sample at a time.
//
// ColorMerger has one generic path: the source in the attachment's numeric
// type (floats clamped for normalized formats, integers saturated), the
// blend in float on decoded values (sRGB decoded to linear), the encoding
// with the texel codec of s2l_image, then the logic op and the write mask on
// the encoded bits. The specialized paths (8-bit RGBA/BGRA stores and
// alpha blending, RGBA32F and RGBA16F stores) do the same arithmetic with
// the state known at compile time: the blend itself is the same inline
// function instantiated with a constant ColorBlendAttachment, and the 8-bit
// conversions are exact re-implementations of unormToFloat/floatToUNorm
// (OutputMergeTest checks both against the generic path).
//
//===----------------------------------------------------------------------===//
#include "graphics/OutputMerge.h"

#include "image/TexelCodecInternal.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <string>

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

bool compare(CompareOp Op, float A, float B) {
  return compareValues(Op, A, B);
}
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

// --- Colour attachments: the arithmetic shared by every path ----------------

namespace {

/// std::clamp's NaN behaviour (NaN stays NaN; the encoding makes it 0).
inline float clampTo(float V, float Lo, float Hi) {
  return V < Lo ? Lo : Hi < V ? Hi : V;
}

inline float blendFactor(BlendFactor F, unsigned C, const Float4 &S,
                         const Float4 &S1, const Float4 &D, const Float4 &K) {
  switch (F) {
  case BlendFactor::Zero:
    return 0.0f;
  case BlendFactor::One:
    return 1.0f;
  case BlendFactor::SrcColor:
    return S[C];
  case BlendFactor::OneMinusSrcColor:
    return 1.0f - S[C];
  case BlendFactor::DstColor:
    return D[C];
  case BlendFactor::OneMinusDstColor:
    return 1.0f - D[C];
  case BlendFactor::SrcAlpha:
    return S[3];
  case BlendFactor::OneMinusSrcAlpha:
    return 1.0f - S[3];
  case BlendFactor::DstAlpha:
    return D[3];
  case BlendFactor::OneMinusDstAlpha:
    return 1.0f - D[3];
  case BlendFactor::ConstantColor:
    return K[C];
  case BlendFactor::OneMinusConstantColor:
    return 1.0f - K[C];
  case BlendFactor::ConstantAlpha:
    return K[3];
  case BlendFactor::OneMinusConstantAlpha:
    return 1.0f - K[3];
  case BlendFactor::SrcAlphaSaturate:
    return C == 3 ? 1.0f : std::min(S[3], 1.0f - D[3]);
  case BlendFactor::Src1Color:
    return S1[C];
  case BlendFactor::OneMinusSrc1Color:
    return 1.0f - S1[C];
  case BlendFactor::Src1Alpha:
    return S1[3];
  case BlendFactor::OneMinusSrc1Alpha:
    return 1.0f - S1[3];
  }
  return 0.0f;
}

/// Vulkan's blend equations for one component. \p Clamp: a normalized
/// attachment, whose factors are clamped to [Lo, Hi] as its values are.
template <bool Clamp>
inline float blendComponent(BlendOp Op, BlendFactor SrcF, BlendFactor DstF,
                            unsigned C, const Float4 &S, const Float4 &S1,
                            const Float4 &D, const Float4 &K, float Lo,
                            float Hi) {
  if (Op == BlendOp::Min)
    return std::min(S[C], D[C]);
  if (Op == BlendOp::Max)
    return std::max(S[C], D[C]);
  float SF = blendFactor(SrcF, C, S, S1, D, K);
  float DF = blendFactor(DstF, C, S, S1, D, K);
  if constexpr (Clamp) {
    SF = clampTo(SF, Lo, Hi);
    DF = clampTo(DF, Lo, Hi);
  }
  float SV = S[C] * SF;
  float DV = D[C] * DF;
  switch (Op) {
  case BlendOp::Add:
    return SV + DV;
  case BlendOp::Subtract:
    return SV - DV;
  case BlendOp::ReverseSubtract:
    return DV - SV;
  default:
    return 0.0f;
  }
}

template <bool Clamp>
inline Float4 blendColor(const ColorBlendAttachment &B, const Float4 &S,
                         const Float4 &S1, const Float4 &D, const Float4 &K,
                         float Lo, float Hi) {
  Float4 Out;
  for (unsigned C = 0; C < 3; ++C)
    Out[C] = blendComponent<Clamp>(B.ColorOp, B.SrcColor, B.DstColor, C, S,
                                   S1, D, K, Lo, Hi);
  Out[3] = blendComponent<Clamp>(B.AlphaOp, B.SrcAlpha, B.DstAlpha, 3, S, S1,
                                 D, K, Lo, Hi);
  return Out;
}

inline uint64_t applyLogicOp(LogicOp Op, uint64_t S, uint64_t D) {
  switch (Op) {
  case LogicOp::Clear:
    return 0;
  case LogicOp::And:
    return S & D;
  case LogicOp::AndReverse:
    return S & ~D;
  case LogicOp::Copy:
    return S;
  case LogicOp::AndInverted:
    return ~S & D;
  case LogicOp::NoOp:
    return D;
  case LogicOp::Xor:
    return S ^ D;
  case LogicOp::Or:
    return S | D;
  case LogicOp::Nor:
    return ~(S | D);
  case LogicOp::Equivalent:
    return ~(S ^ D);
  case LogicOp::Invert:
    return ~D;
  case LogicOp::OrReverse:
    return S | ~D;
  case LogicOp::CopyInverted:
    return ~S;
  case LogicOp::OrInverted:
    return ~S | D;
  case LogicOp::Nand:
    return ~(S & D);
  case LogicOp::Set:
    return ~uint64_t(0);
  }
  return S;
}

/// unormToFloat(C, 8) for every C (the same double division, so the same
/// floats).
struct UNorm8Table {
  float Value[256];
  UNorm8Table() {
    for (uint32_t C = 0; C < 256; ++C)
      Value[C] = static_cast<float>(static_cast<double>(C) / 255.0);
  }
};
const UNorm8Table UNorm8;

/// floatToUNorm(F, 8) without a libm call: clamp (NaN to 0), then the
/// exact double product rounded to nearest even by adding 1.5 * 2^52
/// (nearbyint in the default rounding mode).
inline uint32_t toUNorm8(float F) {
  float C = std::min(std::max(0.0f, F), 1.0f);
  double R = static_cast<double>(C) * 255.0 + 6755399441055744.0;
  return static_cast<uint32_t>(std::bit_cast<uint64_t>(R)) & 0xff;
}

constexpr ColorBlendAttachment alphaBlend(BlendFactor SrcAlpha) {
  ColorBlendAttachment B;
  B.BlendEnable = true;
  B.SrcColor = BlendFactor::SrcAlpha;
  B.DstColor = BlendFactor::OneMinusSrcAlpha;
  B.ColorOp = BlendOp::Add;
  B.SrcAlpha = SrcAlpha;
  B.DstAlpha = BlendFactor::OneMinusSrcAlpha;
  B.AlphaOp = BlendOp::Add;
  return B;
}
/// The blends with a specialized 8-bit path: "over" with the alpha blended
/// like the colour or with source factor One (both common).
constexpr ColorBlendAttachment AlphaBlendSrcAlpha =
    alphaBlend(BlendFactor::SrcAlpha);
constexpr ColorBlendAttachment AlphaBlendOne = alphaBlend(BlendFactor::One);

bool sameBlend(const ColorBlendAttachment &A, const ColorBlendAttachment &B) {
  return A.SrcColor == B.SrcColor && A.DstColor == B.DstColor &&
         A.ColorOp == B.ColorOp && A.SrcAlpha == B.SrcAlpha &&
         A.DstAlpha == B.DstAlpha && A.AlphaOp == B.AlphaOp;
}

bool isSrc1Factor(BlendFactor F) {
  return F == BlendFactor::Src1Color || F == BlendFactor::OneMinusSrc1Color ||
         F == BlendFactor::Src1Alpha || F == BlendFactor::OneMinusSrc1Alpha;
}

bool isDstFactor(BlendFactor F, bool Alpha) {
  switch (F) {
  case BlendFactor::DstColor:
  case BlendFactor::OneMinusDstColor:
  case BlendFactor::DstAlpha:
  case BlendFactor::OneMinusDstAlpha:
    return true;
  case BlendFactor::SrcAlphaSaturate:
    return !Alpha; // min(As, 1 - Ad) for colour, 1 for alpha
  default:
    return false;
  }
}

bool isMinMax(BlendOp Op) { return Op == BlendOp::Min || Op == BlendOp::Max; }

/// Whether a blend of normalized values depends on the destination (with
/// a Zero destination factor and no destination in the source factor, the
/// destination term is +-0, which the encoding cannot tell from nothing).
bool blendUsesDst(const ColorBlendAttachment &B) {
  auto Uses = [](BlendOp Op, BlendFactor S, BlendFactor D, bool Alpha) {
    return isMinMax(Op) || D != BlendFactor::Zero || isDstFactor(S, Alpha);
  };
  return Uses(B.ColorOp, B.SrcColor, B.DstColor, false) ||
         Uses(B.AlphaOp, B.SrcAlpha, B.DstAlpha, true);
}

bool blendUsesSrc1(const ColorBlendAttachment &B) {
  auto Uses = [](BlendOp Op, BlendFactor S, BlendFactor D) {
    return !isMinMax(Op) && (isSrc1Factor(S) || isSrc1Factor(D));
  };
  return Uses(B.ColorOp, B.SrcColor, B.DstColor) ||
         Uses(B.AlphaOp, B.SrcAlpha, B.DstAlpha);
}

bool logicUsesDst(LogicOp Op) {
  return Op != LogicOp::Clear && Op != LogicOp::Copy &&
         Op != LogicOp::CopyInverted && Op != LogicOp::Set;
}

unsigned componentFlag(ChannelKind C) {
  switch (C) {
  case ChannelKind::R:
    return ColorComponentR;
  case ChannelKind::G:
    return ColorComponentG;
  case ChannelKind::B:
    return ColorComponentB;
  case ChannelKind::A:
    return ColorComponentA;
  default:
    return 0;
  }
}

unsigned slotOf(ChannelKind C) {
  switch (C) {
  case ChannelKind::G:
    return 1;
  case ChannelKind::B:
    return 2;
  case ChannelKind::A:
    return 3;
  default:
    return 0;
  }
}

void setBits(uint64_t (&Words)[2], unsigned Offset, unsigned Bits) {
  for (unsigned B = Offset; B < Offset + Bits; ++B)
    Words[B / 64] |= uint64_t(1) << (B % 64);
}

std::string attachmentPrefix(unsigned Index) {
  return "colour attachment " + std::to_string(Index) + ": ";
}

} // namespace

// --- Colour attachments: the merge functions --------------------------------

struct ColorMergerImpl {
  using Class = ColorMerger::NumericClassKind;

  static Float4 sourceFloats(const ColorValue &V, bool Clamp, float Lo,
                             float Hi) {
    // A non-float output is read as float bits (undefined in Vulkan).
    Float4 S{V.F[0], V.F[1], V.F[2], V.F[3]};
    if (Clamp)
      for (float &C : S)
        C = clampTo(C, Lo, Hi);
    return S;
  }

  static int64_t sourceInt(const ColorValue &V, unsigned C,
                           bool AttachmentSigned) {
    switch (V.K) {
    case ColorValue::Kind::SInt:
      return V.I[C];
    case ColorValue::Kind::UInt:
      return V.U[C];
    case ColorValue::Kind::Float:
      break;
    }
    // Undefined in Vulkan: the bits as the attachment's type.
    return AttachmentSigned ? int64_t(V.I[C]) : int64_t(V.U[C]);
  }

  static void generic(const ColorMerger &M, const ColorValue &Src,
                      const ColorValue *Src1,
                      const std::array<float, 4> &Constants, uint8_t *Texel) {
    const FormatInfo &Info = *M.Info;
    const unsigned Bytes = Info.BlockBytes;
    uint64_t Old[2] = {0, 0}, New[2] = {0, 0};
    if (M.ReadsDst)
      std::memcpy(Old, Texel, Bytes);
    switch (M.Class) {
    case Class::UInt: {
      UInt4 V;
      for (unsigned C = 0; C < 4; ++C)
        V[C] = uint32_t(
            std::clamp(sourceInt(Src, C, false), M.IntLo[C], M.IntHi[C]));
      detail::encodeTexelUnchecked(Info, V, New);
      break;
    }
    case Class::SInt: {
      Int4 V;
      for (unsigned C = 0; C < 4; ++C)
        V[C] = int32_t(
            std::clamp(sourceInt(Src, C, true), M.IntLo[C], M.IntHi[C]));
      detail::encodeTexelUnchecked(Info, V, New);
      break;
    }
    default: {
      bool Clamp = M.Class != Class::Float;
      float Lo = M.Class == Class::SNorm ? -1.0f : 0.0f, Hi = 1.0f;
      Float4 S = sourceFloats(Src, Clamp, Lo, Hi);
      if (M.BlendOn) {
        Float4 D{0, 0, 0, 0};
        if (M.BlendReadsDst)
          detail::decodeTexelUnchecked(Info, Old, D);
        Float4 S1{0, 0, 0, 0};
        assert((Src1 || !M.UsesSrc1) && "dual-source blend without Src1");
        if (Src1 && M.UsesSrc1)
          S1 = sourceFloats(*Src1, Clamp, Lo, Hi);
        Float4 K{Constants[0], Constants[1], Constants[2], Constants[3]};
        if (Clamp) {
          for (float &C : K)
            C = clampTo(C, Lo, Hi);
          S = blendColor<true>(M.Blend, S, S1, D, K, Lo, Hi);
        } else {
          S = blendColor<false>(M.Blend, S, S1, D, K, Lo, Hi);
        }
      }
      detail::encodeTexelUnchecked(Info, S, New);
      break;
    }
    }
    if (M.LogicOn) {
      New[0] = applyLogicOp(M.Logic, New[0], Old[0]);
      New[1] = applyLogicOp(M.Logic, New[1], Old[1]);
    }
    if (M.PartialWrite)
      for (unsigned W = 0; W < 2; ++W)
        New[W] = (New[W] & M.WriteBits[W]) | (Old[W] & ~M.WriteBits[W]);
    std::memcpy(Texel, New, Bytes);
  }

  /// R8G8B8A8_UNORM (Bgra: B8G8R8A8_UNORM), no blending, every component.
  template <bool Bgra>
  static void storeUNorm8(const ColorMerger &, const ColorValue &Src,
                          const ColorValue *, const std::array<float, 4> &,
                          uint8_t *Texel) {
    uint32_t R = toUNorm8(Src.F[0]), G = toUNorm8(Src.F[1]),
             B = toUNorm8(Src.F[2]), A = toUNorm8(Src.F[3]);
    uint32_t V = Bgra ? (B | G << 8 | R << 16 | A << 24)
                      : (R | G << 8 | B << 16 | A << 24);
    std::memcpy(Texel, &V, 4);
  }

  /// R8G8B8A8_UNORM / B8G8R8A8_UNORM blended with the constant state Blend
  /// (which uses neither the second source nor the constants), every
  /// component.
  template <bool Bgra, const ColorBlendAttachment &Blend>
  static void blendUNorm8(const ColorMerger &, const ColorValue &Src,
                          const ColorValue *, const std::array<float, 4> &,
                          uint8_t *Texel) {
    constexpr unsigned Shift[4] = {Bgra ? 16u : 0u, 8u, Bgra ? 0u : 16u, 24u};
    uint32_t Old;
    std::memcpy(&Old, Texel, 4);
    Float4 D, S;
    for (unsigned C = 0; C < 4; ++C) {
      D[C] = UNorm8.Value[(Old >> Shift[C]) & 0xff];
      S[C] = clampTo(Src.F[C], 0.0f, 1.0f);
    }
    const Float4 Zero{0, 0, 0, 0};
    Float4 Out = blendColor<true>(Blend, S, Zero, D, Zero, 0.0f, 1.0f);
    uint32_t V = 0;
    for (unsigned C = 0; C < 4; ++C)
      V |= toUNorm8(Out[C]) << Shift[C];
    std::memcpy(Texel, &V, 4);
  }

  static void storeFloat32x4(const ColorMerger &, const ColorValue &Src,
                             const ColorValue *, const std::array<float, 4> &,
                             uint8_t *Texel) {
    std::memcpy(Texel, Src.F, 16);
  }

  static void storeFloat16x4(const ColorMerger &, const ColorValue &Src,
                             const ColorValue *, const std::array<float, 4> &,
                             uint8_t *Texel) {
    uint16_t H[4] = {floatToHalf(Src.F[0]), floatToHalf(Src.F[1]),
                     floatToHalf(Src.F[2]), floatToHalf(Src.F[3])};
    std::memcpy(Texel, H, 8);
  }

  /// The specialized function for M's state, or null.
  static ColorMerger::MergeFn specialized(const ColorMerger &M) {
    if (M.LogicOn || M.PartialWrite)
      return nullptr;
    bool Rgba8 = M.Fmt == Format::R8G8B8A8_UNORM;
    bool Bgra8 = M.Fmt == Format::B8G8R8A8_UNORM;
    if (!M.BlendOn) {
      if (Rgba8)
        return storeUNorm8<false>;
      if (Bgra8)
        return storeUNorm8<true>;
      if (M.Fmt == Format::R32G32B32A32_SFLOAT)
        return storeFloat32x4;
      if (M.Fmt == Format::R16G16B16A16_SFLOAT)
        return storeFloat16x4;
      return nullptr;
    }
    if (Rgba8 || Bgra8) {
      if (sameBlend(M.Blend, AlphaBlendSrcAlpha))
        return Rgba8 ? blendUNorm8<false, AlphaBlendSrcAlpha>
                     : blendUNorm8<true, AlphaBlendSrcAlpha>;
      if (sameBlend(M.Blend, AlphaBlendOne))
        return Rgba8 ? blendUNorm8<false, AlphaBlendOne>
                     : blendUNorm8<true, AlphaBlendOne>;
    }
    return nullptr;
  }

  static Result<ColorMerger> create(Format F, const ColorBlendAttachment &A,
                                    bool LogicOpEnable, LogicOp Op,
                                    unsigned Index, bool AllowSpecialized);
};

namespace {
/// Checks the enums that apply; the message names what is wrong.
Status checkState(const ColorBlendAttachment &A, bool LogicOpEnable,
                  LogicOp Op, unsigned Index) {
  auto Fail = [&](const std::string &What) {
    return Status::error(attachmentPrefix(Index) + What,
                         StatusCode::InvalidArgument);
  };
  if (A.WriteMask & ~uint32_t(ColorComponentAll))
    return Fail("write mask " + std::to_string(A.WriteMask) +
                " has bits other than R, G, B and A (1, 2, 4, 8)");
  if (LogicOpEnable && uint32_t(Op) > uint32_t(LogicOp::Set))
    return Fail("logic op " + std::to_string(uint32_t(Op)) +
                " is not a Vulkan logic op");
  if (!A.BlendEnable)
    return Status::success();
  const std::pair<const char *, BlendFactor> Factors[] = {
      {"source colour", A.SrcColor},
      {"destination colour", A.DstColor},
      {"source alpha", A.SrcAlpha},
      {"destination alpha", A.DstAlpha}};
  for (const auto &[Name, F] : Factors)
    if (uint32_t(F) > uint32_t(BlendFactor::OneMinusSrc1Alpha))
      return Fail(std::string(Name) + " blend factor " +
                  std::to_string(uint32_t(F)) + " is not a Vulkan blend factor");
  const std::pair<const char *, BlendOp> Ops[] = {{"colour", A.ColorOp},
                                                  {"alpha", A.AlphaOp}};
  for (const auto &[Name, O] : Ops)
    if (uint32_t(O) > uint32_t(BlendOp::Max))
      return Fail(std::string(Name) + " blend op " +
                  std::to_string(uint32_t(O)) +
                  " is not supported (only Add, Subtract, ReverseSubtract, "
                  "Min and Max; no advanced blend ops)");
  return Status::success();
}
} // namespace

Result<ColorMerger> ColorMergerImpl::create(Format F,
                                            const ColorBlendAttachment &A,
                                            bool LogicOpEnable, LogicOp Op,
                                            unsigned Index,
                                            bool AllowSpecialized) {
  const FormatInfo *Info = formatInfo(F);
  std::string Prefix = attachmentPrefix(Index);
  if (!Info || F == Format::UNDEFINED)
    return Status::error(Prefix + "unknown format " +
                             std::to_string(uint32_t(F)),
                         StatusCode::InvalidArgument);
  std::string Name(Info->Name);
  if (Info->isCompressed())
    return Status::error(Prefix + Name +
                             " is block-compressed: it cannot be a colour "
                             "attachment",
                         StatusCode::InvalidArgument);
  if (Info->hasDepth() || Info->hasStencil())
    return Status::error(Prefix + Name +
                             " is a depth/stencil format, not a colour format",
                         StatusCode::InvalidArgument);
  if (Info->Layout == LayoutKind::SharedExponent)
    return Status::error(Prefix + Name +
                             " (shared exponent) cannot be a colour attachment",
                         StatusCode::InvalidArgument);
  NumericKind N = Info->Components[0].Numeric;
  if (N == NumericKind::UScaled || N == NumericKind::SScaled)
    return Status::error(Prefix + Name +
                             ": scaled formats cannot be colour attachments",
                         StatusCode::InvalidArgument);
  if (Status S = checkState(A, LogicOpEnable, Op, Index); !S.ok())
    return S;

  ColorMerger M;
  M.Info = Info;
  M.Fmt = F;
  if (Info->isSRGB())
    M.Class = Class::SRGB;
  else
    switch (N) {
    case NumericKind::UNorm:
      M.Class = Class::UNorm;
      break;
    case NumericKind::SNorm:
      M.Class = Class::SNorm;
      break;
    case NumericKind::UInt:
      M.Class = Class::UInt;
      break;
    case NumericKind::SInt:
      M.Class = Class::SInt;
      break;
    default: // SFloat, UFloat
      M.Class = Class::Float;
      break;
    }
  bool Integer = M.Class == Class::UInt || M.Class == Class::SInt;
  M.Blend = A;
  M.Logic = Op;
  // Vulkan: an enabled logic op turns blending off on every attachment and
  // applies to integer and normalized ones; float and sRGB ones store the
  // source.
  M.LogicOn = LogicOpEnable && M.Class != Class::Float &&
              M.Class != Class::SRGB && Op != LogicOp::Copy;
  M.BlendOn = A.BlendEnable && !LogicOpEnable && !Integer;
  // Float attachments always read it: Inf or NaN times a Zero factor is NaN.
  M.BlendReadsDst = M.BlendOn && (M.Class == Class::Float || blendUsesDst(A));
  M.UsesSrc1 = M.BlendOn && blendUsesSrc1(A);

  uint64_t AllBits[2] = {0, 0};
  for (unsigned I = 0; I < Info->NumComponents; ++I) {
    const ComponentInfo &C = Info->Components[I];
    setBits(AllBits, C.Offset, C.Bits);
    if (A.WriteMask & componentFlag(C.Channel))
      setBits(M.WriteBits, C.Offset, C.Bits);
    if (Integer) {
      unsigned Slot = slotOf(C.Channel);
      if (M.Class == Class::SInt) {
        M.IntLo[Slot] = -(int64_t(1) << (C.Bits - 1));
        M.IntHi[Slot] = (int64_t(1) << (C.Bits - 1)) - 1;
      } else {
        M.IntLo[Slot] = 0;
        M.IntHi[Slot] = (int64_t(1) << C.Bits) - 1;
      }
    }
  }
  M.Writes = M.WriteBits[0] != 0 || M.WriteBits[1] != 0;
  M.PartialWrite =
      M.WriteBits[0] != AllBits[0] || M.WriteBits[1] != AllBits[1];
  M.ReadsDst = M.Writes && (M.BlendReadsDst || M.PartialWrite ||
                            (M.LogicOn && logicUsesDst(Op)));
  if (!M.Writes) {
    M.Fn = ColorMerger::mergeNothing;
    return M;
  }
  M.Fn = generic;
  if (AllowSpecialized)
    if (ColorMerger::MergeFn Fast = specialized(M)) {
      M.Fn = Fast;
      M.Specialized = true;
    }
  return M;
}

void ColorMerger::mergeNothing(const ColorMerger &, const ColorValue &,
                               const ColorValue *,
                               const std::array<float, 4> &, uint8_t *) {}

Result<ColorMerger> ColorMerger::create(Format F,
                                        const ColorBlendAttachment &A,
                                        bool LogicOpEnable, LogicOp Op,
                                        unsigned AttachmentIndex) {
  return ColorMergerImpl::create(F, A, LogicOpEnable, Op, AttachmentIndex,
                                 /*AllowSpecialized=*/true);
}

Result<ColorMerger> ColorMerger::createGeneric(Format F,
                                               const ColorBlendAttachment &A,
                                               bool LogicOpEnable, LogicOp Op,
                                               unsigned AttachmentIndex) {
  return ColorMergerImpl::create(F, A, LogicOpEnable, Op, AttachmentIndex,
                                 /*AllowSpecialized=*/false);
}

} // namespace spirv2llvm::graphics
