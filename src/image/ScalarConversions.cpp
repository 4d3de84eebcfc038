//===- image/ScalarConversions.cpp - Component conversions ----------------===//
//
// The scalar conversions of Vulkan 1.3 "Fixed-Point Data Conversions",
// "16-Bit Floating-Point Numbers", "Unsigned 11-Bit / 10-Bit Floating-Point
// Numbers", "Shared Exponent" and the sRGB transfer functions. Everything a
// texel conversion does to one component is here, so that the texel codec
// and (later) code generation agree bit for bit.
//
// Rounding: Vulkan lets float-to-fixed conversions pick either neighbour but
// says implementations should round to nearest; we round to nearest even, as
// lavapipe does (util_format's _mesa_lroundevenf), and exact integers map to
// themselves as the spec requires.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/ImageFormat.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace spirv2llvm {

namespace {
uint32_t bitsOf(float F) { return std::bit_cast<uint32_t>(F); }
float floatOf(uint32_t U) { return std::bit_cast<float>(U); }
} // namespace

namespace {
/// The 8-bit quotients, computed once with the same division: the most
/// common formats' per-texel conversion without a double division.
struct UNorm8Table {
  float Value[256];
  UNorm8Table() {
    for (uint32_t C = 0; C < 256; ++C)
      Value[C] = static_cast<float>(static_cast<double>(C) / 255.0);
  }
};
} // namespace

float unormToFloat(uint32_t C, unsigned Bits) {
  if (Bits == 8 && C < 256) {
    static const UNorm8Table Table;
    return Table.Value[C];
  }
  // Computed in double: c / (2^b - 1) rounded once to float, which is the
  // correctly rounded quotient for every b <= 32.
  double Max = double((uint64_t(1) << Bits) - 1); // 2^b - 1, exact
  return static_cast<float>(static_cast<double>(C) / Max);
}

uint32_t floatToUNorm(float F, unsigned Bits) {
  if (std::isnan(F))
    return 0;
  double Max = double((uint64_t(1) << Bits) - 1); // 2^b - 1, exact
  double Clamped = std::clamp(static_cast<double>(F), 0.0, 1.0);
  return static_cast<uint32_t>(std::nearbyint(Clamped * Max));
}

float snormToFloat(int32_t C, unsigned Bits) {
  // Both -2^(b-1) and -2^(b-1)+1 give -1.0: the spec's max(.., -1).
  double Max = double((uint64_t(1) << (Bits - 1)) - 1);
  return static_cast<float>(std::max(static_cast<double>(C) / Max, -1.0));
}

int32_t floatToSNorm(float F, unsigned Bits) {
  if (std::isnan(F))
    return 0;
  double Max = double((uint64_t(1) << (Bits - 1)) - 1);
  double Clamped = std::clamp(static_cast<double>(F), -1.0, 1.0);
  return static_cast<int32_t>(std::nearbyint(Clamped * Max));
}

float halfToFloat(uint16_t H) {
  uint32_t Sign = static_cast<uint32_t>(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f;
  uint32_t Man = H & 0x3ff;
  if (Exp == 0x1f) // Inf, or NaN with its payload kept (and made quiet).
    return floatOf(Sign | 0x7f800000 | (Man << 13) | (Man ? 0x400000 : 0));
  if (Exp == 0) // Zero or denormal: Man * 2^-24, exact in float.
    return floatOf(Sign) + (Sign ? -1.0f : 1.0f) * std::ldexp(float(Man), -24);
  return floatOf(Sign | ((Exp + 112) << 23) | (Man << 13));
}

uint16_t floatToHalf(float F) {
  uint32_t U = bitsOf(F);
  uint16_t Sign = static_cast<uint16_t>((U >> 16) & 0x8000);
  float A = std::fabs(F);
  if (std::isnan(F))
    return Sign | 0x7e00 | static_cast<uint16_t>((U >> 13) & 0x3ff);
  if (A >= 65520.0f) // Rounds past the largest half (65504): infinity.
    return Sign | 0x7c00;
  if (A < std::ldexp(1.0f, -14)) {
    // Denormal: a multiple of 2^-24, rounded to nearest even (nearbyint
    // in the default rounding mode); 2^-14 itself becomes the normal 0x400.
    float Units = std::nearbyint(std::ldexp(A, 24));
    return Sign | static_cast<uint16_t>(Units);
  }
  // Normal: drop 13 mantissa bits, round to nearest even; a carry into the
  // exponent is the correct result (and gives infinity at the top).
  uint32_t Abs = U & 0x7fffffff;
  uint32_t Rounded = Abs + 0xfff + ((Abs >> 13) & 1);
  return Sign | static_cast<uint16_t>((Rounded - (112u << 23)) >> 13);
}

float unsignedSmallFloatToFloat(uint32_t Bits, unsigned MantissaBits) {
  uint32_t Exp = (Bits >> MantissaBits) & 0x1f;
  uint32_t Man = Bits & ((1u << MantissaBits) - 1);
  if (Exp == 0x1f)
    return Man ? std::numeric_limits<float>::quiet_NaN()
               : std::numeric_limits<float>::infinity();
  if (Exp == 0) // Denormal: 2^-14 * (Man / 2^M).
    return std::ldexp(float(Man), -14 - int(MantissaBits));
  return std::ldexp(1.0f + std::ldexp(float(Man), -int(MantissaBits)),
                    int(Exp) - 15);
}

uint32_t floatToUnsignedSmallFloat(float F, unsigned MantissaBits) {
  const uint32_t ExpMask = 0x1fu << MantissaBits;
  if (std::isnan(F))
    return ExpMask | 1u << (MantissaBits - 1);
  if (F <= 0.0f) // Negative values, -Inf and -0 become 0.
    return 0;
  if (std::isinf(F))
    return ExpMask;
  // The largest finite value: exponent 30, all mantissa bits set (65024
  // for 11 bits, 64512 for 10). Finite values above it clamp to it rather
  // than round to infinity ("finite positive values greater than the
  // maximum ... are converted to" the maximum).
  const uint32_t MaxFinite = ExpMask - 1;
  if (F >= unsignedSmallFloatToFloat(MaxFinite, MantissaBits))
    return MaxFinite;
  int E;
  std::frexp(F, &E); // F = m * 2^E, m in [0.5, 1): exponent E-1.
  int Exp = std::max(E - 1, -14);
  // Units of the last place at this exponent (denormals share -14's).
  float Units = std::nearbyint(std::ldexp(F, int(MantissaBits) - Exp));
  // Units is in [2^M, 2^(M+1)] for normals (a round-up to 2^(M+1) moves to
  // the next exponent), and in [0, 2^M] for denormals.
  uint32_t Q = static_cast<uint32_t>(Units);
  uint32_t Biased = static_cast<uint32_t>(Exp + 15);
  if (Q < (1u << MantissaBits)) // Denormal (only when Exp == -14).
    return Q;
  if (Q == (2u << MantissaBits)) {
    Q = 1u << MantissaBits;
    ++Biased;
  }
  return (Biased << MantissaBits) | (Q - (1u << MantissaBits));
}

Float4 decodeRGB9E5(uint32_t Packed) {
  // Vulkan "Shared Exponent": each value is mantissa * 2^(exp - B - N)
  // with B = 15, N = 9.
  int Exp = static_cast<int>(Packed >> 27) - 15 - 9;
  Float4 Out{0, 0, 0, 1};
  for (int I = 0; I < 3; ++I)
    Out[I] = std::ldexp(float((Packed >> (9 * I)) & 0x1ff), Exp);
  return Out;
}

uint32_t encodeRGB9E5(const Float4 &RGB) {
  // The spec's algorithm, step by step; floor(x + 0.5) is its rounding.
  constexpr int N = 9, B = 15, EMax = 31;
  const double SharedExpMax =
      (std::ldexp(1.0, N) - 1) / std::ldexp(1.0, N) * std::ldexp(1.0, EMax - B);
  double C[3];
  for (int I = 0; I < 3; ++I) {
    double V = RGB[I];
    C[I] = std::isnan(V) ? 0.0 : std::clamp(V, 0.0, SharedExpMax);
  }
  double MaxC = std::max({C[0], C[1], C[2]});
  // floor(log2(MaxC)), exactly: frexp gives MaxC = m * 2^E, m in [0.5,1).
  int FloorLog2 = -B - 1;
  if (MaxC > 0) {
    int E;
    std::frexp(MaxC, &E);
    FloorLog2 = std::max(-B - 1, E - 1);
  }
  int ExpShared = FloorLog2 + 1 + B;
  double MaxS = std::floor(MaxC / std::ldexp(1.0, ExpShared - B - N) + 0.5);
  if (MaxS >= std::ldexp(1.0, N))
    ++ExpShared;
  uint32_t Out = static_cast<uint32_t>(ExpShared) << 27;
  for (int I = 0; I < 3; ++I) {
    double S = std::floor(C[I] / std::ldexp(1.0, ExpShared - B - N) + 0.5);
    Out |= static_cast<uint32_t>(S) << (9 * I);
  }
  return Out;
}

float srgbToLinear(float Encoded) {
  double C = Encoded;
  double L = C <= 0.04045 ? C / 12.92 : std::pow((C + 0.055) / 1.055, 2.4);
  return static_cast<float>(L);
}

float linearToSRGB(float Linear) {
  if (std::isnan(Linear))
    return 0.0f;
  double L = Linear;
  if (L <= 0.0)
    return 0.0f;
  if (L >= 1.0)
    return 1.0f;
  double C = L < 0.0031308 ? 12.92 * L : 1.055 * std::pow(L, 1.0 / 2.4) - 0.055;
  return static_cast<float>(C);
}

} // namespace spirv2llvm
