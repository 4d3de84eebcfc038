//===- Viewports.cpp - Viewports and scissors of a draw -------------------===//
//
// Vulkan's multiViewport: a pipeline has up to GraphicsLimits::MaxViewports
// viewports and as many scissors, and each primitive is drawn through the
// viewport and scissor that its provoking vertex's ViewportIndex names
// (Vulkan 1.3 "Controlling the Viewport"). Here each viewport becomes its
// transform and the pixel rectangle a primitive in it may write; setup
// picks one per primitive (Setup.cpp), the fragment stage clamps depth to
// its range (FragmentStage.cpp).
//
// An index out of range is undefined in Vulkan; here it selects viewport
// 0 (what Mesa's draw module, under lavapipe, does for indices beyond its
// 16 viewports), so such primitives are still drawn and never read state
// that does not exist.
//
//===----------------------------------------------------------------------===//
#include "graphics/DrawContext.h"

#include <algorithm>
#include <cmath>

namespace spirv2llvm::graphics {

namespace {

Status invalid(const std::string &Msg) {
  return Status::error(Msg, StatusCode::InvalidArgument);
}

} // namespace

Status checkViewportCounts(const GraphicsPipelineDesc &S) {
  constexpr uint32_t Max = GraphicsLimits::MaxViewports;
  if (S.Viewports.size() > Max)
    return invalid(std::to_string(S.Viewports.size()) + " viewports (at most " +
                   std::to_string(Max) + ")");
  if (S.Scissors.size() > Max)
    return invalid(std::to_string(S.Scissors.size()) + " scissors (at most " +
                   std::to_string(Max) + ")");
  // Vulkan wants equal counts; none of one kind means whole-framebuffer
  // entries (this API's default for a single viewport).
  if (!S.Viewports.empty() && !S.Scissors.empty() &&
      S.Viewports.size() != S.Scissors.size())
    return invalid(std::to_string(S.Viewports.size()) + " viewports but " +
                   std::to_string(S.Scissors.size()) +
                   " scissors (Vulkan needs one scissor per viewport)");
  return Status::success();
}

Status prepareViewports(DrawContext &Ctx) {
  const GraphicsPipelineDesc &S = Ctx.State;
  if (Status St = checkViewportCounts(S); !St.ok())
    return St;
  const size_t N = std::max<size_t>({1, S.Viewports.size(), S.Scissors.size()});
  Ctx.Viewports.assign(N, ViewportArea());
  bool First = true;
  for (size_t K = 0; K < N; ++K) {
    Viewport V;
    V.Width = float(Ctx.FbWidth);
    V.Height = float(Ctx.FbHeight);
    if (K < S.Viewports.size()) {
      V = S.Viewports[K];
      if (!(V.Width > 0) || V.Height == 0 || std::isnan(V.Height))
        return invalid("viewport " + std::to_string(K) + " has size " +
                       std::to_string(V.Width) + "x" +
                       std::to_string(V.Height));
    }
    ViewportArea &A = Ctx.Viewports[K];
    A.HalfW = V.Width / 2.0;
    A.HalfH = V.Height / 2.0;
    A.CenterX = V.X + A.HalfW;
    A.CenterY = V.Y + A.HalfH;
    A.MinDepth = V.MinDepth;
    A.MaxDepth = V.MaxDepth;
    // The framebuffer, the scissor, and the pixels whose centres lie
    // inside the viewport rectangle (a negative height flips it).
    A.X1 = int32_t(Ctx.FbWidth);
    A.Y1 = int32_t(Ctx.FbHeight);
    if (K < S.Scissors.size()) {
      const Rect2D &Sc = S.Scissors[K];
      A.X0 = std::max(A.X0, Sc.X);
      A.Y0 = std::max(A.Y0, Sc.Y);
      A.X1 = int32_t(std::min<int64_t>(A.X1, int64_t(Sc.X) + Sc.Width));
      A.Y1 = int32_t(std::min<int64_t>(A.Y1, int64_t(Sc.Y) + Sc.Height));
    }
    double Y0 = std::min(V.Y, V.Y + V.Height),
           Y1 = std::max(V.Y, V.Y + V.Height);
    A.X0 = std::max<int32_t>(A.X0, int32_t(std::ceil(V.X - 0.5)));
    A.Y0 = std::max<int32_t>(A.Y0, int32_t(std::ceil(Y0 - 0.5)));
    A.X1 = std::min<int32_t>(A.X1, int32_t(std::ceil(V.X + V.Width - 0.5)));
    A.Y1 = std::min<int32_t>(A.Y1, int32_t(std::ceil(Y1 - 0.5)));
    if (A.X0 >= A.X1 || A.Y0 >= A.Y1)
      continue; // writes nothing; keeps the render area small
    // The tiles cover the bounding box of every viewport's area.
    if (First) {
      Ctx.AreaX0 = A.X0, Ctx.AreaY0 = A.Y0, Ctx.AreaX1 = A.X1,
      Ctx.AreaY1 = A.Y1;
      First = false;
      continue;
    }
    Ctx.AreaX0 = std::min(Ctx.AreaX0, A.X0);
    Ctx.AreaY0 = std::min(Ctx.AreaY0, A.Y0);
    Ctx.AreaX1 = std::max(Ctx.AreaX1, A.X1);
    Ctx.AreaY1 = std::max(Ctx.AreaY1, A.Y1);
  }
  if (First)
    Ctx.AreaX0 = Ctx.AreaY0 = Ctx.AreaX1 = Ctx.AreaY1 = 0; // nothing to draw
  return Status::success();
}

} // namespace spirv2llvm::graphics
