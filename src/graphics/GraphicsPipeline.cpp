//===- GraphicsPipeline.cpp - Creating a graphics pipeline ----------------===//
//
// Compiles the two stages and decides, once, everything about the state
// that does not change between draws: how the vertex outputs reach the
// fragment inputs (the varyings), where fragment outputs go, the output
// mergers and the vertex fetcher. Errors name the stage or the piece of
// state that is wrong.
//
//===----------------------------------------------------------------------===//
#include "graphics/PipelineImpl.h"

#include "spirv2llvm/CompileCache.h"
#include "spirv2llvm/spirv2llvm.h"
#include "support/StatusBridge.h"

#include <algorithm>

using namespace llvm;

namespace spirv2llvm {

using namespace graphics;

namespace {

Status invalid(const std::string &Msg) {
  return Status::error(Msg, StatusCode::InvalidArgument);
}

/// Translates and JIT-compiles one stage (through the cache when given).
Result<std::unique_ptr<JitShader>> compileStage(const ShaderStageDesc &S,
                                               Stage St, const char *Name,
                                               unsigned Width,
                                               const GraphicsPipelineDesc &D) {
  if (S.Spirv.empty())
    return Status::error(std::string(Name) + " shader: no SPIR-V words",
                         StatusCode::InvalidInput);
  TranslateOptions T;
  T.Kind = InputKind::Binary;
  T.ShaderStage = St;
  T.EntryPoint = S.EntryPoint;
  T.Width = Width;
  T.OptLevel = 0; // the JIT optimizes
  T.ValueNames = false; // nobody reads the IR: names only cost time
  T.SpecValues = S.SpecValues;
  T.Contract = D.Contract;
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(S.Spirv.data()),
                          S.Spirv.size() * 4);
  std::string FileName = std::string(Name) + " shader";
  std::string Key;
  if (D.Cache && D.Cache->enabled()) {
    Key = translationCacheKey(Bytes, FileName, T);
    if (std::unique_ptr<JitShader> J =
            JitShader::load(*D.Cache, Key, D.OptLevel))
      if (J->stage() == St)
        return J;
  }
  auto Tr = translateBytes(Bytes, FileName, T);
  if (!Tr)
    return toStatus(Tr.takeError(), StatusCode::InvalidInput);
  if (Tr->EntryStage != St)
    return Status::error(std::string(Name) + " shader: entry point '" +
                             Tr->EntryName + "' is not a " + Name + " shader",
                         StatusCode::InvalidInput);
  return JitShader::create(std::move(*Tr), D.OptLevel,
                           Key.empty() ? nullptr : D.Cache, Key);
}

Status checkState(const GraphicsPipelineDesc &D) {
  const MultisampleState &MS = D.Multisample;
  if (MS.Samples != 1 && MS.Samples != 2 && MS.Samples != 4 &&
      MS.Samples != 8)
    return invalid("multisample state: " + std::to_string(MS.Samples) +
                   " samples (1, 2, 4 or 8 are supported)");
  if (D.ColorFormats.size() > GraphicsLimits::MaxColorAttachments)
    return invalid(std::to_string(D.ColorFormats.size()) +
                   " colour attachments (at most " +
                   std::to_string(GraphicsLimits::MaxColorAttachments) + ")");
  if (Status S = checkViewportCounts(D); !S.ok())
    return S;
  if (D.DepthStencilFormat != Format::UNDEFINED &&
      !hasDepth(D.DepthStencilFormat) && !hasStencil(D.DepthStencilFormat))
    return invalid("depth/stencil attachment format " +
                   std::to_string(uint32_t(D.DepthStencilFormat)) +
                   " is not a depth or stencil format");
  const RasterizationState &RS = D.Rasterization;
  if (!(RS.LineWidth > 0))
    return invalid("line width must be positive");
  if (uint32_t(D.Topology) > uint32_t(PrimitiveTopology::TriangleFan))
    return invalid("topology " + std::to_string(uint32_t(D.Topology)) +
                   " is not supported (patch lists and adjacency need "
                   "tessellation or geometry shaders)");
  if (uint32_t(RS.Polygon) > uint32_t(PolygonMode::Point))
    return invalid("unknown polygon mode");
  if (D.Blend.Attachments.size() > D.ColorFormats.size() &&
      D.Blend.Attachments.size() > 1)
    return invalid("blend state has " +
                   std::to_string(D.Blend.Attachments.size()) +
                   " attachments, the pipeline " +
                   std::to_string(D.ColorFormats.size()) +
                   " colour formats");
  return Status::success();
}

/// The fragment shader's FragDepth, SampleMask and colour outputs (and the
/// second source of dual-source blending) into \p I.
Status collectColorOutputs(GraphicsPipeline::Impl &I,
                           const GraphicsPipelineDesc &D,
                           const InterfaceLayout &FL) {
  for (const InterfaceVariable &V : FL.Outputs) {
    if (V.BuiltIn == BuiltInFragDepth) {
      I.FragDepthOffset = V.ComponentOffsets[0];
      continue;
    }
    if (V.BuiltIn == BuiltInSampleMask) {
      I.SampleMaskOffset = V.ComponentOffsets[0];
      continue;
    }
    if (V.BuiltIn >= 0)
      return Status::error("fragment shader output built-in " +
                               std::to_string(V.BuiltIn) + " is not supported",
                           StatusCode::InvalidInput);
    if (V.Location < 0)
      return invalid("fragment shader output " + V.Name + " has no location");
    // Dual-source blending: Vulkan's maxFragmentDualSrcAttachments is 1
    // here (as on lavapipe), so Index 1 is only at location 0.
    if (V.Index > 1 ||
        (V.Index == 1 && (V.Location != 0 || V.Components.size() > 4)))
      return Status::error(
          "fragment shader output " + V.Name + " has Index " +
              std::to_string(V.Index) + " at location " +
              std::to_string(V.Location) +
              " (dual-source blending has one attachment: Index 1 is "
              "only allowed on a vector or scalar at location 0)",
          StatusCode::InvalidInput);
    // An array of outputs fills consecutive locations.
    for (uint32_t First = 0; First < V.Components.size();) {
      ColorOutput O;
      O.Location = V.ComponentLocations[First].Location;
      uint32_t End = First;
      while (End < V.Components.size() &&
             V.ComponentLocations[End].Location == O.Location)
        ++End;
      O.NumComponents = std::min<uint32_t>(End - First, 4);
      O.Type = V.Components[First];
      if (O.Type.Bits != 32)
        return Status::error("fragment shader output " + V.Name +
                                 ": only 32-bit colour outputs are "
                                 "supported",
                             StatusCode::InvalidInput);
      for (uint32_t K = 0; K < O.NumComponents; ++K)
        O.Offsets[K] = V.ComponentOffsets[First + K];
      First = End;
      if (V.Index == 1)
        I.Src1Output = O;
      else if (O.Location < D.ColorFormats.size() &&
               D.ColorFormats[O.Location] != Format::UNDEFINED)
        I.ColorOutputs.push_back(O);
    }
  }
  return Status::success();
}

/// One output merger per colour attachment, checking Vulkan's rules on
/// the SRC1 blend factors.
Status createMergers(GraphicsPipeline::Impl &I, const GraphicsPipelineDesc &D) {
  I.Mergers.resize(D.ColorFormats.size());
  for (uint32_t K = 0; K < D.ColorFormats.size(); ++K) {
    if (D.ColorFormats[K] == Format::UNDEFINED)
      continue;
    ColorBlendAttachment A;
    if (K < D.Blend.Attachments.size())
      A = D.Blend.Attachments[K];
    else if (D.Blend.Attachments.size() == 1)
      A = D.Blend.Attachments[0];
    auto M = ColorMerger::create(D.ColorFormats[K], A, D.Blend.LogicOpEnable,
                                 D.Blend.Logic, K);
    if (!M)
      return M.status();
    // Vulkan's rules for the SRC1 factors: attachment 0 only
    // (maxFragmentDualSrcAttachments = 1), and the shader must write the
    // second source (undefined otherwise: refused here).
    if (M->usesSrc1() && K != 0)
      return invalid("colour attachment " + std::to_string(K) +
                     ": a SRC1 blend factor (dual-source blending) is only "
                     "allowed on attachment 0");
    if (M->usesSrc1() && !I.Src1Output)
      return invalid("colour attachment 0: a SRC1 blend factor needs a "
                     "fragment shader output with Index 1 at location 0 "
                     "(layout(location = 0, index = 1) in GLSL)");
    I.Mergers[K].emplace(std::move(*M));
  }
  return Status::success();
}

} // namespace

namespace graphics {

/// The component of \p L's outputs holding built-in \p B (a variable of
/// its own or a member of gl_PerVertex): its variable and component index.
std::optional<std::pair<const InterfaceVariable *, uint32_t>>
findBuiltInOutput(const InterfaceLayout &L, int32_t B) {
  for (const InterfaceVariable &V : L.Outputs) {
    if (V.BuiltIn == B)
      return std::make_pair(&V, 0u);
    for (auto [First, MB] : V.MemberBuiltIns)
      if (MB == B)
        return std::make_pair(&V, First);
  }
  return std::nullopt;
}

/// The components of built-in output \p B (ClipDistance[N] has N), as
/// lane 0 offsets.
std::vector<uint32_t> builtInOutputComponents(const InterfaceLayout &L,
                                              int32_t B) {
  std::vector<uint32_t> Out;
  for (const InterfaceVariable &V : L.Outputs) {
    if (V.BuiltIn == B)
      return V.ComponentOffsets;
    for (size_t I = 0; I < V.MemberBuiltIns.size(); ++I) {
      if (V.MemberBuiltIns[I].second != B)
        continue;
      uint32_t End = I + 1 < V.MemberBuiltIns.size()
                         ? V.MemberBuiltIns[I + 1].first
                         : uint32_t(V.Components.size());
      for (uint32_t C = V.MemberBuiltIns[I].first; C < End; ++C)
        Out.push_back(V.ComponentOffsets[C]);
      return Out;
    }
  }
  return Out;
}

/// The vertex output component at \p Location, component \p Comp
/// (InterfaceVariable::ComponentLocations): its variable and index.
std::optional<std::pair<const InterfaceVariable *, uint32_t>>
findLocation(const InterfaceLayout &L, LocationSlot Slot) {
  for (const InterfaceVariable &V : L.Outputs)
    for (uint32_t I = 0; I < V.ComponentLocations.size(); ++I)
      if (V.ComponentLocations[I].Location == Slot.Location &&
          V.ComponentLocations[I].Component == Slot.Component)
        return std::make_pair(&V, I);
  return std::nullopt;
}

} // namespace graphics

GraphicsPipeline::GraphicsPipeline() : P(std::make_unique<Impl>()) {}
GraphicsPipeline::~GraphicsPipeline() = default;

const GraphicsPipelineDesc &GraphicsPipeline::desc() const { return P->Desc; }
GraphicsPipelineDesc &GraphicsPipeline::state() { return P->Desc; }
unsigned GraphicsPipeline::width() const { return P->Width; }
const ComputeInfo &GraphicsPipeline::vertexInfo() const {
  return P->Vertex->computeInfo();
}
const ComputeInfo &GraphicsPipeline::fragmentInfo() const {
  static const ComputeInfo None;
  return P->Fragment ? P->Fragment->computeInfo() : None;
}
const ComputeInfo &GraphicsPipeline::geometryInfo() const {
  static const ComputeInfo None;
  return P->Geometry ? P->Geometry->computeInfo() : None;
}
DrawStats GraphicsPipeline::stats() const {
  std::lock_guard<std::mutex> L(P->StatsMutex);
  return P->Stats;
}

Result<std::unique_ptr<GraphicsPipeline>>
GraphicsPipeline::create(const GraphicsPipelineDesc &D) {
  unsigned W = D.Width ? D.Width : defaultComputeWidth();
  if (W != 4 && W != 8 && W != 16)
    return invalid("pipeline width " + std::to_string(W) +
                   " (4, 8 or 16 are supported)");
  auto VS = compileStage(D.Vertex, Stage::Vertex, "vertex", W, D);
  if (!VS)
    return VS.status();
  std::unique_ptr<JitShader> FS;
  if (D.Fragment) {
    auto F = compileStage(*D.Fragment, Stage::Fragment, "fragment", W, D);
    if (!F)
      return F.status();
    FS = std::move(*F);
  }
  std::unique_ptr<JitShader> GS;
  if (D.Geometry) {
    // Not through the cache: its entries do not hold a geometry shader's
    // layout (runtime/CacheEntry.cpp).
    GraphicsPipelineDesc NoCache = D;
    NoCache.Cache = nullptr;
    auto G = compileStage(*D.Geometry, Stage::Geometry, "geometry", W, NoCache);
    if (!G)
      return G.status();
    GS = std::move(*G);
  }
  return create(D, std::move(*VS), std::move(GS), std::move(FS));
}

Result<std::unique_ptr<GraphicsPipeline>>
GraphicsPipeline::create(const GraphicsPipelineDesc &D,
                         std::unique_ptr<JitShader> VS,
                         std::unique_ptr<JitShader> FS) {
  return create(D, std::move(VS), nullptr, std::move(FS));
}

Result<std::unique_ptr<GraphicsPipeline>> GraphicsPipeline::create(
    const GraphicsPipelineDesc &D, std::unique_ptr<JitShader> VS,
    std::unique_ptr<JitShader> GS, std::unique_ptr<JitShader> FS) {
  if (GS && (GS->stage() != Stage::Geometry || !GS->layout().HasGeometry))
    return invalid("the geometry stage's shader is not a geometry shader");
  if (GS && VS && GS->width() != VS->width())
    return invalid("the vertex shader has width " +
                   std::to_string(VS->width()) + ", the geometry shader " +
                   std::to_string(GS->width()));
  if (!VS || VS->stage() != Stage::Vertex)
    return invalid("the pipeline needs a vertex shader");
  if (FS && FS->stage() != Stage::Fragment)
    return invalid("the fragment stage's shader is not a fragment shader");
  if (FS && FS->width() != VS->width())
    return invalid("the vertex shader has width " +
                   std::to_string(VS->width()) + ", the fragment shader " +
                   std::to_string(FS->width()));
  if (VS->width() % 4)
    return invalid("pipeline width must be a multiple of 4 (2x2 quads)");
  if (Status S = checkState(D); !S.ok())
    return S;

  std::unique_ptr<GraphicsPipeline> Pipe(new GraphicsPipeline());
  Impl &I = *Pipe->P;
  I.Desc = D;
  I.Width = VS->width();
  const InterfaceLayout &VL = VS->layout();

  auto Fetcher = VertexFetcher::create(D, VL);
  if (!Fetcher)
    return Fetcher.status();
  I.Fetcher.emplace(std::move(*Fetcher));
  // The last stage before rasterization: its outputs are what is kept per
  // vertex and interpolated.
  if (GS) {
    auto Link = linkGeometry(D, VL, GS->layout());
    if (!Link)
      return Link.status();
    I.GeoLink.emplace(std::move(*Link));
  }
  const InterfaceLayout &OL = GS ? GS->layout() : VL;
  const std::string Last = GS ? "geometry shader" : "vertex shader";
  if (auto Pos = findBuiltInOutput(OL, BuiltInPosition)) {
    if (Pos->first->Components.size() < Pos->second + 4)
      return invalid(Last + ": Position is not a vec4");
    I.Position = Pos->first;
    I.PositionComponent = Pos->second;
  }
  I.ClipDistances = builtInOutputComponents(OL, BuiltInClipDistance);
  I.CullDistances = builtInOutputComponents(OL, BuiltInCullDistance);
  if (I.ClipDistances.size() > 8 || I.CullDistances.size() > 8)
    return Status::error(Last + ": more than 8 clip or cull distances",
                         StatusCode::InvalidInput);
  if (auto PS = findBuiltInOutput(OL, BuiltInPointSize)) {
    I.PointSize = PS->first;
    I.PointSizeComponent = PS->second;
  }
  // ViewportIndex (ShaderViewportIndex, or ShaderViewportIndexLayerEXT in
  // a vertex shader) picks each primitive's viewport. Layer would pick a
  // framebuffer layer, and framebuffers here have one: refused rather
  // than silently drawn into layer 0.
  if (auto VI = findBuiltInOutput(OL, BuiltInViewportIndex))
    I.ViewportIndexOffset = VI->first->ComponentOffsets[VI->second];
  if (findBuiltInOutput(OL, BuiltInLayer))
    return Status::error(Last +
                             " writes Layer: layered framebuffers "
                             "are not supported (a draw writes layer 0 only)",
                         StatusCode::InvalidInput);

  if (FS) {
    const InterfaceLayout &FL = FS->layout();
    const ComputeInfo &FI = FS->computeInfo();
    for (const ComputeInfo::Binding &B : FI.Bindings)
      if (B.Kind == ComputeInfo::DescriptorKind::StorageBuffer ||
          B.Kind == ComputeInfo::DescriptorKind::StorageImage ||
          B.Kind == ComputeInfo::DescriptorKind::StorageTexelBuffer)
        I.FragmentWritesMemory = true;
    for (const InterfaceVariable &V : FL.Inputs) {
      I.FragmentHasFlatInputs |= V.Flat;
      for (uint32_t C = 0; C < V.Components.size(); ++C) {
        FragmentInput In;
        In.Offset = V.ComponentOffsets[C];
        In.Type = V.Components[C];
        In.Index = C;
        switch (V.BuiltIn) {
        case BuiltInFragCoord: In.K = FragmentInput::Kind::FragCoord; break;
        case BuiltInFrontFacing: In.K = FragmentInput::Kind::FrontFacing; break;
        case BuiltInHelperInvocation: In.K = FragmentInput::Kind::Helper; break;
        case BuiltInSampleId: In.K = FragmentInput::Kind::SampleId; break;
        case BuiltInSamplePosition:
          In.K = FragmentInput::Kind::SamplePosition;
          break;
        case BuiltInSampleMask: In.K = FragmentInput::Kind::SampleMaskIn; break;
        case BuiltInPointCoord: In.K = FragmentInput::Kind::PointCoord; break;
        case BuiltInPrimitiveId: In.K = FragmentInput::Kind::PrimitiveId; break;
        // The vertex shader cannot write Layer: always layer 0.
        case BuiltInLayer:
          In.K = FragmentInput::Kind::Zero;
          break;
        case BuiltInViewportIndex:
          In.K = FragmentInput::Kind::ViewportIndex;
          break;
        case -1: {
          if (V.Location < 0)
            return invalid("fragment shader input " + V.Name +
                           " has no location");
          LocationSlot Slot = V.ComponentLocations[C];
          auto Src = findLocation(OL, Slot);
          if (!Src || Src->first->Components[Src->second].Bits !=
                          V.Components[C].Bits)
            return invalid("fragment shader input " + V.Name + " (location " +
                           std::to_string(Slot.Location) + ", component " +
                           std::to_string(Slot.Component) +
                           ") is not written by the " + Last);
          if (V.Components[C].Bits != 32)
            return Status::error("fragment shader input " + V.Name +
                                     ": only 32-bit varyings are supported",
                                 StatusCode::InvalidInput);
          Varying Vy;
          Vy.VsOffset = Src->first->ComponentOffsets[Src->second];
          Vy.Interpolated =
              V.Components[C].Kind == ScalarKind::Float && !V.Flat;
          Vy.NoPerspective = V.NoPerspective;
          In.K = FragmentInput::Kind::Varying;
          In.Index = uint32_t(I.Varyings.size());
          I.Varyings.push_back(Vy);
          break;
        }
        default:
          return Status::error("fragment shader input built-in " +
                                   std::to_string(V.BuiltIn) +
                                   " is not supported",
                               StatusCode::InvalidInput);
        }
        I.FragmentInputs.push_back(In);
      }
    }
    if (I.Varyings.size() > GraphicsLimits::MaxVertexOutputComponents)
      return invalid("the fragment shader reads " +
                     std::to_string(I.Varyings.size()) +
                     " varying components (at most " +
                     std::to_string(GraphicsLimits::MaxVertexOutputComponents) +
                     ")");
    if (Status S = collectColorOutputs(I, D, FL); !S.ok())
      return S;
  }

  if (Status S = createMergers(I, D); !S.ok())
    return S;

  I.Vertex = std::move(VS);
  I.Geometry = std::move(GS);
  I.Fragment = std::move(FS);
  return Pipe;
}

} // namespace spirv2llvm
