//===- Draw.cpp - Running a draw --------------------------------------------===//
//
// A draw checks everything it is given before it writes anything (the
// attachments against the pipeline, the resources against both shaders,
// the vertex and index buffers against the draw), then runs instance by
// instance: vertex shading, clipping and setup, binning and tiles. The
// resolve attachments get the average of each pixel's samples at the end.
//
//===----------------------------------------------------------------------===//
#include "graphics/DrawContext.h"

#include "runtime/ThreadPool.h"
#include "runtime/Watchdog.h"
#include "support/StatusBridge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <thread>

using namespace llvm;

namespace spirv2llvm {

using namespace graphics;

namespace {

Status invalid(const std::string &Msg) {
  return Status::error(Msg, StatusCode::InvalidArgument);
}

std::string formatName(Format F) {
  if (const FormatInfo *I = formatInfo(F))
    return std::string(I->Name);
  return "VkFormat " + std::to_string(uint32_t(F));
}

/// Checks one attachment and makes its view.
Status attachment(const s2l_image *Img, Format Expected, uint32_t Samples,
                  const std::string &What, uint32_t &Width, uint32_t &Height,
                  AttachmentView &View) {
  if (!Img || !Img->data)
    return invalid(What + ": no image");
  if (Format(Img->format) != Expected)
    return invalid(What + " has format " + formatName(Format(Img->format)) +
                   ", the pipeline " + formatName(Expected));
  uint32_t S = Img->samples ? Img->samples : 1;
  if (S != Samples)
    return invalid(What + " has " + std::to_string(S) +
                   " samples, the pipeline " + std::to_string(Samples));
  const FormatInfo *FI = formatInfo(Expected);
  if (!FI || FI->isCompressed())
    return invalid(What + ": " + formatName(Expected) +
                   " cannot be an attachment");
  const s2l_image_level &L = Img->level[0];
  if (Width == 0 && Height == 0) {
    Width = L.width;
    Height = L.height;
  } else if (L.width != Width || L.height != Height) {
    return invalid(What + " is " + std::to_string(L.width) + "x" +
                   std::to_string(L.height) + ", the other attachments " +
                   std::to_string(Width) + "x" + std::to_string(Height));
  }
  View.Data = static_cast<uint8_t *>(Img->data) + L.offset;
  View.RowPitch = L.row_pitch;
  View.SampleBytes = FI->BlockBytes;
  View.PixelBytes = FI->BlockBytes * S;
  View.Fmt = Expected;
  return Status::success();
}

/// The average of a pixel's samples into a single-sampled image.
/// Rows are split over \p Threads workers (rows are independent).
void resolve(const AttachmentView &Src, const s2l_image &Dst, uint32_t Width,
             uint32_t Height, uint32_t Samples, unsigned Threads) {
  const FormatInfo *FI = formatInfo(Src.Fmt);
  const s2l_image_level &L = Dst.level[0];
  uint8_t *Base = static_cast<uint8_t *>(Dst.data) + L.offset;
  bool Float = FI->view() == ViewKind::Float;
  Threads = std::clamp<unsigned>(Height / 16, 1, std::max(Threads, 1u));
  runOnWorkers(Threads, [&](unsigned T) {
    for (uint32_t Y = T; Y < Height; Y += Threads)
      for (uint32_t X = 0; X < Width; ++X) {
        uint8_t *D = Base + Y * L.row_pitch + uint64_t(X) * FI->BlockBytes;
        if (!Float) {
          // Integer formats resolve to sample 0 (Vulkan).
          std::memcpy(D, Src.texel(X, Y, 0), FI->BlockBytes);
          continue;
        }
        Float4 Sum = {0, 0, 0, 0};
        for (uint32_t S = 0; S < Samples; ++S) {
          Float4 V;
          (void)decodeTexel(Src.Fmt, Src.texel(X, Y, S), V);
          for (int C = 0; C < 4; ++C)
            Sum[C] += V[C];
        }
        for (int C = 0; C < 4; ++C)
          Sum[C] /= float(Samples);
        (void)encodeTexel(Src.Fmt, Sum, D);
      }
  });
}

/// "2 s", "0.25 s" (as dispatch() says it).
std::string formatSeconds(std::chrono::nanoseconds D) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%g s", double(D.count()) / 1e9);
  return Buf;
}

} // namespace

/// GraphicsPipeline::draw without the out-of-memory net.
static Status runDraw(GraphicsPipeline::Impl &I, const Framebuffer &Fb,
                      const DrawResources &R, const DrawCommand &Cmd,
                      unsigned Threads) {
  const GraphicsPipelineDesc &S = I.Desc;
  DrawContext Ctx(I, R);
  Ctx.Samples = S.Multisample.Samples;
  Ctx.Threads = Threads ? Threads
                        : std::max(1u, std::thread::hardware_concurrency());

  // Attachments.
  if (Fb.Color.size() < S.ColorFormats.size())
    return invalid("the framebuffer has " + std::to_string(Fb.Color.size()) +
                   " colour attachments, the pipeline " +
                   std::to_string(S.ColorFormats.size()));
  Ctx.Color.resize(S.ColorFormats.size());
  for (size_t K = 0; K < S.ColorFormats.size(); ++K) {
    if (S.ColorFormats[K] == Format::UNDEFINED || !Fb.Color[K])
      continue;
    if (Status St = attachment(Fb.Color[K], S.ColorFormats[K], Ctx.Samples,
                               "colour attachment " + std::to_string(K),
                               Ctx.FbWidth, Ctx.FbHeight, Ctx.Color[K]);
        !St.ok())
      return St;
  }
  if (S.DepthStencilFormat != Format::UNDEFINED && Fb.DepthStencil) {
    if (Status St = attachment(Fb.DepthStencil, S.DepthStencilFormat,
                               Ctx.Samples, "the depth/stencil attachment",
                               Ctx.FbWidth, Ctx.FbHeight, Ctx.DepthStencil);
        !St.ok())
      return St;
  }
  for (size_t K = 0; K < Fb.Resolve.size(); ++K) {
    if (!Fb.Resolve[K])
      continue;
    if (K >= Ctx.Color.size() || !Ctx.Color[K].Data)
      return invalid("resolve attachment " + std::to_string(K) +
                     " has no colour attachment");
    AttachmentView V;
    uint32_t W = Ctx.FbWidth, H = Ctx.FbHeight;
    if (Status St = attachment(Fb.Resolve[K], S.ColorFormats[K], 1,
                               "resolve attachment " + std::to_string(K), W,
                               H, V);
        !St.ok())
      return St;
  }
  if (Ctx.FbWidth == 0 || Ctx.FbHeight == 0)
    return invalid("the framebuffer has no attachment");
  if (uint64_t(Ctx.FbWidth) * Ctx.FbHeight * Ctx.Samples >
      GraphicsLimits::MaxFramebufferSamples)
    return invalid("the framebuffer has " + std::to_string(Ctx.FbWidth) +
                   "x" + std::to_string(Ctx.FbHeight) + "x" +
                   std::to_string(Ctx.Samples) + " samples (at most " +
                   std::to_string(GraphicsLimits::MaxFramebufferSamples) +
                   ")");
  if (Ctx.FbWidth > GraphicsLimits::MaxFramebufferSize ||
      Ctx.FbHeight > GraphicsLimits::MaxFramebufferSize)
    return invalid("the framebuffer is " + std::to_string(Ctx.FbWidth) + "x" +
                   std::to_string(Ctx.FbHeight) + " (at most " +
                   std::to_string(GraphicsLimits::MaxFramebufferSize) +
                   " per side)");

  // Resources.
  if (Error E = checkResources(I.Vertex->computeInfo(), R))
    return Status::error("vertex shader: " + toString(std::move(E)),
                         StatusCode::InvalidArgument);
  if (I.Geometry)
    if (Error E = checkResources(I.Geometry->computeInfo(), R))
      return Status::error("geometry shader: " + toString(std::move(E)),
                           StatusCode::InvalidArgument);
  if (I.Fragment)
    if (Error E = checkResources(I.Fragment->computeInfo(), R))
      return Status::error("fragment shader: " + toString(std::move(E)),
                           StatusCode::InvalidArgument);
  if (Status St = I.Fetcher->checkBuffers(R); !St.ok())
    return St;
  if (Cmd.Count > GraphicsLimits::MaxInstanceVertices)
    return invalid("the draw has " + std::to_string(Cmd.Count) +
                   (Cmd.Indexed ? " indices" : " vertices") +
                   " per instance (at most " +
                   std::to_string(GraphicsLimits::MaxInstanceVertices) +
                   ", which bounds the memory a draw holds)");
  if (uint64_t(Cmd.Count) * std::max(Cmd.InstanceCount, 1u) >
      GraphicsLimits::MaxDrawVertices)
    return invalid("the draw has " + std::to_string(Cmd.Count) +
                   " vertices x " + std::to_string(Cmd.InstanceCount) +
                   " instances (at most " +
                   std::to_string(GraphicsLimits::MaxDrawVertices) + ")");
  std::vector<uint32_t> Indices;
  if (Status St = readIndices(R, Cmd, S.PrimitiveRestartEnable, Indices);
      !St.ok())
    return St;

  // The viewports and the render area (Viewports.cpp).
  if (Status St = prepareViewports(Ctx); !St.ok())
    return St;
  Ctx.SamplePositions = standardSampleLocations(Ctx.Samples);
  for (const auto &L : Ctx.SamplePositions)
    Ctx.SampleOffsets.push_back({int32_t(L[0] * SubpixelOne),
                                 int32_t(L[1] * SubpixelOne)});

  std::optional<std::chrono::steady_clock::time_point> Deadline;
  if (R.Timeout.count() > 0)
    Deadline = std::chrono::steady_clock::now() + R.Timeout;
  WatchdogTicket Ticket(Ctx.Stop, Deadline, R.Cancel);

  DrawStats Stats;
  std::vector<Primitive> Prims;
  assemble(S.Topology, S.Rasterization.ProvokingVertexFirst, Indices, Prims);
  // Kept per calling thread across draws: a fresh 30 MB vector of set-up
  // primitives faulted its pages in on every draw of 100,000 triangles
  // (17% of the draw). Draws on other threads have their own.
  thread_local ShadedVertices Verts;
  thread_local std::vector<uint32_t> Slot;
  thread_local std::vector<SetupPrim> Setup;
  Verts.Words.clear();
  for (uint32_t Inst = 0; Inst < Cmd.InstanceCount && !Ctx.stopped(); ++Inst) {
    uint32_t Instance = Cmd.FirstInstance + Inst;
    if (I.Geometry) {
      drawGeometryInstance(Ctx, Indices, Prims, Instance, Cmd.FirstInstance,
                           Verts, Setup, Stats);
      continue;
    }
    shadeVertices(Ctx, Indices, Instance, Cmd.FirstInstance, Verts, Slot);
    Stats.VertexInvocations += Verts.size();
    if (Ctx.stopped() || S.Rasterization.RasterizerDiscardEnable)
      continue;
    Setup.clear();
    setupPrimitives(Ctx, Prims, Slot, Verts, Setup, Stats);
    rasterize(Ctx, Verts, Setup);
  }
  Stats.FragmentQuads = Ctx.FragmentQuads.load();
  Stats.FragmentCalls = Ctx.FragmentCalls.load();
  {
    std::lock_guard<std::mutex> L(I.StatsMutex);
    I.Stats = Stats;
  }
  if (!Ctx.Error.empty())
    return Status::error("draw stopped: " + Ctx.Error,
                         StatusCode::ExecutionFailed);
  switch (Ticket.reason()) {
  case StopKind::Deadline:
    return Status::error("draw timed out after " + formatSeconds(R.Timeout) +
                             " (the time limit): shaders still running were "
                             "stopped at their next loop iteration",
                         StatusCode::ExecutionFailed);
  case StopKind::Cancelled:
    return Status::error("draw cancelled: the watchdog flag was set",
                         StatusCode::ExecutionFailed);
  case StopKind::None:
    break;
  }
  for (size_t K = 0; K < Fb.Resolve.size(); ++K)
    if (Fb.Resolve[K])
      resolve(Ctx.Color[K], *Fb.Resolve[K], Ctx.FbWidth, Ctx.FbHeight,
              Ctx.Samples, Ctx.Threads);
  return Status::success();
}

Status GraphicsPipeline::draw(const Framebuffer &Fb, const DrawResources &R,
                              const DrawCommand &Cmd, unsigned Threads) {
  // The stages keep one instance's vertices, primitives and bins in memory
  // at once (about 160 bytes per vertex with a few varyings): a draw of
  // MaxDrawVertices may need more memory than the host has. Allocations
  // happen on this thread, so a failure is an error, not the end of the
  // embedding process (with overcommit, the kernel may still kill it
  // later instead; docs/robustness.md).
  try {
    return runDraw(*P, Fb, R, Cmd, Threads);
  } catch (const std::bad_alloc &) {
    return Status::error("draw ran out of memory: " +
                             std::to_string(Cmd.Count) +
                             (Cmd.Indexed ? " indices" : " vertices") +
                             " per instance are shaded and set up at once",
                         StatusCode::ExecutionFailed);
  }
}

Status GraphicsPipeline::drawIndirect(const Framebuffer &Fb,
                                      const DrawResources &R,
                                      const void *Indirect,
                                      uint64_t IndirectSize,
                                      uint32_t DrawCount, uint32_t Stride,
                                      bool Indexed, unsigned Threads) {
  // VkDrawIndirectCommand: vertexCount, instanceCount, firstVertex,
  // firstInstance; VkDrawIndexedIndirectCommand: indexCount,
  // instanceCount, firstIndex, vertexOffset, firstInstance.
  const uint64_t CmdSize = Indexed ? 20 : 16;
  if (DrawCount > 1 && (Stride < CmdSize || Stride % 4))
    return invalid("indirect stride " + std::to_string(Stride) +
                   " (a multiple of 4, at least " + std::to_string(CmdSize) +
                   ")");
  for (uint32_t D = 0; D < DrawCount; ++D) {
    uint64_t Offset = uint64_t(D) * Stride;
    if (!Indirect || Offset + CmdSize > IndirectSize)
      return invalid("indirect draw " + std::to_string(D) +
                     " lies beyond the indirect buffer (" +
                     std::to_string(IndirectSize) + " bytes)");
    uint32_t W[5];
    std::memcpy(W, static_cast<const uint8_t *>(Indirect) + Offset, CmdSize);
    DrawCommand C;
    C.Indexed = Indexed;
    C.Count = W[0];
    C.InstanceCount = W[1];
    C.First = W[2];
    if (Indexed) {
      C.VertexOffset = int32_t(W[3]);
      C.FirstInstance = W[4];
    } else {
      C.FirstInstance = W[3];
    }
    if (Status S = draw(Fb, R, C, Threads); !S.ok())
      return S;
  }
  return Status::success();
}

} // namespace spirv2llvm
