//===- PipelineParser.cpp - PIPELINE and DERIVE_PIPELINE blocks -----------===//
//
// ATTACH (entry point, specialization), BIND, VERTEX_DATA, INDEX_DATA,
// FRAMEBUFFER_SIZE, VIEWPORT, BLEND and SUBGROUP; a later BIND of the same
// slot replaces the earlier one, which is what DERIVE_PIPELINE relies on.
//
//===----------------------------------------------------------------------===//
#include "amber/Graphics.h"
#include "amber/ParserImpl.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <set>

using namespace llvm;

namespace spirv2llvm::amber::detail {

namespace {

const std::set<std::string> UnsupportedPipelineCommands = {
    "SET",          "COMPILE_OPTIONS",
    "STENCIL",
    "PATCH_CONTROL_POINTS", "SHADER_OPTIMIZATION"};

} // namespace

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
    auto Need = [&](size_t N) -> Error {
      if (Args.size() < N)
        return err(L, Cmd + ": missing arguments");
      return Error::success();
    };
    if (Cmd == "END")
      break;
    if (Cmd == "ATTACH") {
      if (Error E = Need(1))
        return E;
      AttachDecl At;
      At.Shader = Args[0].Text;
      ShaderDecl *Sh = S.findShader(At.Shader);
      if (!Sh)
        return err(L, "ATTACH: unknown shader '" + At.Shader + "'");
      for (size_t I = 1; I < Args.size(); ++I) {
        StringRef K = Args[I].Text;
        if (K == "ENTRY_POINT" && I + 1 < Args.size()) {
          At.EntryPoint = Args[++I].Text;
        } else if (K == "TYPE" && I + 1 < Args.size()) {
          ++I; // the stage of a multi-stage module; checked at run time
        } else if (K == "SPECIALIZE" && I + 4 < Args.size() + 1 &&
                   I + 3 < Args.size() && Args[I + 2].Text == "AS") {
          uint64_t Id;
          if (!parseUnsigned(Args[I + 1].Text, Id))
            return err(L, "SPECIALIZE: malformed id '" + Args[I + 1].Text +
                              "'");
          StringRef Type = Args[I + 3].Text;
          if (I + 4 >= Args.size())
            return err(L, "SPECIALIZE: missing value");
          std::string V = Args[I + 4].Text;
          auto F = parseDataType(Type, false);
          if (!F || F->Components.size() != 1) {
            if (!F)
              consumeError(F.takeError());
            return err(L, "SPECIALIZE: unsupported type '" + Type + "'");
          }
          // spirv-opt takes the value as text of the constant's type;
          // normalize what Amber accepts (hex, floats for ints).
          std::vector<uint8_t> Bytes(8);
          if (Error E = writeComponent(F->Components[0], V, Bytes.data()))
            return err(L, "SPECIALIZE: " + toString(std::move(E)));
          const Component &C = F->Components[0];
          if (C.Kind == NumKind::Float)
            V = formatv("{0:e17}", readComponent(C, Bytes.data())).str();
          else if (C.Kind == NumKind::Int)
            V = std::to_string(readComponentInt(C, Bytes.data()));
          else
            V = std::to_string(readComponentUInt(C, Bytes.data()));
          At.Spec.emplace_back(uint32_t(Id), V);
          I += 4;
        } else {
          return err(L, "ATTACH: unexpected '" + K + "'");
        }
      }
      P.Attached.push_back(std::move(At));
    } else if (Cmd == "BIND") {
      if (Error E = Need(3))
        return E;
      if (Args[0].Text == "SAMPLER" || Args[0].Text == "SAMPLER_ARRAY") {
        // BIND SAMPLER[_ARRAY] s... DESCRIPTOR_SET n BINDING n
        BindDecl Bd;
        Bd.Kind = BindKind::Sampler;
        size_t I = 1;
        for (; I < Args.size() && Args[I].Text != "DESCRIPTOR_SET" &&
               Args[I].Text != "BINDING" && Args[I].Text != "KERNEL";
             ++I) {
          if (!S.findSampler(Args[I].Text))
            return err(L, "BIND: unknown sampler '" + Args[I].Text + "'");
          Bd.Samplers.push_back(Args[I].Text);
        }
        if (Bd.Samplers.empty() ||
            (Args[0].Text == "SAMPLER" && Bd.Samplers.size() != 1))
          return err(L, "BIND " + Args[0].Text + ": expected sampler name" +
                            (Args[0].Text == "SAMPLER" ? "" : "s"));
        if (I < Args.size() && Args[I].Text == "KERNEL") {
          unsupported(L, "BIND SAMPLER ... KERNEL (OpenCL kernel arguments)");
          return Error::success();
        }
        for (; I < Args.size(); I += 2) {
          uint64_t N;
          if (I + 1 >= Args.size() || !parseUnsigned(Args[I + 1].Text, N) ||
              N > UINT32_MAX)
            return err(L, "BIND: " + Args[I].Text + " needs a number");
          if (Args[I].Text == "DESCRIPTOR_SET")
            Bd.Set = uint32_t(N);
          else if (Args[I].Text == "BINDING")
            Bd.Binding = uint32_t(N);
          else
            return err(L, "BIND: unexpected '" + Args[I].Text + "'");
        }
        if (!P.IsCompute && Args[0].Text == "SAMPLER_ARRAY")
          deferUnsupported(L, "BIND " + Args[0].Text + " (" +
                                  Twine(GraphicsImagesPending) + ")");
        llvm::erase_if(P.Binds,
                       [&](const BindDecl &O) { return sameSlot(O, Bd); });
        P.Binds.push_back(std::move(Bd));
        continue;
      }
      if (Args[0].Text != "BUFFER" && Args[0].Text != "BUFFER_ARRAY") {
        unsupported(L, "BIND " + Args[0].Text);
        return Error::success();
      }
      BindDecl Bd;
      Bd.Buffer = Args[1].Text;
      if (!S.findBuffer(Bd.Buffer))
        return err(L, "BIND: unknown buffer '" + Bd.Buffer + "'");
      size_t I = 2;
      if (Args[0].Text == "BUFFER_ARRAY") {
        // BIND BUFFER_ARRAY b0 b1 ... AS kind: one descriptor per buffer.
        Bd.Array.push_back(Bd.Buffer);
        for (; I < Args.size() && Args[I].Text != "AS"; ++I) {
          if (!S.findBuffer(Args[I].Text))
            return err(L, "BIND: unknown buffer '" + Args[I].Text + "'");
          Bd.Array.push_back(Args[I].Text);
        }
        if (I >= Args.size())
          return err(L, "BIND BUFFER_ARRAY: missing AS");
      }
      // Dynamic buffers are plain ones to a shader; OFFSET moves the
      // descriptor like DESCRIPTOR_OFFSET.
      bool Dynamic = false;
      size_t Elems = std::max<size_t>(Bd.Array.size(), 1);
      Bd.Offsets.assign(Elems, 0);
      Bd.Ranges.assign(Elems, 0);
      if (Args[I].Text != "AS") {
        unsupported(L, "BIND BUFFER without AS (OpenCL kernel arguments)");
        return Error::success();
      }
      if (I + 1 >= Args.size())
        return err(L, "BIND: missing buffer type");
      StringRef Kind = Args[I + 1].Text;
      I += 2;
      Dynamic = Kind.consume_back("_dynamic");
      if (Dynamic && Kind != "storage" && Kind != "uniform")
        return err(L, "BIND: unknown buffer type '" + Kind + "_dynamic'");
      if (Kind == "storage")
        Bd.Kind = BindKind::Storage;
      else if (Kind == "uniform")
        Bd.Kind = BindKind::Uniform;
      else if (Kind == "push_constant")
        Bd.Kind = BindKind::PushConstant;
      else if (Kind == "color")
        Bd.Kind = BindKind::Color;
      else if (Kind == "depth_stencil") {
        Bd.Kind = BindKind::DepthStencil;
        if (!S.findBuffer(Bd.Buffer)->Format.channel('D')) {
          unsupported(L, "depth/stencil format " +
                             S.findBuffer(Bd.Buffer)->Format.Name);
          return Error::success();
        }
      }
      else if (auto IK = StringSwitch<std::optional<BindKind>>(Kind)
                             .Case("storage_image", BindKind::StorageImage)
                             .Case("sampled_image", BindKind::SampledImage)
                             .Case("combined_image_sampler",
                                   BindKind::CombinedImageSampler)
                             .Case("uniform_texel_buffer",
                                   BindKind::UniformTexelBuffer)
                             .Case("storage_texel_buffer",
                                   BindKind::StorageTexelBuffer)
                             .Default(std::nullopt)) {
        Bd.Kind = *IK;
        if (*IK == BindKind::CombinedImageSampler) {
          // ... AS combined_image_sampler SAMPLER s
          if (I + 1 >= Args.size() || Args[I].Text != "SAMPLER")
            return err(L, "BIND: combined_image_sampler needs SAMPLER name");
          if (!S.findSampler(Args[I + 1].Text))
            return err(L, "BIND: unknown sampler '" + Args[I + 1].Text + "'");
          Bd.Samplers.push_back(Args[I + 1].Text);
          I += 2;
        }
        if (!P.IsCompute && !Bd.Array.empty())
          deferUnsupported(L, "BIND BUFFER_ARRAY AS " + Kind + " (" +
                                  Twine(GraphicsImagesPending) + ")");
      } else {
        unsupported(L, "BIND BUFFER AS " + Kind);
        return Error::success();
      }
      if (!Bd.Array.empty() &&
          (Bd.Kind == BindKind::PushConstant || Bd.Kind == BindKind::Color ||
           Bd.Kind == BindKind::DepthStencil))
        return err(L, "BIND BUFFER_ARRAY: not for push constants and "
                      "attachments");
      for (; I < Args.size(); ++I) {
        StringRef K = Args[I].Text;
        uint64_t N;
        if (K == "OFFSET" || K == "DESCRIPTOR_OFFSET" ||
            K == "DESCRIPTOR_RANGE") {
          // One value per descriptor (array element).
          if (K == "OFFSET" && !Dynamic)
            return err(L, "BIND: OFFSET is for a dynamic buffer");
          if (Bd.Kind != BindKind::Storage && Bd.Kind != BindKind::Uniform)
            return err(L, "BIND: " + K + " is for storage and uniform buffers");
          for (size_t E = 0; E < Elems; ++E) {
            if (I + 1 + E >= Args.size() ||
                !parseUnsigned(Args[I + 1 + E].Text, N) || N > (1ull << 32))
              return err(L, "BIND: " + K + " needs " + Twine(Elems) +
                                " number(s)");
            if (K == "DESCRIPTOR_RANGE")
              Bd.Ranges[E] = N;
            else
              Bd.Offsets[E] += N;
          }
          I += Elems;
          continue;
        }
        if (I + 1 >= Args.size())
          return err(L, "BIND: " + K + " needs a value");
        if (!parseUnsigned(Args[I + 1].Text, N))
          return err(L, "BIND: malformed number '" + Args[I + 1].Text + "'");
        if (K == "DESCRIPTOR_SET")
          Bd.Set = uint32_t(N);
        else if (K == "BINDING")
          Bd.Binding = uint32_t(N);
        else if (K == "LOCATION")
          Bd.Location = uint32_t(N);
        else if (K == "BASE_MIP_LEVEL") {
          Bd.BaseMipLevel = uint32_t(std::min<uint64_t>(N, UINT32_MAX));
          if (N)
            deferUnsupported(L, "BIND ... BASE_MIP_LEVEL (" +
                                    Twine(ImagesPending) + ")");
        } else
          return err(L, "BIND: unexpected '" + K + "'");
        ++I;
      }
      llvm::erase_if(P.Binds,
                     [&](const BindDecl &O) { return sameSlot(O, Bd); });
      P.Binds.push_back(std::move(Bd));
    } else if (Cmd == "VERTEX_DATA") {
      if (Error E = Need(3))
        return E;
      VertexDataDecl V;
      V.Buffer = Args[0].Text;
      if (!S.findBuffer(V.Buffer))
        return err(L, "VERTEX_DATA: unknown buffer '" + V.Buffer + "'");
      for (size_t I = 1; I < Args.size(); ++I) {
        StringRef K = Args[I].Text;
        if (I + 1 >= Args.size())
          return err(L, "VERTEX_DATA: " + K + " needs a value");
        StringRef Val = Args[++I].Text;
        uint64_t N = 0;
        bool IsNum = parseUnsigned(Val, N);
        if (K == "LOCATION" && IsNum)
          V.Location = uint32_t(N);
        else if (K == "OFFSET" && IsNum)
          V.Offset = uint32_t(N);
        else if (K == "STRIDE" && IsNum)
          V.Stride = uint32_t(N);
        else if (K == "RATE" && (Val == "vertex" || Val == "instance"))
          V.PerInstance = Val == "instance";
        else if (K == "FORMAT") {
          auto F = parseDataType(Val, false);
          if (!F)
            return err(L, "VERTEX_DATA: " + toString(F.takeError()));
          V.Format = std::move(*F);
        } else
          return err(L, "VERTEX_DATA: unexpected '" + K + " " + Val + "'");
      }
      llvm::erase_if(P.VertexData, [&](const VertexDataDecl &O) {
        return O.Location == V.Location;
      });
      P.VertexData.push_back(std::move(V));
    } else if (Cmd == "INDEX_DATA") {
      if (Args.size() != 1 || !S.findBuffer(Args[0].Text))
        return err(L, "INDEX_DATA needs a buffer");
      P.IndexData = Args[0].Text;
    } else if (Cmd == "VIEWPORT") {
      // VIEWPORT x y SIZE w h [MIN_DEPTH d] [MAX_DEPTH d]
      std::array<double, 4> V;
      if (Args.size() < 5 || Args[2].Text != "SIZE" ||
          !parseDouble(Args[0].Text, V[0]) ||
          !parseDouble(Args[1].Text, V[1]) ||
          !parseDouble(Args[3].Text, V[2]) ||
          !parseDouble(Args[4].Text, V[3]) || V[2] <= 0 || V[3] <= 0)
        return err(L, "VIEWPORT: expected x y SIZE w h");
      for (size_t I = 5; I < Args.size(); I += 2) {
        double D;
        if ((Args[I].Text != "MIN_DEPTH" && Args[I].Text != "MAX_DEPTH") ||
            I + 1 >= Args.size() || !parseDouble(Args[I + 1].Text, D))
          return err(L, "VIEWPORT: unexpected '" + Args[I].Text + "'");
        (Args[I].Text == "MIN_DEPTH" ? P.MinDepth : P.MaxDepth) = D;
      }
      P.Viewport = V;
    } else if (Cmd == "DEPTH") {
      // DEPTH / TEST on|off / WRITE on|off / COMPARE_OP op / CLAMP off /
      // BOUNDS min a max b / BIAS ... / END
      DepthDecl D;
      while (true) {
        if (atEnd())
          return err(L, "DEPTH without END");
        unsigned DL = peek().Line;
        std::string K = Toks[Pos++].Text;
        if (K == "END")
          break;
        std::vector<Token> V = restOfLine(DL);
        if (V.empty())
          return err(DL, "DEPTH: " + K + " needs a value");
        if (K == "TEST" || K == "WRITE") {
          if (V[0].Text != "on" && V[0].Text != "off")
            return err(DL, "DEPTH: " + K + " takes on or off");
          (K == "TEST" ? D.Test : D.Write) = V[0].Text == "on";
        } else if (K == "COMPARE_OP") {
          D.CompareOp = V[0].Text;
          if (!depthCompare(D.CompareOp, 0, 0))
            return err(DL, "DEPTH: unknown COMPARE_OP '" + V[0].Text + "'");
        } else if (K == "CLAMP" && V[0].Text == "off") {
        } else if (K == "BOUNDS" && V.size() == 4 && V[1].Text == "0.0" &&
                   V[3].Text == "1.0") {
        } else if (K == "BIAS" && V.size() == 6 && V[1].Text == "0.0" &&
                   V[3].Text == "0.0" && V[5].Text == "0.0") {
          // Defaults: nothing to do.
        } else {
          unsupported(DL, "DEPTH " + K + " " + V[0].Text);
          return Error::success();
        }
      }
      P.Depth = D;
    } else if (Cmd == "BLEND") {
      // BLEND / SRC_COLOR_FACTOR f / DST_COLOR_FACTOR f / COLOR_OP op /
      // SRC_ALPHA_FACTOR f / DST_ALPHA_FACTOR f / ALPHA_OP op / END
      BlendDecl Bl;
      Bl.Enabled = true;
      while (true) {
        if (atEnd())
          return err(L, "BLEND without END");
        unsigned BL = peek().Line;
        std::string K = Toks[Pos++].Text;
        if (K == "END")
          break;
        std::vector<Token> V = restOfLine(BL);
        if (V.size() != 1)
          return err(BL, "BLEND: " + K + " needs one value");
        std::string *Field = K == "SRC_COLOR_FACTOR"   ? &Bl.SrcColor
                             : K == "DST_COLOR_FACTOR" ? &Bl.DstColor
                             : K == "COLOR_OP"         ? &Bl.ColorOp
                             : K == "SRC_ALPHA_FACTOR" ? &Bl.SrcAlpha
                             : K == "DST_ALPHA_FACTOR" ? &Bl.DstAlpha
                             : K == "ALPHA_OP"         ? &Bl.AlphaOp
                                                       : nullptr;
        if (!Field)
          return err(BL, "BLEND: unexpected '" + K + "'");
        *Field = V[0].Text;
      }
      if (auto Msg = checkBlend(Bl)) {
        unsupported(L, "BLEND: " + *Msg);
        return Error::success();
      }
      P.Blend = Bl;
    } else if (Cmd == "FRAMEBUFFER_SIZE") {
      uint64_t W, H;
      if (Args.size() != 2 || !parseUnsigned(Args[0].Text, W) ||
          !parseUnsigned(Args[1].Text, H) || !W || !H || W * H > (1u << 24))
        return err(L, "FRAMEBUFFER_SIZE needs a width and a height (at most "
                      "2^24 pixels)");
      P.FbWidth = uint32_t(W);
      P.FbHeight = uint32_t(H);
    } else if (Cmd == "SUBGROUP") {
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
        return err(L, "SUBGROUP without END");
      ++Pos;
    } else if (Cmd == "POLYGON_MODE") {
      // fill is what the rasterizer does; line and point SKIP.
      if (Args.size() != 1 || (Args[0].Text != "fill" &&
                               Args[0].Text != "line" &&
                               Args[0].Text != "point"))
        return err(L, "POLYGON_MODE: expected fill, line or point");
      if (Args[0].Text != "fill") {
        unsupported(L, "POLYGON_MODE " + Args[0].Text);
        return Error::success();
      }
    } else if (UnsupportedPipelineCommands.count(Cmd)) {
      unsupported(L, "pipeline command " + Cmd);
      return Error::success();
    } else {
      return err(L, "unknown pipeline command '" + Cmd + "'");
    }
  }
  S.Pipelines.push_back(std::move(P));
  return Error::success();
}

} // namespace spirv2llvm::amber::detail
