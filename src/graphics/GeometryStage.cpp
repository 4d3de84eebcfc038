//===- GeometryStage.cpp - Running the geometry shader
//---------------------===//
//
// The simplest design that keeps Vulkan's order: each lane of a geometry
// call is one input primitive times one invocation (primitive-major, as
// "Geometry Shader Execution Order" asks), and the emitted vertices, read
// back from the call's output block (Interface.h, GeometryLayout), are
// appended lane by lane to the draw's vertices. Each lane's vertices form
// strips (cut where OpEndPrimitive came between two vertices); the strips
// become an index list with restart markers and go through the same
// assemble() as the input topologies, so strip winding and the provoking
// vertex follow Vulkan's rules for strips ("Primitive Topologies").
//
// Limitations: the vertex shader runs once per index position here (no
// post-transform cache) and the geometry shader on the calling thread;
// rasterization after it is as parallel as without it. One vertex stream;
// no adjacency topologies (Graphics.h has none).
//
//===----------------------------------------------------------------------===//
#include "graphics/GeometryStage.h"

#include "graphics/DrawContext.h"

#include "runtime/FaultGuard.h"
#include "runtime/FaultReport.h"

#include <algorithm>
#include <cstring>

namespace spirv2llvm::graphics {

namespace {

Status invalid(const std::string &Msg) {
  return Status::error(Msg, StatusCode::InvalidArgument);
}

uint32_t loadWord(const uint8_t *Block, uint32_t Offset, unsigned Lane) {
  uint32_t X;
  std::memcpy(&X, Block + Offset + 4 * Lane, 4);
  return X;
}

/// The input primitive kind \p T assembles.
GeometryLayout::InputKind inputKindOf(PrimitiveTopology T) {
  switch (T) {
  case PrimitiveTopology::PointList:
    return GeometryLayout::InputKind::Points;
  case PrimitiveTopology::LineList:
  case PrimitiveTopology::LineStrip:
    return GeometryLayout::InputKind::Lines;
  default:
    return GeometryLayout::InputKind::Triangles;
  }
}

const char *inputKindName(GeometryLayout::InputKind K) {
  switch (K) {
  case GeometryLayout::InputKind::Points:
    return "points";
  case GeometryLayout::InputKind::Lines:
    return "lines";
  case GeometryLayout::InputKind::LinesAdjacency:
    return "lines with adjacency";
  case GeometryLayout::InputKind::Triangles:
    return "triangles";
  case GeometryLayout::InputKind::TrianglesAdjacency:
    return "triangles with adjacency";
  }
  return "?";
}

/// Links one per-vertex member of gl_in[] (built-in \p BI, components
/// [First, End) of each vertex's \p Per) to the vertex shader's output.
Status linkBuiltIn(const InterfaceLayout &VL, const InterfaceVariable &V,
                   uint32_t N, uint32_t Per, uint32_t First, uint32_t End,
                   int32_t BI, GeometryLink &L) {
  std::vector<uint32_t> Src;
  if (auto Var = findBuiltInOutput(VL, BI)) {
    if (BI == BuiltInPosition || BI == BuiltInPointSize)
      for (uint32_t C = 0; C < End - First; ++C)
        Src.push_back(Var->first->ComponentOffsets[Var->second + C]);
    else
      Src = builtInOutputComponents(VL, BI);
  }
  if (BI != BuiltInPosition && BI != BuiltInPointSize &&
      BI != BuiltInClipDistance && BI != BuiltInCullDistance)
    return invalid("geometry shader input " + V.Name + ": built-in " +
                   std::to_string(BI) + " is not supported");
  for (uint32_t C = First; C < End; ++C) {
    GeometryLink::Word Wd;
    if (C - First < Src.size())
      Wd.VsOffset = Src[C - First];
    for (uint32_t K = 0; K < N; ++K)
      Wd.GsOffsets.push_back(V.ComponentOffsets[K * Per + C]);
    L.Words.push_back(std::move(Wd));
  }
  return Status::success();
}

} // namespace

Result<GeometryLink> linkGeometry(const GraphicsPipelineDesc &D,
                                  const InterfaceLayout &VL,
                                  const InterfaceLayout &GL) {
  const GeometryLayout &G = GL.Geometry;
  GeometryLink L;
  if (G.Input != inputKindOf(D.Topology))
    return invalid(std::string("the geometry shader takes ") +
                   inputKindName(G.Input) + " but the topology (" +
                   std::to_string(uint32_t(D.Topology)) + ") makes " +
                   inputKindName(inputKindOf(D.Topology)));
  switch (G.Output) {
  case GeometryLayout::OutputKind::Points:
    L.OutputTopology = PrimitiveTopology::PointList;
    break;
  case GeometryLayout::OutputKind::LineStrip:
    L.OutputTopology = PrimitiveTopology::LineStrip;
    break;
  case GeometryLayout::OutputKind::TriangleStrip:
    L.OutputTopology = PrimitiveTopology::TriangleStrip;
    break;
  }
  const uint32_t N = G.InputVertices;
  for (const InterfaceVariable &V : GL.Inputs) {
    if (V.BuiltIn == BuiltInPrimitiveId) {
      L.PrimitiveIdOffset = V.ComponentOffsets.at(0);
      continue;
    }
    if (V.BuiltIn == BuiltInInvocationId) {
      L.InvocationIdOffset = V.ComponentOffsets.at(0);
      continue;
    }
    if (V.BuiltIn >= 0)
      return invalid("geometry shader input " + V.Name + ": built-in " +
                     std::to_string(V.BuiltIn) + " is not supported");
    if (V.Components.size() % N)
      return invalid("geometry shader input " + V.Name +
                     " is not an array over the " + std::to_string(N) +
                     " vertices of its input primitive");
    const uint32_t Per = uint32_t(V.Components.size() / N);
    if (!V.MemberBuiltIns.empty()) { // gl_in[]
      for (size_t M = 0; M < V.MemberBuiltIns.size(); ++M) {
        uint32_t First = V.MemberBuiltIns[M].first;
        uint32_t End = M + 1 < V.MemberBuiltIns.size()
                           ? V.MemberBuiltIns[M + 1].first
                           : Per;
        if (Status S = linkBuiltIn(VL, V, N, Per, First, End,
                                   V.MemberBuiltIns[M].second, L);
            !S.ok())
          return S;
      }
      continue;
    }
    if (V.ComponentLocations.size() != V.Components.size())
      return invalid("geometry shader input " + V.Name + " has no location");
    for (uint32_t C = 0; C < Per; ++C) {
      LocationSlot Slot = V.ComponentLocations[C];
      auto Src = findLocation(VL, Slot);
      if (!Src || Src->first->Components[Src->second].bytes() != 4 ||
          V.Components[C].bytes() != 4)
        return invalid("geometry shader input " + V.Name + " (location " +
                       std::to_string(Slot.Location) + ", component " +
                       std::to_string(Slot.Component) +
                       ") is not a 32-bit output of the vertex shader");
      GeometryLink::Word Wd;
      Wd.VsOffset = Src->first->ComponentOffsets[Src->second];
      for (uint32_t K = 0; K < N; ++K)
        Wd.GsOffsets.push_back(V.ComponentOffsets[K * Per + C]);
      L.Words.push_back(std::move(Wd));
    }
  }
  if (auto P = findBuiltInOutput(GL, BuiltInPrimitiveId))
    L.PrimitiveIdOut = P->first->ComponentOffsets[P->second];
  return L;
}

namespace {

/// The vertex shader's words the geometry shader reads, per index position
/// of the draw (RestartIndex positions stay zero).
void shadeLinkedVertices(DrawContext &Ctx, const std::vector<uint32_t> &Indices,
                         uint32_t Instance, uint32_t FirstInstance,
                         std::vector<uint32_t> &Words) {
  const GraphicsPipeline::Impl &P = Ctx.Pipe;
  const GeometryLink &Link = *P.GeoLink;
  const size_t NW = Link.Words.size();
  std::vector<uint32_t> Pos;
  std::vector<uint32_t> Unique;
  for (size_t K = 0; K < Indices.size(); ++K)
    if (Indices[K] != RestartIndex) {
      Pos.push_back(uint32_t(K));
      Unique.push_back(Indices[K]);
    }
  Words.assign(Indices.size() * NW, 0);
  const JitShader &J = *P.Vertex;
  const InterfaceLayout &L = J.layout();
  const unsigned W = J.width();
  std::vector<uint8_t> In(L.InputSize), Out(L.OutputSize);
  s2l_group_args Args = {};
  Args.inputs = In.data();
  Args.outputs = Out.data();
  Args.descriptor_sets = Ctx.VertexTable.SetTable.data();
  Args.push_constants = Ctx.Res.PushConstants.data();
  Args.num_workgroups[0] = Args.num_workgroups[1] = Args.num_workgroups[2] = 1;
  Args.cancel = Ctx.stopFlag();
  for (size_t Base = 0; Base < Unique.size() && !Ctx.stopped(); Base += W) {
    unsigned N = unsigned(std::min<size_t>(W, Unique.size() - Base));
    P.Fetcher->fetch(Ctx.Res, &Unique[Base], N, Instance, FirstInstance,
                     In.data());
    Args.active_mask = (1u << N) - 1;
    J.run(Args);
    for (unsigned Lane = 0; Lane < N; ++Lane) {
      // (data(), not &Words[...]: with no linked word Words is empty.)
      uint32_t *V = Words.data() + size_t(Pos[Base + Lane]) * NW;
      for (size_t K = 0; K < NW; ++K)
        if (Link.Words[K].VsOffset != ~0u)
          V[K] = loadWord(Out.data(), Link.Words[K].VsOffset, Lane);
    }
  }
}

/// Appends the emitted vertex at \p Block (a vertex of the geometry
/// shader's outputs) of \p Lane to \p Out, as shadeVertices keeps a vertex
/// shader's.
uint32_t captureVertex(const GraphicsPipeline::Impl &P, const uint8_t *Block,
                       unsigned Lane, ShadedVertices &Out) {
  uint32_t Id = Out.add();
  storeShadedVertex(P, Block, Lane, &Out.Words[size_t(Id) * Out.Stride],
                    Out.VaryingBase);
  return Id;
}

} // namespace

void shadeGeometry(DrawContext &Ctx, const std::vector<uint32_t> &Indices,
                   const std::vector<Primitive> &Prims, uint32_t Instance,
                   uint32_t FirstInstance, ShadedVertices &Out,
                   std::vector<uint32_t> &Slot,
                   std::vector<Primitive> &OutPrims,
                   std::vector<uint32_t> &PrimIds, DrawStats &Stats) {
  const GraphicsPipeline::Impl &P = Ctx.Pipe;
  const GeometryLink &Link = *P.GeoLink;
  const JitShader &J = *P.Geometry;
  const InterfaceLayout &L = J.layout();
  const GeometryLayout &G = L.Geometry;
  const unsigned W = J.width();
  Out.NumClip = uint32_t(P.ClipDistances.size());
  Out.NumCull = uint32_t(P.CullDistances.size());
  Out.VaryingBase = 6 + Out.NumClip + Out.NumCull;
  Out.Stride = Out.VaryingBase + uint32_t(P.Varyings.size());
  Out.Words.clear();
  Slot.clear();
  OutPrims.clear();
  PrimIds.clear();

  std::vector<uint32_t> VsWords;
  std::vector<uint32_t> VertexPrimId; // by vertex of Out
  auto Run = [&] {
    shadeLinkedVertices(Ctx, Indices, Instance, FirstInstance, VsWords);
    Stats.VertexInvocations +=
        uint64_t(std::count_if(Indices.begin(), Indices.end(),
                               [](uint32_t I) { return I != RestartIndex; }));
    const size_t NW = Link.Words.size();
    std::vector<uint8_t> In(L.InputSize), OutBlock(L.OutputSize);
    DescriptorTable Table(Ctx.Res);
    s2l_group_args Args = {};
    Args.inputs = In.data();
    Args.outputs = OutBlock.data();
    Args.descriptor_sets = Table.SetTable.data();
    Args.push_constants = Ctx.Res.PushConstants.data();
    Args.num_workgroups[0] = Args.num_workgroups[1] = Args.num_workgroups[2] =
        1;
    Args.cancel = Ctx.stopFlag();
    const uint64_t Items = uint64_t(Prims.size()) * G.Invocations;
    for (uint64_t Base = 0; Base < Items && !Ctx.stopped(); Base += W) {
      unsigned N = unsigned(std::min<uint64_t>(W, Items - Base));
      for (unsigned Lane = 0; Lane < N; ++Lane) {
        uint64_t Item = Base + Lane;
        uint32_t Prim = uint32_t(Item / G.Invocations);
        uint32_t Inv = uint32_t(Item % G.Invocations);
        const Primitive &Pr = Prims[Prim];
        for (size_t K = 0; K < NW; ++K)
          for (uint32_t V = 0; V < Pr.N && V < Link.Words[K].GsOffsets.size();
               ++V)
            std::memcpy(&In[Link.Words[K].GsOffsets[V] + 4 * Lane],
                        &VsWords[size_t(Pr.V[V]) * NW + K], 4);
        if (Link.PrimitiveIdOffset)
          std::memcpy(&In[*Link.PrimitiveIdOffset + 4 * Lane], &Prim, 4);
        if (Link.InvocationIdOffset)
          std::memcpy(&In[*Link.InvocationIdOffset + 4 * Lane], &Inv, 4);
      }
      // Counts and pending cuts start at zero (GeometryLayout).
      std::memset(&OutBlock[G.CountOffset], 0, 4 * W);
      std::memset(&OutBlock[G.PendingCutOffset], 0, 4 * W);
      Args.active_mask = (1u << N) - 1;
      J.run(Args);
      for (unsigned Lane = 0; Lane < N; ++Lane) {
        uint32_t Count = loadWord(OutBlock.data(), G.CountOffset, Lane);
        Count = std::min(Count, G.MaxVertices);
        uint32_t Prim = uint32_t((Base + Lane) / G.Invocations);
        // Each lane's output starts a new strip.
        if (!Slot.empty() && Slot.back() != RestartIndex)
          Slot.push_back(RestartIndex);
        for (uint32_t K = 0; K < Count; ++K) {
          uint32_t Cut =
              loadWord(OutBlock.data(), G.CutOffset + K * 4 * W, Lane);
          if (K > 0 && Cut && Slot.back() != RestartIndex)
            Slot.push_back(RestartIndex);
          const uint8_t *Vtx =
              OutBlock.data() + G.VerticesOffset + size_t(K) * G.VertexBytes;
          Slot.push_back(captureVertex(P, Vtx, Lane, Out));
          VertexPrimId.push_back(Link.PrimitiveIdOut
                                     ? loadWord(Vtx, *Link.PrimitiveIdOut, Lane)
                                     : Prim);
        }
      }
    }
  };
  if (!Ctx.Res.CatchFaults) {
    Run();
  } else {
    FaultInfo F;
    if (!runGuarded(Run, F))
      Ctx.fail("geometry shader: " +
               describeFault(F, resourceRanges(Ctx.Res, &J.computeInfo())));
  }
  if (Ctx.stopped())
    return;
  // Positions of Slot are the index list of the output topology.
  assemble(Link.OutputTopology, Ctx.State.Rasterization.ProvokingVertexFirst,
           Slot, OutPrims);
  for (const Primitive &Pr : OutPrims)
    PrimIds.push_back(VertexPrimId[Slot[Pr.V[Pr.Provoking]]]);
}

void drawGeometryInstance(DrawContext &Ctx,
                          const std::vector<uint32_t> &Indices,
                          const std::vector<Primitive> &Prims,
                          uint32_t Instance, uint32_t FirstInstance,
                          ShadedVertices &Verts, std::vector<SetupPrim> &Setup,
                          DrawStats &Stats) {
  std::vector<uint32_t> Slot, PrimIds;
  std::vector<Primitive> OutPrims;
  shadeGeometry(Ctx, Indices, Prims, Instance, FirstInstance, Verts, Slot,
                OutPrims, PrimIds, Stats);
  if (Ctx.stopped() || Ctx.State.Rasterization.RasterizerDiscardEnable)
    return;
  Setup.clear();
  setupPrimitives(Ctx, OutPrims, Slot, Verts, Setup, Stats);
  // Setup numbers primitives by their place in OutPrims; the fragment
  // shader's PrimitiveId is what the geometry shader wrote.
  for (SetupPrim &S : Setup)
    S.PrimitiveId = PrimIds[S.PrimitiveId];
  rasterize(Ctx, Verts, Setup);
}

} // namespace spirv2llvm::graphics
