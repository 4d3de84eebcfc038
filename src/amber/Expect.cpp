//===- Expect.cpp - Evaluating Amber EXPECT commands ----------------------===//
//
// Comparisons follow Amber's verifier: floats are equal within 1e-6 unless
// a TOLERANCE is given (absolute, or with % relative to the expected
// value), integers compare exactly in their declared signedness, and probe
// colours are given in 0..255 and compared in the attachment's normalized
// value (an absolute colour tolerance is in 0..255 units too).
//
//===----------------------------------------------------------------------===//
#include "amber/Expect.h"
#include "spirv2llvm/ImageFormat.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace llvm;

namespace spirv2llvm::amber {

namespace {

constexpr double Epsilon = 1e-6;

bool withinTolerance(double Actual, double Expected, const Tolerance &T,
                     double Scale = 1.0) {
  double Diff = std::fabs(Actual - Expected);
  double Allowed = T.Percent ? T.Value / 100.0 * std::fabs(Expected)
                             : T.Value * Scale;
  return Diff <= Allowed + Epsilon * std::max(1.0, std::fabs(Expected));
}

/// Shortest text that reads back as \p D.
std::string fmtNum(double D) {
  if (D == std::trunc(D) && std::fabs(D) < 1e15)
    return std::to_string(int64_t(D));
  for (int Prec = 6; Prec < 17; ++Prec) {
    char Buf[40];
    std::snprintf(Buf, sizeof Buf, "%.*g", Prec, D);
    std::string S = Buf;
    if (std::strtod(S.c_str(), nullptr) == D)
      return S;
  }
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%.17g", D);
  return Buf;
}

const char *opName(CompareOp Op) {
  switch (Op) {
  case CompareOp::EQ: return "EQ";
  case CompareOp::NE: return "NE";
  case CompareOp::LT: return "LT";
  case CompareOp::LE: return "LE";
  case CompareOp::GT: return "GT";
  case CompareOp::GE: return "GE";
  }
  return "?";
}

template <typename T> bool compare(CompareOp Op, T A, T E) {
  switch (Op) {
  case CompareOp::EQ: return A == E;
  case CompareOp::NE: return A != E;
  case CompareOp::LT: return A < E;
  case CompareOp::LE: return A <= E;
  case CompareOp::GT: return A > E;
  case CompareOp::GE: return A >= E;
  }
  return false;
}

std::string prefix(const Command &C) {
  return formatv("line {0}: {1}", C.Line, C.Text).str();
}

/// Text of a component's value.
std::string valueText(const Component &Co, const uint8_t *P) {
  if (Co.Kind == NumKind::Int)
    return std::to_string(readComponentInt(Co, P));
  if (Co.Kind == NumKind::UInt || Co.Kind == NumKind::UNorm)
    return std::to_string(readComponentUInt(Co, P));
  if (Co.Kind == NumKind::SNorm)
    return std::to_string(readComponentInt(Co, P));
  return fmtNum(readComponent(Co, P));
}

std::optional<std::string> checkValues(const Command &C, BufferDecl &B) {
  const BufferFormat &F = C.Format ? *C.Format : B.Format;
  if (F.ElementSize == 0)
    return prefix(C) + ": buffer has no elements";
  uint64_t Elem = C.Offset / F.ElementSize;
  uint32_t Within = uint32_t(C.Offset % F.ElementSize);
  size_t CompIdx = 0;
  while (CompIdx < F.Components.size() &&
         (F.Components[CompIdx].Offset < Within ||
          F.Components[CompIdx].Padding))
    ++CompIdx;
  if (CompIdx == F.Components.size()) {
    ++Elem;
    CompIdx = 0;
    while (F.Components[CompIdx].Padding)
      ++CompIdx;
  } else if (F.Components[CompIdx].Offset != Within) {
    return formatv("{0}: IDX {1} is not at a value of a {2} buffer",
                   prefix(C), C.Offset, F.Name)
        .str();
  }
  for (size_t V = 0; V < C.Values.size(); ++V) {
    const Component &Co = F.Components[CompIdx];
    uint64_t ByteOff = Elem * F.ElementSize + Co.Offset;
    if (ByteOff + Co.Bits / 8 > B.Data.size())
      return formatv("{0}: value {1} at byte {2} is past the end of buffer "
                     "'{3}' ({4} bytes)",
                     prefix(C), V, ByteOff, B.Name, B.Data.size())
          .str();
    const uint8_t *P = &B.Data[ByteOff];
    uint8_t Want[8] = {};
    if (Error E = writeComponent(Co, C.Values[V], Want))
      return prefix(C) + ": " + toString(std::move(E));
    bool Ok;
    if (!C.Tolerances.empty()) {
      double E = Co.Kind == NumKind::Float ? std::strtod(C.Values[V].c_str(), nullptr)
                                           : readComponent(Co, Want);
      Ok = withinTolerance(readComponent(Co, P), E,
                           C.Tolerances[V % C.Tolerances.size()]);
    } else if (Co.Kind == NumKind::Float) {
      double A = readComponent(Co, P);
      double E = std::strtod(C.Values[V].c_str(), nullptr);
      if (C.Op == CompareOp::EQ || C.Op == CompareOp::NE) {
        // Equal within Amber's epsilon, or to the expected value rounded
        // to the buffer's precision.
        bool Eq = std::fabs(A - E) < Epsilon || A == readComponent(Co, Want);
        Ok = C.Op == CompareOp::EQ ? Eq : !Eq;
      } else {
        Ok = compare(C.Op, A, E);
      }
    } else if (Co.Kind == NumKind::Int || Co.Kind == NumKind::SNorm) {
      Ok = compare(C.Op, readComponentInt(Co, P), readComponentInt(Co, Want));
    } else {
      Ok = compare(C.Op, readComponentUInt(Co, P), readComponentUInt(Co, Want));
    }
    if (!Ok) {
      std::string Tol;
      if (!C.Tolerances.empty()) {
        const Tolerance &T = C.Tolerances[V % C.Tolerances.size()];
        Tol = " within " + fmtNum(T.Value) + (T.Percent ? "%" : "");
      }
      return formatv("{0}: value {1} (byte {2}, element {3}): expected {4} "
                     "{5}{6}, got {7}",
                     prefix(C), V, ByteOff, Elem, opName(C.Op), C.Values[V],
                     Tol, valueText(Co, P))
          .str();
    }
    // Next value-carrying component.
    do {
      if (++CompIdx == F.Components.size()) {
        CompIdx = 0;
        ++Elem;
      }
    } while (F.Components[CompIdx].Padding);
  }
  return std::nullopt;
}

/// The channels of a packed texel as a probe compares them: normalized
/// (sRGB decoded to linear) or, for integer formats, the integers.
void decodePacked(const BufferFormat &F, const uint8_t *Px, double Out[4]) {
  Format Fmt = *formatByName(F.Name);
  switch (formatInfo(Fmt)->view()) {
  case ViewKind::UInt: {
    UInt4 V{};
    (void)decodeTexel(Fmt, Px, V);
    for (unsigned I = 0; I < 4; ++I)
      Out[I] = V[I];
    return;
  }
  case ViewKind::SInt: {
    Int4 V{};
    (void)decodeTexel(Fmt, Px, V);
    for (unsigned I = 0; I < 4; ++I)
      Out[I] = V[I];
    return;
  }
  default: {
    Float4 V{};
    (void)decodeTexel(Fmt, Px, V);
    for (unsigned I = 0; I < 4; ++I)
      Out[I] = V[I];
  }
  }
}

std::optional<std::string> checkProbe(const Command &C, BufferDecl &B) {
  const BufferFormat &F = B.Format;
  if (!F.IsImage || B.Width == 0)
    return prefix(C) + ": '" + B.Name +
           "' is not an image attached to a pipeline";
  if (B.Samples > 1) // Amber reads only single-sampled images back.
    return formatv("{0}: '{1}' is multisampled ({2} samples); probe an image "
                   "it is resolved or copied to",
                   prefix(C), B.Name, B.Samples)
        .str();
  if (uint64_t(C.X) + C.W > B.Width || uint64_t(C.Y) + C.H > B.Height)
    return formatv("{0}: rectangle is outside the {1}x{2} image", prefix(C),
                   B.Width, B.Height)
        .str();
  const char Channels[] = {'R', 'G', 'B', 'A'};
  unsigned N = C.ProbeAlpha ? 4 : 3;
  double Expected[4];
  const Component *Comps[4];
  for (unsigned I = 0; I < N; ++I) {
    Expected[I] = std::strtod(C.Values[I].c_str(), nullptr) / 255.0;
    Comps[I] = F.channel(Channels[I]);
    if (!Comps[I] && !F.Packed)
      return prefix(C) + ": format " + F.Name + " has no " +
             std::string(1, Channels[I]) + " channel";
  }
  for (uint32_t Y = C.Y; Y < C.Y + C.H; ++Y)
    for (uint32_t X = C.X; X < C.X + C.W; ++X) {
      const uint8_t *Px =
          &B.Data[(uint64_t(Y) * B.Width + X) * F.ElementSize];
      double Actual[4];
      bool Ok = true;
      if (F.Packed)
        decodePacked(F, Px, Actual);
      for (unsigned I = 0; I < N; ++I) {
        if (!F.Packed)
          Actual[I] = readComponentNormalized(*Comps[I], Px + Comps[I]->Offset);
        // Amber compares sRGB colours in linear (its verifier decodes).
        if (F.Srgb && Channels[I] != 'A' && !F.Packed)
          Actual[I] = srgbToLinear(float(Actual[I]));
        Tolerance T;
        if (!C.Tolerances.empty())
          T = C.Tolerances[I % C.Tolerances.size()];
        Ok &= withinTolerance(Actual[I], Expected[I], T, 1.0 / 255.0);
      }
      if (Ok)
        continue;
      std::string Want, Got;
      for (unsigned I = 0; I < N; ++I) {
        Want += (I ? " " : "") + C.Values[I];
        Got += (I ? " " : "") + fmtNum(std::round(Actual[I] * 255.0 * 1000) / 1000);
      }
      return formatv("{0}: pixel ({1}, {2}): expected {3} {4}, got {5}",
                     prefix(C), X, Y, N == 4 ? "RGBA" : "RGB", Want, Got)
          .str();
    }
  return std::nullopt;
}

/// All value-carrying components of \p B, normalized for image formats.
std::vector<double> allValues(const BufferDecl &B) {
  std::vector<double> V;
  const BufferFormat &F = B.Format;
  for (uint64_t E = 0; E + F.ElementSize <= B.Data.size();
       E += F.ElementSize)
    for (const Component &C : F.Components)
      if (!C.Padding)
        V.push_back(readComponentNormalized(C, &B.Data[E + C.Offset]));
  return V;
}

std::optional<std::string> checkEqBuffer(const Command &C, BufferDecl &A,
                                         BufferDecl &B) {
  if (A.Data.size() != B.Data.size())
    return formatv("{0}: buffers differ in size: {1} bytes against {2}",
                   prefix(C), A.Data.size(), B.Data.size())
        .str();
  const BufferFormat &F = A.Format;
  for (uint64_t E = 0; F.ElementSize && E + F.ElementSize <= A.Data.size();
       E += F.ElementSize)
    for (const Component &Co : F.Components) {
      if (Co.Padding)
        continue;
      const uint8_t *PA = &A.Data[E + Co.Offset], *PB = &B.Data[E + Co.Offset];
      if (std::memcmp(PA, PB, Co.Bits / 8) == 0)
        continue;
      return formatv("{0}: first difference at byte {1} (element {2}): "
                     "'{3}' has {4}, '{5}' has {6}",
                     prefix(C), E + Co.Offset, E / F.ElementSize, A.Name,
                     valueText(Co, PA), B.Name, valueText(Co, PB))
          .str();
    }
  return std::nullopt;
}

std::optional<std::string> checkRmse(const Command &C, BufferDecl &A,
                                     BufferDecl &B) {
  std::vector<double> VA = allValues(A), VB = allValues(B);
  if (VA.size() != VB.size() || VA.empty())
    return formatv("{0}: buffers differ in size: {1} values against {2}",
                   prefix(C), VA.size(), VB.size())
        .str();
  // Images compare in 0..255 like Amber's 8-bit framebuffers.
  double Scale = A.Format.IsImage ? 255.0 : 1.0;
  double Sum = 0;
  for (size_t I = 0; I < VA.size(); ++I) {
    double D = (VA[I] - VB[I]) * Scale;
    Sum += D * D;
  }
  double Rmse = std::sqrt(Sum / double(VA.size()));
  double Tol = C.Tolerances[0].Value;
  if (Rmse <= Tol * (1 + 1e-5))
    return std::nullopt;
  return formatv("{0}: root mean square error {1} is above {2}", prefix(C),
                 fmtNum(Rmse), fmtNum(Tol))
      .str();
}

std::optional<std::string> checkEmd(const Command &C, BufferDecl &A,
                                    BufferDecl &B) {
  const BufferFormat &F = A.Format;
  if (A.Data.size() != B.Data.size() || F.ElementSize == 0)
    return prefix(C) + ": buffers differ in size";
  for (const Component &Co : F.Components)
    if (Co.Bits != 8 || (Co.Kind != NumKind::UNorm && Co.Kind != NumKind::UInt))
      return prefix(C) + ": EQ_HISTOGRAM_EMD_BUFFER needs 8-bit unsigned "
                         "channels, not " + F.Name;
  size_t Pixels = A.Data.size() / F.ElementSize;
  double MaxEmd = 0;
  unsigned Worst = 0;
  for (unsigned Ch = 0; Ch < F.Components.size(); ++Ch) {
    std::vector<double> HA(256), HB(256);
    for (size_t P = 0; P < Pixels; ++P) {
      HA[A.Data[P * F.ElementSize + F.Components[Ch].Offset]] += 1;
      HB[B.Data[P * F.ElementSize + F.Components[Ch].Offset]] += 1;
    }
    // Earth mover's distance of the normalized histograms: the sum of the
    // differences of their cumulative distributions, over the 255 steps.
    double Cdf = 0, Emd = 0;
    for (unsigned I = 0; I < 256; ++I) {
      Cdf += (HA[I] - HB[I]) / double(Pixels);
      Emd += std::fabs(Cdf);
    }
    Emd /= 255.0;
    if (Emd > MaxEmd) {
      MaxEmd = Emd;
      Worst = Ch;
    }
  }
  double Tol = C.Tolerances[0].Value;
  if (MaxEmd <= Tol * (1 + 1e-5))
    return std::nullopt;
  return formatv("{0}: histogram earth mover's distance {1} (channel {2}) is "
                 "above {3}",
                 prefix(C), fmtNum(MaxEmd),
                 F.Components[Worst].Channel ? F.Components[Worst].Channel
                                             : char('0' + Worst),
                 fmtNum(Tol))
      .str();
}

} // namespace

std::optional<std::string> checkExpect(const Command &C, Script &S) {
  BufferDecl *B = S.findBuffer(C.Buffer);
  BufferDecl *O = C.Other.empty() ? nullptr : S.findBuffer(C.Other);
  switch (C.K) {
  case Command::ExpectValues:
    return checkValues(C, *B);
  case Command::ExpectProbe:
    return checkProbe(C, *B);
  case Command::ExpectEqBuffer:
    return checkEqBuffer(C, *B, *O);
  case Command::ExpectRmse:
    return checkRmse(C, *B, *O);
  case Command::ExpectEmd:
    return checkEmd(C, *B, *O);
  default:
    return std::nullopt;
  }
}

} // namespace spirv2llvm::amber
