//===- VkScriptCommands.cpp - The [test] section of a VkScript -----------===//
//
// Each test command becomes Script commands as VkScriptImpl.h describes:
// draws and clears on the graphics pipeline of the current settings,
// `compute` on "compute", buffer data as WriteBuffer/ResizeBuffer, probes
// as EXPECTs. Probe colours are in [0, 1] here (AmberScript's are 0..255:
// they are scaled), relative probe coordinates in [0, 1] of the
// framebuffer.
//
//===----------------------------------------------------------------------===//
#include "amber/GraphicsNames.h"
#include "amber/ParserImpl.h"
#include "amber/VkScriptImpl.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace spirv2llvm::amber::vkscript {

using detail::parseDouble;
using detail::parseUnsigned;

namespace {

/// Largest byte offset plus data size a script may write (a typo must not
/// allocate gigabytes).
constexpr uint64_t MaxBufferBytes = 1ull << 28;

/// "N" (set 0) or "S:B".
bool parseBinding(StringRef T, uint32_t &Set, uint32_t &Binding) {
  auto [A, B] = T.split(':');
  uint64_t X, Y;
  if (B.empty() && !T.contains(':')) {
    if (!parseUnsigned(A, Y) || Y > 1024)
      return false;
    Set = 0;
    Binding = uint32_t(Y);
    return true;
  }
  if (!parseUnsigned(A, X) || !parseUnsigned(B, Y) || X > 64 || Y > 1024)
    return false;
  Set = uint32_t(X);
  Binding = uint32_t(Y);
  return true;
}

std::optional<bool> parseBool(StringRef T) {
  return StringSwitch<std::optional<bool>>(T)
      .Cases("true", "1", true)
      .Cases("false", "0", false)
      .Default(std::nullopt);
}

/// A Vulkan enumerant with its prefix removed and lower-cased, as Amber's
/// AmberScript names spell them (VK_BLEND_FACTOR_SRC_ALPHA -> src_alpha).
std::optional<std::string> vkEnum(StringRef T, StringRef Prefix) {
  if (!T.consume_front(Prefix))
    return std::nullopt;
  return T.lower();
}

/// Shortest text that reads back as \p D.
std::string fmtDouble(double D) {
  char Buf[40];
  for (int Prec = 6; Prec <= 17; ++Prec) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Prec, D);
    if (std::strtod(Buf, nullptr) == D)
      break;
  }
  return Buf;
}

} // namespace

Expected<std::vector<uint8_t>> VkParser::pack(unsigned Line,
                                              const BufferFormat &F,
                                              ArrayRef<std::string> Values) {
  unsigned PerElem = F.valuesPerElement();
  if (Values.empty() || Values.size() % PerElem)
    return err(Line, Twine(Values.size()) + " values are not a whole number "
                         "of " + F.Name + " (" + Twine(PerElem) +
                         " values each)");
  size_t Elems = Values.size() / PerElem;
  std::vector<uint8_t> Bytes(Elems * F.ElementSize);
  size_t V = 0;
  for (size_t E = 0; E < Elems; ++E)
    for (const Component &C : F.Components) {
      if (C.Padding)
        continue;
      if (Error Er =
              writeComponent(C, Values[V++], &Bytes[E * F.ElementSize + C.Offset]))
        return err(Line, toString(std::move(Er)));
    }
  return Bytes;
}

Expected<BufferDecl *> VkParser::dataBuffer(unsigned Line, BindKind Kind,
                                            uint32_t Set, uint32_t Binding) {
  std::string Slot = std::to_string(Set) + ":" + std::to_string(Binding);
  std::string Name = Kind == BindKind::PushConstant ? "push_constants"
                     : Kind == BindKind::Storage    ? "ssbo " + Slot
                                                    : "ubo " + Slot;
  if (BufferDecl *B = S.findBuffer(Name))
    return B;
  for (const BindDecl &Bd : DataBinds)
    if (Bd.Kind != BindKind::PushConstant && Kind != BindKind::PushConstant &&
        Bd.Set == Set && Bd.Binding == Binding)
      return err(Line, "binding " + Slot + " is already a " +
                           (Bd.Kind == BindKind::Storage ? "storage"
                                                         : "uniform") +
                           " buffer");
  BufferDecl B;
  B.Name = Name;
  // Amber's default element until data or a probe gives the type: char.
  B.Format = cantFail(parseDataType("int8", false));
  B.Line = Line;
  S.Buffers.push_back(std::move(B));
  BindDecl Bd;
  Bd.Buffer = Name;
  Bd.Kind = Kind;
  Bd.Set = Set;
  Bd.Binding = Binding;
  DataBinds.push_back(Bd);
  return &S.Buffers.back();
}

std::string VkParser::currentGraphics() {
  if (DrawPipeline.empty()) {
    PipelineDecl P = Graphics;
    P.Name = GraphicsCount ? "graphics." + std::to_string(GraphicsCount)
                           : "graphics";
    P.Line = 0;
    ++GraphicsCount;
    DrawPipeline = P.Name;
    S.Pipelines.push_back(std::move(P));
  }
  return DrawPipeline;
}

Error VkParser::parseTest(const Section &Sec) {
  for (const VkLine &L : logicalLines(Sec)) {
    std::vector<std::string> W = splitWords(L.Text);
    if (W.empty())
      continue;
    if (Error E = parseCommand(L, W))
      return E;
    if (S.Unsupported)
      break;
  }
  return Error::success();
}

Error VkParser::parseCommand(const VkLine &L, ArrayRef<std::string> W) {
  StringRef K = W[0];
  if (K == "clear") {
    if (W.size() == 1) {
      std::string P = currentGraphics();
      Command C;
      C.Line = L.No;
      C.Pipeline = P;
      C.K = Command::ClearColor;
      for (unsigned I = 0; I < 4; ++I)
        C.Nums[I] = ClearColor[I] * 255.0; // the runner divides by 255
      S.Commands.push_back(C);
      C.K = Command::ClearDepth;
      C.Nums = {ClearDepth, 0, 0, 0};
      S.Commands.push_back(C);
      C.K = Command::ClearStencil;
      C.Nums = {double(ClearStencil), 0, 0, 0};
      S.Commands.push_back(C);
      C.K = Command::Clear;
      S.Commands.push_back(C);
      return Error::success();
    }
    StringRef What = W[1];
    if (What == "color") {
      if (W.size() != 6)
        return err(L.No, "clear color needs r g b a");
      for (unsigned I = 0; I < 4; ++I)
        if (!parseDouble(W[2 + I], ClearColor[I]))
          return err(L.No, "clear color: malformed number '" + W[2 + I] + "'");
      return Error::success();
    }
    if (What == "depth") {
      if (W.size() != 3 || !parseDouble(W[2], ClearDepth))
        return err(L.No, "clear depth needs a value");
      return Error::success();
    }
    if (What == "stencil") {
      uint64_t V;
      if (W.size() != 3 || !parseUnsigned(W[2], V) || V > 255)
        return err(L.No, "clear stencil needs an integer from 0 to 255");
      ClearStencil = uint32_t(V);
      return Error::success();
    }
    return err(L.No, "clear: expected color, depth or stencil, got '" + What +
                         "'");
  }
  if (K == "draw")
    return parseDraw(L, W);
  if (K == "compute" && W.size() >= 2 && W[1] != "entrypoint") {
    if (!HasCompute)
      return err(L.No, "compute without a [compute shader]");
    if (W.size() != 4)
      return err(L.No, "compute needs x y z workgroup counts");
    Command C;
    C.Line = L.No;
    C.K = Command::Run;
    C.Pipeline = "compute";
    for (unsigned J = 0; J < 3; ++J) {
      uint64_t N;
      if (!parseUnsigned(W[1 + J], N) || N == 0 || N > (1u << 20))
        return err(L.No, "compute: malformed workgroup count '" + W[1 + J] +
                             "'");
      C.Nums[J] = double(N);
    }
    if (C.Nums[0] * C.Nums[1] * C.Nums[2] > double(1u << 24))
      return err(L.No, "compute: more than 2^24 workgroups");
    ComputeRan = true;
    S.Commands.push_back(C);
    return Error::success();
  }
  // <stage> entrypoint <name>; tessellation stages take two words.
  size_t EpAt = K == "tessellation" ? 2 : 1;
  if (W.size() > EpAt && W[EpAt] == "entrypoint") {
    if (W.size() != EpAt + 2)
      return err(L.No, "entrypoint needs a name");
    const std::string &Name = W[EpAt + 1];
    if (K == "compute") {
      if (!HasCompute)
        return err(L.No, "compute entrypoint without a [compute shader]");
      AttachDecl &A = S.findPipeline("compute")->Attached[0];
      if (ComputeRan && A.EntryPoint != Name) {
        unsupported(L.No, "changing the compute entrypoint after a dispatch");
        return Error::success();
      }
      A.EntryPoint = Name;
      return Error::success();
    }
    if (K == "vertex" || K == "fragment" || K == "geometry") {
      for (AttachDecl &A : Graphics.Attached)
        if (A.Shader == K)
          A.EntryPoint = Name;
      DrawPipeline.clear();
      return Error::success();
    }
    if (K == "tessellation") {
      unsupported(L.No, K + " shaders");
      return Error::success();
    }
    return err(L.No, "unknown shader stage '" + K + "'");
  }
  if (K == "probe" && W.size() >= 2 && W[1] == "ssbo")
    return parseProbeSsbo(L, W);
  if (K == "probe" || K == "relative")
    return parseProbe(L, W);
  if (K == "ssbo")
    return parseSsbo(L, W);
  if (K == "uniform")
    return parseUniform(L, W);
  if (K == "tolerance") {
    std::vector<Tolerance> T;
    for (size_t I = 1; I < W.size(); ++I) {
      StringRef V = W[I];
      Tolerance Tol;
      Tol.Percent = V.consume_back("%");
      if (!parseDouble(V, Tol.Value) || Tol.Value < 0)
        return err(L.No, "tolerance: malformed value '" + W[I] + "'");
      T.push_back(Tol);
    }
    if (T.empty() || T.size() > 4)
      return err(L.No, "tolerance takes 1 to 4 values");
    Tolerances = std::move(T);
    return Error::success();
  }
  if (K == "patch") {
    if (W.size() != 4 || W[1] != "parameter" || W[2] != "vertices")
      return err(L.No, "expected patch parameter vertices N");
    unsupported(L.No, "patch parameter vertices (tessellation)");
    return Error::success();
  }
  bool Handled = false;
  if (Error E = parseSetting(L, W, Handled))
    return E;
  if (Handled)
    return Error::success();
  return err(L.No, "unknown command '" + L.Text + "'");
}

Error VkParser::parseDraw(const VkLine &L, ArrayRef<std::string> W) {
  if (W.size() >= 2 && W[1] == "rect") {
    // draw rect [ortho] [patch] x y w h
    size_t I = 2;
    bool Ortho = false;
    for (; I < W.size() && (W[I] == "ortho" || W[I] == "patch"); ++I) {
      if (W[I] == "patch") {
        unsupported(L.No, "draw rect patch (tessellation patches)");
        return Error::success();
      }
      Ortho = true;
    }
    if (W.size() != I + 4)
      return err(L.No, "draw rect needs x y width height");
    Command C;
    C.Line = L.No;
    C.K = Command::DrawRect;
    for (unsigned J = 0; J < 4; ++J)
      if (!parseDouble(W[I + J], C.Nums[J]))
        return err(L.No, "draw rect: malformed number '" + W[I + J] + "'");
    if (!Ortho) {
      // Normalized device coordinates; the model's rectangle is in pixels.
      C.Nums[0] = (C.Nums[0] + 1) * FbWidth / 2;
      C.Nums[1] = (C.Nums[1] + 1) * FbHeight / 2;
      C.Nums[2] = C.Nums[2] * FbWidth / 2;
      C.Nums[3] = C.Nums[3] * FbHeight / 2;
    }
    C.Pipeline = currentGraphics();
    S.Commands.push_back(C);
    return Error::success();
  }
  if (W.size() < 2 || W[1] != "arrays")
    return err(L.No, "expected draw rect or draw arrays");
  // draw arrays [indexed] [instanced] topology first count [instances]
  Command C;
  C.Line = L.No;
  C.K = Command::DrawArray;
  size_t I = 2;
  for (; I < W.size() && (W[I] == "indexed" || W[I] == "instanced"); ++I)
    C.Indexed |= W[I] == "indexed";
  if (I >= W.size())
    return err(L.No, "draw arrays needs a topology");
  StringRef Topo = W[I++];
  Topo.consume_front("VK_PRIMITIVE_TOPOLOGY_");
  // GL_ spellings of the OpenGL names.
  std::string T = StringSwitch<std::string>(Topo)
                      .Case("GL_POINTS", "POINT_LIST")
                      .Case("GL_LINES", "LINE_LIST")
                      .Case("GL_LINE_STRIP", "LINE_STRIP")
                      .Case("GL_TRIANGLES", "TRIANGLE_LIST")
                      .Case("GL_TRIANGLE_STRIP", "TRIANGLE_STRIP")
                      .Case("GL_TRIANGLE_FAN", "TRIANGLE_FAN")
                      .Case("GL_LINES_ADJACENCY", "LINE_LIST_WITH_ADJACENCY")
                      .Case("GL_LINE_STRIP_ADJACENCY",
                            "LINE_STRIP_WITH_ADJACENCY")
                      .Case("GL_TRIANGLES_ADJACENCY",
                            "TRIANGLE_LIST_WITH_ADJACENCY")
                      .Case("GL_TRIANGLE_STRIP_ADJACENCY",
                            "TRIANGLE_STRIP_WITH_ADJACENCY")
                      .Case("GL_PATCHES", "PATCH_LIST")
                      .Default(Topo.str());
  if (isUnsupportedTopology(T)) {
    unsupported(L.No, "topology " + Topo +
                          " (needs geometry or tessellation shaders)");
    return Error::success();
  }
  auto TopoEnum = topologyByName(T);
  if (!TopoEnum)
    return err(L.No, "unknown topology '" + Topo + "'");
  T = topologyName(*TopoEnum);
  C.Topology = T;
  uint64_t N[3] = {0, 0, 1};
  size_t Given = W.size() - I;
  if (Given < 2 || Given > 3)
    return err(L.No, "draw arrays needs first vertex, count [and instances]");
  for (size_t J = 0; J < Given; ++J)
    if (!parseUnsigned(W[I + J], N[J]) || N[J] > (1u << 24))
      return err(L.No, "draw arrays: malformed number '" + W[I + J] + "'");
  // Indexed: the first vertex is the vertex offset, the indices are read
  // from the first one on (as Amber does).
  if (C.Indexed)
    C.VertexOffset = int32_t(N[0]);
  else
    C.StartIdx = uint32_t(N[0]);
  C.Count = uint32_t(N[1]);
  C.CountGiven = true;
  C.InstanceCount = uint32_t(N[2]);
  if (N[1] * N[2] > (1u << 24))
    return err(L.No, "draw arrays: more than 2^24 vertices");
  if (C.Indexed && Graphics.IndexData.empty())
    return err(L.No, "draw arrays indexed without [indices]");
  C.Pipeline = currentGraphics();
  S.Commands.push_back(C);
  return Error::success();
}

Error VkParser::parseProbe(const VkLine &L, ArrayRef<std::string> W) {
  Command C;
  C.Line = L.No;
  C.K = Command::ExpectProbe;
  C.Buffer = "framebuffer";
  C.Text = L.Text;
  // The framebuffer exists (sized by a graphics pipeline) even when
  // nothing was drawn or cleared: Amber probes its initial contents.
  currentGraphics();
  size_t I = 0;
  bool Relative = W[I] == "relative";
  if (Relative)
    ++I;
  if (I >= W.size() || W[I] != "probe")
    return err(L.No, "expected probe after relative");
  ++I;
  bool All = I < W.size() && W[I] == "all";
  bool Rect = I < W.size() && W[I] == "rect";
  if (All || Rect)
    ++I;
  if (I >= W.size() || (W[I] != "rgb" && W[I] != "rgba"))
    return err(L.No, "probe: expected rgb or rgba");
  C.ProbeAlpha = W[I] == "rgba";
  ++I;
  unsigned NColor = C.ProbeAlpha ? 4 : 3;
  // A parenthesized list of numbers (commas already split off).
  auto List = [&](std::vector<double> &Out) -> bool {
    if (I >= W.size() || W[I] != "(")
      return false;
    for (++I; I < W.size() && W[I] != ")"; ++I) {
      double D;
      if (!parseDouble(W[I], D))
        return false;
      Out.push_back(D);
    }
    if (I >= W.size())
      return false;
    ++I;
    return true;
  };
  std::vector<double> Pos, Color;
  if (All) {
    if (Relative)
      return err(L.No, "relative probe all is not a probe");
    Pos = {0, 0, double(FbWidth), double(FbHeight)};
    for (; I < W.size(); ++I) {
      double D;
      if (!parseDouble(W[I], D))
        return err(L.No, "probe all: malformed number '" + W[I] + "'");
      Color.push_back(D);
    }
  } else {
    if (!List(Pos) || Pos.size() != (Rect ? 4u : 2u))
      return err(L.No, Rect ? "probe rect: expected (x, y, width, height)"
                            : "probe: expected (x, y)");
    if (!Rect) {
      Pos.push_back(Relative ? 1.0 / FbWidth : 1);
      Pos.push_back(Relative ? 1.0 / FbHeight : 1);
    }
    if (!List(Color))
      return err(L.No, "probe: expected the colour in parentheses");
    if (Relative) {
      Pos[0] *= FbWidth;
      Pos[1] *= FbHeight;
      Pos[2] *= FbWidth;
      Pos[3] *= FbHeight;
    }
  }
  if (Color.size() != NColor)
    return err(L.No, "probe " + Twine(C.ProbeAlpha ? "rgba" : "rgb") +
                         " needs " + Twine(NColor) + " colour values");
  if (I != W.size())
    return err(L.No, "probe: unexpected '" + W[I] + "'");
  for (double P : Pos)
    if (!(P >= 0) || P > 65536)
      return err(L.No, "probe: coordinate out of range");
  C.X = uint32_t(Pos[0]);
  C.Y = uint32_t(Pos[1]);
  C.W = std::max(uint32_t(Pos[2]), 1u);
  C.H = std::max(uint32_t(Pos[3]), 1u);
  for (double V : Color)
    C.Values.push_back(fmtDouble(V * 255.0));
  // Absolute tolerances are in [0, 1] like the colours. Without one,
  // Amber's default texel tolerance 0.002 (half an 8-bit step: 0.5 is
  // either 127 or 128).
  if (Tolerances.empty())
    C.Tolerances.push_back({0.002 * 255.0, false});
  for (Tolerance T : Tolerances) {
    if (!T.Percent)
      T.Value *= 255.0;
    C.Tolerances.push_back(T);
  }
  S.Commands.push_back(std::move(C));
  return Error::success();
}

Error VkParser::parseProbeSsbo(const VkLine &L, ArrayRef<std::string> W) {
  // probe ssbo type binding offset op values...
  if (W.size() < 7)
    return err(L.No, "probe ssbo needs a type, a binding, an offset, a "
                     "comparison and values");
  std::string Type = amberTypeName(W[2]);
  if (Type.empty())
    return err(L.No, "probe ssbo: unknown type '" + W[2] + "'");
  BufferFormat F = cantFail(parseDataType(Type, false));
  uint32_t Set, Binding;
  if (!parseBinding(W[3], Set, Binding))
    return err(L.No, "probe ssbo: malformed binding '" + W[3] + "'");
  uint64_t Offset;
  if (!parseUnsigned(W[4], Offset) || Offset > MaxBufferBytes)
    return err(L.No, "probe ssbo: malformed offset '" + W[4] + "'");
  std::string Slot = std::to_string(Set) + ":" + std::to_string(Binding);
  BufferDecl *B = S.findBuffer("ubo " + Slot);
  if (!B) {
    auto NB = dataBuffer(L.No, BindKind::Storage, Set, Binding);
    if (!NB)
      return NB.takeError();
    B = *NB;
  }
  if (!TypedBuffers.count(B->Name)) {
    B->Format = F;
    TypedBuffers.insert(B->Name);
  }
  Command C;
  C.Line = L.No;
  C.K = Command::ExpectValues;
  C.Buffer = B->Name;
  C.Text = L.Text;
  C.Offset = Offset;
  C.Format = F;
  StringRef Op = W[5];
  std::optional<CompareOp> O = StringSwitch<std::optional<CompareOp>>(Op)
                                   .Cases("==", "~=", CompareOp::EQ)
                                   .Case("!=", CompareOp::NE)
                                   .Case("<", CompareOp::LT)
                                   .Case("<=", CompareOp::LE)
                                   .Case(">", CompareOp::GT)
                                   .Case(">=", CompareOp::GE)
                                   .Default(std::nullopt);
  if (!O)
    return err(L.No, "probe ssbo: unknown comparison '" + Op + "'");
  C.Op = *O;
  if (Op == "~=")
    C.Tolerances = Tolerances;
  C.Values.assign(W.begin() + 6, W.end());
  S.Commands.push_back(std::move(C));
  return Error::success();
}

Error VkParser::parseSsbo(const VkLine &L, ArrayRef<std::string> W) {
  // ssbo binding size | ssbo binding subdata type offset values...
  uint32_t Set, Binding;
  if (W.size() < 3 || !parseBinding(W[1], Set, Binding))
    return err(L.No, "ssbo needs a binding and a size or subdata");
  auto B = dataBuffer(L.No, BindKind::Storage, Set, Binding);
  if (!B)
    return B.takeError();
  Command C;
  C.Line = L.No;
  C.Buffer = (*B)->Name;
  if (W[2] != "subdata") {
    uint64_t N;
    if (W.size() != 3 || !parseUnsigned(W[2], N) || N > MaxBufferBytes)
      return err(L.No, "ssbo: expected a size or subdata, got '" + W[2] + "'");
    C.K = Command::ResizeBuffer;
    Resizes.emplace_back(S.Commands.size(), N);
    S.Commands.push_back(std::move(C));
    return Error::success();
  }
  if (W.size() < 6)
    return err(L.No, "ssbo subdata needs a type, an offset and values");
  std::string Type = amberTypeName(W[3]);
  if (Type.empty())
    return err(L.No, "ssbo subdata: unknown type '" + W[3] + "'");
  BufferFormat F = cantFail(parseDataType(Type, false));
  uint64_t Offset;
  if (!parseUnsigned(W[4], Offset) || Offset > MaxBufferBytes)
    return err(L.No, "ssbo subdata: malformed offset '" + W[4] + "'");
  auto Bytes = pack(L.No, F, W.drop_front(5));
  if (!Bytes)
    return Bytes.takeError();
  if (Offset + Bytes->size() > MaxBufferBytes)
    return err(L.No, "ssbo subdata: buffer too large (over 256 MiB)");
  if (!TypedBuffers.count(C.Buffer)) {
    (*B)->Format = F;
    TypedBuffers.insert(C.Buffer);
  }
  C.K = Command::WriteBuffer;
  C.Offset = Offset;
  C.Bytes = std::move(*Bytes);
  S.Commands.push_back(std::move(C));
  return Error::success();
}

Error VkParser::parseUniform(const VkLine &L, ArrayRef<std::string> W) {
  // uniform ubo binding type offset values... | uniform type offset values...
  bool Ubo = W.size() >= 2 && W[1] == "ubo";
  size_t I = 1;
  uint32_t Set = 0, Binding = 0;
  if (Ubo) {
    if (W.size() < 3 || !parseBinding(W[2], Set, Binding))
      return err(L.No, "uniform ubo needs a binding");
    I = 3;
  }
  if (W.size() < I + 3)
    return err(L.No, "uniform needs a type, an offset and values");
  std::string Type = amberTypeName(W[I]);
  if (Type.empty())
    return err(L.No, "uniform: unknown type '" + W[I] + "'");
  // Uniform blocks are std140; push constants std430 (as Amber lays out).
  BufferFormat F = cantFail(parseDataType(Type, Ubo));
  uint64_t Offset;
  if (!parseUnsigned(W[I + 1], Offset) || Offset > MaxBufferBytes)
    return err(L.No, "uniform: malformed offset '" + W[I + 1] + "'");
  auto B = dataBuffer(L.No, Ubo ? BindKind::Uniform : BindKind::PushConstant,
                      Set, Binding);
  if (!B)
    return B.takeError();
  auto Bytes = pack(L.No, F, W.drop_front(I + 2));
  if (!Bytes)
    return Bytes.takeError();
  if (Offset + Bytes->size() > MaxBufferBytes)
    return err(L.No, "uniform: buffer too large (over 256 MiB)");
  Command C;
  C.Line = L.No;
  C.K = Command::WriteBuffer;
  C.Buffer = (*B)->Name;
  C.Offset = Offset;
  C.Bytes = std::move(*Bytes);
  S.Commands.push_back(std::move(C));
  return Error::success();
}

Error VkParser::parseSetting(const VkLine &L, ArrayRef<std::string> W,
                             bool &Handled) {
  if (W.size() != 2)
    return Error::success();
  StringRef K = W[0], V = W[1];
  GraphicsStateDecl &St = Graphics.State;
  RasterizationState &R = St.Raster;
  DepthStencilState &DS = St.DepthStencil;
  ColorBlendAttachment &Bl = St.Blend;
  Handled = true;
  // A setting that changes the state makes the next draw use a new
  // pipeline (as Amber's VkScript engine does).
  GraphicsStateDecl Before = St;
  auto Done = [&]() -> Error {
    if (!(St == Before))
      DrawPipeline.clear();
    return Error::success();
  };
  auto Bool = [&](bool &Field) -> Error {
    std::optional<bool> B = parseBool(V);
    if (!B)
      return err(L.No, K + " needs true or false, got '" + V + "'");
    Field = *B;
    return Done();
  };
  auto Number = [&](float &Field) -> Error {
    double D;
    if (!parseDouble(V, D))
      return err(L.No, K + " needs a number, got '" + V + "'");
    Field = float(D);
    return Done();
  };
  auto UInt = [&](uint32_t &Field) -> Error {
    uint64_t N;
    if (!parseUnsigned(V, N) || N > UINT32_MAX)
      return err(L.No, K + " needs an unsigned integer, got '" + V + "'");
    Field = uint32_t(N);
    return Done();
  };
  // An enumerant VK_PREFIX_NAME looked up by its lower-case NAME.
  auto Enum = [&](auto &Field, StringRef Prefix, auto ByName) -> Error {
    std::optional<std::string> N = vkEnum(V, Prefix);
    auto E = N ? ByName(*N) : std::nullopt;
    if (!E)
      return err(L.No, K + ": unknown " + Prefix + "* value '" + V + "'");
    Field = *E;
    return Done();
  };
  auto Compare = [](StringRef N) { return compareOpByName(N); };
  auto Stencil = [](StringRef N) { return stencilOpByName(N); };
  auto Factor = [](StringRef N) { return blendFactorByName(N); };
  if (K == "depthTestEnable")
    return Bool(DS.DepthTestEnable);
  if (K == "depthWriteEnable")
    return Bool(DS.DepthWriteEnable);
  if (K == "depthBoundsTestEnable")
    return Bool(DS.DepthBoundsTestEnable);
  if (K == "stencilTestEnable")
    return Bool(DS.StencilTestEnable);
  if (K == "blendEnable")
    return Bool(Bl.BlendEnable);
  if (K == "logicOpEnable")
    return Bool(St.LogicOpEnable);
  if (K == "primitiveRestartEnable")
    return Bool(St.PrimitiveRestart);
  if (K == "depthClampEnable")
    return Bool(R.DepthClampEnable);
  if (K == "rasterizerDiscardEnable")
    return Bool(R.RasterizerDiscardEnable);
  if (K == "depthBiasEnable")
    return Bool(R.DepthBiasEnable);
  if (K == "depthBiasConstantFactor")
    return Number(R.DepthBiasConstantFactor);
  if (K == "depthBiasClamp")
    return Number(R.DepthBiasClamp);
  if (K == "depthBiasSlopeFactor")
    return Number(R.DepthBiasSlopeFactor);
  if (K == "lineWidth")
    return Number(R.LineWidth);
  if (K == "minDepthBounds")
    return Number(DS.MinDepthBounds);
  if (K == "maxDepthBounds")
    return Number(DS.MaxDepthBounds);
  if (K == "depthCompareOp")
    return Enum(DS.DepthCompare, "VK_COMPARE_OP_", Compare);
  if (K == "cullMode")
    return Enum(R.Cull, "VK_CULL_MODE_",
                [](StringRef N) { return cullModeByName(N); });
  if (K == "frontFace")
    return Enum(R.Front, "VK_FRONT_FACE_",
                [](StringRef N) { return frontFaceByName(N); });
  if (K == "polygonMode")
    return Enum(R.Polygon, "VK_POLYGON_MODE_",
                [](StringRef N) { return polygonModeByName(N); });
  if (K == "logicOp")
    return Enum(St.Logic, "VK_LOGIC_OP_",
                [](StringRef N) { return logicOpByName(N); });
  if (K == "srcColorBlendFactor")
    return Enum(Bl.SrcColor, "VK_BLEND_FACTOR_", Factor);
  if (K == "dstColorBlendFactor")
    return Enum(Bl.DstColor, "VK_BLEND_FACTOR_", Factor);
  if (K == "srcAlphaBlendFactor")
    return Enum(Bl.SrcAlpha, "VK_BLEND_FACTOR_", Factor);
  if (K == "dstAlphaBlendFactor")
    return Enum(Bl.DstAlpha, "VK_BLEND_FACTOR_", Factor);
  if (K == "colorBlendOp" || K == "alphaBlendOp") {
    std::optional<std::string> N = vkEnum(V, "VK_BLEND_OP_");
    if (N && !blendOpByName(*N) && isAdvancedBlendOp(*N)) {
      unsupported(L.No, K + " " + V + " (VK_EXT_blend_operation_advanced)");
      return Error::success();
    }
    return Enum(K == "colorBlendOp" ? Bl.ColorOp : Bl.AlphaOp, "VK_BLEND_OP_",
                [](StringRef N) { return blendOpByName(N); });
  }
  // front.failOp, back.compareOp, front.reference, ...
  auto [Face, Field] = K.split('.');
  if ((Face == "front" || Face == "back") && !Field.empty()) {
    StencilOpState &F = Face == "front" ? DS.Front : DS.Back;
    if (Field == "failOp")
      return Enum(F.FailOp, "VK_STENCIL_OP_", Stencil);
    if (Field == "passOp")
      return Enum(F.PassOp, "VK_STENCIL_OP_", Stencil);
    if (Field == "depthFailOp")
      return Enum(F.DepthFailOp, "VK_STENCIL_OP_", Stencil);
    if (Field == "compareOp")
      return Enum(F.Compare, "VK_COMPARE_OP_", Compare);
    if (Field == "compareMask")
      return UInt(F.CompareMask);
    if (Field == "writeMask")
      return UInt(F.WriteMask);
    if (Field == "reference")
      return UInt(F.Reference);
  }
  if (K == "topology") {
    // Draws name their topology; the setting is only checked.
    StringRef T = V;
    T.consume_front("VK_PRIMITIVE_TOPOLOGY_");
    if (isUnsupportedTopology(T))
      unsupported(L.No, K + " " + V);
    else if (!topologyByName(T))
      return err(L.No, "topology: unknown topology '" + V + "'");
    return Error::success();
  }
  if (K == "colorWriteMask") {
    SmallVector<StringRef, 4> Bits;
    V.split(Bits, '|');
    unsigned Mask = 0;
    uint64_t N;
    for (StringRef B : Bits) {
      if (B.starts_with("VK_COLOR_COMPONENT_") && B.ends_with("_BIT") &&
          B.size() == 24 && StringRef("RGBA").contains(B[19]))
        Mask |= 1u << StringRef("RGBA").find(B[19]);
      else if (parseUnsigned(B, N) && N < 16)
        Mask |= unsigned(N);
      else
        return err(L.No, "colorWriteMask: unknown component '" + B + "'");
    }
    Bl.WriteMask = Mask;
    return Done();
  }
  Handled = false;
  return Error::success();
}

} // namespace spirv2llvm::amber::vkscript
