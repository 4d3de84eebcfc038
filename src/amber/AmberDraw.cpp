//===- AmberDraw.cpp - Amber's draws on spirv2llvm's rasterizer -----------===//
//
// Amber draws a rectangle as a triangle strip of four vertices
// (x, y+h) (x, y) (x+w, y+h) (x+w, y), given in framebuffer pixels and
// converted to normalized device coordinates, with the position as an
// R32G32_SFLOAT attribute at location 0 (so a vec4 input reads
// (x, y, 0, 1)). PASSTHROUGH is a GLSL shader copying that attribute to
// gl_Position.
//
//===----------------------------------------------------------------------===//
#include "amber/AmberDraw.h"

#include "amber/AmberImages.h"
#include "amber/BufferBounds.h"
#include "amber/GraphicsNames.h"
#include "amber/Unsupported.h"
#include "support/Diagnostic.h"

#include "llvm/Support/FormatVariadic.h"

#include <list>

using namespace llvm;

namespace spirv2llvm::amber {

namespace {

const char PassthroughGlsl[] = R"(#version 430
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }
)";

/// The library reports features it lacks as "... is not supported ...":
/// those SKIP, other errors FAIL.
Error fromStatus(const Status &St) {
  std::string Msg = St.message();
  if (StringRef(Msg).contains("not supported"))
    return makeUnsupported(Msg);
  return makeError(Msg);
}

/// An s2l_image over the bytes of attachment \p B (one level, one layer,
/// rows of width * element size * samples: a pixel's samples one after
/// the other).
Expected<s2l_image> attachmentImage(BufferDecl &B, uint32_t W, uint32_t H,
                                    uint32_t Level, const Twine &What) {
  auto F = libraryFormat(B.Format, What + " '" + B.Name + "'");
  if (!F)
    return F.takeError();
  uint64_t Pitch = uint64_t(W) * B.Format.ElementSize * B.Samples;
  // A level of a mip chain (BASE_MIP_LEVEL): its place in the buffer.
  uint64_t Offset = 0;
  if (B.MipLevels > 1) {
    BufferDecl::MipLevel Lv = B.mipLevel(Level);
    if (Lv.Width != W || Lv.Height != H)
      return makeError(formatv("{0} '{1}': mip level {2} is {3}x{4}, the "
                               "framebuffer {5}x{6}",
                               What.str(), B.Name, Level, Lv.Width, Lv.Height,
                               W, H)
                           .str());
    Offset = Lv.Offset;
  }
  if (B.Data.size() < Offset + Pitch * H)
    return makeError(formatv("{0} '{1}' has {2} bytes, a {3}x{4} "
                             "framebuffer needs {5}",
                             What.str(), B.Name, B.Data.size(), W, H,
                             Offset + Pitch * H)
                         .str());
  s2l_image I = {};
  I.data = B.Data.data() + Offset;
  I.format = uint32_t(*F);
  I.view_type = S2L_VIEW_2D;
  I.layers = 1;
  I.levels = 1;
  I.samples = B.Samples;
  I.level[0].offset = 0;
  I.level[0].row_pitch = Pitch;
  I.level[0].slice_pitch = Pitch * H;
  I.level[0].width = W;
  I.level[0].height = H;
  I.level[0].depth = 1;
  return I;
}

const char *drawKind(Command::Kind K) {
  return K == Command::DrawRect   ? "rect"
         : K == Command::DrawGrid ? "grid"
                                  : "array";
}

} // namespace

Expected<Format> libraryFormat(const BufferFormat &F, const Twine &What) {
  if (auto Fm = formatByName(F.Name))
    return *Fm;
  // A DATA_TYPE: 1 to 4 equal components, tightly packed from byte 0.
  std::vector<const Component *> Cs;
  for (const Component &C : F.Components)
    if (!C.Padding)
      Cs.push_back(&C);
  bool Uniform = !Cs.empty() && Cs.size() <= 4;
  for (size_t I = 0; Uniform && I < Cs.size(); ++I)
    Uniform = Cs[I]->Kind == Cs[0]->Kind && Cs[I]->Bits == Cs[0]->Bits &&
              Cs[I]->Offset == I * (Cs[0]->Bits / 8u);
  if (Uniform) {
    std::string Name;
    for (size_t I = 0; I < Cs.size(); ++I)
      Name += "RGBA"[I] + std::to_string(Cs[0]->Bits);
    switch (Cs[0]->Kind) {
    case NumKind::Float: Name += "_SFLOAT"; break;
    case NumKind::Int: Name += "_SINT"; break;
    case NumKind::UInt: Name += "_UINT"; break;
    case NumKind::UNorm: Name += "_UNORM"; break;
    case NumKind::SNorm: Name += "_SNORM"; break;
    }
    if (auto Fm = formatByName(Name))
      return *Fm;
  }
  return makeError(What + ": format '" + F.Name +
                   "' is not one of the rasterizer's formats");
}

std::vector<std::array<float, 2>> rectPositions(std::array<double, 4> Rect,
                                                uint32_t FbW, uint32_t FbH) {
  const double X0 = Rect[0] / FbW * 2 - 1, Y0 = Rect[1] / FbH * 2 - 1;
  const double X1 = (Rect[0] + Rect[2]) / FbW * 2 - 1,
               Y1 = (Rect[1] + Rect[3]) / FbH * 2 - 1;
  auto P = [](double X, double Y) {
    return std::array<float, 2>{float(X), float(Y)};
  };
  return {P(X0, Y1), P(X0, Y0), P(X1, Y1), P(X1, Y0)};
}

std::vector<std::array<float, 2>> gridPositions(std::array<double, 4> Rect,
                                                uint32_t Cols, uint32_t Rows,
                                                uint32_t FbW, uint32_t FbH) {
  std::vector<std::array<float, 2>> P;
  auto Push = [&](double X, double Y) { P.push_back({float(X), float(Y)}); };
  for (uint32_t R = 0; R < Rows; ++R)
    for (uint32_t C = 0; C < Cols; ++C) {
      double X0 = (Rect[0] + Rect[2] * C / Cols) / FbW * 2 - 1;
      double X1 = (Rect[0] + Rect[2] * (C + 1) / Cols) / FbW * 2 - 1;
      double Y0 = (Rect[1] + Rect[3] * R / Rows) / FbH * 2 - 1;
      double Y1 = (Rect[1] + Rect[3] * (R + 1) / Rows) / FbH * 2 - 1;
      // Two triangles per cell, wound like DRAW_RECT's strip, whose
      // provoking (first) vertices are the cell's top-left and
      // bottom-right corners, which google/amber's draw_grid.amber
      // (flat varyings) shows to be Amber's choice.
      Push(X0, Y0);
      Push(X1, Y0);
      Push(X0, Y1);
      Push(X1, Y1);
      Push(X0, Y1);
      Push(X1, Y0);
    }
  return P;
}

Error Draws::describe(const Command &C, PipelineDecl &P, PrimitiveTopology T,
                      GraphicsPipelineDesc &D) {
  D.Topology = T;
  D.PrimitiveRestartEnable = P.State.PrimitiveRestart;
  if (C.K == Command::DrawArray) {
    // One binding per VERTEX_DATA, numbered in declaration order.
    for (uint32_t I = 0; I < P.VertexData.size(); ++I) {
      const VertexDataDecl &V = P.VertexData[I];
      const BufferDecl &B = *S.findBuffer(V.Buffer);
      const BufferFormat &F = V.Format ? *V.Format : B.Format;
      auto Fm = libraryFormat(
          F, "VERTEX_DATA " + V.Buffer + " LOCATION " + Twine(V.Location));
      if (!Fm)
        return Fm.takeError();
      D.VertexBindings.push_back({I, V.Stride ? V.Stride : F.ElementSize,
                                  V.PerInstance ? VertexInputRate::Instance
                                                : VertexInputRate::Vertex,
                                  V.Divisor});
      D.VertexAttributes.push_back({V.Location, I, *Fm, V.Offset});
    }
  } else {
    D.VertexBindings.push_back({0, 8, VertexInputRate::Vertex});
    D.VertexAttributes.push_back({0, 0, Format::R32G32_SFLOAT, 0});
  }
  Viewport VP;
  if (P.Viewport) {
    VP.X = float((*P.Viewport)[0]);
    VP.Y = float((*P.Viewport)[1]);
    VP.Width = float((*P.Viewport)[2]);
    VP.Height = float((*P.Viewport)[3]);
  } else {
    VP.Width = float(P.FbWidth);
    VP.Height = float(P.FbHeight);
  }
  VP.MinDepth = float(P.MinDepth);
  VP.MaxDepth = float(P.MaxDepth);
  D.Viewports = {VP};
  if (P.State.Scissor)
    D.Scissors = {*P.State.Scissor};
  D.Multisample = P.State.Multisample;
  D.Rasterization = P.State.Raster;
  // Device features that change the depth test's clamp (Amber enables
  // what the script requires, and the feature applies to every pipeline).
  D.Rasterization.DepthClampZeroOne =
      S.needs("DepthClampZeroOneFeatures.depthClampZeroOne");
  D.Rasterization.DepthRangeUnrestricted =
      S.needs("VK_EXT_depth_range_unrestricted");
  D.DepthStencil = P.State.DepthStencil;
  D.Blend.LogicOpEnable = P.State.LogicOpEnable;
  D.Blend.Logic = P.State.Logic;
  D.Blend.Constants = P.State.BlendConstants;
  // The sample count is the attachments' (Vulkan: all the same).
  std::optional<uint32_t> Samples;
  for (const BindDecl &B : P.Binds) {
    // Images and samplers are bound too; only attachments matter here.
    BufferDecl *BufP = S.findBuffer(B.Buffer);
    if (!BufP)
      continue;
    BufferDecl &Buf = *BufP;
    if (B.Kind == BindKind::Color || B.Kind == BindKind::DepthStencil) {
      if (Samples && *Samples != Buf.Samples)
        return makeError(formatv("pipeline '{0}': attachment '{1}' has {2} "
                                 "samples, another one {3}",
                                 P.Name, Buf.Name, Buf.Samples, *Samples)
                             .str());
      Samples = Buf.Samples;
    }
    if (B.Kind == BindKind::Color) {
      auto Fm = libraryFormat(Buf.Format, "colour attachment '" + Buf.Name +
                                              "'");
      if (!Fm)
        return Fm.takeError();
      if (B.Location >= GraphicsLimits::MaxColorAttachments)
        return makeError(formatv("colour attachment '{0}' at LOCATION {1}: "
                                 "at most {2} attachments",
                                 Buf.Name, B.Location,
                                 GraphicsLimits::MaxColorAttachments)
                             .str());
      if (D.ColorFormats.size() <= B.Location) {
        D.ColorFormats.resize(B.Location + 1, Format::UNDEFINED);
        D.Blend.Attachments.resize(B.Location + 1);
      }
      D.ColorFormats[B.Location] = *Fm;
      D.Blend.Attachments[B.Location] = P.State.Blend;
    } else if (B.Kind == BindKind::DepthStencil) {
      auto Fm = libraryFormat(Buf.Format, "depth/stencil attachment '" +
                                              Buf.Name + "'");
      if (!Fm)
        return Fm.takeError();
      D.DepthStencilFormat = *Fm;
    }
  }
  D.Multisample.Samples = Samples.value_or(1);
  D.Width = O.Width;
  return Error::success();
}

std::string Draws::pipelineKey(const Command &C, const PipelineDecl &P,
                               PrimitiveTopology T) {
  return P.Name + "\n" + drawKind(C.K) + "\n" + std::to_string(unsigned(T));
}

Expected<GraphicsPipeline *> Draws::pipeline(const Command &C, PipelineDecl &P,
                                             PrimitiveTopology T) {
  std::string Key = pipelineKey(C, P, T);
  auto It = Pipelines.find(Key);
  if (It != Pipelines.end())
    return It->second.get();
  const AttachDecl *VA = nullptr, *FA = nullptr, *GA = nullptr;
  for (const AttachDecl &At : P.Attached) {
    ShaderStageKind K = S.findShader(At.Shader)->Stage;
    if (K == ShaderStageKind::Vertex)
      VA = &At;
    else if (K == ShaderStageKind::Fragment)
      FA = &At;
    else if (K == ShaderStageKind::Geometry)
      GA = &At;
  }
  if (!VA)
    return makeError("graphics pipeline '" + P.Name +
                     "' needs a vertex shader");
  GraphicsPipelineDesc D;
  if (Error E = describe(C, P, T, D))
    return std::move(E);
  // Each pipeline compiles its shaders (a GraphicsPipeline owns them); the
  // compile cache, when there is one, makes the later ones loads.
  const ShaderDecl &VS = *S.findShader(VA->Shader);
  ShaderDecl Passthrough;
  if (VS.Source == ShaderSource::Passthrough) {
    Passthrough.Name = VS.Name + " (PASSTHROUGH)";
    Passthrough.Stage = ShaderStageKind::Vertex;
    Passthrough.Source = ShaderSource::Glsl;
    Passthrough.Text = PassthroughGlsl;
  }
  auto V = Jit(VS.Source == ShaderSource::Passthrough ? Passthrough : VS,
               VS.Source == ShaderSource::Passthrough ? AttachDecl() : *VA,
               Stage::Vertex);
  if (!V)
    return V.takeError();
  std::unique_ptr<JitShader> F;
  if (FA) {
    auto J = Jit(*S.findShader(FA->Shader), *FA, Stage::Fragment);
    if (!J)
      return J.takeError();
    F = std::move(*J);
  }
  std::unique_ptr<JitShader> G;
  if (GA) {
    auto J = Jit(*S.findShader(GA->Shader), *GA, Stage::Geometry);
    if (!J)
      return J.takeError();
    G = std::move(*J);
  }
  auto GP =
      GraphicsPipeline::create(D, std::move(*V), std::move(G), std::move(F));
  if (!GP)
    return fromStatus(Status::error("pipeline '" + P.Name +
                                    "': " + GP.status().message()));
  return (Pipelines[Key] = std::move(*GP)).get();
}

Error Draws::draw(const Command &C, PipelineDecl &P,
                  const DispatchResources &R) {
  PrimitiveTopology T = C.K == Command::DrawRect ? PrimitiveTopology::TriangleStrip
                        : C.K == Command::DrawGrid
                            ? PrimitiveTopology::TriangleList
                            : *topologyByName(C.Topology);
  auto GP = pipeline(C, P, T);
  if (!GP)
    return GP.takeError();
  std::optional<std::string> Short = undersizedBuffer((*GP)->vertexInfo(), R);
  if (!Short)
    Short = undersizedBuffer((*GP)->geometryInfo(), R);
  if (!Short)
    Short = undersizedBuffer((*GP)->fragmentInfo(), R);
  if (Short) {
    // Accesses past a buffer's end: compile the shaders again with bounds
    // checks (BufferBounds.h).
    if (O.Log)
      *O.Log << "  " << *Short << ": compiling '" << P.Name
             << "' again with robust buffer access\n";
    for (AttachDecl &At : P.Attached)
      At.RobustBufferAccess = true;
    Pipelines.erase(pipelineKey(C, P, T));
    GP = pipeline(C, P, T);
    if (!GP)
      return GP.takeError();
  }
  GraphicsPipeline &Pl = **GP;

  DrawResources DR;
  static_cast<DispatchResources &>(DR) = R;
  // Images of every stage: one descriptor table serves them.
  ComputeInfo Both = Pl.vertexInfo();
  for (const ComputeInfo *Info : {&Pl.geometryInfo(), &Pl.fragmentInfo()})
    Both.Bindings.insert(Both.Bindings.end(), Info->Bindings.begin(),
                         Info->Bindings.end());
  ImageBindings Images;
  if (Error E = Images.bind(S, P, Both, DR))
    return E;

  // Attachments: views of the buffers' bytes.
  // Resolve targets in order, one per multisampled colour attachment in
  // the order of the BINDs (Amber's rule).
  std::list<s2l_image> Views;
  Framebuffer Fb;
  std::vector<const BindDecl *> Resolves;
  for (const BindDecl &B : P.Binds)
    if (B.Kind == BindKind::Resolve)
      Resolves.push_back(&B);
  size_t NextResolve = 0;
  for (const BindDecl &B : P.Binds) {
    if (B.Kind != BindKind::Color && B.Kind != BindKind::DepthStencil)
      continue;
    BufferDecl &Buf = *S.findBuffer(B.Buffer);
    auto I = attachmentImage(Buf, P.FbWidth, P.FbHeight, B.BaseMipLevel,
                             B.Kind == BindKind::Color
                                 ? "colour attachment"
                                 : "depth/stencil attachment");
    if (!I)
      return I.takeError();
    Views.push_back(*I);
    if (B.Kind == BindKind::DepthStencil) {
      Fb.DepthStencil = &Views.back();
      continue;
    }
    if (Fb.Color.size() <= B.Location)
      Fb.Color.resize(B.Location + 1, nullptr);
    Fb.Color[B.Location] = &Views.back();
    if (Buf.Samples == 1 || NextResolve == Resolves.size())
      continue;
    BufferDecl &RB = *S.findBuffer(Resolves[NextResolve++]->Buffer);
    if (RB.Samples != 1)
      return makeError("resolve target '" + RB.Name + "' is multisampled");
    auto RI = attachmentImage(RB, P.FbWidth, P.FbHeight,
                              Resolves[NextResolve - 1]->BaseMipLevel,
                              "resolve target");
    if (!RI)
      return RI.takeError();
    Views.push_back(*RI);
    if (Fb.Resolve.size() <= B.Location)
      Fb.Resolve.resize(B.Location + 1, nullptr);
    Fb.Resolve[B.Location] = &Views.back();
  }
  if (NextResolve != Resolves.size())
    return makeError(formatv("pipeline '{0}': {1} resolve targets, {2} "
                             "multisampled colour attachments",
                             P.Name, Resolves.size(), NextResolve)
                         .str());

  DrawCommand Cmd;
  std::vector<std::array<float, 2>> Positions;
  if (C.K != Command::DrawArray) {
    Positions = C.K == Command::DrawRect
                    ? rectPositions(C.Nums, P.FbWidth, P.FbHeight)
                    : gridPositions(C.Nums, C.Cells[0], C.Cells[1], P.FbWidth,
                                    P.FbHeight);
    DR.VertexBuffers = {{Positions.data(), Positions.size() * 8}};
    Cmd.Count = uint32_t(Positions.size());
    if (O.Log)
      *O.Log << formatv("  {0} {1} {2} {3} {4} {5}\n",
                        C.K == Command::DrawRect ? "DRAW_RECT" : "DRAW_GRID",
                        P.Name, C.Nums[0], C.Nums[1], C.Nums[2], C.Nums[3]);
  } else {
    for (const VertexDataDecl &V : P.VertexData) {
      const BufferDecl &B = *S.findBuffer(V.Buffer);
      DR.VertexBuffers.push_back({B.Data.data(), B.Data.size()});
    }
    auto Elements = [](const BufferDecl &B, const BufferFormat &F) {
      return F.ElementSize ? uint32_t(B.Data.size() / F.ElementSize) : 0u;
    };
    Cmd.InstanceCount = C.InstanceCount;
    Cmd.FirstInstance = C.StartInstance;
    Cmd.First = C.StartIdx;
    if (C.Indexed) {
      if (P.IndexData.empty())
        return makeError("DRAW_ARRAY INDEXED without INDEX_DATA");
      const BufferDecl &IB = *S.findBuffer(P.IndexData);
      const std::vector<Component> &IC = IB.Format.Components;
      if (IC.size() != 1 || IC[0].Kind == NumKind::Float ||
          (IC[0].Bits != 8 && IC[0].Bits != 16 && IC[0].Bits != 32))
        return makeError("INDEX_DATA buffer '" + IB.Name +
                         "' is not of an 8-, 16- or 32-bit integer type");
      DR.Index = IC[0].Bits == 8    ? IndexType::UInt8
                 : IC[0].Bits == 16 ? IndexType::UInt16
                                    : IndexType::UInt32;
      DR.IndexData = IB.Data.data();
      DR.IndexSize = IB.Data.size();
      uint32_t Total = Elements(IB, IB.Format);
      Cmd.Count = C.CountGiven ? C.Count
                               : (Total > C.StartIdx ? Total - C.StartIdx : 0);
      if (uint64_t(C.StartIdx) + Cmd.Count > Total)
        return makeError("DRAW_ARRAY reads past the end of INDEX_DATA");
      Cmd.Indexed = true;
      Cmd.VertexOffset = C.VertexOffset;
    } else {
      // COUNT, or what the first vertex buffer holds from START_IDX on.
      Cmd.Count = C.Count;
      if (!C.CountGiven) {
        if (P.VertexData.empty())
          return makeError("DRAW_ARRAY without COUNT or VERTEX_DATA");
        const VertexDataDecl &V = P.VertexData[0];
        const BufferDecl &B = *S.findBuffer(V.Buffer);
        uint32_t Total = Elements(B, V.Format ? *V.Format : B.Format);
        Cmd.Count = Total > C.StartIdx ? Total - C.StartIdx : 0;
      }
    }
    if (O.Log)
      *O.Log << formatv("  DRAW_ARRAY {0} AS {1}: {2} {3} x {4} instances\n",
                        P.Name, C.Topology, Cmd.Count,
                        Cmd.Indexed ? "indices" : "vertices",
                        Cmd.InstanceCount);
  }
  Status St = Pl.draw(Fb, DR, Cmd, O.Threads);
  if (!St.ok())
    return fromStatus(St);
  return Error::success();
}

} // namespace spirv2llvm::amber
