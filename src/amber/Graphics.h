//===- Graphics.h - DRAW_RECT on the JIT ------------------------*- C++ -*-===//
//
// A minimal graphics pipeline: the vertex shader (or PASSTHROUGH) runs on
// the rectangle's four vertices, the two triangles of the strip are
// rasterized with Vulkan's rules (pixel centres at +0.5, top-left fill
// rule, perspective-correct interpolation), and the fragment shader runs on
// 2x2 quads, W/4 quads per SIMD group, writing the colour attachments in
// their formats. No clipping, blending, depth or stencil.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_GRAPHICS_H
#define SPIRV2LLVM_AMBER_GRAPHICS_H

#include "amber/AmberScript.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"
#include "spirv2llvm/Jit.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>

namespace spirv2llvm::amber {

/// A colour attachment: the buffer holding its pixels and its location.
struct ColorTarget {
  BufferDecl *Buffer;
  uint32_t Location;
};

struct GraphicsShaders {
  std::unique_ptr<JitShader> Vertex; ///< null: PASSTHROUGH
  std::unique_ptr<JitShader> Fragment;
  /// Reflection of each stage: the descriptors and push constants it reads.
  ComputeInfo VertexInfo, FragmentInfo;
};

enum class Topology { TriangleList, TriangleStrip, TriangleFan };

/// One draw: the vertices in draw order (after the index buffer) and where
/// their attributes come from.
struct DrawCall {
  Topology Topo = Topology::TriangleList;
  std::vector<uint32_t> Vertices;
  uint32_t FirstInstance = 0, InstanceCount = 1;
  /// Attribute \p Location of vertex index \p Vertex, instance
  /// \p Instance into \p Out (which starts as 0 0 0 1); false when no
  /// attribute has that location.
  std::function<bool(uint32_t Location, uint32_t Vertex, uint32_t Instance,
                     double Out[4])>
      Fetch;
};

/// Fixed-function state of a draw.
struct RasterState {
  /// Run the uncovered pixels of partly covered quads as helper
  /// invocations (Vulkan's behaviour) when the fragment shader binds no
  /// storage buffer (an active lane's stores would not be suppressed);
  /// false runs covered lanes only.
  bool HelperLanes = true;
  /// Viewport x, y, w, h; unset: the framebuffer. Pixels outside it are
  /// not drawn, which is what clipping to x and y amounts to.
  std::optional<std::array<double, 4>> Viewport;
  double MinDepth = 0, MaxDepth = 1;
  BlendDecl Blend;
  DepthDecl Depth;
  /// The depth/stencil attachment (its 'D' channel), or null.
  BufferDecl *DepthBuffer = nullptr;
};

/// Vulkan's depth compare \p Op (never, less, equal, less_or_equal,
/// greater, not_equal, greater_or_equal, always) of the fragment's depth
/// \p A against the stored \p B; nullopt for an unknown name.
std::optional<bool> depthCompare(llvm::StringRef Op, double A, double B);

/// Draws \p D with \p S into \p Targets of a \p FbWidth x \p FbHeight
/// framebuffer. Errors say what is missing (an input the runner cannot
/// feed, an unbound descriptor); makeUnsupported ones are SKIPs.
llvm::Error draw(const GraphicsShaders &S, const DrawCall &D, uint32_t FbWidth,
                 uint32_t FbHeight, std::vector<ColorTarget> &Targets,
                 const DispatchResources &R, const RasterState &RS);

/// The triangle strip Amber draws for DRAW_RECT (x, y, w, h in
/// framebuffer pixels), the position at location 0.
DrawCall rectDraw(std::array<double, 4> Rect, uint32_t FbWidth,
                  uint32_t FbHeight);
/// The triangle list of DRAW_GRID: \p Cols x \p Rows rectangles.
DrawCall gridDraw(std::array<double, 4> Rect, uint32_t Cols, uint32_t Rows,
                  uint32_t FbWidth, uint32_t FbHeight);

/// Checks BLEND factor and operation names; the message names a bad one.
std::optional<std::string> checkBlend(const BlendDecl &B);

/// Marks errors that mean "feature not supported" (a SKIP, not a FAIL).
llvm::Error makeUnsupported(const llvm::Twine &Msg);
bool isUnsupported(const llvm::Error &E);

} // namespace spirv2llvm::amber

#endif
