//===- VertexStage.cpp - Running the vertex shader -------------------------===//
//
// Each distinct vertex index of a draw is shaded once (the post-transform
// cache of an indexed draw, here exact rather than a small FIFO: the index
// range is mapped through a table when it is dense, a hash map otherwise),
// W vertices per call, the distinct vertices split over the worker
// threads. Only what the rest of the pipeline reads is kept: the clip
// position, the point size, the viewport index, the clip and cull
// distances and the varyings the fragment shader reads.
//
//===----------------------------------------------------------------------===//
#include "graphics/DrawContext.h"

#include "runtime/FaultGuard.h"
#include "runtime/FaultReport.h"
#include "runtime/ThreadPool.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace spirv2llvm::graphics {

namespace {

/// The distinct indices of \p Indices in first-use order, and for each
/// position its number among them.
void distinctVertices(const std::vector<uint32_t> &Indices,
                      std::vector<uint32_t> &Unique,
                      std::vector<uint32_t> &Slot) {
  Slot.assign(Indices.size(), RestartIndex);
  uint32_t Lo = ~0u, Hi = 0;
  for (uint32_t I : Indices)
    if (I != RestartIndex) {
      Lo = std::min(Lo, I);
      Hi = std::max(Hi, I);
    }
  if (Lo > Hi)
    return;
  uint64_t Range = uint64_t(Hi) - Lo + 1;
  if (Range <= 4 * Indices.size() + 1024) {
    std::vector<uint32_t> Map(Range, RestartIndex);
    for (size_t P = 0; P < Indices.size(); ++P) {
      uint32_t I = Indices[P];
      if (I == RestartIndex)
        continue;
      uint32_t &S = Map[I - Lo];
      if (S == RestartIndex) {
        S = uint32_t(Unique.size());
        Unique.push_back(I);
      }
      Slot[P] = S;
    }
    return;
  }
  std::unordered_map<uint32_t, uint32_t> Map;
  Map.reserve(Indices.size());
  for (size_t P = 0; P < Indices.size(); ++P) {
    uint32_t I = Indices[P];
    if (I == RestartIndex)
      continue;
    auto [It, New] = Map.try_emplace(I, uint32_t(Unique.size()));
    if (New)
      Unique.push_back(I);
    Slot[P] = It->second;
  }
}

uint32_t loadWord(const uint8_t *Block, uint32_t Offset, unsigned Lane) {
  uint32_t X;
  std::memcpy(&X, Block + Offset + 4 * Lane, 4);
  return X;
}

} // namespace

void storeShadedVertex(const GraphicsPipeline::Impl &P, const uint8_t *Block,
                       unsigned Lane, uint32_t *V, uint32_t VaryingBase) {
  if (P.Position) {
    for (unsigned C = 0; C < 4; ++C)
      V[C] = loadWord(
          Block, P.Position->ComponentOffsets[P.PositionComponent + C], Lane);
  } else {
    // No position written: undefined in Vulkan; the origin with w = 1
    // keeps the primitives empty.
    float One = 1;
    std::memcpy(&V[3], &One, 4);
  }
  float Size = 1;
  if (P.PointSize)
    std::memcpy(&Size,
                Block + P.PointSize->ComponentOffsets[P.PointSizeComponent] +
                    4 * Lane,
                4);
  std::memcpy(&V[4], &Size, 4);
  V[5] =
      P.ViewportIndexOffset ? loadWord(Block, *P.ViewportIndexOffset, Lane) : 0;
  uint32_t *D = &V[6];
  for (uint32_t Off : P.ClipDistances)
    *D++ = loadWord(Block, Off, Lane);
  for (uint32_t Off : P.CullDistances)
    *D++ = loadWord(Block, Off, Lane);
  for (size_t K = 0; K < P.Varyings.size(); ++K)
    V[VaryingBase + K] = loadWord(Block, P.Varyings[K].VsOffset, Lane);
}

void shadeVertices(DrawContext &Ctx, const std::vector<uint32_t> &Indices,
                   uint32_t Instance, uint32_t FirstInstance,
                   ShadedVertices &Out, std::vector<uint32_t> &Slot) {
  const GraphicsPipeline::Impl &P = Ctx.Pipe;
  std::vector<uint32_t> Unique;
  distinctVertices(Indices, Unique, Slot);
  Out.NumClip = uint32_t(P.ClipDistances.size());
  Out.NumCull = uint32_t(P.CullDistances.size());
  Out.VaryingBase = 6 + Out.NumClip + Out.NumCull;
  Out.Stride = Out.VaryingBase + uint32_t(P.Varyings.size());
  Out.Words.assign(size_t(Unique.size()) * Out.Stride, 0);

  const JitShader &J = *P.Vertex;
  const InterfaceLayout &L = J.layout();
  const unsigned W = J.width();
  const uint32_t Groups = uint32_t((Unique.size() + W - 1) / W);
  // Enough groups per thread to be worth a thread.
  unsigned Threads = unsigned(
      std::clamp<uint64_t>(Groups / 64, 1, std::max(1u, Ctx.Threads)));
  std::atomic<uint32_t> NextGroup{0};

  auto Worker = [&](unsigned) {
    std::vector<uint8_t> In(L.InputSize), OutBuf(L.OutputSize);
    s2l_group_args Args = {};
    Args.inputs = In.data();
    Args.outputs = OutBuf.data();
    Args.descriptor_sets = Ctx.VertexTable.SetTable.data();
    Args.push_constants = Ctx.Res.PushConstants.data();
    Args.num_workgroups[0] = Args.num_workgroups[1] =
        Args.num_workgroups[2] = 1;
    Args.cancel = Ctx.stopFlag();
    auto Run = [&] {
      for (;;) {
        if (Ctx.stopped())
          return;
        // Batches of groups from one counter.
        uint32_t G0 = NextGroup.fetch_add(16, std::memory_order_relaxed);
        if (G0 >= Groups)
          return;
        for (uint32_t G = G0; G < std::min(Groups, G0 + 16); ++G) {
          // No further call once the draw is stopped (FragmentStage too).
          if (Ctx.stopped())
            return;
          uint32_t Base = G * W;
          unsigned N = unsigned(std::min<size_t>(W, Unique.size() - Base));
          P.Fetcher->fetch(Ctx.Res, &Unique[Base], N, Instance, FirstInstance,
                           In.data());
          Args.active_mask = (1u << N) - 1;
          J.run(Args);
          for (unsigned Lane = 0; Lane < N; ++Lane) {
            storeShadedVertex(P, OutBuf.data(), Lane,
                              &Out.Words[size_t(Base + Lane) * Out.Stride],
                              Out.VaryingBase);
          }
        }
      }
    };
    if (!Ctx.Res.CatchFaults) {
      Run();
      return;
    }
    FaultInfo F;
    if (!runGuarded(Run, F))
      Ctx.fail("vertex shader: " +
               describeFault(F, resourceRanges(Ctx.Res, &J.computeInfo())));
  };
  runOnWorkers(Threads, Worker);
}

} // namespace spirv2llvm::graphics
