//===- Raster.cpp - Binning and tile rasterization -------------------------===//
//
// llvmpipe's design: set-up primitives are binned into 64x64 tiles (a
// primitive goes to every tile its bounding box touches, unless one of its
// edges leaves the whole tile outside), then worker threads take tiles
// from one counter and rasterize each tile's primitives in draw order, so
// that depth, stencil and blending see primitives one after another at
// every pixel while tiles run in parallel. Within a tile each primitive is
// walked in 2x2 quads; a quad's coverage is one bit per pixel and sample,
// from the fixed-point edge functions. A tile that lies wholly inside a
// primitive skips the per-sample tests.
//
//===----------------------------------------------------------------------===//
#include "graphics/FragmentStage.h"

#include "runtime/FaultGuard.h"
#include "runtime/FaultReport.h"
#include "runtime/ThreadPool.h"

#include <algorithm>

namespace spirv2llvm::graphics {

namespace {

/// Whether the subpixel rectangle [X0, X1] x [Y0, Y1] is wholly outside
/// (Outside) or wholly inside (Inside) edge K of \p P.
void classify(const SetupPrim &P, int64_t X0, int64_t Y0, int64_t X1,
              int64_t Y1, bool &Outside, bool &Inside) {
  Outside = false;
  Inside = true;
  for (int K = 0; K < P.NumEdges; ++K) {
    // The corner where the edge function is largest, and smallest.
    int64_t MaxX = P.A[K] >= 0 ? X1 : X0, MaxY = P.B[K] >= 0 ? Y1 : Y0;
    int64_t MinX = P.A[K] >= 0 ? X0 : X1, MinY = P.B[K] >= 0 ? Y0 : Y1;
    if (P.A[K] * MaxX + P.B[K] * MaxY + P.C[K] < 0) {
      Outside = true;
      Inside = false;
      return;
    }
    if (P.A[K] * MinX + P.B[K] * MinY + P.C[K] < 0)
      Inside = false;
  }
}

struct Tiles {
  int32_t TX0, TY0, Cols, Rows;
  std::vector<std::vector<uint32_t>> Bins;
};

Tiles binPrimitives(const DrawContext &Ctx,
                    const std::vector<SetupPrim> &Prims) {
  Tiles T;
  T.TX0 = Ctx.AreaX0 >> TileShift;
  T.TY0 = Ctx.AreaY0 >> TileShift;
  T.Cols = ((Ctx.AreaX1 - 1) >> TileShift) - T.TX0 + 1;
  T.Rows = ((Ctx.AreaY1 - 1) >> TileShift) - T.TY0 + 1;
  T.Bins.resize(size_t(std::max(T.Cols, 0)) * size_t(std::max(T.Rows, 0)));
  for (uint32_t I = 0; I < Prims.size(); ++I) {
    const SetupPrim &P = Prims[I];
    int32_t X0 = P.MinX >> TileShift, X1 = P.MaxX >> TileShift;
    int32_t Y0 = P.MinY >> TileShift, Y1 = P.MaxY >> TileShift;
    bool Single = X0 == X1 && Y0 == Y1;
    for (int32_t Ty = Y0; Ty <= Y1; ++Ty)
      for (int32_t Tx = X0; Tx <= X1; ++Tx) {
        if (!Single) {
          bool Outside, Inside;
          int64_t SX0 = int64_t(Tx) << (TileShift + SubpixelBits);
          int64_t SY0 = int64_t(Ty) << (TileShift + SubpixelBits);
          classify(P, SX0, SY0, SX0 + (int64_t(TileSize) << SubpixelBits) - 1,
                   SY0 + (int64_t(TileSize) << SubpixelBits) - 1, Outside,
                   Inside);
          if (Outside)
            continue;
        }
        T.Bins[size_t(Ty - T.TY0) * T.Cols + (Tx - T.TX0)].push_back(I);
      }
  }
  return T;
}

/// Walks primitive \p P over the part of tile (\p Tx, \p Ty) it covers,
/// handing covered quads to \p FS.
void rasterizeInTile(DrawContext &Ctx, FragmentStage &FS, const SetupPrim &P,
                     int32_t Tx, int32_t Ty, bool PerSample) {
  const uint32_t S = Ctx.Samples;
  int32_t X0 = std::max(P.MinX, Tx << TileShift) & ~1;
  int32_t Y0 = std::max(P.MinY, Ty << TileShift) & ~1;
  int32_t X1 = std::min(P.MaxX, ((Tx + 1) << TileShift) - 1);
  int32_t Y1 = std::min(P.MaxY, ((Ty + 1) << TileShift) - 1);
  // The whole part inside the primitive: every sample of the clipped
  // area is covered.
  bool Outside, Inside;
  classify(P, int64_t(X0) << SubpixelBits, int64_t(Y0) << SubpixelBits,
           ((int64_t(X1) + 2) << SubpixelBits) - 1,
           ((int64_t(Y1) + 2) << SubpixelBits) - 1, Outside, Inside);
  if (Outside)
    return;
  const uint32_t PixelMask = (1u << S) - 1;
  // The pixels that may be covered: render area and bounding box.
  const int32_t XLo = std::max(Ctx.AreaX0, P.MinX), XHi = std::min(Ctx.AreaX1 - 1, P.MaxX);
  const int32_t YLo = std::max(Ctx.AreaY0, P.MinY), YHi = std::min(Ctx.AreaY1 - 1, P.MaxY);
  for (int32_t Y = Y0; Y <= Y1; Y += 2)
    for (int32_t X = X0; X <= X1; X += 2) {
      // Whole quads outside one edge go at once; quads inside every edge
      // need no per-sample test.
      bool QuadInside = Inside;
      if (!Inside) {
        bool QuadOutside;
        classify(P, int64_t(X) << SubpixelBits, int64_t(Y) << SubpixelBits,
                 (int64_t(X + 2) << SubpixelBits) - 1,
                 (int64_t(Y + 2) << SubpixelBits) - 1, QuadOutside,
                 QuadInside);
        if (QuadOutside)
          continue;
      }
      uint32_t Cov = 0;
      for (unsigned K = 0; K < 4; ++K) {
        int32_t Px = X + int32_t(K & 1), Py = Y + int32_t(K >> 1);
        if (Px < XLo || Px > XHi || Py < YLo || Py > YHi)
          continue;
        if (QuadInside) {
          Cov |= PixelMask << (K * S);
          continue;
        }
        for (uint32_t Smp = 0; Smp < S; ++Smp) {
          int64_t SX = (int64_t(Px) << SubpixelBits) + Ctx.SampleOffsets[Smp][0];
          int64_t SY = (int64_t(Py) << SubpixelBits) + Ctx.SampleOffsets[Smp][1];
          bool In = true;
          for (int E = 0; E < P.NumEdges && In; ++E)
            In = P.A[E] * SX + P.B[E] * SY + P.C[E] >= 0;
          if (In)
            Cov |= 1u << (K * S + Smp);
        }
      }
      if (!Cov)
        continue;
      if (!PerSample) {
        Quad Q{X, Y, &P, Cov, -1};
        if (FS.earlyTests())
          FS.test(Q);
        if (Q.Coverage)
          FS.add(Q);
        continue;
      }
      for (uint32_t Smp = 0; Smp < S; ++Smp) {
        uint32_t Bits = 0;
        for (unsigned K = 0; K < 4; ++K)
          Bits |= 1u << (K * S + Smp);
        Quad Q{X, Y, &P, Cov & Bits, int32_t(Smp)};
        if (!Q.Coverage)
          continue;
        if (FS.earlyTests())
          FS.test(Q);
        if (Q.Coverage)
          FS.add(Q);
      }
    }
}

} // namespace

void rasterize(DrawContext &Ctx, const ShadedVertices &Verts,
               const std::vector<SetupPrim> &Prims) {
  if (Prims.empty() || Ctx.AreaX0 >= Ctx.AreaX1 || Ctx.AreaY0 >= Ctx.AreaY1)
    return;
  Tiles T = binPrimitives(Ctx, Prims);
  std::vector<uint32_t> Work;
  for (uint32_t I = 0; I < T.Bins.size(); ++I)
    if (!T.Bins[I].empty())
      Work.push_back(I);
  const GraphicsPipeline::Impl &P = Ctx.Pipe;
  // Sample shading: asked for, or implied by reading SampleId or
  // SamplePosition (Vulkan).
  bool PerSample = Ctx.Samples > 1 &&
                   Ctx.State.Multisample.SampleShadingEnable &&
                   Ctx.State.Multisample.MinSampleShading * Ctx.Samples > 1;
  for (const FragmentInput &FI : P.FragmentInputs)
    PerSample |= Ctx.Samples > 1 &&
                 (FI.K == FragmentInput::Kind::SampleId ||
                  FI.K == FragmentInput::Kind::SamplePosition);
  std::atomic<uint32_t> Next{0};
  unsigned Threads = unsigned(
      std::clamp<size_t>(Work.size(), 1, std::max(1u, Ctx.Threads)));
  auto Worker = [&](unsigned) {
    FragmentStage FS(Ctx, Verts);
    auto Run = [&] {
      for (;;) {
        if (Ctx.stopped())
          return;
        uint32_t I = Next.fetch_add(1, std::memory_order_relaxed);
        if (I >= Work.size())
          break;
        uint32_t Bin = Work[I];
        int32_t Tx = T.TX0 + int32_t(Bin % T.Cols);
        int32_t Ty = T.TY0 + int32_t(Bin / T.Cols);
        for (uint32_t PI : T.Bins[Bin]) {
          if (Ctx.stopped())
            break;
          rasterizeInTile(Ctx, FS, Prims[PI], Tx, Ty, PerSample);
        }
        // Quads of the next tile never overlap this one's; flushing here
        // keeps a tile's writes within its own pass.
        FS.flush();
      }
    };
    if (!Ctx.Res.CatchFaults) {
      Run();
      return;
    }
    FaultInfo F;
    if (!runGuarded(Run, F))
      Ctx.fail("fragment shader: " +
               describeFault(F, resourceRanges(Ctx.Res, P.Fragment
                                                            ? &P.Fragment
                                                                   ->computeInfo()
                                                            : nullptr)));
  };
  runOnWorkers(Threads, Worker);
}

} // namespace spirv2llvm::graphics
