//===- graphics/OutputMerge.cpp - Colour merging --------------------------===//
//
// Vulkan 1.3 "The Framebuffer" (blending, logic ops, write masks) for one
// sample of a colour attachment at a time. The depth and stencil tests and
// depth/stencil attachments are DepthStencil.cpp's.
//
// ColorMerger has one generic path: the source in the attachment's numeric
// type (floats clamped for normalized formats, integers saturated), the
// blend in float on decoded values (sRGB decoded to linear), the encoding
// component by component with the scalar conversions of ImageFormat.h (so
// exactly as encodeTexel/decodeTexel convert; 8-bit UNORM and sRGB through
// tables built from those functions), then the logic op and the write mask
// on the encoded bits, the texel held as two little-endian words.
//
// The specialized paths (8-bit RGBA/BGRA stores and the common blends:
// "over", premultiplied "over", additive; RGBA32F and RGBA16F stores) do
// the generic path's arithmetic with the state known when compiling, in
// SSE2 where available: the same IEEE operations lane by lane, and the
// 8-bit conversion as an exact double product rounded by cvtpd2dq.
// OutputMergeTest checks them against the generic path, and the generic
// path against the texel codec, bit for bit.
//
// Limitation: the generic path converts and blends component by component
// (about 15 ns per sample for a store, 40 ns for a blend, against 4.5 and
// 6 ns for the specialized 8-bit ones).
//
//===----------------------------------------------------------------------===//
#include "graphics/OutputMerge.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#define S2L_OUTPUT_MERGE_SSE2 1
#endif

namespace spirv2llvm::graphics {

static_assert(std::endian::native == std::endian::little,
              "texels are accessed as little-endian words");

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
    Out[C] = blendComponent<Clamp>(B.ColorOp, B.SrcColor, B.DstColor, C, S, S1,
                                   D, K, Lo, Hi);
  Out[3] = blendComponent<Clamp>(B.AlphaOp, B.SrcAlpha, B.DstAlpha, 3, S, S1, D,
                                 K, Lo, Hi);
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

#if S2L_OUTPUT_MERGE_SSE2
/// toUNorm8 of the four lanes, packed lane 0 first: maxps returns its
/// second operand for NaN (so NaN gives 0), the double products are exact
/// and cvtpd2dq rounds them in the current rounding mode, as nearbyint.
inline uint32_t packUNorm8(__m128 V) {
  V = _mm_min_ps(_mm_max_ps(V, _mm_setzero_ps()), _mm_set1_ps(1.0f));
  const __m128d Scale = _mm_set1_pd(255.0);
  __m128i Lo = _mm_cvtpd_epi32(_mm_mul_pd(_mm_cvtps_pd(V), Scale));
  __m128i Hi =
      _mm_cvtpd_epi32(_mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(V, V)), Scale));
  __m128i I = _mm_unpacklo_epi64(Lo, Hi);
  I = _mm_packs_epi32(I, I);
  I = _mm_packus_epi16(I, I);
  return static_cast<uint32_t>(_mm_cvtsi128_si32(I));
}

/// clampTo(V, 0, 1) per lane, NaN kept: maxps/minps return their second
/// operand when the comparison fails.
inline __m128 clampUnitKeepNaN(__m128 V) {
  return _mm_min_ps(_mm_set1_ps(1.0f), _mm_max_ps(_mm_setzero_ps(), V));
}

/// The four floats of V. Loaded one by one: the caller has usually just
/// stored them one by one (from the shader's lanes), and a 16-byte load of
/// four 4-byte stores cannot be forwarded from the store buffer (a stall
/// that cost more than the whole conversion).
/// (_mm_setr_ps would be merged into one movups.)
inline __m128 loadFloats(const ColorValue &V) {
  __m128 X = _mm_load_ss(&V.F[0]), Y = _mm_load_ss(&V.F[1]),
         Z = _mm_load_ss(&V.F[2]), W = _mm_load_ss(&V.F[3]);
  return _mm_movelh_ps(_mm_unpacklo_ps(X, Y), _mm_unpacklo_ps(Z, W));
}

/// RGBA to BGRA (and back).
inline __m128 swapRB(__m128 V) {
  return _mm_shuffle_ps(V, V, _MM_SHUFFLE(3, 0, 1, 2));
}
#endif

/// srgbToLinear(unormToFloat(C, 8)) for every C.
struct SRGB8Table {
  float Value[256];
  SRGB8Table() {
    for (uint32_t C = 0; C < 256; ++C)
      Value[C] = srgbToLinear(unormToFloat(C, 8));
  }
};
const SRGB8Table SRGB8;

/// floatToUNorm(linearToSRGB(F), 8) without pow. The code is a
/// non-decreasing function of F, so it is the number of codes whose first
/// float is at most F. Above holds those first floats (found once by
/// bisection over the bit patterns, which order non-negative floats); Start
/// the code of the first float of each bucket of 2^16 bit patterns (same
/// exponent, same top 7 mantissa bits). A bucket holds at most one code
/// boundary (at most 255 * d(sRGB)/dL * L * 2^-7 ~ 0.44 codes wide, near
/// L = 1), so one comparison finishes the lookup. Built on first use
/// (about 8000 linearToSRGB calls, 17 KB).
struct SRGB8EncodeTable {
  static constexpr uint32_t OneBits = 0x3f800000; // 1.0f: code 255
  /// Above[C]: the bits of the smallest float whose code is > C; Above[255]
  /// is past every float below 1.
  uint32_t Above[256];
  uint8_t Start[OneBits >> 16];
  SRGB8EncodeTable() {
    auto Code = [](uint32_t Bits) {
      return floatToUNorm(linearToSRGB(std::bit_cast<float>(Bits)), 8);
    };
    uint32_t From = 0;
    for (uint32_t C = 0; C < 255; ++C) {
      uint32_t Lo = From, Hi = OneBits;
      while (Lo < Hi) {
        uint32_t Mid = Lo + (Hi - Lo) / 2;
        if (Code(Mid) > C)
          Hi = Mid;
        else
          Lo = Mid + 1;
      }
      Above[C] = From = Lo;
    }
    Above[255] = ~0u;
    uint32_t C = 0;
    for (uint32_t B = 0; B < (OneBits >> 16); ++B) {
      while (Above[C] <= B << 16)
        ++C;
      Start[B] = uint8_t(C);
      assert((C == 255 || Above[C + 1] > (B << 16 | 0xffff)) &&
             "two code boundaries in a bucket");
    }
  }
};

inline uint32_t toSRGB8(float F) {
  static const SRGB8EncodeTable Table;
  if (!(F > 0.0f)) // NaN, zero and negative values: 0
    return 0;
  if (F >= 1.0f)
    return 255;
  uint32_t Bits = std::bit_cast<uint32_t>(F);
  uint32_t C = Table.Start[Bits >> 16];
  return C + (Bits >= Table.Above[C]);
}

inline uint64_t lowBits(unsigned Bits) {
  return Bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
}

inline int32_t signExtend(uint32_t V, unsigned Bits) {
  if (Bits >= 32)
    return int32_t(V);
  uint32_t Sign = 1u << (Bits - 1);
  return int32_t((V ^ Sign) - Sign);
}

/// The texel codec's conversions of one float-view component (TexelCodec.cpp
/// componentToFloat / floatToComponent, through the same scalar functions;
/// OutputMergeTest checks every colour format against the codec), with
/// tables for the 8-bit cases.
inline float componentToFloat(NumericKind N, uint32_t Raw, unsigned Bits) {
  switch (N) {
  case NumericKind::UNorm:
    return Bits == 8 ? UNorm8.Value[Raw & 0xff] : unormToFloat(Raw, Bits);
  case NumericKind::SNorm:
    return snormToFloat(signExtend(Raw, Bits), Bits);
  case NumericKind::SFloat:
    return Bits == 16 ? halfToFloat(uint16_t(Raw)) : std::bit_cast<float>(Raw);
  case NumericKind::UFloat:
    return unsignedSmallFloatToFloat(Raw, Bits - 5);
  case NumericKind::SRGB:
    return Bits == 8 ? SRGB8.Value[Raw & 0xff]
                     : srgbToLinear(unormToFloat(Raw, Bits));
  default: // integers and scaled formats never take this path
    return 0.0f;
  }
}

inline uint32_t floatToComponent(NumericKind N, float F, unsigned Bits) {
  switch (N) {
  case NumericKind::UNorm:
    return Bits == 8 ? toUNorm8(F) : floatToUNorm(F, Bits);
  case NumericKind::SNorm:
    return uint32_t(floatToSNorm(F, Bits));
  case NumericKind::SFloat:
    return Bits == 16 ? floatToHalf(F) : std::bit_cast<uint32_t>(F);
  case NumericKind::UFloat:
    return floatToUnsignedSmallFloat(F, Bits - 5);
  case NumericKind::SRGB:
    return Bits == 8 ? toSRGB8(F) : floatToUNorm(linearToSRGB(F), Bits);
  default:
    return 0;
  }
}

/// A texel of a colour format (1, 2, 3, 4, 6, 8, 12 or 16 bytes) to two
/// little-endian words and back, with fixed-size accesses (a variable
/// memcpy, then word loads of what it stored, stalls the store buffer).
inline void loadTexel(const uint8_t *P, unsigned Bytes, uint64_t (&W)[2]) {
  uint32_t L = 0;
  uint16_t H = 0;
  switch (Bytes) {
  case 1:
    W[0] = P[0];
    return;
  case 2:
    std::memcpy(&H, P, 2);
    W[0] = H;
    return;
  case 3:
    std::memcpy(&H, P, 2);
    W[0] = H | uint64_t(P[2]) << 16;
    return;
  case 4:
    std::memcpy(&L, P, 4);
    W[0] = L;
    return;
  case 6:
    std::memcpy(&L, P, 4);
    std::memcpy(&H, P + 4, 2);
    W[0] = L | uint64_t(H) << 32;
    return;
  case 8:
    std::memcpy(&W[0], P, 8);
    return;
  case 12:
    std::memcpy(&W[0], P, 8);
    std::memcpy(&L, P + 8, 4);
    W[1] = L;
    return;
  case 16:
    std::memcpy(&W[0], P, 8);
    std::memcpy(&W[1], P + 8, 8);
    return;
  default:
    std::memcpy(W, P, Bytes);
    return;
  }
}

inline void storeTexel(const uint64_t (&W)[2], unsigned Bytes, uint8_t *P) {
  uint32_t L = uint32_t(W[0]);
  uint16_t H = uint16_t(W[0]);
  switch (Bytes) {
  case 1:
    P[0] = uint8_t(W[0]);
    return;
  case 2:
    std::memcpy(P, &H, 2);
    return;
  case 3:
    std::memcpy(P, &H, 2);
    P[2] = uint8_t(W[0] >> 16);
    return;
  case 4:
    std::memcpy(P, &L, 4);
    return;
  case 6:
    std::memcpy(P, &L, 4);
    H = uint16_t(W[0] >> 32);
    std::memcpy(P + 4, &H, 2);
    return;
  case 8:
    std::memcpy(P, &W[0], 8);
    return;
  case 12:
    std::memcpy(P, &W[0], 8);
    L = uint32_t(W[1]);
    std::memcpy(P + 8, &L, 4);
    return;
  case 16:
    std::memcpy(P, &W[0], 8);
    std::memcpy(P + 8, &W[1], 8);
    return;
  default:
    std::memcpy(P, W, Bytes);
    return;
  }
}

constexpr ColorBlendAttachment addBlend(BlendFactor SrcColor,
                                        BlendFactor DstColor,
                                        BlendFactor SrcAlpha,
                                        BlendFactor DstAlpha) {
  ColorBlendAttachment B;
  B.BlendEnable = true;
  B.SrcColor = SrcColor;
  B.DstColor = DstColor;
  B.ColorOp = BlendOp::Add;
  B.SrcAlpha = SrcAlpha;
  B.DstAlpha = DstAlpha;
  B.AlphaOp = BlendOp::Add;
  return B;
}

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

  /// V's floats, clamped to [Lo, Hi] when Clamp, into Out[0..3]. A
  /// non-float output is read as float bits (undefined in Vulkan).
  static void sourceFloats(const ColorValue &V, bool Clamp, float Lo, float Hi,
                           float *Out) {
#if S2L_OUTPUT_MERGE_SSE2
    // (Written here because the compiler would otherwise load V as one
    // vector; see loadFloats.) clampTo's NaN behaviour, as in
    // clampUnitKeepNaN.
    __m128 S = loadFloats(V);
    if (Clamp)
      S = _mm_min_ps(_mm_set1_ps(Hi), _mm_max_ps(_mm_set1_ps(Lo), S));
    _mm_storeu_ps(Out, S);
#else
    for (unsigned C = 0; C < 4; ++C)
      Out[C] = Clamp ? clampTo(V.F[C], Lo, Hi) : V.F[C];
#endif
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

  /// The generic blend's inputs, one array so that a factor is one
  /// indexed load: S, D, constants, Src1, then 0, 1 and min(As, 1 - Ad).
  enum FactorSlot : uint8_t {
    SlotS = 0,
    SlotD = 4,
    SlotK = 8,
    SlotS1 = 12,
    SlotZero = 16,
    SlotOne = 17,
    SlotSaturate = 18,
    NumSlots = 19
  };

  /// Factor F of component C as a slot of the inputs (blendFactor's
  /// cases, which the specialized scalar paths use).
  static ColorMerger::FactorRef factorRef(BlendFactor F, unsigned C) {
    auto Ref = [](unsigned Slot, bool OneMinus) {
      return ColorMerger::FactorRef{uint8_t(Slot), OneMinus};
    };
    switch (F) {
    case BlendFactor::Zero:
      return Ref(SlotZero, false);
    case BlendFactor::One:
      return Ref(SlotOne, false);
    case BlendFactor::SrcColor:
    case BlendFactor::OneMinusSrcColor:
      return Ref(SlotS + C, F == BlendFactor::OneMinusSrcColor);
    case BlendFactor::DstColor:
    case BlendFactor::OneMinusDstColor:
      return Ref(SlotD + C, F == BlendFactor::OneMinusDstColor);
    case BlendFactor::SrcAlpha:
    case BlendFactor::OneMinusSrcAlpha:
      return Ref(SlotS + 3, F == BlendFactor::OneMinusSrcAlpha);
    case BlendFactor::DstAlpha:
    case BlendFactor::OneMinusDstAlpha:
      return Ref(SlotD + 3, F == BlendFactor::OneMinusDstAlpha);
    case BlendFactor::ConstantColor:
    case BlendFactor::OneMinusConstantColor:
      return Ref(SlotK + C, F == BlendFactor::OneMinusConstantColor);
    case BlendFactor::ConstantAlpha:
    case BlendFactor::OneMinusConstantAlpha:
      return Ref(SlotK + 3, F == BlendFactor::OneMinusConstantAlpha);
    case BlendFactor::SrcAlphaSaturate:
      return Ref(C == 3 ? SlotOne : SlotSaturate, false);
    case BlendFactor::Src1Color:
    case BlendFactor::OneMinusSrc1Color:
      return Ref(SlotS1 + C, F == BlendFactor::OneMinusSrc1Color);
    case BlendFactor::Src1Alpha:
    case BlendFactor::OneMinusSrc1Alpha:
      return Ref(SlotS1 + 3, F == BlendFactor::OneMinusSrc1Alpha);
    }
    return Ref(SlotZero, false);
  }

  static void prepareBlend(ColorMerger &M) {
    const ColorBlendAttachment &B = M.Blend;
    for (unsigned C = 0; C < 4; ++C) {
      bool Alpha = C == 3;
      M.SrcFactor[C] = factorRef(Alpha ? B.SrcAlpha : B.SrcColor, C);
      M.DstFactor[C] = factorRef(Alpha ? B.DstAlpha : B.DstColor, C);
      M.Ops[C] = Alpha ? B.AlphaOp : B.ColorOp;
      M.UsesSaturate |= M.SrcFactor[C].Slot == SlotSaturate ||
                        M.DstFactor[C].Slot == SlotSaturate;
    }
  }

  /// blendColor with the factors looked up instead of switched over: the
  /// same operations on the same values.
  template <bool Clamp>
  static void blendGeneric(const ColorMerger &M, const float (&In)[NumSlots],
                           float Lo, float Hi, float (&Out)[4]) {
    for (unsigned C = 0; C < 4; ++C) {
      float S = In[SlotS + C], D = In[SlotD + C];
      BlendOp Op = M.Ops[C];
      if (Op == BlendOp::Min) {
        Out[C] = std::min(S, D);
        continue;
      }
      if (Op == BlendOp::Max) {
        Out[C] = std::max(S, D);
        continue;
      }
      ColorMerger::FactorRef SR = M.SrcFactor[C], DR = M.DstFactor[C];
      float SF = SR.OneMinus ? 1.0f - In[SR.Slot] : In[SR.Slot];
      float DF = DR.OneMinus ? 1.0f - In[DR.Slot] : In[DR.Slot];
      if constexpr (Clamp) {
        SF = clampTo(SF, Lo, Hi);
        DF = clampTo(DF, Lo, Hi);
      }
      float SV = S * SF;
      float DV = D * DF;
      Out[C] = Op == BlendOp::Add        ? SV + DV
               : Op == BlendOp::Subtract ? SV - DV
                                         : DV - SV;
    }
  }

  /// The destination's value into D[0..3] (missing components 0, alpha 1:
  /// Vulkan "Conversion to RGBA").
  static void decode(const ColorMerger &M, const uint64_t (&Old)[2], float *D) {
    D[0] = D[1] = D[2] = 0.0f;
    D[3] = 1.0f;
    for (unsigned I = 0; I < M.NumComps; ++I) {
      const ColorMerger::Component &C = M.Comps[I];
      uint32_t Raw = uint32_t((Old[C.Word] >> C.Shift) & lowBits(C.Bits));
      D[C.Slot] = componentToFloat(C.Numeric, Raw, C.Bits);
    }
  }

  static void put(const ColorMerger::Component &C, uint32_t Raw,
                  uint64_t (&New)[2]) {
    New[C.Word] |= (uint64_t(Raw) & lowBits(C.Bits)) << C.Shift;
  }

  static void generic(const ColorMerger &M, const ColorValue &Src,
                      const ColorValue *Src1,
                      const std::array<float, 4> &Constants, uint8_t *Texel) {
    const unsigned Bytes = M.TexelBytes;
    uint64_t Old[2] = {0, 0}, New[2] = {0, 0};
    if (M.ReadsDst)
      loadTexel(Texel, Bytes, Old);
    switch (M.Class) {
    case Class::UInt:
    case Class::SInt: {
      bool Signed = M.Class == Class::SInt;
      for (unsigned I = 0; I < M.NumComps; ++I) {
        const ColorMerger::Component &C = M.Comps[I];
        int64_t V = std::clamp(sourceInt(Src, C.Slot, Signed), M.IntLo[C.Slot],
                               M.IntHi[C.Slot]);
        put(C, uint32_t(V), New);
      }
      break;
    }
    default: {
      // Everything in one array, written and read a float at a time (a
      // Float4 written by components and then copied as a whole is a
      // 16-byte load the store buffer cannot forward: a stall each time).
      bool Clamp = M.Class != Class::Float;
      float Lo = M.Class == Class::SNorm ? -1.0f : 0.0f, Hi = 1.0f;
      float In[NumSlots];
      sourceFloats(Src, Clamp, Lo, Hi, In + SlotS);
      const float *Result = In + SlotS;
      float Out[4];
      if (M.BlendOn) {
        if (M.BlendReadsDst)
          decode(M, Old, In + SlotD);
        else
          In[SlotD] = In[SlotD + 1] = In[SlotD + 2] = In[SlotD + 3] = 0.0f;
        assert((Src1 || !M.UsesSrc1) && "dual-source blend without Src1");
        if (Src1 && M.UsesSrc1)
          sourceFloats(*Src1, Clamp, Lo, Hi, In + SlotS1);
        else
          In[SlotS1] = In[SlotS1 + 1] = In[SlotS1 + 2] = In[SlotS1 + 3] = 0.0f;
        for (unsigned C = 0; C < 4; ++C)
          In[SlotK + C] = Clamp ? clampTo(Constants[C], Lo, Hi) : Constants[C];
        In[SlotZero] = 0.0f;
        In[SlotOne] = 1.0f;
        In[SlotSaturate] = M.UsesSaturate
                               ? std::min(In[SlotS + 3], 1.0f - In[SlotD + 3])
                               : 0.0f;
        if (Clamp)
          blendGeneric<true>(M, In, Lo, Hi, Out);
        else
          blendGeneric<false>(M, In, Lo, Hi, Out);
        Result = Out;
      }
      for (unsigned I = 0; I < M.NumComps; ++I) {
        const ColorMerger::Component &C = M.Comps[I];
        put(C, floatToComponent(C.Numeric, Result[C.Slot], C.Bits), New);
      }
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
    storeTexel(New, Bytes, Texel);
  }

  /// R8G8B8A8_UNORM (Bgra: B8G8R8A8_UNORM), no blending, every component.
  template <bool Bgra>
  static void storeUNorm8(const ColorMerger &, const ColorValue &Src,
                          const ColorValue *, const std::array<float, 4> &,
                          uint8_t *Texel) {
#if S2L_OUTPUT_MERGE_SSE2
    __m128 S = loadFloats(Src);
    uint32_t V = packUNorm8(Bgra ? swapRB(S) : S);
#else
    uint32_t R = toUNorm8(Src.F[0]), G = toUNorm8(Src.F[1]),
             B = toUNorm8(Src.F[2]), A = toUNorm8(Src.F[3]);
    uint32_t V = Bgra ? (B | G << 8 | R << 16 | A << 24)
                      : (R | G << 8 | B << 16 | A << 24);
#endif
    std::memcpy(Texel, &V, 4);
  }

#if S2L_OUTPUT_MERGE_SSE2
  /// Factor F (Zero, One, SrcAlpha or OneMinusSrcAlpha) in every lane,
  /// given the source alpha in every lane.
  template <BlendFactor F> static __m128 simpleFactor(__m128 A) {
    if constexpr (F == BlendFactor::Zero)
      return _mm_setzero_ps();
    else if constexpr (F == BlendFactor::One)
      return _mm_set1_ps(1.0f);
    else if constexpr (F == BlendFactor::SrcAlpha)
      return A;
    else
      return _mm_sub_ps(_mm_set1_ps(1.0f), A);
  }
  /// Lanes 0-2 of C, lane 3 of A.
  static __m128 colourThenAlpha(__m128 C, __m128 A) {
    return _mm_shuffle_ps(C, _mm_shuffle_ps(C, A, _MM_SHUFFLE(3, 3, 2, 2)),
                          _MM_SHUFFLE(2, 0, 1, 0));
  }
#endif

  /// R8G8B8A8_UNORM / B8G8R8A8_UNORM, every component, blended with Add
  /// and factors among Zero, One, SrcAlpha and OneMinusSrcAlpha (no
  /// destination, constant or second-source factor).
  template <bool Bgra, BlendFactor SrcC, BlendFactor DstC, BlendFactor SrcA,
            BlendFactor DstA>
  static void blendUNorm8(const ColorMerger &, const ColorValue &Src,
                          const ColorValue *, const std::array<float, 4> &,
                          uint8_t *Texel) {
    uint32_t Old;
    std::memcpy(&Old, Texel, 4);
#if S2L_OUTPUT_MERGE_SSE2
    // The generic path's arithmetic lane by lane: S clamped (NaN kept),
    // factors 0, 1, As or 1 - As (already in [0,1], so their clamps are
    // no-ops), S * SF + D * DF.
    __m128 D =
        _mm_setr_ps(UNorm8.Value[Old & 0xff], UNorm8.Value[(Old >> 8) & 0xff],
                    UNorm8.Value[(Old >> 16) & 0xff], UNorm8.Value[Old >> 24]);
    __m128 S = clampUnitKeepNaN(loadFloats(Src));
    if (Bgra)
      S = swapRB(S); // D is in memory order: work in it
    __m128 A = _mm_shuffle_ps(S, S, _MM_SHUFFLE(3, 3, 3, 3));
    __m128 SF = SrcC == SrcA ? simpleFactor<SrcC>(A)
                             : colourThenAlpha(simpleFactor<SrcC>(A),
                                               simpleFactor<SrcA>(A));
    __m128 DF = DstC == DstA ? simpleFactor<DstC>(A)
                             : colourThenAlpha(simpleFactor<DstC>(A),
                                               simpleFactor<DstA>(A));
    __m128 Out = _mm_add_ps(_mm_mul_ps(S, SF), _mm_mul_ps(D, DF));
    uint32_t V = packUNorm8(Out);
#else
    constexpr ColorBlendAttachment Blend = addBlend(SrcC, DstC, SrcA, DstA);
    constexpr unsigned Shift[4] = {Bgra ? 16u : 0u, 8u, Bgra ? 0u : 16u, 24u};
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
#endif
    std::memcpy(Texel, &V, 4);
  }

  struct SpecializedBlend {
    ColorBlendAttachment State;
    ColorMerger::MergeFn Rgba, Bgra;
  };
  template <BlendFactor SrcC, BlendFactor DstC, BlendFactor SrcA,
            BlendFactor DstA>
  static SpecializedBlend specializedBlend() {
    return {addBlend(SrcC, DstC, SrcA, DstA),
            blendUNorm8<false, SrcC, DstC, SrcA, DstA>,
            blendUNorm8<true, SrcC, DstC, SrcA, DstA>};
  }

  static void storeFloat32x4(const ColorMerger &, const ColorValue &Src,
                             const ColorValue *, const std::array<float, 4> &,
                             uint8_t *Texel) {
#if S2L_OUTPUT_MERGE_SSE2
    _mm_storeu_ps(reinterpret_cast<float *>(Texel), loadFloats(Src));
#else
    std::memcpy(Texel, Src.F, 16);
#endif
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
    if (!Rgba8 && !Bgra8)
      return nullptr;
    using F = BlendFactor;
    // The common blends of 8-bit colour: "over" (with the alpha blended like
    // the colour, or with source factor One), premultiplied "over", and
    // additive.
    static const SpecializedBlend Blends[] = {
        specializedBlend<F::SrcAlpha, F::OneMinusSrcAlpha, F::SrcAlpha,
                         F::OneMinusSrcAlpha>(),
        specializedBlend<F::SrcAlpha, F::OneMinusSrcAlpha, F::One,
                         F::OneMinusSrcAlpha>(),
        specializedBlend<F::One, F::OneMinusSrcAlpha, F::One,
                         F::OneMinusSrcAlpha>(),
        specializedBlend<F::One, F::One, F::One, F::One>(),
        specializedBlend<F::SrcAlpha, F::One, F::SrcAlpha, F::One>(),
    };
    for (const SpecializedBlend &B : Blends)
      if (sameBlend(M.Blend, B.State))
        return Rgba8 ? B.Rgba : B.Bgra;
    return nullptr;
  }

  static Result<ColorMerger> create(Format F, const ColorBlendAttachment &A,
                                    bool LogicOpEnable, LogicOp Op,
                                    unsigned Index, bool AllowSpecialized);
};

namespace {
/// Checks the enums that apply; the message names what is wrong.
Status checkState(const ColorBlendAttachment &A, bool LogicOpEnable, LogicOp Op,
                  unsigned Index) {
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
                  std::to_string(uint32_t(F)) +
                  " is not a Vulkan blend factor");
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
  if (Info->has64BitComponents())
    return Status::error(Prefix + Name +
                             ": 64-bit formats cannot be colour attachments",
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
  if (M.BlendOn)
    prepareBlend(M);

  uint64_t AllBits[2] = {0, 0};
  M.NumComps = Info->NumComponents;
  M.TexelBytes = Info->BlockBytes;
  for (unsigned I = 0; I < Info->NumComponents; ++I) {
    const ComponentInfo &C = Info->Components[I];
    // Components never straddle the two words (the widest is 32 bits at a
    // multiple of 32).
    M.Comps[I] = {uint8_t(C.Offset / 64), uint8_t(C.Offset % 64), C.Bits,
                  uint8_t(slotOf(C.Channel)), C.Numeric};
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
  M.PartialWrite = M.WriteBits[0] != AllBits[0] || M.WriteBits[1] != AllBits[1];
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
                               const ColorValue *, const std::array<float, 4> &,
                               uint8_t *) {}

Result<ColorMerger> ColorMerger::create(Format F, const ColorBlendAttachment &A,
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
