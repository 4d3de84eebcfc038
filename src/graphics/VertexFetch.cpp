//===- graphics/VertexFetch.cpp - Vertex input: buffers to shader inputs --===//
//
// create() turns the pipeline's bindings and attributes and the shader's
// input layout into a list of attributes, each with the input-block
// components it writes (Targets); fetch() walks that list. Vulkan 1.3
// "Vertex Input Description" and "Vertex Input Extraction" give the rules
// checked here; the address of an element is the spec's
//   vertex rate:   vertexIndex * stride + offset
//   instance rate: (firstInstance + (instanceIndex - firstInstance) /
//                   divisor) * stride + offset   (divisor 0: firstInstance)
// computed in 64 bits (no overflow for 32-bit indices and strides).
//
//===----------------------------------------------------------------------===//
#include "graphics/VertexFetch.h"

#include "parser/SpirvNames.h"

#include <array>
#include <bit>
#include <cassert>
#include <cstring>
#include <string>

namespace spirv2llvm::graphics {

namespace {

// spv::BuiltIn numbers of the built-ins vertex input feeds.
constexpr int32_t BuiltInVertexId = 5;
constexpr int32_t BuiltInInstanceId = 6;
constexpr int32_t BuiltInVertexIndex = 42;
constexpr int32_t BuiltInInstanceIndex = 43;

std::string builtInString(int32_t B) {
  const char *N = builtInName(static_cast<spv::BuiltIn>(B));
  return N ? std::string(N) : "built-in " + std::to_string(B);
}

/// At most 4 components per location, and a 64-bit attribute spans two.
constexpr unsigned MaxTargets = 8;

const char *kindName(ScalarKind K, uint32_t Bits) {
  switch (K) {
  case ScalarKind::Float:
    return Bits == 64 ? "64-bit float" : "float";
  case ScalarKind::Int:
    return Bits == 64 ? "64-bit int" : "int";
  case ScalarKind::UInt:
    return Bits == 64 ? "64-bit uint" : "uint";
  case ScalarKind::Bool:
    return "bool";
  }
  return "?";
}

/// What format \p I gives a shader, as kindName names input types.
const char *viewName(const FormatInfo &I) {
  ScalarKind K = I.view() == ViewKind::Float  ? ScalarKind::Float
                 : I.view() == ViewKind::SInt ? ScalarKind::Int
                                              : ScalarKind::UInt;
  return kindName(K, I.has64BitComponents() ? 64 : 32);
}

/// Whether format \p I can feed a component of type \p T: the same numeric
/// class (float inputs take float, norm, scaled and sRGB formats) and the
/// same width class (64-bit inputs only 64-bit formats and back; Vulkan
/// "Vertex Input Extraction").
bool fits(const FormatInfo &I, ScalarType T) {
  if ((T.Bits == 64) != I.has64BitComponents())
    return false;
  switch (T.Kind) {
  case ScalarKind::Float:
    return I.view() == ViewKind::Float;
  case ScalarKind::Int:
    return I.view() == ViewKind::SInt;
  case ScalarKind::UInt:
    return I.view() == ViewKind::UInt;
  case ScalarKind::Bool:
    return false;
  }
  return false;
}

/// Whether \p I is a format of 32-bit components R, G, B, A in that order
/// at bits 0, 32, 64, 96, read as they are (SFLOAT, SINT, UINT): a vertex
/// of such a format is copied, not decoded.
bool isPlain32(const FormatInfo &I) {
  for (unsigned C = 0; C < I.NumComponents; ++C) {
    const ComponentInfo &CI = I.Components[C];
    if (CI.Bits != 32 || CI.Offset != 32 * C || CI.Channel != ChannelKind(C) ||
        (CI.Numeric != NumericKind::SFloat && CI.Numeric != NumericKind::SInt &&
         CI.Numeric != NumericKind::UInt))
      return false;
  }
  return I.Layout == LayoutKind::Bits;
}

/// The value of a missing component: 0, or 1 for the fourth (Vulkan
/// "Conversion to RGBA": 1.0 or integer 1), as \p Bytes bytes of kind
/// \p K into \p Out.
void missingComponent(unsigned Src, ScalarKind K, unsigned Bytes,
                      uint8_t *Out) {
  std::memset(Out, 0, 8);
  if (Src != 3)
    return;
  if (K == ScalarKind::Float) {
    if (Bytes == 8) {
      double One = 1.0;
      std::memcpy(Out, &One, 8);
    } else if (Bytes == 4) {
      float One = 1.0f;
      std::memcpy(Out, &One, 4);
    } else {
      uint16_t One = floatToHalf(1.0f);
      std::memcpy(Out, &One, 2);
    }
    return;
  }
  // Integer 1 of the input's width, in host byte order (the shader reads
  // the block as host integers).
  if (Bytes == 8) {
    uint64_t One = 1;
    std::memcpy(Out, &One, 8);
  } else if (Bytes == 4) {
    uint32_t One = 1;
    std::memcpy(Out, &One, 4);
  } else {
    uint16_t One = 1;
    std::memcpy(Out, &One, 2);
  }
}

/// The RGBA slot (0-3) a colour component lands in.
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

/// The component of \p I that lands in RGBA slot \p Slot, or -1.
int componentAt(const FormatInfo &I, unsigned Slot) {
  for (unsigned C = 0; C < I.NumComponents; ++C)
    if (slotOf(I.Components[C].Channel) == Slot)
      return int(C);
  return -1;
}

/// The 256 values (float bits, or the integer) a byte of numeric kind
/// \p K decodes to, or null for kinds without 8-bit formats. Filled by
/// decodeTexel on the R8 format of the kind, so that the table path and
/// the decoder agree bit for bit.
const uint32_t *byteTable(NumericKind K) {
  static const std::array<std::array<uint32_t, 256>, 9> Tables = [] {
    std::array<std::array<uint32_t, 256>, 9> T{};
    const std::pair<NumericKind, Format> Kinds[] = {
        {NumericKind::UNorm, Format::R8_UNORM},
        {NumericKind::SNorm, Format::R8_SNORM},
        {NumericKind::UScaled, Format::R8_USCALED},
        {NumericKind::SScaled, Format::R8_SSCALED},
        {NumericKind::UInt, Format::R8_UINT},
        {NumericKind::SInt, Format::R8_SINT},
        {NumericKind::SRGB, Format::R8_SRGB}};
    for (auto [Kind, Fmt] : Kinds)
      for (unsigned B = 0; B < 256; ++B) {
        uint8_t Byte = uint8_t(B);
        uint32_t &Out = T[size_t(Kind)][B];
        if (Kind == NumericKind::UInt) {
          UInt4 V;
          (void)decodeTexel(Fmt, &Byte, V);
          Out = V[0];
        } else if (Kind == NumericKind::SInt) {
          Int4 V;
          (void)decodeTexel(Fmt, &Byte, V);
          Out = uint32_t(V[0]);
        } else {
          Float4 V;
          (void)decodeTexel(Fmt, &Byte, V);
          Out = std::bit_cast<uint32_t>(V[0]);
        }
      }
    return T;
  }();
  switch (K) {
  case NumericKind::SFloat:
  case NumericKind::UFloat:
    return nullptr;
  default:
    return Tables[size_t(K)].data();
  }
}

/// Whether every component of \p I is 16 bits at a 16-bit offset (any
/// numeric kind but sRGB and the unsigned small floats, which have no
/// 16-bit formats).
bool isWords16(const FormatInfo &I) {
  if (I.Layout != LayoutKind::Bits)
    return false;
  for (unsigned C = 0; C < I.NumComponents; ++C)
    if (I.Components[C].Bits != 16 || I.Components[C].Offset % 16 != 0 ||
        I.Components[C].Numeric == NumericKind::SRGB ||
        I.Components[C].Numeric == NumericKind::UFloat)
      return false;
  return true;
}

/// A 16-bit component as decodeTexel converts it (TexelCodec.cpp's
/// componentToFloat and integer views): float bits, or the integer.
inline uint32_t convertWord(uint16_t Raw, NumericKind K) {
  switch (K) {
  case NumericKind::UNorm:
    return std::bit_cast<uint32_t>(unormToFloat(Raw, 16));
  case NumericKind::SNorm:
    return std::bit_cast<uint32_t>(snormToFloat(int16_t(Raw), 16));
  case NumericKind::UScaled:
    return std::bit_cast<uint32_t>(float(Raw));
  case NumericKind::SScaled:
    return std::bit_cast<uint32_t>(float(int16_t(Raw)));
  case NumericKind::SFloat:
    return std::bit_cast<uint32_t>(halfToFloat(Raw));
  case NumericKind::UInt:
    return Raw;
  case NumericKind::SInt:
    return uint32_t(int32_t(int16_t(Raw)));
  default:
    assert(false && "no 16-bit formats of this kind");
    return 0;
  }
}

/// Whether every component of \p I is a whole byte with a byte table.
bool isBytes8(const FormatInfo &I) {
  if (I.Layout != LayoutKind::Bits)
    return false;
  for (unsigned C = 0; C < I.NumComponents; ++C)
    if (I.Components[C].Bits != 8 || I.Components[C].Offset % 8 != 0 ||
        !byteTable(I.Components[C].Numeric))
      return false;
  return true;
}

Status error(std::string Message) {
  return Status::error(std::move(Message), StatusCode::InvalidArgument);
}

std::string inputName(const InterfaceVariable &V) { return "'" + V.Name + "'"; }

/// The bindings of \p D indexed by binding number (null where none is
/// described), each checked on its own: number in range, described once,
/// a known input rate, a divisor only with the per-instance rate.
Result<std::vector<const VertexBinding *>>
bindingsByNumber(const GraphicsPipelineDesc &D) {
  std::vector<const VertexBinding *> Bindings(GraphicsLimits::MaxVertexBindings,
                                              nullptr);
  for (const VertexBinding &B : D.VertexBindings) {
    std::string Where = "vertex binding " + std::to_string(B.Binding);
    if (B.Binding >= GraphicsLimits::MaxVertexBindings)
      return error(Where + ": binding numbers go up to " +
                   std::to_string(GraphicsLimits::MaxVertexBindings - 1));
    if (Bindings[B.Binding])
      return error(Where + " is described twice");
    if (B.InputRate != VertexInputRate::Vertex &&
        B.InputRate != VertexInputRate::Instance)
      return error(Where + ": unknown input rate " +
                   std::to_string(uint32_t(B.InputRate)));
    if (B.InputRate == VertexInputRate::Vertex && B.Divisor != 1)
      return error(Where + ": a divisor (" + std::to_string(B.Divisor) +
                   ") needs the per-instance input rate");
    Bindings[B.Binding] = &B;
  }
  return Bindings;
}

} // namespace

Result<VertexFetcher> VertexFetcher::create(const GraphicsPipelineDesc &D,
                                            const InterfaceLayout &VS) {
  VertexFetcher F;
  F.Width = VS.Width;

  Result<std::vector<const VertexBinding *>> BindingsOr = bindingsByNumber(D);
  if (!BindingsOr)
    return BindingsOr.status();
  const std::vector<const VertexBinding *> &Bindings = *BindingsOr;

  // Attributes, by location.
  if (D.VertexAttributes.size() > GraphicsLimits::MaxVertexAttributes)
    return error(std::to_string(D.VertexAttributes.size()) +
                 " vertex attributes, more than the limit of " +
                 std::to_string(GraphicsLimits::MaxVertexAttributes));
  std::vector<int> ByLocation(GraphicsLimits::MaxVertexAttributes, -1);
  std::vector<Attribute> All;
  for (const VertexAttribute &VA : D.VertexAttributes) {
    std::string Where =
        "vertex attribute at location " + std::to_string(VA.Location);
    if (VA.Location >= GraphicsLimits::MaxVertexAttributes)
      return error(Where + ": locations go up to " +
                   std::to_string(GraphicsLimits::MaxVertexAttributes - 1));
    if (ByLocation[VA.Location] >= 0)
      return error(Where + " is described twice");
    if (VA.Binding >= GraphicsLimits::MaxVertexBindings ||
        !Bindings[VA.Binding])
      return error(Where + ": vertex binding " + std::to_string(VA.Binding) +
                   " is not described");
    const FormatInfo *Info = formatInfo(VA.Fmt);
    if (!Info)
      return error(Where + ": unknown format " +
                   std::to_string(uint32_t(VA.Fmt)));
    if (Info->isCompressed() || Info->hasDepth() || Info->hasStencil() ||
        Info->Layout != LayoutKind::Bits)
      return error(Where + ": " + std::string(Info->Name) +
                   " is not a vertex format");
    const VertexBinding &B = *Bindings[VA.Binding];
    Attribute A;
    A.Location = VA.Location;
    A.Binding = VA.Binding;
    A.Stride = B.Stride;
    A.Offset = VA.Offset;
    A.PerInstance = B.InputRate == VertexInputRate::Instance;
    A.Divisor = B.Divisor;
    A.Fmt = VA.Fmt;
    A.Bytes = Info->BlockBytes;
    A.View = Info->view();
    A.Path = Info->has64BitComponents() ? PathKind::Copy64
             : isPlain32(*Info)         ? PathKind::Copy32
                                        : PathKind::Decode;
    ByLocation[VA.Location] = int(All.size());
    All.push_back(std::move(A));
  }
  // A 64-bit format of three or four components takes two locations
  // (Vulkan "Attribute Location and Component Assignment").
  for (const Attribute &A : All) {
    const FormatInfo &I = *formatInfo(A.Fmt);
    if (I.has64BitComponents() && I.NumComponents > 2 &&
        A.Location + 1 < GraphicsLimits::MaxVertexAttributes &&
        ByLocation[A.Location + 1] >= 0)
      return error(
          "vertex attribute at location " + std::to_string(A.Location + 1) +
          " overlaps the one at location " + std::to_string(A.Location) + " (" +
          std::string(I.Name) + " takes two locations)");
  }

  // The shader's inputs: each component to its attribute. Used: the
  // 32-bit components of each location already read, so that no two
  // inputs read the same one (which also bounds the targets per
  // attribute).
  std::vector<uint8_t> Used(GraphicsLimits::MaxVertexAttributes, 0);
  for (const InterfaceVariable &V : VS.Inputs) {
    if (V.BuiltIn >= 0) {
      FeedKind K;
      switch (V.BuiltIn) {
      case BuiltInVertexIndex:
      case BuiltInVertexId: // OpenGL's: the index, base vertex included
        K = FeedKind::VertexIndex;
        break;
      case BuiltInInstanceIndex:
        K = FeedKind::InstanceIndex;
        break;
      case BuiltInInstanceId: // OpenGL's: counts from 0, no base instance
        K = FeedKind::InstanceId;
        break;
      default:
        return error("vertex shader input " + inputName(V) + ": built-in " +
                     builtInString(V.BuiltIn) +
                     " is not supported by the rasterizer");
      }
      if (V.Components.size() != 1 || V.Components[0].Bits != 32 ||
          V.Components[0].Kind == ScalarKind::Float ||
          V.Components[0].Kind == ScalarKind::Bool)
        return error("vertex shader input " + inputName(V) + ": built-in " +
                     builtInString(V.BuiltIn) +
                     " must be a 32-bit integer scalar");
      F.BuiltIns.push_back({K, V.ComponentOffsets[0]});
      continue;
    }
    if (V.Location < 0)
      return error("vertex shader input " + inputName(V) +
                   " has neither a location nor a built-in");
    if (V.ComponentLocations.size() != V.Components.size())
      return error("vertex shader input " + inputName(V) + " at location " +
                   std::to_string(V.Location) +
                   ": the layout gives no component locations");
    for (size_t C = 0; C < V.Components.size(); ++C) {
      ScalarType T = V.Components[C];
      LocationSlot S = V.ComponentLocations[C];
      std::string Where = "vertex input location " +
                          std::to_string(S.Location) + " (input " +
                          inputName(V) + ")";
      if (T.Kind == ScalarKind::Bool)
        return error(Where + ": a bool cannot be a vertex input");
      int Index = S.Location < ByLocation.size() ? ByLocation[S.Location] : -1;
      uint32_t Src = T.Bits == 64 ? S.Component / 2 : S.Component;
      // The second location of a three- or four-component 64-bit
      // attribute: its components 2 and 3.
      if (Index < 0 && T.Bits == 64 && S.Location > 0 &&
          S.Location - 1 < ByLocation.size() &&
          ByLocation[S.Location - 1] >= 0) {
        int Prev = ByLocation[S.Location - 1];
        const FormatInfo &PI = *formatInfo(All[Prev].Fmt);
        if (PI.has64BitComponents() && PI.NumComponents > 2) {
          Index = Prev;
          Src += 2;
        } else if (PI.has64BitComponents()) {
          return error(Where + ": no vertex attribute at this location (" +
                       std::string(PI.Name) + " at location " +
                       std::to_string(S.Location - 1) + " has " +
                       std::to_string(PI.NumComponents) +
                       (PI.NumComponents == 1 ? " component" : " components") +
                       "; a three- or four-component format feeds both "
                       "locations)");
        }
      }
      if (Index < 0)
        return error(Where + ": no vertex attribute at this location");
      Attribute &A = All[Index];
      const FormatInfo &I = *formatInfo(A.Fmt);
      if (!fits(I, T))
        return error(Where + ": format " + std::string(I.Name) + " gives " +
                     viewName(I) + " values, the input is " +
                     kindName(T.Kind, T.Bits));
      uint8_t Bits = uint8_t((T.Bits == 64 ? 3u : 1u) << S.Component);
      if (S.Component + (T.Bits == 64 ? 2 : 1) > 4)
        return error(Where + ": component " + std::to_string(S.Component) +
                     " is beyond a location's four");
      if (Used[S.Location] & Bits)
        return error(Where + ": component " + std::to_string(S.Component) +
                     " is read by two inputs");
      Used[S.Location] |= Bits;
      Target Tg{V.ComponentOffsets[C],    uint8_t(Src),
                uint8_t(T.bytes()),       T.Kind,
                componentAt(I, Src) >= 0, {}};
      missingComponent(Src, T.Kind, T.bytes(), Tg.Missing);
      A.Targets.push_back(Tg);
      // The plain copy needs 32-bit inputs.
      if (A.Path == PathKind::Copy32 && T.Bits != 32)
        A.Path = PathKind::Decode;
    }
  }

  // Attributes the shader does not read are not fetched; 8- and 16-bit
  // formats read by 32-bit inputs take the table and word paths.
  for (Attribute &A : All) {
    if (A.Targets.empty())
      continue;
    const FormatInfo &I = *formatInfo(A.Fmt);
    bool Wide = false;
    for (const Target &Tg : A.Targets)
      Wide |= Tg.DstBytes != 4;
    if (A.Path == PathKind::Decode && !Wide && (isBytes8(I) || isWords16(I))) {
      A.Path = isBytes8(I) ? PathKind::Bytes8 : PathKind::Words16;
      for (Target &Tg : A.Targets) {
        if (!Tg.Present)
          continue;
        const ComponentInfo &CI = I.Components[componentAt(I, Tg.Src)];
        Tg.ByteOffset = uint8_t(CI.Offset / 8);
        Tg.Numeric = CI.Numeric;
        if (A.Path == PathKind::Bytes8)
          Tg.Table = byteTable(CI.Numeric);
      }
    }
    F.Attributes.push_back(std::move(A));
  }
  return F;
}

Status VertexFetcher::checkBuffers(const DrawResources &R) const {
  for (const Attribute &A : Attributes)
    if (A.Binding >= R.VertexBuffers.size() || !R.VertexBuffers[A.Binding].Data)
      return error("vertex binding " + std::to_string(A.Binding) +
                   " (read by the attribute at location " +
                   std::to_string(A.Location) + ") has no buffer");
  return Status::success();
}

std::optional<VertexFetcher::PathKind>
VertexFetcher::pathAt(uint32_t Location) const {
  for (const Attribute &A : Attributes)
    if (A.Location == Location)
      return A.Path;
  return std::nullopt;
}

namespace {

/// A memcpy of 2, 4 or 8 bytes whose size the compiler sees (a plain
/// memcpy of a run-time size is a library call per component).
inline void copySmall(uint8_t *Dst, const uint8_t *Src, unsigned Bytes) {
  switch (Bytes) {
  case 2:
    std::memcpy(Dst, Src, 2);
    return;
  case 4:
    std::memcpy(Dst, Src, 4);
    return;
  default:
    std::memcpy(Dst, Src, 8);
    return;
  }
}

} // namespace

void VertexFetcher::fetchAttribute(const Attribute &A, const DrawResources &R,
                                   const uint32_t *Indices, unsigned N,
                                   uint32_t Instance, uint32_t FirstInstance,
                                   uint8_t *In) const {
  const VertexBufferView &Buf = R.VertexBuffers[A.Binding];
  const uint8_t *Base = static_cast<const uint8_t *>(Buf.Data);
  const Target *Targets = A.Targets.data();
  const unsigned NumTargets = unsigned(A.Targets.size());
  assert(NumTargets <= MaxTargets && "more targets than a location has");

  // The element's bytes, or null when they are not all in the buffer.
  auto Element = [&](uint32_t E) -> const uint8_t * {
    uint64_t Addr = uint64_t(E) * A.Stride + A.Offset;
    return Addr + A.Bytes <= Buf.Size ? Base + Addr : nullptr;
  };

  // The copy paths, per vertex: from the buffer straight to the block
  // (DstBytes is the component size there: 32-bit inputs for Copy32,
  // 64-bit ones for Copy64).
  // A component of the table and word paths (32-bit inputs).
  auto Small = [&](const Target &Tg, const uint8_t *P, uint8_t *Dst) {
    if (!P || !Tg.Present) {
      std::memcpy(Dst, Tg.Missing, 4);
    } else if (A.Path == PathKind::Bytes8) {
      std::memcpy(Dst, &Tg.Table[P[Tg.ByteOffset]], 4);
    } else {
      uint16_t Raw;
      std::memcpy(&Raw, P + Tg.ByteOffset, 2);
      uint32_t V = convertWord(Raw, Tg.Numeric);
      std::memcpy(Dst, &V, 4);
    }
  };
  if ((A.Path == PathKind::Bytes8 || A.Path == PathKind::Words16) &&
      !A.PerInstance) {
    for (unsigned L = 0; L < N; ++L) {
      const uint8_t *P = Element(Indices[L]);
      for (unsigned T = 0; T < NumTargets; ++T)
        Small(Targets[T], P, In + Targets[T].DstOffset + 4 * size_t(L));
    }
    return;
  }
  if ((A.Path == PathKind::Copy32 || A.Path == PathKind::Copy64) &&
      !A.PerInstance) {
    for (unsigned L = 0; L < N; ++L) {
      const uint8_t *P = Element(Indices[L]);
      for (unsigned T = 0; T < NumTargets; ++T) {
        const Target &Tg = Targets[T];
        copySmall(In + Tg.DstOffset + size_t(Tg.DstBytes) * L,
                  P && Tg.Present ? P + Tg.DstBytes * Tg.Src : Tg.Missing,
                  Tg.DstBytes);
      }
    }
    return;
  }

  // Otherwise one element is read into Vals (each target's value in its
  // representation), then written to lanes: once per lane, or once for
  // all lanes for a per-instance attribute.
  uint8_t Vals[MaxTargets][8];
  auto Read = [&](const uint8_t *P) {
    if (A.Path == PathKind::Bytes8 || A.Path == PathKind::Words16) {
      for (unsigned T = 0; T < NumTargets; ++T)
        Small(Targets[T], P, Vals[T]);
      return;
    }
    if (A.Path != PathKind::Decode) {
      for (unsigned T = 0; T < NumTargets; ++T) {
        const Target &Tg = Targets[T];
        copySmall(Vals[T],
                  P && Tg.Present ? P + Tg.DstBytes * Tg.Src : Tg.Missing,
                  Tg.DstBytes);
      }
      return;
    }
    // The decoder's result (with its own defaults for missing components),
    // converted to each input's width (16-bit inputs: half floats,
    // truncated integers).
    union {
      Float4 F;
      Int4 I;
      UInt4 U;
    } V;
    if (A.View == ViewKind::Float) {
      V.F = {0, 0, 0, 1};
      if (P)
        (void)decodeTexel(A.Fmt, P, V.F);
    } else if (A.View == ViewKind::SInt) {
      V.I = {0, 0, 0, 1};
      if (P)
        (void)decodeTexel(A.Fmt, P, V.I);
    } else {
      V.U = {0, 0, 0, 1};
      if (P)
        (void)decodeTexel(A.Fmt, P, V.U);
    }
    for (unsigned T = 0; T < NumTargets; ++T) {
      const Target &Tg = Targets[T];
      uint32_t X;
      if (A.View == ViewKind::Float) {
        float F = V.F[Tg.Src];
        if (Tg.DstBytes == 2) {
          uint16_t H = floatToHalf(F);
          std::memcpy(Vals[T], &H, 2);
          continue;
        }
        X = std::bit_cast<uint32_t>(F);
      } else {
        X = A.View == ViewKind::SInt ? uint32_t(V.I[Tg.Src]) : V.U[Tg.Src];
        if (Tg.DstBytes == 2) {
          uint16_t H = uint16_t(X);
          std::memcpy(Vals[T], &H, 2);
          continue;
        }
      }
      std::memcpy(Vals[T], &X, 4);
    }
  };
  auto Write = [&](unsigned L) {
    for (unsigned T = 0; T < NumTargets; ++T) {
      const Target &Tg = Targets[T];
      copySmall(In + Tg.DstOffset + size_t(Tg.DstBytes) * L, Vals[T],
                Tg.DstBytes);
    }
  };

  if (A.PerInstance) {
    uint32_t E = A.Divisor == 0
                     ? FirstInstance
                     : FirstInstance + (Instance - FirstInstance) / A.Divisor;
    Read(Element(E));
    for (unsigned L = 0; L < N; ++L)
      Write(L);
    return;
  }
  for (unsigned L = 0; L < N; ++L) {
    Read(Element(Indices[L]));
    Write(L);
  }
}

void VertexFetcher::fetch(const DrawResources &R, const uint32_t *Indices,
                          unsigned N, uint32_t Instance, uint32_t FirstInstance,
                          uint8_t *In) const {
  assert(N <= Width && "more vertices than lanes");
  for (const BuiltInFeed &B : BuiltIns)
    for (unsigned L = 0; L < N; ++L) {
      uint32_t V = B.Kind == FeedKind::VertexIndex ? Indices[L]
                   : B.Kind == FeedKind::InstanceIndex
                       ? Instance
                       : Instance - FirstInstance;
      std::memcpy(In + B.DstOffset + 4 * size_t(L), &V, 4);
    }
  for (const Attribute &A : Attributes)
    fetchAttribute(A, R, Indices, N, Instance, FirstInstance, In);
}

} // namespace spirv2llvm::graphics
