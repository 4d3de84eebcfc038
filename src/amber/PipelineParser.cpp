//===- PipelineParser.cpp - PIPELINE and DERIVE_PIPELINE blocks -----------===//
//
// ATTACH (entry point, specialization), BIND, VERTEX_DATA, INDEX_DATA,
// FRAMEBUFFER_SIZE, VIEWPORT, BLEND and SUBGROUP; a later BIND of the same
// slot replaces the earlier one, which is what DERIVE_PIPELINE relies on.
// Each command has its own function, found by name in parsePipelineCommand's
// table; the commands of one value are a table of setters.
//
//===----------------------------------------------------------------------===//
#include "amber/GraphicsNames.h"
#include "amber/ParserImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <set>

using namespace llvm;

namespace spirv2llvm::amber::detail {

namespace {

const std::set<std::string> UnsupportedPipelineCommands = {
    "SET", "COMPILE_OPTIONS", "PATCH_CONTROL_POINTS"};

std::optional<bool> onOff(StringRef V) {
  if (V == "on")
    return true;
  if (V == "off")
    return false;
  return std::nullopt;
}

} // namespace

Error Parser::parseShaderOptimization(unsigned Line, StringRef,
                                     ArrayRef<Token> Args, PipelineDecl &P) {
  // SHADER_OPTIMIZATION shader / flag... / END: the shader must be attached
  // already (Amber's rule); the flags are spirv-opt's, checked when the
  // shader is translated (an unknown one FAILs there, naming it).
  if (Args.size() != 1)
    return err(Line, "SHADER_OPTIMIZATION takes one shader name");
  auto At = find_if(P.Attached, [&](const AttachDecl &A) {
    return A.Shader == Args[0].Text;
  });
  if (At == P.Attached.end())
    return err(Line, "SHADER_OPTIMIZATION: shader '" + Args[0].Text +
                         "' is not attached to the pipeline");
  while (true) {
    if (atEnd())
      return err(Line, "SHADER_OPTIMIZATION without END");
    std::string Flag = Toks[Pos++].Text;
    if (Flag == "END")
      return Error::success();
    At->Optimizations.push_back(std::move(Flag));
  }
}

Error Parser::parseMultisample(unsigned Line, StringRef, ArrayRef<Token> Args,
                               PipelineDecl &P) {
  // MULTISAMPLE / SAMPLE_SHADING f|off / SAMPLE_MASK m / ALPHA_TO_COVERAGE
  // on|off / ALPHA_TO_ONE on|off / END (the sample count is the
  // attachments').
  if (!Args.empty())
    return err(Line, "MULTISAMPLE: unexpected '" + Args[0].Text + "'");
  MultisampleState &M = P.State.Multisample;
  while (true) {
    if (atEnd())
      return err(Line, "MULTISAMPLE without END");
    unsigned L = peek().Line;
    std::string K = Toks[Pos++].Text;
    if (K == "END")
      return Error::success();
    std::vector<Token> V = restOfLine(L);
    if (V.size() != 1)
      return err(L, "MULTISAMPLE " + K + " takes one value");
    StringRef V0 = V[0].Text;
    if (K == "SAMPLE_SHADING") {
      double F = 0;
      if (V0 != "off" && (!parseDouble(V0, F) || F < 0 || F > 1))
        return err(L, "MULTISAMPLE SAMPLE_SHADING: expected a fraction from 0 "
                      "to 1 or off, got '" + V0 + "'");
      M.SampleShadingEnable = V0 != "off";
      M.MinSampleShading = float(F);
    } else if (K == "SAMPLE_MASK") {
      uint64_t N;
      if (!parseUnsigned(V0, N) || N > UINT32_MAX)
        return err(L, "MULTISAMPLE SAMPLE_MASK: expected a 32-bit mask, got '" +
                          V0 + "'");
      M.SampleMask = uint32_t(N);
    } else if (K == "ALPHA_TO_COVERAGE" || K == "ALPHA_TO_ONE") {
      auto On = onOff(V0);
      if (!On)
        return err(L, "MULTISAMPLE " + K + " takes on or off");
      (K == "ALPHA_TO_COVERAGE" ? M.AlphaToCoverageEnable
                                : M.AlphaToOneEnable) = *On;
    } else {
      return err(L, "MULTISAMPLE: unexpected '" + K + "'");
    }
  }
}

Error Parser::parseStateBlock(unsigned Line, StringRef Cmd,
                              ArrayRef<Token> Args, PipelineDecl &P) {
  GraphicsStateDecl &St = P.State;
  // STENCIL front|back|front_and_back: the faces the block sets.
  std::vector<StencilOpState *> Faces;
  DepthStencilState &DS = St.DepthStencil;
  if (Cmd == "STENCIL") {
    StringRef F = Args.empty() ? "" : StringRef(Args[0].Text);
    if (Args.size() != 1 ||
        (F != "front" && F != "back" && F != "front_and_back"))
      return err(Line, "STENCIL: expected front, back or front_and_back");
    if (F != "back")
      Faces.push_back(&DS.Front);
    if (F != "front")
      Faces.push_back(&DS.Back);
  } else if (!Args.empty()) {
    return err(Line, Cmd + ": unexpected '" + Args[0].Text + "'");
  }
  if (Cmd == "BLEND")
    St.Blend.BlendEnable = true;
  while (true) {
    if (atEnd())
      return err(Line, Cmd + " without END");
    unsigned L = peek().Line;
    std::string K = Toks[Pos++].Text;
    if (K == "END")
      break;
    std::vector<Token> V = restOfLine(L);
    auto Bad = [&](const Twine &What) {
      return err(L, Cmd + " " + K + ": " + What);
    };
    if (V.empty())
      return Bad("needs a value");
    StringRef V0 = V[0].Text;
    // TEST / WRITE / CLAMP on|off
    if ((Cmd == "DEPTH" && (K == "TEST" || K == "WRITE" || K == "CLAMP")) ||
        (Cmd == "STENCIL" && K == "TEST")) {
      auto On = onOff(V0);
      if (!On || V.size() != 1)
        return Bad("takes on or off");
      bool &Field = Cmd == "STENCIL" ? DS.StencilTestEnable
                    : K == "TEST"    ? DS.DepthTestEnable
                    : K == "WRITE"   ? DS.DepthWriteEnable
                                     : St.Raster.DepthClampEnable;
      Field = *On;
      continue;
    }
    if (K == "COMPARE_OP" && Cmd != "BLEND") {
      auto Op = compareOpByName(V0);
      if (!Op || V.size() != 1)
        return Bad("unknown compare operation '" + V0 + "'");
      if (Cmd == "DEPTH")
        DS.DepthCompare = *Op;
      for (StencilOpState *F : Faces)
        F->Compare = *Op;
      continue;
    }
    if (Cmd == "DEPTH" && K == "BOUNDS") {
      // BOUNDS min a max b. Amber has no separate enable: bounds given
      // turn the depth bounds test on (0..1 passes every stored depth).
      double Lo, Hi;
      if (V.size() != 4 || V[0].Text != "min" || V[2].Text != "max" ||
          !parseDouble(V[1].Text, Lo) || !parseDouble(V[3].Text, Hi))
        return Bad("expected min A max B");
      DS.DepthBoundsTestEnable = true;
      DS.MinDepthBounds = float(Lo);
      DS.MaxDepthBounds = float(Hi);
      continue;
    }
    if (Cmd == "DEPTH" && K == "BIAS") {
      // BIAS constant c clamp c slope s: depth bias on with these factors.
      double C, Cl, Sl;
      if (V.size() != 6 || V[0].Text != "constant" || V[2].Text != "clamp" ||
          V[4].Text != "slope" || !parseDouble(V[1].Text, C) ||
          !parseDouble(V[3].Text, Cl) || !parseDouble(V[5].Text, Sl))
        return Bad("expected constant C clamp C slope S");
      RasterizationState &R = St.Raster;
      R.DepthBiasEnable = true;
      R.DepthBiasConstantFactor = float(C);
      R.DepthBiasClamp = float(Cl);
      R.DepthBiasSlopeFactor = float(Sl);
      continue;
    }
    if (Cmd == "STENCIL" &&
        (K == "FAIL_OP" || K == "PASS_OP" || K == "DEPTH_FAIL_OP")) {
      auto Op = stencilOpByName(V0);
      if (!Op || V.size() != 1)
        return Bad("unknown stencil operation '" + V0 + "'");
      for (StencilOpState *F : Faces)
        (K == "FAIL_OP" ? F->FailOp
         : K == "PASS_OP" ? F->PassOp
                          : F->DepthFailOp) = *Op;
      continue;
    }
    if (Cmd == "STENCIL" &&
        (K == "COMPARE_MASK" || K == "WRITE_MASK" || K == "REFERENCE")) {
      uint64_t N;
      if (V.size() != 1 || !parseUnsigned(V0, N) || N > 255)
        return Bad("expected an integer from 0 to 255, got '" + V0 + "'");
      for (StencilOpState *F : Faces)
        (K == "COMPARE_MASK" ? F->CompareMask
         : K == "WRITE_MASK" ? F->WriteMask
                             : F->Reference) = uint32_t(N);
      continue;
    }
    if (Cmd == "BLEND" && (K == "SRC_COLOR_FACTOR" || K == "DST_COLOR_FACTOR" ||
                           K == "SRC_ALPHA_FACTOR" || K == "DST_ALPHA_FACTOR")) {
      auto F = blendFactorByName(V0);
      if (!F || V.size() != 1)
        return Bad("unknown blend factor '" + V0 + "'");
      ColorBlendAttachment &B = St.Blend;
      (K == "SRC_COLOR_FACTOR"   ? B.SrcColor
       : K == "DST_COLOR_FACTOR" ? B.DstColor
       : K == "SRC_ALPHA_FACTOR" ? B.SrcAlpha
                                 : B.DstAlpha) = *F;
      continue;
    }
    if (Cmd == "BLEND" && (K == "COLOR_OP" || K == "ALPHA_OP")) {
      auto Op = blendOpByName(V0);
      if (!Op && isAdvancedBlendOp(V0)) {
        unsupported(L, "BLEND " + K + " " + V0 +
                           " (VK_EXT_blend_operation_advanced)");
        return Error::success();
      }
      if (!Op || V.size() != 1)
        return Bad("unknown blend operation '" + V0 + "'");
      (K == "COLOR_OP" ? St.Blend.ColorOp : St.Blend.AlphaOp) = *Op;
      continue;
    }
    return err(L, Cmd + ": unexpected '" + K + "'");
  }
  return Error::success();
}

Error Parser::parsePipeline(unsigned Line) {
  std::vector<Token> A = restOfLine(Line);
  if (A.size() != 2)
    return err(Line, "PIPELINE needs a type and a name");
  PipelineDecl P;
  P.Line = Line;
  P.Name = A[1].Text;
  if (A[0].Text == "compute")
    P.IsCompute = true;
  else if (A[0].Text == "graphics")
    P.IsCompute = false;
  else if (A[0].Text == "raytracing") {
    unsupported(Line, "raytracing pipelines");
    return Error::success();
  } else
    return err(Line, "unknown pipeline type '" + A[0].Text + "'");
  if (S.findPipeline(P.Name))
    return err(Line, "duplicate pipeline name '" + P.Name + "'");
  return parsePipelineBody(Line, std::move(P));
}

Error Parser::parseDerivePipeline(unsigned Line) {
  // DERIVE_PIPELINE new FROM old: a copy of old, then its own block.
  std::vector<Token> A = restOfLine(Line);
  if (A.size() != 3 || A[1].Text != "FROM")
    return err(Line, "DERIVE_PIPELINE: expected NAME FROM PIPELINE");
  PipelineDecl *From = S.findPipeline(A[2].Text);
  if (!From)
    return err(Line, "DERIVE_PIPELINE: unknown pipeline '" + A[2].Text + "'");
  if (S.findPipeline(A[0].Text))
    return err(Line, "duplicate pipeline name '" + A[0].Text + "'");
  PipelineDecl P = *From;
  P.Name = A[0].Text;
  P.Line = Line;
  return parsePipelineBody(Line, std::move(P));
}

/// Whether two bindings name the same slot (a later BIND replaces).
static bool sameSlot(const BindDecl &A, const BindDecl &B) {
  if (A.Kind == BindKind::Resolve || B.Kind == BindKind::Resolve)
    return A.Kind == B.Kind && A.Buffer == B.Buffer;
  if ((A.Kind == BindKind::Color) != (B.Kind == BindKind::Color) ||
      (A.Kind == BindKind::PushConstant) != (B.Kind == BindKind::PushConstant) ||
      (A.Kind == BindKind::DepthStencil) != (B.Kind == BindKind::DepthStencil))
    return false;
  if (A.Kind == BindKind::DepthStencil)
    return true;
  if (A.Kind == BindKind::Color)
    return A.Location == B.Location;
  if (A.Kind == BindKind::PushConstant)
    return true;
  return A.Set == B.Set && A.Binding == B.Binding;
}

Error Parser::parsePipelineBody(unsigned Line, PipelineDecl P) {
  while (true) {
    if (atEnd())
      return err(Line, "PIPELINE without END");
    unsigned L = peek().Line;
    std::string Cmd = Toks[Pos++].Text;
    std::vector<Token> Args = restOfLine(L);
    if (Cmd == "END")
      break;
    if (Error E = parsePipelineCommand(L, Cmd, Args, P))
      return E;
    // An unsupported feature ends the script's parsing (it SKIPs); the
    // pipeline is dropped with it.
    if (S.Unsupported)
      return Error::success();
  }
  S.Pipelines.push_back(std::move(P));
  return Error::success();
}

namespace {

/// Sets a one-value PIPELINE command's value \p V in \p P; the message of
/// the error (the caller adds the line) says what is wrong.
using SetValueFn = Error (*)(StringRef V, PipelineDecl &P);

Error setPolygonMode(StringRef V, PipelineDecl &P) {
  auto M = polygonModeByName(V);
  if (!M)
    return makeError("POLYGON_MODE: expected fill, line or point, got '" + V +
                     "'");
  P.State.Raster.Polygon = *M;
  return Error::success();
}

Error setCullMode(StringRef V, PipelineDecl &P) {
  auto M = cullModeByName(V);
  if (!M)
    return makeError("CULL_MODE: expected none, front, back or "
                     "front_and_back, got '" +
                     V + "'");
  P.State.Raster.Cull = *M;
  return Error::success();
}

Error setFrontFace(StringRef V, PipelineDecl &P) {
  auto F = frontFaceByName(V);
  if (!F)
    return makeError("FRONT_FACE: expected counter_clockwise or "
                     "clockwise, got '" +
                     V + "'");
  P.State.Raster.Front = *F;
  return Error::success();
}

Error setLineWidth(StringRef V, PipelineDecl &P) {
  double W;
  if (!parseDouble(V, W) || !(W > 0))
    return makeError("LINE_WIDTH: expected a positive number, got '" + V + "'");
  P.State.Raster.LineWidth = float(W);
  return Error::success();
}

Error setPrimitiveRestart(StringRef V, PipelineDecl &P) {
  auto On = onOff(V);
  if (!On)
    return makeError("PRIMITIVE_RESTART takes on or off, got '" + V + "'");
  P.State.PrimitiveRestart = *On;
  return Error::success();
}

Error setLogicOp(StringRef V, PipelineDecl &P) {
  // LOGIC_OP op turns the logic op on, LOGIC_OP off turns it off.
  auto Op = logicOpByName(V);
  if (!Op && V != "off")
    return makeError("LOGIC_OP: unknown logic operation '" + V + "'");
  P.State.LogicOpEnable = Op.has_value();
  P.State.Logic = Op.value_or(LogicOp::Copy);
  return Error::success();
}

Error setColorWriteMask(StringRef V, PipelineDecl &P) {
  // Letters of the components written (RGBA, RG, ...), or none.
  uint32_t Mask = 0;
  bool Ok = !V.empty();
  if (V != "none")
    for (char C : V) {
      size_t At = StringRef("RGBA").find(C);
      Ok &= At != StringRef::npos && !(Mask & (1u << At));
      if (At != StringRef::npos)
        Mask |= 1u << At;
    }
  if (!Ok)
    return makeError("COLOR_WRITE_MASK: expected letters of RGBA or none, "
                     "got '" +
                     V + "'");
  P.State.Blend.WriteMask = Mask;
  return Error::success();
}

Error setRasterizerDiscard(StringRef V, PipelineDecl &P) {
  auto On = onOff(V);
  if (!On)
    return makeError("RASTERIZER_DISCARD takes on or off, got '" + V + "'");
  P.State.Raster.RasterizerDiscardEnable = *On;
  return Error::success();
}

Error setLineRasterization(StringRef V, PipelineDecl &P) {
  auto M = lineRasterizationByName(V);
  if (!M)
    return makeError("LINE_RASTERIZATION: expected default, rectangular, "
                     "bresenham or rectangular_smooth, got '" +
                     V + "'");
  P.State.Raster.LineMode = *M;
  return Error::success();
}

Error setProvokingVertex(StringRef V, PipelineDecl &P) {
  if (V != "first" && V != "last")
    return makeError("PROVOKING_VERTEX: expected first or last, got '" + V +
                     "'");
  P.State.Raster.ProvokingVertexFirst = V == "first";
  return Error::success();
}

/// The PIPELINE commands that take exactly one value.
const std::pair<StringLiteral, SetValueFn> OneValueCommands[] = {
    {"POLYGON_MODE", setPolygonMode},
    {"CULL_MODE", setCullMode},
    {"FRONT_FACE", setFrontFace},
    {"LINE_WIDTH", setLineWidth},
    {"PRIMITIVE_RESTART", setPrimitiveRestart},
    {"LOGIC_OP", setLogicOp},
    {"COLOR_WRITE_MASK", setColorWriteMask},
    {"RASTERIZER_DISCARD", setRasterizerDiscard},
    {"LINE_RASTERIZATION", setLineRasterization},
    {"PROVOKING_VERTEX", setProvokingVertex},
};

} // namespace

Error Parser::parsePipelineCommand(unsigned Line, StringRef Cmd,
                                   ArrayRef<Token> Args, PipelineDecl &P) {
  // The commands of more than one value, with the number of arguments
  // below which they are missing (0: the parser checks).
  struct SubCommand {
    StringLiteral Name;
    size_t MinArgs;
    PipelineCommandFn Parse;
  };
  static const SubCommand SubCommands[] = {
      {"ATTACH", 1, &Parser::parseAttach},
      {"BIND", 3, &Parser::parseBind},
      {"VERTEX_DATA", 3, &Parser::parseVertexData},
      {"INDEX_DATA", 0, &Parser::parseIndexData},
      {"VIEWPORT", 0, &Parser::parseViewport},
      {"DEPTH", 0, &Parser::parseStateBlock},
      {"STENCIL", 0, &Parser::parseStateBlock},
      {"BLEND", 0, &Parser::parseStateBlock},
      {"FRAMEBUFFER_SIZE", 0, &Parser::parseFramebufferSize},
      {"SUBGROUP", 0, &Parser::parseSubgroup},
      {"MULTISAMPLE", 0, &Parser::parseMultisample},
      {"SHADER_OPTIMIZATION", 1, &Parser::parseShaderOptimization},
      {"BLEND_CONSTANTS", 0, &Parser::parseBlendConstantsOrScissor},
      {"SCISSOR", 0, &Parser::parseBlendConstantsOrScissor},
  };
  for (const SubCommand &C : SubCommands) {
    if (C.Name != Cmd)
      continue;
    if (Args.size() < C.MinArgs)
      return err(Line, Cmd + ": missing arguments");
    return (this->*C.Parse)(Line, Cmd, Args, P);
  }
  for (const auto &[Name, Set] : OneValueCommands) {
    if (Name != Cmd)
      continue;
    if (Args.size() != 1)
      return err(Line, Cmd + " takes one value");
    if (Error E = Set(Args[0].Text, P))
      return err(Line, toString(std::move(E)));
    return Error::success();
  }
  if (UnsupportedPipelineCommands.count(Cmd.str())) {
    unsupported(Line, "pipeline command " + Cmd);
    return Error::success();
  }
  return err(Line, "unknown pipeline command '" + Cmd + "'");
}

Error Parser::parseAttach(unsigned Line, StringRef, ArrayRef<Token> Args,
                          PipelineDecl &P) {
  // ATTACH shader [ENTRY_POINT name] [TYPE stage]
  //        [SPECIALIZE id AS type value]...
  AttachDecl At;
  At.Shader = Args[0].Text;
  ShaderDecl *Sh = S.findShader(At.Shader);
  if (!Sh)
    return err(Line, "ATTACH: unknown shader '" + At.Shader + "'");
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef K = Args[I].Text;
    if (K == "ENTRY_POINT" && I + 1 < Args.size()) {
      At.EntryPoint = Args[++I].Text;
    } else if (K == "TYPE" && I + 1 < Args.size()) {
      ++I; // the stage of a multi-stage module; checked at run time
    } else if (K == "SPECIALIZE" && I + 4 < Args.size() + 1 &&
               I + 3 < Args.size() && Args[I + 2].Text == "AS") {
      if (Error E = parseSpecialization(Line, Args, I, At))
        return E;
      I += 4;
    } else {
      return err(Line, "ATTACH: unexpected '" + K + "'");
    }
  }
  P.Attached.push_back(std::move(At));
  return Error::success();
}

Error Parser::parseSpecialization(unsigned Line, ArrayRef<Token> Args, size_t I,
                                  AttachDecl &At) {
  uint64_t Id;
  if (!parseUnsigned(Args[I + 1].Text, Id))
    return err(Line, "SPECIALIZE: malformed id '" + Args[I + 1].Text + "'");
  StringRef Type = Args[I + 3].Text;
  if (I + 4 >= Args.size())
    return err(Line, "SPECIALIZE: missing value");
  std::string V = Args[I + 4].Text;
  auto F = parseDataType(Type, false);
  if (!F || F->Components.size() != 1) {
    if (!F)
      consumeError(F.takeError());
    return err(Line, "SPECIALIZE: unsupported type '" + Type + "'");
  }
  // spirv-opt takes the value as text of the constant's type; normalize
  // what Amber accepts (hex, floats for ints).
  std::vector<uint8_t> Bytes(8);
  if (Error E = writeComponent(F->Components[0], V, Bytes.data()))
    return err(Line, "SPECIALIZE: " + toString(std::move(E)));
  const Component &C = F->Components[0];
  if (C.Kind == NumKind::Float)
    V = formatv("{0:e17}", readComponent(C, Bytes.data())).str();
  else if (C.Kind == NumKind::Int)
    V = std::to_string(readComponentInt(C, Bytes.data()));
  else
    V = std::to_string(readComponentUInt(C, Bytes.data()));
  At.Spec.emplace_back(uint32_t(Id), V);
  return Error::success();
}

Error Parser::parseBind(unsigned Line, StringRef, ArrayRef<Token> Args,
                        PipelineDecl &P) {
  if (Args[0].Text == "SAMPLER" || Args[0].Text == "SAMPLER_ARRAY")
    return parseBindSampler(Line, Args, P);
  if (Args[0].Text != "BUFFER" && Args[0].Text != "BUFFER_ARRAY") {
    unsupported(Line, "BIND " + Args[0].Text);
    return Error::success();
  }
  return parseBindBuffer(Line, Args, P);
}

Error Parser::parseBindSampler(unsigned Line, ArrayRef<Token> Args,
                               PipelineDecl &P) {
  // BIND SAMPLER[_ARRAY] s... DESCRIPTOR_SET n BINDING n
  BindDecl Bd;
  Bd.Kind = BindKind::Sampler;
  size_t I = 1;
  for (; I < Args.size() && Args[I].Text != "DESCRIPTOR_SET" &&
         Args[I].Text != "BINDING" && Args[I].Text != "KERNEL";
       ++I) {
    if (!S.findSampler(Args[I].Text))
      return err(Line, "BIND: unknown sampler '" + Args[I].Text + "'");
    Bd.Samplers.push_back(Args[I].Text);
  }
  if (Bd.Samplers.empty() ||
      (Args[0].Text == "SAMPLER" && Bd.Samplers.size() != 1))
    return err(Line, "BIND " + Args[0].Text + ": expected sampler name" +
                         (Args[0].Text == "SAMPLER" ? "" : "s"));
  if (I < Args.size() && Args[I].Text == "KERNEL") {
    unsupported(Line, "BIND SAMPLER ... KERNEL (OpenCL kernel arguments)");
    return Error::success();
  }
  for (; I < Args.size(); I += 2) {
    uint64_t N;
    if (I + 1 >= Args.size() || !parseUnsigned(Args[I + 1].Text, N) ||
        N > UINT32_MAX)
      return err(Line, "BIND: " + Args[I].Text + " needs a number");
    if (Args[I].Text == "DESCRIPTOR_SET")
      Bd.Set = uint32_t(N);
    else if (Args[I].Text == "BINDING")
      Bd.Binding = uint32_t(N);
    else
      return err(Line, "BIND: unexpected '" + Args[I].Text + "'");
  }
  llvm::erase_if(P.Binds, [&](const BindDecl &O) { return sameSlot(O, Bd); });
  P.Binds.push_back(std::move(Bd));
  return Error::success();
}

Error Parser::parseBindBuffer(unsigned Line, ArrayRef<Token> Args,
                              PipelineDecl &P) {
  // BIND BUFFER b | BUFFER_ARRAY b0 b1 ... AS kind [options]
  BindDecl Bd;
  Bd.Buffer = Args[1].Text;
  if (!S.findBuffer(Bd.Buffer))
    return err(Line, "BIND: unknown buffer '" + Bd.Buffer + "'");
  size_t I = 2;
  if (Args[0].Text == "BUFFER_ARRAY") {
    // BIND BUFFER_ARRAY b0 b1 ... AS kind: one descriptor per buffer.
    Bd.Array.push_back(Bd.Buffer);
    for (; I < Args.size() && Args[I].Text != "AS"; ++I) {
      if (!S.findBuffer(Args[I].Text))
        return err(Line, "BIND: unknown buffer '" + Args[I].Text + "'");
      Bd.Array.push_back(Args[I].Text);
    }
    if (I >= Args.size())
      return err(Line, "BIND BUFFER_ARRAY: missing AS");
  }
  size_t Elems = std::max<size_t>(Bd.Array.size(), 1);
  Bd.Offsets.assign(Elems, 0);
  Bd.Ranges.assign(Elems, 0);
  if (Args[I].Text != "AS") {
    unsupported(Line, "BIND BUFFER without AS (OpenCL kernel arguments)");
    return Error::success();
  }
  if (I + 1 >= Args.size())
    return err(Line, "BIND: missing buffer type");
  StringRef Kind = Args[I + 1].Text;
  I += 2;
  // Dynamic buffers are plain ones to a shader; OFFSET moves the
  // descriptor like DESCRIPTOR_OFFSET.
  bool Dynamic = Kind.consume_back("_dynamic");
  if (Dynamic && Kind != "storage" && Kind != "uniform")
    return err(Line, "BIND: unknown buffer type '" + Kind + "_dynamic'");
  if (Error E = parseBindKind(Line, Kind, Args, I, Bd))
    return E;
  if (S.Unsupported)
    return Error::success();
  if (!Bd.Array.empty() &&
      (Bd.Kind == BindKind::PushConstant || Bd.Kind == BindKind::Color ||
       Bd.Kind == BindKind::DepthStencil))
    return err(Line, "BIND BUFFER_ARRAY: not for push constants and "
                     "attachments");
  if (Error E = parseBindOptions(Line, Args, I, Dynamic, Bd))
    return E;
  llvm::erase_if(P.Binds, [&](const BindDecl &O) { return sameSlot(O, Bd); });
  P.Binds.push_back(std::move(Bd));
  return Error::success();
}

Error Parser::parseBindKind(unsigned Line, StringRef Kind, ArrayRef<Token> Args,
                            size_t &I, BindDecl &Bd) {
  if (Kind == "storage")
    Bd.Kind = BindKind::Storage;
  else if (Kind == "uniform")
    Bd.Kind = BindKind::Uniform;
  else if (Kind == "push_constant")
    Bd.Kind = BindKind::PushConstant;
  else if (Kind == "color")
    Bd.Kind = BindKind::Color;
  else if (Kind == "resolve")
    Bd.Kind = BindKind::Resolve;
  else if (Kind == "depth_stencil") {
    Bd.Kind = BindKind::DepthStencil;
    const BufferFormat &F = S.findBuffer(Bd.Buffer)->Format;
    if (!F.channel('D') && !F.channel('S'))
      unsupported(Line, "depth/stencil format " +
                            S.findBuffer(Bd.Buffer)->Format.Name);
  } else if (auto IK =
                 StringSwitch<std::optional<BindKind>>(Kind)
                     .Case("storage_image", BindKind::StorageImage)
                     .Case("sampled_image", BindKind::SampledImage)
                     .Case("combined_image_sampler",
                           BindKind::CombinedImageSampler)
                     .Case("uniform_texel_buffer", BindKind::UniformTexelBuffer)
                     .Case("storage_texel_buffer", BindKind::StorageTexelBuffer)
                     .Default(std::nullopt)) {
    Bd.Kind = *IK;
    if (*IK == BindKind::CombinedImageSampler) {
      // ... AS combined_image_sampler SAMPLER s
      if (I + 1 >= Args.size() || Args[I].Text != "SAMPLER")
        return err(Line, "BIND: combined_image_sampler needs SAMPLER name");
      if (!S.findSampler(Args[I + 1].Text))
        return err(Line, "BIND: unknown sampler '" + Args[I + 1].Text + "'");
      Bd.Samplers.push_back(Args[I + 1].Text);
      I += 2;
    }
  } else {
    unsupported(Line, "BIND BUFFER AS " + Kind);
  }
  return Error::success();
}

Error Parser::parseBindOptions(unsigned Line, ArrayRef<Token> Args, size_t I,
                               bool Dynamic, BindDecl &Bd) {
  size_t Elems = std::max<size_t>(Bd.Array.size(), 1);
  for (; I < Args.size(); ++I) {
    StringRef K = Args[I].Text;
    uint64_t N;
    if (K == "OFFSET" || K == "DESCRIPTOR_OFFSET" || K == "DESCRIPTOR_RANGE") {
      // One value per descriptor (array element).
      if (K == "OFFSET" && !Dynamic)
        return err(Line, "BIND: OFFSET is for a dynamic buffer");
      if (Bd.Kind != BindKind::Storage && Bd.Kind != BindKind::Uniform)
        return err(Line, "BIND: " + K + " is for storage and uniform buffers");
      for (size_t E = 0; E < Elems; ++E) {
        if (I + 1 + E >= Args.size() ||
            !parseUnsigned(Args[I + 1 + E].Text, N) || N > (1ull << 32))
          return err(Line,
                     "BIND: " + K + " needs " + Twine(Elems) + " number(s)");
        if (K == "DESCRIPTOR_RANGE")
          Bd.Ranges[E] = N;
        else
          Bd.Offsets[E] += N;
      }
      I += Elems;
      continue;
    }
    if (I + 1 >= Args.size())
      return err(Line, "BIND: " + K + " needs a value");
    if (!parseUnsigned(Args[I + 1].Text, N))
      return err(Line, "BIND: malformed number '" + Args[I + 1].Text + "'");
    if (K == "DESCRIPTOR_SET")
      Bd.Set = uint32_t(N);
    else if (K == "BINDING")
      Bd.Binding = uint32_t(N);
    else if (K == "LOCATION")
      Bd.Location = uint32_t(N);
    else if (K == "BASE_MIP_LEVEL")
      Bd.BaseMipLevel = uint32_t(std::min<uint64_t>(N, UINT32_MAX));
    else
      return err(Line, "BIND: unexpected '" + K + "'");
    ++I;
  }
  return Error::success();
}

Error Parser::parseVertexData(unsigned Line, StringRef, ArrayRef<Token> Args,
                              PipelineDecl &P) {
  // VERTEX_DATA buffer LOCATION n [OFFSET n] [STRIDE n] [RATE r]
  //             [DIVISOR n] [FORMAT f]
  VertexDataDecl V;
  V.Buffer = Args[0].Text;
  if (!S.findBuffer(V.Buffer))
    return err(Line, "VERTEX_DATA: unknown buffer '" + V.Buffer + "'");
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef K = Args[I].Text;
    if (I + 1 >= Args.size())
      return err(Line, "VERTEX_DATA: " + K + " needs a value");
    StringRef Val = Args[++I].Text;
    uint64_t N = 0;
    bool IsNum = parseUnsigned(Val, N);
    if (K == "LOCATION" && IsNum)
      V.Location = uint32_t(N);
    else if (K == "OFFSET" && IsNum)
      V.Offset = uint32_t(N);
    else if (K == "STRIDE" && IsNum)
      V.Stride = uint32_t(N);
    else if (K == "DIVISOR" && IsNum && N <= UINT32_MAX)
      V.Divisor = uint32_t(N);
    else if (K == "RATE" && (Val == "vertex" || Val == "instance"))
      V.PerInstance = Val == "instance";
    else if (K == "FORMAT") {
      auto F = parseDataType(Val, false);
      if (!F)
        return err(Line, "VERTEX_DATA: " + toString(F.takeError()));
      V.Format = std::move(*F);
    } else
      return err(Line, "VERTEX_DATA: unexpected '" + K + " " + Val + "'");
  }
  llvm::erase_if(P.VertexData, [&](const VertexDataDecl &O) {
    return O.Location == V.Location;
  });
  P.VertexData.push_back(std::move(V));
  return Error::success();
}

Error Parser::parseIndexData(unsigned Line, StringRef, ArrayRef<Token> Args,
                             PipelineDecl &P) {
  if (Args.size() != 1 || !S.findBuffer(Args[0].Text))
    return err(Line, "INDEX_DATA needs a buffer");
  P.IndexData = Args[0].Text;
  return Error::success();
}

Error Parser::parseViewport(unsigned Line, StringRef, ArrayRef<Token> Args,
                            PipelineDecl &P) {
  // VIEWPORT x y SIZE w h [MIN_DEPTH d] [MAX_DEPTH d]
  std::array<double, 4> V;
  if (Args.size() < 5 || Args[2].Text != "SIZE" ||
      !parseDouble(Args[0].Text, V[0]) || !parseDouble(Args[1].Text, V[1]) ||
      !parseDouble(Args[3].Text, V[2]) || !parseDouble(Args[4].Text, V[3]) ||
      V[2] <= 0 || V[3] <= 0)
    return err(Line, "VIEWPORT: expected x y SIZE w h");
  for (size_t I = 5; I < Args.size(); I += 2) {
    double D;
    if ((Args[I].Text != "MIN_DEPTH" && Args[I].Text != "MAX_DEPTH") ||
        I + 1 >= Args.size() || !parseDouble(Args[I + 1].Text, D))
      return err(Line, "VIEWPORT: unexpected '" + Args[I].Text + "'");
    (Args[I].Text == "MIN_DEPTH" ? P.MinDepth : P.MaxDepth) = D;
  }
  P.Viewport = V;
  return Error::success();
}

Error Parser::parseFramebufferSize(unsigned Line, StringRef,
                                   ArrayRef<Token> Args, PipelineDecl &P) {
  uint64_t W, H;
  if (Args.size() != 2 || !parseUnsigned(Args[0].Text, W) ||
      !parseUnsigned(Args[1].Text, H) || !W || !H || W * H > (1u << 24))
    return err(Line, "FRAMEBUFFER_SIZE needs a width and a height (at most "
                     "2^24 pixels)");
  P.FbWidth = uint32_t(W);
  P.FbHeight = uint32_t(H);
  return Error::success();
}

Error Parser::parseSubgroup(unsigned Line, StringRef, ArrayRef<Token>,
                            PipelineDecl &) {
  // SUBGROUP name / FULLY_POPULATED on|off / VARYING_SIZE on|off / END.
  // Subgroups here are the W lanes of a group, full when the workgroup
  // width is a multiple of W; nothing to configure.
  while (!atEnd() && peek().Text != "END") {
    unsigned SL = peek().Line;
    std::vector<Token> Sub;
    Sub.push_back(Toks[Pos++]);
    for (const Token &T : restOfLine(SL))
      Sub.push_back(T);
    if (Sub[0].Text == "REQUIRED_SIZE") {
      unsupported(SL, "SUBGROUP REQUIRED_SIZE");
      return Error::success();
    }
    if (Sub[0].Text != "FULLY_POPULATED" && Sub[0].Text != "VARYING_SIZE")
      return err(SL, "SUBGROUP: unexpected '" + Sub[0].Text + "'");
  }
  if (atEnd())
    return err(Line, "SUBGROUP without END");
  ++Pos;
  return Error::success();
}

Error Parser::parseBlendConstantsOrScissor(unsigned Line, StringRef Cmd,
                                           ArrayRef<Token> Args,
                                           PipelineDecl &P) {
  // BLEND_CONSTANTS r g b a; SCISSOR x y SIZE w h.
  bool Scissor = Cmd == "SCISSOR";
  double V[4];
  bool Ok = Args.size() == (Scissor ? 5u : 4u) &&
            (!Scissor || Args[2].Text == "SIZE");
  for (unsigned I = 0, J = 0; Ok && J < 4; ++I) {
    if (Scissor && I == 2)
      continue;
    Ok = parseDouble(Args[I].Text, V[J]);
    // Scissor rectangles are integers, the size not negative.
    if (Ok && Scissor)
      Ok = V[J] == std::floor(V[J]) && std::abs(V[J]) < 2147483648.0 &&
           (J < 2 || V[J] >= 0);
    ++J;
  }
  if (!Ok)
    return err(Line, Scissor ? "SCISSOR: expected integers x y SIZE w h"
                             : "BLEND_CONSTANTS: expected r g b a");
  if (Scissor)
    P.State.Scissor =
        Rect2D{int32_t(V[0]), int32_t(V[1]), uint32_t(V[2]), uint32_t(V[3])};
  else
    for (unsigned I = 0; I < 4; ++I)
      P.State.BlendConstants[I] = float(V[I]);
  return Error::success();
}

} // namespace spirv2llvm::amber::detail
