//===- AmberParser.cpp - AmberScript text to a Script ---------------------===//
//
// The text is split into tokens that remember their line; the bodies of
// SHADER blocks are kept as one raw token because '#' is not a comment
// there. Commands are line oriented: a command's arguments are the tokens
// on its line, except DATA lists and PIPELINE/REPEAT blocks, which run to
// their END.
//
//===----------------------------------------------------------------------===//
#include "amber/AmberParser.h"
#include "amber/GraphicsNames.h"

#include "amber/ParserImpl.h"

#include "support/Diagnostic.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <set>

using namespace llvm;

namespace spirv2llvm::amber {

ShaderDecl *Script::findShader(const std::string &Name) {
  for (ShaderDecl &S : Shaders)
    if (S.Name == Name)
      return &S;
  return nullptr;
}
BufferDecl *Script::findBuffer(const std::string &Name) {
  for (BufferDecl &B : Buffers)
    if (B.Name == Name)
      return &B;
  return nullptr;
}
SamplerDecl *Script::findSampler(const std::string &Name) {
  for (SamplerDecl &D : Samplers)
    if (D.Name == Name)
      return &D;
  return nullptr;
}

PipelineDecl *Script::findPipeline(const std::string &Name) {
  for (PipelineDecl &P : Pipelines)
    if (P.Name == Name)
      return &P;
  return nullptr;
}

using namespace detail;

namespace {

/// Amber's tokenizer reads "a b" as one string token; paths may be quoted.
std::string unquote(StringRef T) {
  if (T.size() >= 2 && T.front() == '"' && T.back() == '"')
    T = T.drop_front().drop_back();
  return T.str();
}

/// Amber commands this runner does not implement: the script is skipped.
const std::set<std::string> UnsupportedCommands = {"DEBUG", "INCLUDE"};

/// Pipeline-block commands this runner does not implement.

bool isBodylessShader(ArrayRef<Token> LineToks) {
  for (const Token &T : LineToks)
    if (T.Text == "PASSTHROUGH" || T.Text == "FILE")
      return true;
  // SHADER ... VIRTUAL_FILE path takes its text from the store; the
  // VIRTUAL_FILE command itself (first token) has a body.
  for (const Token &T : LineToks.drop_front())
    if (T.Text == "VIRTUAL_FILE")
      return true;
  return false;
}

Expected<std::vector<Token>> tokenize(StringRef Text) {
  std::vector<Token> Toks;
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  bool Continued = false;
  std::vector<Token> Pending;
  for (size_t I = 0; I < Lines.size(); ++I) {
    unsigned LineNo = unsigned(I + 1);
    StringRef L = Lines[I];
    L = L.take_until([](char C) { return C == '#'; });
    SmallVector<StringRef, 8> Words;
    L.split(Words, ' ', -1, false);
    std::vector<Token> LineToks;
    if (Continued) {
      LineToks = std::move(Pending);
      LineNo = LineToks.empty() ? LineNo : LineToks[0].Line;
    }
    for (StringRef W : Words) {
      SmallVector<StringRef, 2> Sub;
      W.split(Sub, '\t', -1, false);
      for (StringRef S : Sub) {
        S = S.trim();
        if (!S.empty())
          LineToks.push_back({S.str(), LineNo});
      }
    }
    // A trailing backslash continues the command on the next line.
    Continued = !LineToks.empty() && LineToks.back().Text == "\\";
    if (Continued) {
      LineToks.pop_back();
      Pending = std::move(LineToks);
      continue;
    }
    bool ShaderHead = !LineToks.empty() &&
                      (LineToks[0].Text == "SHADER" ||
                       LineToks[0].Text == "VIRTUAL_FILE") &&
                      !isBodylessShader(LineToks);
    Toks.insert(Toks.end(), LineToks.begin(), LineToks.end());
    if (!ShaderHead)
      continue;
    // Raw body up to a line that is just END.
    std::string Body;
    size_t J = I + 1;
    for (; J < Lines.size(); ++J) {
      if (Lines[J].trim() == "END")
        break;
      Body += Lines[J].str();
      Body += '\n';
    }
    if (J == Lines.size())
      return makeError("line " + Twine(LineNo) +
                       ": SHADER block without END");
    Toks.push_back({std::move(Body), LineNo + 1, true});
    Toks.push_back({"END", unsigned(J + 1)});
    I = J;
  }
  return Toks;
}

} // namespace

namespace detail {

Expected<std::string> Parser::readFile(unsigned Line, StringRef Path) {
  SmallString<256> Full(Path);
  if (!sys::path::is_absolute(Full)) {
    Full = BaseDir;
    sys::path::append(Full, Path);
  }
  // Only regular files of a sane size: a script naming /dev/zero or a
  // FIFO must get an error, not hang or exhaust memory.
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(Full, St))
    return err(Line, "cannot read '" + Full + "': " + EC.message());
  if (!sys::fs::is_regular_file(St))
    return err(Line, "cannot read '" + Full + "': not a regular file");
  if (St.getSize() > (1ull << 28))
    return err(Line, "cannot read '" + Full + "': over 256 MiB");
  auto Buf = MemoryBuffer::getFile(Full, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return err(Line, "cannot read '" + Full + "': " +
                         Buf.getError().message());
  return (*Buf)->getBuffer().str();
}

bool parseDouble(StringRef T, double &D) {
  std::string S = T.str();
  char *End = nullptr;
  D = std::strtod(S.c_str(), &End);
  return !S.empty() && !*End;
}

bool parseUnsigned(StringRef T, uint64_t &U) { return !T.getAsInteger(0, U); }

Error Parser::parseShader(unsigned Line) {
  std::vector<Token> A = restOfLine(Line);
  if (A.size() < 3)
    return err(Line, "SHADER needs a stage, a name and a format");
  ShaderDecl D;
  D.Line = Line;
  D.Name = A[1].Text;
  StringRef Stage = A[0].Text;
  if (Stage == "compute")
    D.Stage = ShaderStageKind::Compute;
  else if (Stage == "fragment")
    D.Stage = ShaderStageKind::Fragment;
  else if (Stage == "vertex")
    D.Stage = ShaderStageKind::Vertex;
  else if (Stage == "geometry")
    D.Stage = ShaderStageKind::Geometry;
  else if (Stage == "tessellation_control" ||
           Stage == "tessellation_evaluation" || Stage == "multi" ||
           Stage == "ray_generation" || Stage == "any_hit" ||
           Stage == "closest_hit" || Stage == "miss" ||
           Stage == "intersection" || Stage == "callable") {
    unsupported(Line, "shader stage '" + Stage + "'");
    return Error::success();
  } else
    return err(Line, "unknown shader stage '" + Stage + "'");
  if (S.findShader(D.Name))
    return err(Line, "duplicate shader name '" + D.Name + "'");
  StringRef Fmt = A[2].Text;
  if (Fmt == "GLSL")
    D.Source = ShaderSource::Glsl;
  else if (Fmt == "HLSL")
    D.Source = ShaderSource::Hlsl;
  else if (Fmt == "SPIRV-ASM")
    D.Source = ShaderSource::SpirvAsm;
  else if (Fmt == "SPIRV-BIN")
    D.Source = ShaderSource::SpirvBin;
  else if (Fmt == "PASSTHROUGH") {
    if (D.Stage != ShaderStageKind::Vertex)
      return err(Line, "PASSTHROUGH is only for vertex shaders");
    D.Source = ShaderSource::Passthrough;
  } else if (Fmt == "OPENCL-C") {
    unsupported(Line, "OPENCL-C shaders");
    return Error::success();
  } else
    return err(Line, "unknown shader format '" + Fmt + "'");
  std::optional<std::string> File;
  bool Virtual = false;
  for (size_t I = 3; I < A.size(); ++I) {
    if (A[I].Text == "TARGET_ENV" && I + 1 < A.size()) {
      D.TargetEnv = A[++I].Text;
    } else if (A[I].Text == "FILE" && I + 1 < A.size()) {
      // FILE [TEXT|BINARY] path
      ++I;
      if ((A[I].Text == "TEXT" || A[I].Text == "BINARY") && I + 1 < A.size())
        ++I;
      File = A[I].Text;
    } else if (A[I].Text == "VIRTUAL_FILE" && I + 1 < A.size()) {
      std::string Path = unquote(A[++I].Text);
      auto It = llvm::find_if(S.VirtualFiles,
                              [&](const auto &F) { return F.first == Path; });
      if (It == S.VirtualFiles.end())
        return err(Line, "SHADER " + D.Name + ": no VIRTUAL_FILE '" + Path +
                             "' declared before it");
      D.Text = It->second;
      D.VirtualPath = Path;
      Virtual = true;
    } else {
      return err(Line, "unexpected '" + A[I].Text + "' in SHADER");
    }
  }
  if (File) {
    auto Body = readFile(Line, *File);
    if (!Body)
      return Body.takeError();
    D.Text = std::move(*Body);
  } else if (Virtual) {
    if (D.Source == ShaderSource::SpirvBin)
      return err(Line, "SPIRV-BIN needs FILE (virtual files are text)");
  } else if (D.Source == ShaderSource::SpirvBin) {
    return err(Line, "SPIRV-BIN needs FILE");
  } else if (D.Source != ShaderSource::Passthrough) {
    if (atEnd() || !peek().Raw)
      return err(Line, "SHADER without a body");
    D.Text = Toks[Pos++].Text;
    if (atEnd() || peek().Text != "END")
      return err(Line, "SHADER block without END");
    ++Pos;
  }
  S.Shaders.push_back(std::move(D));
  return Error::success();
}

Error Parser::parseSampler(unsigned Line) {
  std::vector<Token> A = restOfLine(Line);
  if (A.empty())
    return err(Line, "SAMPLER needs a name");
  SamplerDecl D;
  D.Name = A[0].Text;
  D.Line = Line;
  if (S.findSampler(D.Name))
    return err(Line, "duplicate sampler name '" + D.Name + "'");
  auto OneOf = [](StringRef V, std::initializer_list<StringRef> L) {
    return llvm::is_contained(L, V);
  };
  for (size_t I = 1; I < A.size(); ++I) {
    StringRef K = A[I].Text;
    if (K == "NORMALIZED_COORDS" || K == "UNNORMALIZED_COORDS") {
      D.Normalized = K == "NORMALIZED_COORDS";
      continue;
    }
    if (I + 1 >= A.size())
      return err(Line, "SAMPLER " + D.Name + ": " + K + " needs a value");
    StringRef V = A[++I].Text;
    bool Ok = true;
    if (K == "MAG_FILTER" || K == "MIN_FILTER" || K == "MIPMAP_MODE") {
      Ok = OneOf(V, {"nearest", "linear"});
      (K == "MAG_FILTER"   ? D.MagFilter
       : K == "MIN_FILTER" ? D.MinFilter
                           : D.MipmapMode) = V.str();
    } else if (K == "ADDRESS_MODE_U" || K == "ADDRESS_MODE_V" ||
               K == "ADDRESS_MODE_W") {
      Ok = OneOf(V, {"repeat", "mirrored_repeat", "clamp_to_edge",
                     "clamp_to_border", "mirrored_clamp_to_edge"});
      (K.back() == 'U' ? D.AddressU : K.back() == 'V' ? D.AddressV
                                                      : D.AddressW) = V.str();
    } else if (K == "BORDER_COLOR") {
      Ok = OneOf(V, {"float_transparent_black", "int_transparent_black",
                     "float_opaque_black", "int_opaque_black",
                     "float_opaque_white", "int_opaque_white"});
      D.BorderColor = V.str();
    } else if (K == "MIN_LOD" || K == "MAX_LOD") {
      Ok = parseDouble(V, K == "MIN_LOD" ? D.MinLod : D.MaxLod);
    } else if (K == "COMPARE") {
      Ok = OneOf(V, {"on", "off"});
      D.Compare = V == "on";
    } else if (K == "COMPARE_OP") {
      Ok = OneOf(V, {"never", "less", "equal", "less_or_equal", "greater",
                     "not_equal", "greater_or_equal", "always"});
      D.CompareOp = V.str();
    } else {
      return err(Line, "SAMPLER " + D.Name + ": unexpected '" + K + "'");
    }
    if (!Ok)
      return err(Line, "SAMPLER " + D.Name + ": bad " + K + " '" + V + "'");
  }
  // Amber: unnormalized coordinates force the LOD range to [0, 0].
  if (!D.Normalized)
    D.MinLod = D.MaxLod = 0;
  S.Samplers.push_back(std::move(D));
  return Error::success();
}

namespace {

std::optional<CompareOp> parseOp(StringRef T) {
  return StringSwitch<std::optional<CompareOp>>(T)
      .Case("EQ", CompareOp::EQ)
      .Case("NE", CompareOp::NE)
      .Case("LT", CompareOp::LT)
      .Case("LE", CompareOp::LE)
      .Case("GT", CompareOp::GT)
      .Case("GE", CompareOp::GE)
      .Default(std::nullopt);
}

Error parseTolerances(ArrayRef<Token> A, size_t &I,
                      std::vector<Tolerance> &Out) {
  while (I < A.size()) {
    StringRef T = A[I].Text;
    Tolerance Tol;
    Tol.Percent = T.consume_back("%");
    if (!parseDouble(T, Tol.Value))
      break;
    Out.push_back(Tol);
    ++I;
  }
  if (Out.empty() || Out.size() > 4)
    return makeError("TOLERANCE takes 1 to 4 values");
  return Error::success();
}

} // namespace

Error Parser::parseExpect(unsigned Line, std::vector<Token> A,
                          std::vector<Command> &Out) {
  Command C;
  C.Line = Line;
  C.Text = "EXPECT";
  for (const Token &T : A)
    C.Text += " " + T.Text;
  if (A.size() < 2)
    return err(Line, "EXPECT needs a buffer and a comparison");
  C.Buffer = A[0].Text;
  if (!S.findBuffer(C.Buffer))
    return err(Line, "EXPECT: unknown buffer '" + C.Buffer + "'");
  StringRef K = A[1].Text;
  if (K == "EQ_BUFFER" || K == "RMSE_BUFFER" ||
      K == "EQ_HISTOGRAM_EMD_BUFFER") {
    if (A.size() < 3)
      return err(Line, "EXPECT " + K + " needs a second buffer");
    C.Other = A[2].Text;
    if (!S.findBuffer(C.Other))
      return err(Line, "EXPECT: unknown buffer '" + C.Other + "'");
    C.K = K == "EQ_BUFFER"     ? Command::ExpectEqBuffer
          : K == "RMSE_BUFFER" ? Command::ExpectRmse
                               : Command::ExpectEmd;
    size_t I = 3;
    if (C.K != Command::ExpectEqBuffer) {
      if (I >= A.size() || A[I].Text != "TOLERANCE")
        return err(Line, "EXPECT " + K + " needs TOLERANCE");
      ++I;
      if (Error E = parseTolerances(A, I, C.Tolerances))
        return err(Line, toString(std::move(E)));
    }
    if (I != A.size())
      return err(Line, "EXPECT: unexpected '" + A[I].Text + "'");
    Out.push_back(std::move(C));
    return Error::success();
  }
  if (K != "IDX")
    return err(Line, "EXPECT: expected IDX or a buffer comparison, got '" +
                         K + "'");
  // Probe when two coordinates follow, or one and a colour comparison.
  size_t I = 2;
  uint64_t X, Y;
  if (I >= A.size() || !parseUnsigned(A[I].Text, X))
    return err(Line, "EXPECT: IDX needs a number");
  ++I;
  if (I < A.size() && parseUnsigned(A[I].Text, Y)) {
    C.K = Command::ExpectProbe;
    C.X = uint32_t(X);
    C.Y = uint32_t(Y);
    ++I;
    if (I < A.size() && A[I].Text == "SIZE") {
      uint64_t W, H;
      if (I + 2 >= A.size() || !parseUnsigned(A[I + 1].Text, W) ||
          !parseUnsigned(A[I + 2].Text, H))
        return err(Line, "EXPECT: SIZE needs a width and a height");
      C.W = uint32_t(W);
      C.H = uint32_t(H);
      I += 3;
    }
    if (I >= A.size() || (A[I].Text != "EQ_RGBA" && A[I].Text != "EQ_RGB"))
      return err(Line, "EXPECT: expected EQ_RGBA or EQ_RGB");
    C.ProbeAlpha = A[I].Text == "EQ_RGBA";
    unsigned N = C.ProbeAlpha ? 4 : 3;
    ++I;
    for (unsigned J = 0; J < N; ++J, ++I) {
      double D;
      if (I >= A.size() || !parseDouble(A[I].Text, D))
        return err(Line, "EXPECT: " + Twine(C.ProbeAlpha ? "EQ_RGBA" : "EQ_RGB") +
                             " needs " + Twine(N) + " values");
      C.Values.push_back(A[I].Text);
    }
    if (I < A.size() && A[I].Text == "TOLERANCE") {
      ++I;
      if (Error E = parseTolerances(A, I, C.Tolerances))
        return err(Line, toString(std::move(E)));
    }
    if (I != A.size())
      return err(Line, "EXPECT: unexpected '" + A[I].Text + "'");
    Out.push_back(std::move(C));
    return Error::success();
  }
  C.K = Command::ExpectValues;
  C.Offset = X;
  if (I < A.size() && A[I].Text == "TOLERANCE") {
    ++I;
    if (Error E = parseTolerances(A, I, C.Tolerances))
      return err(Line, toString(std::move(E)));
  }
  if (I >= A.size())
    return err(Line, "EXPECT: missing comparison");
  if (A[I].Text == "EQ_RGBA" || A[I].Text == "EQ_RGB")
    return err(Line, "EXPECT: " + A[I].Text + " needs IDX x y");
  if (A[I].Text == "RELATIVE") {
    unsupported(Line, "EXPECT ... RELATIVE");
    return Error::success();
  }
  auto Op = parseOp(A[I].Text);
  if (!Op)
    return err(Line, "EXPECT: unknown comparison '" + A[I].Text + "'");
  C.Op = *Op;
  if (!C.Tolerances.empty() && C.Op != CompareOp::EQ)
    return err(Line, "EXPECT: TOLERANCE only goes with EQ");
  for (++I; I < A.size(); ++I)
    C.Values.push_back(A[I].Text);
  if (C.Values.empty())
    return err(Line, "EXPECT: no values to compare with");
  Out.push_back(std::move(C));
  return Error::success();
}

Error Parser::parseRun(unsigned Line, std::vector<Token> A,
                       std::vector<Command> &Out) {
  if (!A.empty() && A[0].Text == "TIMED_EXECUTION")
    A.erase(A.begin()); // timing is not reported
  if (A.empty())
    return err(Line, "RUN needs a pipeline");
  Command C;
  C.Line = Line;
  C.Pipeline = A[0].Text;
  PipelineDecl *P = S.findPipeline(C.Pipeline);
  if (!P)
    return err(Line, "RUN: unknown pipeline '" + C.Pipeline + "'");
  if (A.size() >= 2 && A[1].Text == "DRAW_RECT") {
    // RUN P DRAW_RECT POS x y SIZE w h
    if (A.size() != 8 || A[2].Text != "POS" || A[5].Text != "SIZE")
      return err(Line, "RUN DRAW_RECT: expected POS x y SIZE w h");
    C.K = Command::DrawRect;
    for (unsigned J = 0; J < 4; ++J)
      if (!parseDouble(A[J < 2 ? 3 + J : 4 + J].Text, C.Nums[J]))
        return err(Line, "RUN DRAW_RECT: malformed number '" +
                             A[J < 2 ? 3 + J : 4 + J].Text + "'");
    if (P->IsCompute)
      return err(Line, "RUN DRAW_RECT on compute pipeline '" + C.Pipeline +
                           "'");
    Out.push_back(C);
    return Error::success();
  }
  if (A.size() >= 2 && A[1].Text == "DRAW_GRID") {
    // RUN P DRAW_GRID POS x y SIZE w h CELLS c r
    if (A.size() != 11 || A[2].Text != "POS" || A[5].Text != "SIZE" ||
        A[8].Text != "CELLS")
      return err(Line, "RUN DRAW_GRID: expected POS x y SIZE w h CELLS c r");
    C.K = Command::DrawGrid;
    for (unsigned J = 0; J < 4; ++J)
      if (!parseDouble(A[J < 2 ? 3 + J : 4 + J].Text, C.Nums[J]))
        return err(Line, "RUN DRAW_GRID: malformed number '" +
                             A[J < 2 ? 3 + J : 4 + J].Text + "'");
    for (unsigned J = 0; J < 2; ++J) {
      uint64_t N;
      if (!parseUnsigned(A[9 + J].Text, N) || N == 0 || N > 4096)
        return err(Line, "RUN DRAW_GRID: malformed cell count '" +
                             A[9 + J].Text + "'");
      C.Cells[J] = uint32_t(N);
    }
    if (uint64_t(C.Cells[0]) * C.Cells[1] > (1u << 20))
      return err(Line, "RUN DRAW_GRID: more than 2^20 cells");
    if (P->IsCompute)
      return err(Line, "RUN DRAW_GRID on compute pipeline '" + C.Pipeline +
                           "'");
    Out.push_back(C);
    return Error::success();
  }
  if (A.size() >= 2 && A[1].Text == "DRAW_ARRAY") {
    // RUN P DRAW_ARRAY AS topology [INDEXED] [START_IDX n] [COUNT n]
    //     [START_INSTANCE n] [INSTANCE_COUNT n]
    if (A.size() < 4 || A[2].Text != "AS")
      return err(Line, "RUN DRAW_ARRAY: expected AS topology");
    C.K = Command::DrawArray;
    if (isUnsupportedTopology(A[3].Text)) {
      unsupported(Line, "DRAW_ARRAY AS " + A[3].Text +
                            " (needs geometry or tessellation shaders)");
      return Error::success();
    }
    auto Topo = topologyByName(A[3].Text);
    if (!Topo)
      return err(Line, "RUN DRAW_ARRAY: unknown topology '" + A[3].Text + "'");
    C.Topology = topologyName(*Topo);
    for (size_t I = 4; I < A.size(); ++I) {
      StringRef K = A[I].Text;
      if (K == "INDEXED") {
        C.Indexed = true;
        continue;
      }
      uint64_t N;
      if (I + 1 >= A.size() || !parseUnsigned(A[I + 1].Text, N) ||
          N > (1u << 24))
        return err(Line, "RUN DRAW_ARRAY: " + K + " needs a number");
      ++I;
      if (K == "START_IDX")
        C.StartIdx = uint32_t(N);
      else if (K == "COUNT") {
        C.Count = uint32_t(N);
        C.CountGiven = true;
      } else if (K == "START_INSTANCE")
        C.StartInstance = uint32_t(N);
      else if (K == "INSTANCE_COUNT")
        C.InstanceCount = uint32_t(N);
      else
        return err(Line, "RUN DRAW_ARRAY: unexpected '" + K + "'");
    }
    if (P->IsCompute)
      return err(Line, "RUN DRAW_ARRAY on compute pipeline '" + C.Pipeline +
                           "'");
    if (uint64_t(C.Count) * C.InstanceCount > (1u << 24))
      return err(Line, "RUN DRAW_ARRAY: more than 2^24 vertices");
    Out.push_back(C);
    return Error::success();
  }
  if (A.size() != 4)
    return err(Line, "RUN: expected a pipeline and x y z workgroup counts");
  C.K = Command::Run;
  for (unsigned J = 0; J < 3; ++J) {
    uint64_t N;
    if (!parseUnsigned(A[1 + J].Text, N) || N == 0 || N > (1u << 20))
      return err(Line, "RUN: malformed workgroup count '" + A[1 + J].Text + "'");
    C.Nums[J] = double(N);
  }
  if (C.Nums[0] * C.Nums[1] * C.Nums[2] > double(1u << 24))
    return err(Line, "RUN: more than 2^24 workgroups");
  if (!P->IsCompute)
    return err(Line, "RUN x y z on graphics pipeline '" + C.Pipeline + "'");
  Out.push_back(C);
  return Error::success();
}

Error Parser::parseStruct(unsigned L, ArrayRef<Token> A) {
  // STRUCT name [STRIDE n] / type member [OFFSET n] ... / END
  if (A.empty())
    return err(L, "STRUCT needs a name");
  if (A.size() > 1) {
    unsupported(L, "STRUCT ... " + A[1].Text);
    return Error::success();
  }
  std::string Name = A[0].Text;
  if (Structs.count(Name))
    return err(L, "duplicate STRUCT '" + Name + "'");
  StructDef Def;
  while (true) {
    if (atEnd())
      return err(L, "STRUCT without END");
    unsigned ML = peek().Line;
    std::string Type = Toks[Pos++].Text;
    if (Type == "END")
      break;
    std::vector<Token> M = restOfLine(ML);
    if (M.empty())
      return err(ML, "STRUCT member needs a type and a name");
    StructDef::Member Mem;
    Mem.Type = Type;
    if (M.size() == 3 && M[1].Text == "OFFSET") {
      uint64_t Off;
      if (!parseUnsigned(M[2].Text, Off))
        return err(ML, "STRUCT: malformed OFFSET '" + M[2].Text + "'");
      Mem.Offset = uint32_t(Off);
    } else if (M.size() != 1) {
      unsupported(ML, "STRUCT member '" + M[1].Text + "'");
      return Error::success();
    }
    if (!Structs.count(Type)) {
      auto F = parseDataType(Type, false);
      if (!F)
        return err(ML, "STRUCT: " + toString(F.takeError()));
    }
    Def.Members.push_back(std::move(Mem));
  }
  Structs[Name] = std::move(Def);
  return Error::success();
}

Error Parser::parseCommand(std::vector<Command> &Out) {
  unsigned L = peek().Line;
  if (peek().Raw)
    return err(L, "unexpected shader text");
  std::string Cmd = Toks[Pos++].Text;
  if (Cmd == "SHADER")
    return parseShader(L);
  if (Cmd == "IMAGE")
    return parseImage(L);
  if (Cmd == "SAMPLER")
    return parseSampler(L);
  if (Cmd == "BUFFER")
    return parseBuffer(L);
  if (Cmd == "PIPELINE")
    return parsePipeline(L);
  if (Cmd == "DERIVE_PIPELINE")
    return parseDerivePipeline(L);
  std::vector<Token> A = restOfLine(L);
  if (Cmd == "RUN")
    return parseRun(L, std::move(A), Out);
  if (Cmd == "EXPECT")
    return parseExpect(L, std::move(A), Out);
  if (Cmd == "CLEAR_DEPTH") {
    Command C;
    C.Line = L;
    C.K = Command::ClearDepth;
    if (A.size() != 2 || !parseDouble(A[1].Text, C.Nums[0]))
      return err(L, "CLEAR_DEPTH needs a pipeline and a value");
    C.Pipeline = A[0].Text;
    if (!S.findPipeline(C.Pipeline))
      return err(L, "CLEAR_DEPTH: unknown pipeline '" + C.Pipeline + "'");
    Out.push_back(C);
    return Error::success();
  }
  if (Cmd == "CLEAR_STENCIL") {
    Command C;
    C.Line = L;
    C.K = Command::ClearStencil;
    uint64_t V;
    if (A.size() != 2 || !parseUnsigned(A[1].Text, V) || V > 255)
      return err(L, "CLEAR_STENCIL needs a pipeline and a value from 0 to 255");
    C.Nums[0] = double(V);
    C.Pipeline = A[0].Text;
    if (!S.findPipeline(C.Pipeline))
      return err(L, "CLEAR_STENCIL: unknown pipeline '" + C.Pipeline + "'");
    Out.push_back(C);
    return Error::success();
  }
  if (Cmd == "CLEAR" || Cmd == "CLEAR_COLOR") {
    Command C;
    C.Line = L;
    C.K = Cmd == "CLEAR" ? Command::Clear : Command::ClearColor;
    if (A.empty() || A.size() != (C.K == Command::Clear ? 1u : 5u))
      return err(L, Cmd + (C.K == Command::Clear ? " needs a pipeline"
                                                 : " needs a pipeline and r g b a"));
    C.Pipeline = A[0].Text;
    PipelineDecl *P = S.findPipeline(C.Pipeline);
    if (!P)
      return err(L, Cmd + ": unknown pipeline '" + C.Pipeline + "'");
    for (size_t J = 1; J < A.size(); ++J)
      if (!parseDouble(A[J].Text, C.Nums[J - 1]))
        return err(L, Cmd + ": malformed number '" + A[J].Text + "'");
    Out.push_back(C);
    return Error::success();
  }
  if (Cmd == "STRUCT")
    return parseStruct(L, A);
  if (Cmd == "COPY") {
    // COPY from TO to
    if (A.size() != 3 || A[1].Text != "TO")
      return err(L, "COPY: expected COPY buffer TO buffer");
    Command C;
    C.Line = L;
    C.K = Command::Copy;
    C.Buffer = A[0].Text;
    C.Other = A[2].Text;
    if (!S.findBuffer(C.Buffer) || !S.findBuffer(C.Other))
      return err(L, "COPY: unknown buffer");
    Out.push_back(C);
    return Error::success();
  }
  if (Cmd == "DEVICE_FEATURE") {
    if (A.size() != 1)
      return err(L, "DEVICE_FEATURE needs one name");
    if (!featureSupported(A[0].Text))
      unsupported(L, "DEVICE_FEATURE " + A[0].Text);
    S.DeviceFeatures.push_back(A[0].Text);
    return Error::success();
  }
  if (Cmd == "DEVICE_EXTENSION" || Cmd == "INSTANCE_EXTENSION") {
    if (A.size() != 1)
      return err(L, Cmd + " needs one name");
    if (Cmd == "DEVICE_EXTENSION" && !extensionSupported(A[0].Text))
      unsupported(L, "DEVICE_EXTENSION " + A[0].Text);
    if (Cmd == "DEVICE_EXTENSION")
      S.DeviceExtensions.push_back(A[0].Text);
    return Error::success();
  }
  if (Cmd == "VIRTUAL_FILE") {
    // VIRTUAL_FILE path, then the text up to END (a raw token).
    if (A.size() != 1)
      return err(L, "VIRTUAL_FILE needs one path");
    std::string Path = unquote(A[0].Text);
    if (Path.empty())
      return err(L, "VIRTUAL_FILE: empty path");
    for (const auto &F : S.VirtualFiles)
      if (F.first == Path)
        return err(L, "VIRTUAL_FILE: duplicate path '" + Path + "'");
    if (atEnd() || !peek().Raw)
      return err(L, "VIRTUAL_FILE without a body");
    std::string Text = Toks[Pos++].Text;
    if (atEnd() || peek().Text != "END")
      return err(L, "VIRTUAL_FILE without END");
    ++Pos;
    S.VirtualFiles.emplace_back(std::move(Path), std::move(Text));
    return Error::success();
  }
  if (Cmd == "SET") {
    // SET ENGINE_DATA fence_timeout_ms N
    if (A.empty() || A[0].Text != "ENGINE_DATA")
      return err(L, "SET: expected ENGINE_DATA");
    return Error::success();
  }
  if (Cmd == "SHADER_OPTIMIZATION") {
    // A block of spirv-opt pass names up to END; ignored.
    while (!atEnd() && peek().Text != "END")
      ++Pos;
    if (atEnd())
      return err(L, "SHADER_OPTIMIZATION without END");
    ++Pos;
    return Error::success();
  }
  if (Cmd == "REPEAT") {
    uint64_t N;
    if (A.size() != 1 || !parseUnsigned(A[0].Text, N) || N > 100000)
      return err(L, "REPEAT needs a count");
    std::vector<Command> Body;
    while (true) {
      if (atEnd())
        return err(L, "REPEAT without END");
      if (peek().Text == "END") {
        ++Pos;
        break;
      }
      if (Error E = parseCommand(Body))
        return E;
      if (S.Unsupported)
        return Error::success();
    }
    // Nested REPEATs multiply: bound the unrolled command list.
    if (Out.size() + N * Body.size() > (1u << 20))
      return err(L, "REPEAT: more than 2^20 commands");
    for (uint64_t K = 0; K < N; ++K)
      Out.insert(Out.end(), Body.begin(), Body.end());
    return Error::success();
  }
  if (UnsupportedCommands.count(Cmd)) {
    unsupported(L, Cmd);
    return Error::success();
  }
  return err(L, "unknown command '" + Cmd + "'");
}

Expected<Script> Parser::parse() {
  while (!atEnd() && !S.Unsupported)
    if (Error E = parseCommand(S.Commands))
      return E;
  if (!S.Unsupported)
    S.Unsupported = Deferred;
  return std::move(S);
}

} // namespace detail

Expected<Script> parseScript(StringRef Text, StringRef BaseDir) {
  auto Toks = tokenize(Text);
  if (!Toks)
    return Toks.takeError();
  Parser P(std::move(*Toks), BaseDir);
  return P.parse();
}

} // namespace spirv2llvm::amber
