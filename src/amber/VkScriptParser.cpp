//===- VkScriptParser.cpp - VkScript text to a Script ---------------------===//
//
// The file is cut into `[section]`s first (a line starting with '[' opens
// one; shader bodies stay raw because '#' starts GLSL directives there),
// then [require] is read before anything else (it sets the SPIR-V version
// and the framebuffer), the shaders, vertex data and indices make the
// pipelines, and [test] becomes the command list (VkScriptCommands.cpp).
// VkScriptImpl.h describes the mapping onto the Script model.
//
//===----------------------------------------------------------------------===//
#include "amber/VkScriptParser.h"

#include "amber/ParserImpl.h"
#include "amber/VkScriptImpl.h"

#include "support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace spirv2llvm::amber {

bool isVkScript(StringRef Text) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    return Line.starts_with("[");
  }
  return false;
}

Expected<Script> parseVkScript(StringRef Text, StringRef BaseDir) {
  vkscript::VkParser P(Text, BaseDir);
  return P.parse();
}

namespace vkscript {

using detail::parseDouble;
using detail::parseUnsigned;

std::vector<std::string> splitWords(StringRef Line) {
  std::vector<std::string> W;
  std::string Cur;
  auto Flush = [&] {
    if (!Cur.empty())
      W.push_back(std::move(Cur));
    Cur.clear();
  };
  for (char C : Line) {
    if (isSpace(C) || C == ',') {
      Flush();
    } else if (C == '(' || C == ')') {
      Flush();
      W.push_back(std::string(1, C));
    } else {
      Cur += C;
    }
  }
  Flush();
  return W;
}

std::string amberTypeName(StringRef T) {
  static const std::pair<const char *, const char *> Scalars[] = {
      {"int", "int32"},       {"uint", "uint32"},     {"int8_t", "int8"},
      {"uint8_t", "uint8"},   {"int16_t", "int16"},   {"uint16_t", "uint16"},
      {"int64_t", "int64"},   {"uint64_t", "uint64"}, {"float", "float"},
      {"double", "double"},   {"float16_t", "float16"}, {"half", "float16"}};
  for (auto [V, A] : Scalars)
    if (T == V)
      return A;
  // vecN prefixes; a bare prefix is the 4-component vector.
  static const std::pair<const char *, const char *> Vectors[] = {
      {"vec", "float"},    {"dvec", "double"},  {"ivec", "int32"},
      {"uvec", "uint32"},  {"i8vec", "int8"},   {"u8vec", "uint8"},
      {"i16vec", "int16"}, {"u16vec", "uint16"}, {"i64vec", "int64"},
      {"u64vec", "uint64"}, {"f16vec", "float16"}};
  for (auto [V, A] : Vectors) {
    StringRef R = T;
    if (!R.consume_front(V))
      continue;
    if (R.empty())
      R = "4";
    if (R.size() == 1 && R[0] >= '2' && R[0] <= '4')
      return ("vec" + R + "<" + A + ">").str();
  }
  // matC or matCxR (columns x rows, as GLSL); a bare prefix is mat4.
  for (auto [V, A] : {std::pair{"mat", "float"}, std::pair{"dmat", "double"},
                      std::pair{"f16mat", "float16"}}) {
    StringRef R = T;
    if (!R.consume_front(V))
      continue;
    if (R.empty())
      R = "4";
    auto Dim = [](char C) { return C >= '2' && C <= '4'; };
    if (R.size() == 1 && Dim(R[0]))
      return ("mat" + R + "x" + R + "<" + A + ">").str();
    if (R.size() == 3 && Dim(R[0]) && R[1] == 'x' && Dim(R[2]))
      return ("mat" + R + "<" + A + ">").str();
  }
  return "";
}

Error VkParser::err(unsigned Line, const Twine &Msg) {
  return makeError("line " + Twine(Line) + ": " + Msg);
}

void VkParser::unsupported(unsigned Line, const Twine &What) {
  if (!S.Unsupported)
    S.Unsupported = ("line " + Twine(Line) + ": " + What).str();
}

Error VkParser::splitSections(std::vector<Section> &Out) {
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I].rtrim();
    if (L.starts_with("[")) {
      if (!L.ends_with("]"))
        return err(unsigned(I + 1), "section header without ']'");
      Section Sec;
      Sec.HeaderLine = unsigned(I + 1);
      SmallVector<StringRef, 4> Words;
      L.drop_front().drop_back().split(Words, ' ', -1, false);
      for (StringRef W : Words)
        if (!W.trim().empty())
          Sec.Name += (Sec.Name.empty() ? "" : " ") + W.trim().str();
      Out.push_back(std::move(Sec));
      continue;
    }
    if (!Out.empty()) {
      Out.back().Raw.push_back(Lines[I].str());
      continue;
    }
    StringRef T = L.trim();
    if (!T.empty() && !T.starts_with("#"))
      return err(unsigned(I + 1), "'" + T + "' before the first section");
  }
  return Error::success();
}

std::vector<VkLine> VkParser::logicalLines(const Section &Sec) {
  std::vector<VkLine> Out;
  bool Continued = false;
  for (size_t I = 0; I < Sec.Raw.size(); ++I) {
    StringRef L = StringRef(Sec.Raw[I]).take_until([](char C) {
      return C == '#';
    });
    L = L.trim();
    unsigned No = Sec.HeaderLine + 1 + unsigned(I);
    bool Cont = L.consume_back("\\");
    if (Continued)
      Out.back().Text += " " + L.str();
    else if (!L.empty() || Cont)
      Out.push_back({No, L.str()});
    Continued = Cont;
  }
  return Out;
}

Error VkParser::parseRequire(const Section &Sec) {
  for (const VkLine &L : logicalLines(Sec)) {
    std::vector<std::string> W = splitWords(L.Text);
    if (W.empty())
      continue;
    StringRef K = W[0];
    if (K == "framebuffer" || K == "depthstencil") {
      if (W.size() != 2)
        return err(L.No, K + " needs a format");
      auto F = parseImageFormat(W[1]);
      if (!F) {
        consumeError(F.takeError());
        unsupported(L.No, K + " format " + W[1]);
        return Error::success();
      }
      (K == "framebuffer" ? FbFormat : DepthFormat) = W[1];
    } else if (K == "fbsize") {
      uint64_t Wd, Ht;
      if (W.size() != 3 || !parseUnsigned(W[1], Wd) ||
          !parseUnsigned(W[2], Ht) || !Wd || !Ht || Wd > (1u << 24) ||
          Ht > (1u << 24) || Wd * Ht > (1u << 24))
        return err(L.No, "fbsize needs a width and a height (at most 2^24 "
                         "pixels, as FRAMEBUFFER_SIZE)");
      FbWidth = uint32_t(Wd);
      FbHeight = uint32_t(Ht);
    } else if (K == "fence_timeout") {
      uint64_t Ms;
      if (W.size() != 2 || !parseUnsigned(W[1], Ms))
        return err(L.No, "fence_timeout needs milliseconds");
      // Like SET ENGINE_DATA fence_timeout_ms: --timeout bounds a script.
    } else if (W.size() != 1) {
      return err(L.No, "unknown requirement '" + L.Text + "'");
    } else if (K.starts_with("VK_")) {
      if (!detail::extensionSupported(K)) {
        unsupported(L.No, "extension " + K);
        return Error::success();
      }
      Spirv14 |= K == "VK_KHR_spirv_1_4";
    } else if (!detail::featureSupported(K)) {
      unsupported(L.No, "feature " + K);
      return Error::success();
    }
  }
  return Error::success();
}

Error VkParser::parseShader(const Section &Sec) {
  // "<stage> shader [spirv [hex] | passthrough]"
  StringRef Name = Sec.Name;
  auto [StageText, Variant] = Name.split(" shader");
  Variant = Variant.trim();
  ShaderDecl D;
  D.Line = Sec.HeaderLine + 1;
  if (StageText == "compute")
    D.Stage = ShaderStageKind::Compute;
  else if (StageText == "vertex")
    D.Stage = ShaderStageKind::Vertex;
  else if (StageText == "fragment")
    D.Stage = ShaderStageKind::Fragment;
  else if (StageText == "geometry")
    D.Stage = ShaderStageKind::Geometry;
  else if (StageText == "tessellation control" ||
           StageText == "tessellation evaluation") {
    unsupported(Sec.HeaderLine, StageText + " shader");
    return Error::success();
  } else
    return err(Sec.HeaderLine, "unknown section [" + Sec.Name + "]");
  D.Name = StageText.str();
  if (S.findShader(D.Name))
    return err(Sec.HeaderLine, "a second [" + Sec.Name + "]");
  if (Spirv14)
    D.TargetEnv = "spv1.4";
  std::string Body;
  for (const std::string &L : Sec.Raw)
    Body += L + "\n";
  if (Variant.empty()) {
    D.Source = ShaderSource::Glsl;
  } else if (Variant == "spirv") {
    D.Source = ShaderSource::SpirvAsm;
  } else if (Variant == "passthrough") {
    if (D.Stage != ShaderStageKind::Vertex)
      return err(Sec.HeaderLine, "passthrough is only for vertex shaders");
    D.Source = ShaderSource::Passthrough;
    Body.clear();
  } else if (Variant == "spirv hex") {
    // The binary's bytes as hexadecimal numbers, in file order (Amber packs
    // them little-endian into words); '#' comments.
    D.Source = ShaderSource::SpirvBin;
    std::string Bytes;
    for (size_t I = 0; I < Sec.Raw.size(); ++I) {
      StringRef L = StringRef(Sec.Raw[I]).take_until([](char C) {
        return C == '#';
      });
      SmallVector<StringRef, 16> Words;
      L.split(Words, ' ', -1, false);
      for (StringRef W : Words) {
        W = W.trim();
        if (W.empty())
          continue;
        StringRef Digits = W;
        if (!Digits.consume_front("0x"))
          Digits.consume_front("0X");
        unsigned V;
        if (Digits.getAsInteger(16, V) || V > 0xff)
          return err(Sec.HeaderLine + 1 + unsigned(I),
                     "'" + W + "' is not a hexadecimal byte");
        Bytes += char(V);
      }
    }
    Body = std::move(Bytes);
  } else {
    return err(Sec.HeaderLine, "unknown section [" + Sec.Name + "]");
  }
  D.Text = std::move(Body);
  if (D.Stage == ShaderStageKind::Compute)
    HasCompute = true;
  else
    HasGraphics = true;
  S.Shaders.push_back(std::move(D));
  return Error::success();
}

namespace {

/// The format of a vertex-data column "location/gl_type/glsl_type": a
/// FORMAT name with the GLSL type's component count of the GL type.
std::string glTypeFormat(StringRef GlType, StringRef GlslType) {
  unsigned N = StringSwitch<unsigned>(GlslType)
                   .Cases("int", "uint", "float", "double", 1)
                   .Cases("vec2", "ivec2", "uvec2", "dvec2", 2)
                   .Cases("vec3", "ivec3", "uvec3", "dvec3", 3)
                   .Cases("vec", "vec4", "ivec4", "uvec4", "dvec4", 4)
                   .Cases("ivec", "uvec", "dvec", 4)
                   .Default(0);
  auto [Bits, Kind] =
      StringSwitch<std::pair<unsigned, const char *>>(GlType)
          .Case("byte", {8, "SINT"})
          .Case("ubyte", {8, "UINT"})
          .Case("short", {16, "SINT"})
          .Case("ushort", {16, "UINT"})
          .Case("int", {32, "SINT"})
          .Case("uint", {32, "UINT"})
          .Case("half", {16, "SFLOAT"})
          .Case("float", {32, "SFLOAT"})
          .Case("double", {64, "SFLOAT"})
          .Default({0, ""});
  if (!N || !Bits)
    return "";
  // An integer GL type read as a float GLSL type is a SCALED format.
  bool FloatGlsl = GlslType.contains("vec") ? !GlslType.starts_with("i") &&
                                                  !GlslType.starts_with("u")
                                            : GlslType == "float" ||
                                                  GlslType == "double";
  std::string K = Kind;
  if (FloatGlsl && K != "SFLOAT")
    K = K == "SINT" ? "SSCALED" : "USCALED";
  std::string Name;
  const char Ch[] = {'R', 'G', 'B', 'A'};
  for (unsigned I = 0; I < N; ++I)
    Name += Ch[I] + std::to_string(Bits);
  return Name + "_" + K;
}

} // namespace

Error VkParser::parseVertexData(const Section &Sec) {
  std::vector<VkLine> Lines = logicalLines(Sec);
  if (Lines.empty())
    return Error::success();
  struct Column {
    uint32_t Location;
    std::string Buffer;
  };
  std::vector<Column> Cols;
  for (const std::string &H : splitWords(Lines[0].Text)) {
    SmallVector<StringRef, 3> Parts;
    StringRef(H).split(Parts, '/');
    uint64_t Loc;
    if ((Parts.size() != 2 && Parts.size() != 3) ||
        !parseUnsigned(Parts[0], Loc) || Loc > 64)
      return err(Lines[0].No, "vertex data header '" + H +
                                  "': expected location/format or "
                                  "location/gl_type/glsl_type");
    std::string FmtName = Parts.size() == 2
                              ? Parts[1].str()
                              : glTypeFormat(Parts[1], Parts[2]);
    if (FmtName.empty())
      return err(Lines[0].No, "vertex data header '" + H + "': unknown type");
    auto F = parseImageFormat(FmtName);
    if (!F) {
      consumeError(F.takeError());
      unsupported(Lines[0].No, "vertex data format " + FmtName);
      return Error::success();
    }
    for (const Column &C : Cols)
      if (C.Location == Loc)
        return err(Lines[0].No, "two vertex data columns for location " +
                                    Twine(Loc));
    BufferDecl B;
    B.Name = "vertex data " + std::to_string(Loc);
    B.Format = std::move(*F);
    B.Format.IsImage = false; // attribute data, not a framebuffer
    B.Line = Lines[0].No;
    Cols.push_back({uint32_t(Loc), B.Name});
    S.Buffers.push_back(std::move(B));
    VertexDataDecl V;
    V.Buffer = Cols.back().Buffer;
    V.Location = uint32_t(Loc);
    Graphics.VertexData.push_back(V);
  }
  for (size_t R = 1; R < Lines.size(); ++R) {
    std::vector<std::string> W = splitWords(Lines[R].Text);
    size_t At = 0;
    for (const Column &C : Cols) {
      BufferDecl &B = *S.findBuffer(C.Buffer);
      const BufferFormat &F = B.Format;
      unsigned N = F.valuesPerElement();
      if (At + N > W.size())
        return err(Lines[R].No, "vertex data row has " + Twine(W.size()) +
                                    " values, the header needs more");
      size_t Base = B.Data.size();
      B.Data.resize(Base + F.ElementSize);
      for (const Component &Co : F.Components) {
        if (Co.Padding)
          continue;
        if (Error E = writeComponent(Co, W[At++], &B.Data[Base + Co.Offset]))
          return err(Lines[R].No, "vertex data: " + toString(std::move(E)));
      }
    }
    if (At != W.size())
      return err(Lines[R].No, "vertex data row has " + Twine(W.size()) +
                                  " values, the header takes " + Twine(At));
  }
  return Error::success();
}

Error VkParser::parseIndices(const Section &Sec) {
  BufferDecl B;
  B.Name = "indices";
  B.Format = cantFail(parseDataType("uint32", false));
  B.Line = Sec.HeaderLine;
  for (const VkLine &L : logicalLines(Sec))
    for (const std::string &W : splitWords(L.Text)) {
      uint64_t V;
      if (!parseUnsigned(W, V) || V > UINT32_MAX)
        return err(L.No, "index '" + W + "' is not a 32-bit unsigned number");
      uint32_t U = uint32_t(V);
      const uint8_t *P = reinterpret_cast<const uint8_t *>(&U);
      B.Data.insert(B.Data.end(), P, P + 4);
    }
  if (S.findBuffer(B.Name))
    return err(Sec.HeaderLine, "a second [indices]");
  S.Buffers.push_back(std::move(B));
  Graphics.IndexData = "indices";
  return Error::success();
}

void VkParser::makePipelines() {
  if (HasCompute) {
    PipelineDecl P;
    P.Name = "compute";
    P.IsCompute = true;
    P.Attached.push_back({"compute", "", {}});
    S.Pipelines.push_back(std::move(P));
  }
  Graphics.IsCompute = false;
  Graphics.FbWidth = FbWidth;
  Graphics.FbHeight = FbHeight;
  for (const char *Stage : {"vertex", "geometry", "fragment"})
    if (S.findShader(Stage))
      Graphics.Attached.push_back({Stage, "", {}});
  BufferDecl FB;
  FB.Name = "framebuffer";
  FB.Format = cantFail(parseImageFormat(FbFormat));
  S.Buffers.push_back(std::move(FB));
  BindDecl Color;
  Color.Buffer = "framebuffer";
  Color.Kind = BindKind::Color;
  Graphics.Binds.push_back(Color);
  if (!DepthFormat.empty()) {
    BufferDecl DS;
    DS.Name = "depthstencil";
    DS.Format = cantFail(parseImageFormat(DepthFormat));
    S.Buffers.push_back(std::move(DS));
    BindDecl Depth;
    Depth.Buffer = "depthstencil";
    Depth.Kind = BindKind::DepthStencil;
    Graphics.Binds.push_back(Depth);
  }
}

Expected<Script> VkParser::parse() {
  std::vector<Section> Sections;
  if (Error E = splitSections(Sections))
    return E;
  // [require] first: it decides the SPIR-V version of every shader.
  for (const Section &Sec : Sections)
    if (Sec.Name == "require")
      if (Error E = parseRequire(Sec))
        return E;
  for (const Section &Sec : Sections) {
    if (S.Unsupported)
      return std::move(S);
    Error E = Error::success();
    StringRef N = Sec.Name;
    if (N == "require" || N == "test" || N == "comment")
      continue;
    if (N == "vertex data")
      E = parseVertexData(Sec);
    else if (N == "indices")
      E = parseIndices(Sec);
    else if (N.ends_with(" shader") || N.contains(" shader "))
      E = parseShader(Sec);
    else
      E = err(Sec.HeaderLine, "unknown section [" + Sec.Name + "]");
    if (E)
      return E;
  }
  if (S.Unsupported)
    return std::move(S);
  makePipelines();
  bool HasTest = false;
  for (const Section &Sec : Sections) {
    if (Sec.Name != "test")
      continue;
    if (HasTest)
      return err(Sec.HeaderLine, "a second [test]");
    HasTest = true;
    if (Error E = parseTest(Sec))
      return E;
  }
  if (S.Unsupported)
    return std::move(S);
  finish();
  for (auto &[Index, Count] : Resizes) {
    Command &C = S.Commands[Index];
    uint64_t Size = Count * S.findBuffer(C.Buffer)->Format.ElementSize;
    if (Size > (1ull << 28))
      return err(C.Line, "ssbo size too large (over 256 MiB)");
    C.Offset = Size;
  }
  return std::move(S);
}

void VkParser::finish() {
  for (PipelineDecl &P : S.Pipelines)
    P.Binds.insert(P.Binds.end(), DataBinds.begin(), DataBinds.end());
}

} // namespace vkscript

} // namespace spirv2llvm::amber
