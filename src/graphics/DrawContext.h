//===- DrawContext.h - The state of one draw --------------------*- C++ -*-===//
//
// What the stages of a draw share: the pipeline, the attachments as raw
// texel addresses, the descriptor tables, the stop flag, and the data that
// flows from stage to stage (shaded vertices, set-up primitives, bins).
//
//   vertex stage (VertexStage.cpp) -> clipping and setup (Setup.cpp)
//   -> binning and tile rasterization (Raster.cpp) -> fragment shading and
//   output merge (FragmentStage.cpp)
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_GRAPHICS_DRAWCONTEXT_H
#define SPIRV2LLVM_GRAPHICS_DRAWCONTEXT_H

#include "graphics/PipelineImpl.h"
#include "runtime/Resources.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace spirv2llvm::graphics {

/// Subpixel precision of coverage: 8 bits (Vulkan asks for at least 4;
/// lavapipe has 8).
constexpr int SubpixelBits = 8;
constexpr int64_t SubpixelOne = int64_t(1) << SubpixelBits;
/// Screen tiles are TileSize x TileSize pixels.
constexpr int TileShift = 6;
constexpr int TileSize = 1 << TileShift;

/// An attachment as the rasterizer writes it.
struct AttachmentView {
  uint8_t *Data = nullptr;
  uint64_t RowPitch = 0;
  /// Bytes of one sample, and of one pixel (all its samples).
  uint32_t SampleBytes = 0, PixelBytes = 0;
  Format Fmt = Format::UNDEFINED;

  uint8_t *texel(uint32_t X, uint32_t Y, uint32_t Sample) const {
    return Data + Y * RowPitch + uint64_t(X) * PixelBytes +
           Sample * SampleBytes;
  }
};

/// The vertices of one instance after the vertex shader: per vertex, the
/// clip position, the point size, the viewport index, the clip and cull
/// distances and the varyings' 32-bit words.
struct ShadedVertices {
  /// Words per vertex: 4 + 1 + 1 + distances + varyings.
  uint32_t Stride = 6;
  /// Where the varyings start (after the distances).
  uint32_t VaryingBase = 6;
  uint32_t NumClip = 0, NumCull = 0;
  std::vector<uint32_t> Words;
  float *position(uint32_t V) {
    return reinterpret_cast<float *>(&Words[size_t(V) * Stride]);
  }
  const float *position(uint32_t V) const {
    return reinterpret_cast<const float *>(&Words[size_t(V) * Stride]);
  }
  float pointSize(uint32_t V) const { return position(V)[4]; }
  /// The ViewportIndex the vertex shader wrote (0 when it writes none).
  uint32_t viewportIndex(uint32_t V) const {
    return Words[size_t(V) * Stride + 5];
  }
  const uint32_t *varyings(uint32_t V) const {
    return &Words[size_t(V) * Stride + VaryingBase];
  }
  /// Clip distances, then cull distances.
  const float *distances(uint32_t V) const {
    return reinterpret_cast<const float *>(&Words[size_t(V) * Stride + 6]);
  }
  /// Appends a vertex (clipping makes new ones); returns its number.
  uint32_t add() {
    Words.resize(Words.size() + Stride);
    return uint32_t(Words.size() / Stride - 1);
  }
  uint32_t size() const { return uint32_t(Words.size() / Stride); }
};

/// A primitive set up for rasterization: up to four edge functions in
/// fixed point (inside: A*x + B*y + C >= 0 at subpixel coordinates, the
/// fill rule folded into C), its pixel bounding box, and planes in pixel
/// coordinates for depth and the barycentric weights that interpolate the
/// varyings of its three vertices.
struct SetupPrim {
  int64_t A[4], B[4], C[4];
  uint8_t NumEdges = 3;
  bool FrontFacing = true;
  enum class Kind : uint8_t { Triangle, Line, Point } K = Kind::Triangle;
  /// Bounding box in pixels, inclusive, inside the render area.
  int32_t MinX, MinY, MaxX, MaxY;
  /// Planes f(x, y) = F0 + Fx * (x - RefX) + Fy * (y - RefY), pixel units.
  double RefX, RefY;
  double Z0, Zx, Zy;
  /// Screen-space (linear) weights of vertices 1 and 2.
  double L1[3], L2[3];
  /// Perspective: Q = sum of weight * 1/w, P1, P2 its parts of vertices 1
  /// and 2; the perspective-correct weights are P1/Q and P2/Q.
  double P1[3], P2[3], Q[3];
  /// The three vertices whose varyings are interpolated (ShadedVertices
  /// numbers) and the provoking vertex for flat ones.
  uint32_t V[3];
  uint32_t Provoking;
  uint32_t PrimitiveId;
  /// Its viewport (DrawContext::Viewports), from the provoking vertex's
  /// ViewportIndex.
  uint32_t Viewport = 0;
  /// Points: centre and size, for PointCoord.
  float PointX, PointY, PointSize;
};

/// One viewport of a draw, as setup and the fragment stage use it: the
/// viewport transform (Vulkan's p_x/2, o_x, ...) and depth range, and the
/// pixels a primitive in it may write (framebuffer, its scissor, and the
/// pixels whose centres lie inside the viewport rectangle).
struct ViewportArea {
  double HalfW = 0, HalfH = 0, CenterX = 0, CenterY = 0;
  float MinDepth = 0, MaxDepth = 1;
  int32_t X0 = 0, Y0 = 0, X1 = 0, Y1 = 0; ///< exclusive end
};

/// The shared state of a draw.
struct DrawContext {
  const GraphicsPipeline::Impl &Pipe;
  const GraphicsPipelineDesc &State;
  const DrawResources &Res;
  DescriptorTable VertexTable, FragmentTable;
  uint32_t FbWidth = 0, FbHeight = 0, Samples = 1;
  std::vector<AttachmentView> Color; ///< by location; Data null: unused
  AttachmentView DepthStencil;
  /// The viewports (at least one: the state's, or the whole framebuffer).
  std::vector<ViewportArea> Viewports;
  /// Pixels that may be written: the bounding box of the viewports' areas.
  int32_t AreaX0 = 0, AreaY0 = 0, AreaX1 = 0, AreaY1 = 0; ///< exclusive end
  /// The standard sample locations in subpixel units.
  std::vector<std::array<int32_t, 2>> SampleOffsets;
  std::vector<std::array<float, 2>> SamplePositions;
  unsigned Threads = 1;

  /// Generated code's stop flag (abi.h cancel) and the first error.
  std::atomic<uint32_t> Stop{0};
  std::mutex ErrorMutex;
  std::string Error;
  void fail(const std::string &Msg) {
    std::lock_guard<std::mutex> L(ErrorMutex);
    if (Error.empty())
      Error = Msg;
    Stop.store(1);
  }
  bool stopped() const { return Stop.load(std::memory_order_relaxed) != 0; }
  const volatile uint32_t *stopFlag() const {
    return reinterpret_cast<const volatile uint32_t *>(&Stop);
  }

  std::atomic<uint64_t> FragmentQuads{0}, FragmentCalls{0};

  DrawContext(const GraphicsPipeline::Impl &P, const DrawResources &R)
      : Pipe(P), State(P.Desc), Res(R), VertexTable(R), FragmentTable(R) {}
};

/// Fills Ctx.Viewports and the render area from the state and the
/// framebuffer's size; fails on a viewport of no width or height.
Status prepareViewports(DrawContext &Ctx);

/// Runs the vertex shader on the vertices \p Indices names (RestartIndex
/// entries are skipped), each distinct index once: \p Slot maps each
/// position of Indices to its vertex in \p Out.
void shadeVertices(DrawContext &Ctx, const std::vector<uint32_t> &Indices,
                   uint32_t Instance, uint32_t FirstInstance,
                   ShadedVertices &Out, std::vector<uint32_t> &Slot);

/// Stores \p Lane's vertex from \p Block (a vertex shader's output block,
/// or a vertex a geometry shader emitted) at \p V, in ShadedVertices'
/// layout: position, point size, viewport index, clip and cull distances,
/// varyings from \p VaryingBase on.
void storeShadedVertex(const GraphicsPipeline::Impl &P, const uint8_t *Block,
                       unsigned Lane, uint32_t *V, uint32_t VaryingBase);

/// Clips and sets up \p Prims (positions into Slot) of one instance,
/// appending to \p Out; new vertices from clipping go into \p Verts.
void setupPrimitives(DrawContext &Ctx, const std::vector<Primitive> &Prims,
                     const std::vector<uint32_t> &Slot, ShadedVertices &Verts,
                     std::vector<SetupPrim> &Out, DrawStats &Stats);

/// Bins \p Prims into tiles and rasterizes and shades them on the
/// context's threads, in order per tile.
void rasterize(DrawContext &Ctx, const ShadedVertices &Verts,
               const std::vector<SetupPrim> &Prims);

} // namespace spirv2llvm::graphics

#endif
