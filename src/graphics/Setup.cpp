//===- Setup.cpp - Clipping and primitive setup ----------------------------===//
//
// Primitives are clipped in homogeneous coordinates (Sutherland-Hodgman)
// against the near and far planes (0 <= z <= w, unless depth clamping is
// on), against w > 0, and against a guard band for x and y that keeps
// screen coordinates within the fixed-point range: clipping to the exact
// x/y planes is left to the render area (pixels outside the viewport are
// never written), as hardware guard bands do. A clipped polygon becomes a
// fan of triangles; clipping makes new vertices, interpolated in clip
// space.
//
// Setup snaps screen positions to 1/256 pixel, builds integer edge
// functions with the top-left rule folded into their constants (so the
// inside test is one sign test per edge and sample), and solves planes in
// pixel coordinates for depth and for the barycentric weights, both linear
// (NoPerspective) and perspective-correct (weights times 1/w, divided per
// fragment). Lines become rectangles (strict lines, Vulkan's default here
// as on lavapipe, which reports strictLines) or, in Bresenham mode,
// parallelograms with the width along the minor axis (the non-strict rule;
// Vulkan's diamond-exit rule differs at the ends); points are squares of
// PointSize.
//
//===----------------------------------------------------------------------===//
#include "graphics/DrawContext.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace spirv2llvm::graphics {

namespace {

/// A vertex during clipping: clip position and weights of the original
/// primitive's vertices.
struct ClipVert {
  double P[4];
  double Wt[3];
};

/// A clip plane: inside when dot(N, P) + D >= 0; or, with ClipIndex >= 0,
/// when the interpolated ClipDistance[ClipIndex] is (then Dist holds the
/// primitive's vertices' distances).
struct Plane {
  double N[4];
  double D;
  int ClipIndex = -1;
  const double *Dist = nullptr; ///< [vertex * 8 + index]
};

double distance(const Plane &Pl, const ClipVert &V) {
  if (Pl.ClipIndex >= 0)
    return V.Wt[0] * Pl.Dist[Pl.ClipIndex] +
           V.Wt[1] * Pl.Dist[8 + Pl.ClipIndex] +
           V.Wt[2] * Pl.Dist[16 + Pl.ClipIndex];
  return Pl.N[0] * V.P[0] + Pl.N[1] * V.P[1] + Pl.N[2] * V.P[2] +
         Pl.N[3] * V.P[3] + Pl.D;
}

ClipVert lerp(const ClipVert &A, const ClipVert &B, double T) {
  ClipVert R;
  for (int K = 0; K < 4; ++K)
    R.P[K] = A.P[K] + (B.P[K] - A.P[K]) * T;
  for (int K = 0; K < 3; ++K)
    R.Wt[K] = A.Wt[K] + (B.Wt[K] - A.Wt[K]) * T;
  return R;
}

/// Clips polygon \p Poly (or a segment when \p Closed is false) in place.
void clip(std::vector<ClipVert> &Poly, const std::vector<Plane> &Planes,
          bool Closed) {
  std::vector<ClipVert> Out;
  for (const Plane &Pl : Planes) {
    if (Poly.empty())
      return;
    Out.clear();
    size_t N = Poly.size();
    size_t Edges = Closed ? N : N - 1;
    if (!Closed && N == 2) {
      double D0 = distance(Pl, Poly[0]), D1 = distance(Pl, Poly[1]);
      if (D0 < 0 && D1 < 0) {
        Poly.clear();
        return;
      }
      if (D0 < 0)
        Poly[0] = lerp(Poly[0], Poly[1], D0 / (D0 - D1));
      else if (D1 < 0)
        Poly[1] = lerp(Poly[0], Poly[1], D0 / (D0 - D1));
      continue;
    }
    for (size_t I = 0; I < Edges; ++I) {
      const ClipVert &A = Poly[I], &B = Poly[(I + 1) % N];
      double DA = distance(Pl, A), DB = distance(Pl, B);
      if (DA >= 0)
        Out.push_back(A);
      if ((DA >= 0) != (DB >= 0))
        Out.push_back(lerp(A, B, DA / (DA - DB)));
    }
    Poly.swap(Out);
  }
}

/// Rounds to the nearest subpixel, halves away from zero (llround's
/// rounding without its library call).
int64_t snap(double X) { return int64_t(X + (X >= 0 ? 0.5 : -0.5)); }

struct ScreenVert {
  double X, Y, Z, InvW; ///< pixels, framebuffer depth, 1/w
  int64_t FX, FY;       ///< subpixels
};

class Setup {
public:
  Setup(DrawContext &Ctx, ShadedVertices &Verts, std::vector<SetupPrim> &Out,
        DrawStats &Stats)
      : Ctx(Ctx), S(Ctx.State), Verts(Verts), Out(Out), Stats(Stats) {
    const RasterizationState &RS = S.Rasterization;
    if (!RS.DepthClampEnable) {
      ViewPlanes.push_back({{0, 0, 1, 0}, 0});  // z >= 0
      ViewPlanes.push_back({{0, 0, -1, 1}, 0}); // z <= w
    }
    ViewPlanes.push_back({{0, 0, 0, 1}, -1e-7}); // w > 0
    // The guard band of each viewport: |x_ndc| <= G keeps screen positions
    // within 2^15 pixels of the viewport's centre.
    for (const ViewportArea &A : Ctx.Viewports) {
      double GX = 32768.0 / std::max(std::fabs(A.HalfW), 1.0);
      double GY = 32768.0 / std::max(std::fabs(A.HalfH), 1.0);
      std::vector<Plane> &T = TrianglePlanes.emplace_back(ViewPlanes);
      T.push_back({{-1, 0, 0, GX}, 0});
      T.push_back({{1, 0, 0, GX}, 0});
      T.push_back({{0, -1, 0, GY}, 0});
      T.push_back({{0, 1, 0, GY}, 0});
    }
    selectViewport(0);
    // Lines and points are clipped to the view volume itself.
    LinePlanes = ViewPlanes;
    LinePlanes.push_back({{-1, 0, 0, 1}, 0});
    LinePlanes.push_back({{1, 0, 0, 1}, 0});
    LinePlanes.push_back({{0, -1, 0, 1}, 0});
    LinePlanes.push_back({{0, 1, 0, 1}, 0});
    if (S.DepthStencilFormat != Format::UNDEFINED &&
        hasDepth(S.DepthStencilFormat)) {
      switch (S.DepthStencilFormat) {
      case Format::D16_UNORM:
      case Format::D16_UNORM_S8_UINT: DepthBits = 16; break;
      case Format::X8_D24_UNORM_PACK32:
      case Format::D24_UNORM_S8_UINT: DepthBits = 24; break;
      default: DepthBits = 0; break; // float
      }
    }
  }

  void primitive(const Primitive &Pr, const std::vector<uint32_t> &Slot,
                 uint32_t Id);

private:
  DrawContext &Ctx;
  const GraphicsPipelineDesc &S;
  ShadedVertices &Verts;
  std::vector<SetupPrim> &Out;
  DrawStats &Stats;
  /// The current primitive's viewport (selectViewport).
  const ViewportArea *VP = nullptr;
  uint32_t VPIndex = 0;
  int DepthBits = 0;
  std::vector<Plane> ViewPlanes, LinePlanes;
  /// Per viewport: the view volume and its guard band.
  std::vector<std::vector<Plane>> TrianglePlanes;
  std::vector<ClipVert> Poly;
  /// The current primitive's clip distances, and the planes with them.
  double Dist[24] = {};
  std::vector<Plane> TriPlanesNow, LinePlanesNow;

  /// Makes viewport \p I the current one (an index out of range selects
  /// viewport 0: Viewports.cpp).
  void selectViewport(uint32_t I) {
    VPIndex = I < Ctx.Viewports.size() ? I : 0;
    VP = &Ctx.Viewports[VPIndex];
  }
  ScreenVert screen(uint32_t V) const {
    const float *P = Verts.position(V);
    ScreenVert R;
    R.InvW = 1.0 / P[3];
    R.X = VP->CenterX + P[0] * R.InvW * VP->HalfW;
    R.Y = VP->CenterY + P[1] * R.InvW * VP->HalfH;
    R.Z = VP->MinDepth + P[2] * R.InvW * (double(VP->MaxDepth) - VP->MinDepth);
    R.FX = snap(R.X * SubpixelOne);
    R.FY = snap(R.Y * SubpixelOne);
    return R;
  }
  /// A vertex made by clipping: position and varyings from the weights of
  /// the primitive's vertices \p Src.
  uint32_t materialize(const ClipVert &C, const uint32_t *Src, unsigned N);
  void triangle(uint32_t A, uint32_t B, uint32_t C, uint32_t Provoking,
                uint32_t Id, bool Front);
  void line(uint32_t A, uint32_t B, uint32_t Provoking, uint32_t Id);
  void point(uint32_t A, uint32_t Id);
  bool boundingBox(SetupPrim &P, int64_t MinFX, int64_t MinFY, int64_t MaxFX,
                   int64_t MaxFY) const;
  void depthBias(SetupPrim &P) const;
};

uint32_t Setup::materialize(const ClipVert &C, const uint32_t *Src,
                            unsigned N) {
  // Exactly an original vertex: reuse it.
  for (unsigned K = 0; K < N; ++K)
    if (C.Wt[K] == 1.0)
      return Src[K];
  uint32_t V = Verts.add();
  float *P = Verts.position(V);
  for (int K = 0; K < 4; ++K)
    P[K] = float(C.P[K]);
  P[4] = Verts.pointSize(Src[0]);
  uint32_t *Out = &Verts.Words[size_t(V) * Verts.Stride + Verts.VaryingBase];
  const std::vector<Varying> &Vy = Ctx.Pipe.Varyings;
  for (size_t I = 0; I < Vy.size(); ++I) {
    if (!Vy[I].Interpolated) {
      Out[I] = Verts.varyings(Src[0])[I];
      continue;
    }
    double Sum = 0;
    for (unsigned K = 0; K < N; ++K) {
      float F;
      std::memcpy(&F, &Verts.varyings(Src[K])[I], 4);
      Sum += C.Wt[K] * F;
    }
    float F = float(Sum);
    std::memcpy(&Out[I], &F, 4);
  }
  return V;
}

bool Setup::boundingBox(SetupPrim &P, int64_t MinFX, int64_t MinFY,
                        int64_t MaxFX, int64_t MaxFY) const {
  auto Pixel = [](int64_t F) {
    return int32_t(std::clamp<int64_t>(F >> SubpixelBits, -(1 << 20),
                                       1 << 20));
  };
  // Every kind of primitive passes here before it is kept: it takes the
  // current viewport.
  P.Viewport = VPIndex;
  P.MinX = std::max(Pixel(MinFX), VP->X0);
  P.MinY = std::max(Pixel(MinFY), VP->Y0);
  P.MaxX = std::min(Pixel(MaxFX), VP->X1 - 1);
  P.MaxY = std::min(Pixel(MaxFY), VP->Y1 - 1);
  return P.MinX <= P.MaxX && P.MinY <= P.MaxY;
}

void Setup::depthBias(SetupPrim &P) const {
  const RasterizationState &RS = S.Rasterization;
  if (!RS.DepthBiasEnable)
    return;
  double M = std::max(std::fabs(P.Zx), std::fabs(P.Zy));
  double R;
  if (DepthBits)
    R = std::ldexp(1.0, -DepthBits);
  else {
    // Float depth: the minimum resolvable difference at the primitive's
    // largest depth (Vulkan: 2^(e - 23)).
    double MaxZ = std::fabs(P.Z0) + M * 2;
    int E;
    std::frexp(std::max(MaxZ, 1e-30), &E);
    R = std::ldexp(1.0, E - 1 - 23);
  }
  double Bias = M * RS.DepthBiasSlopeFactor + R * RS.DepthBiasConstantFactor;
  if (RS.DepthBiasClamp > 0)
    Bias = std::min<double>(Bias, RS.DepthBiasClamp);
  else if (RS.DepthBiasClamp < 0)
    Bias = std::max<double>(Bias, RS.DepthBiasClamp);
  P.Z0 += Bias;
}

/// Edge \p K of \p P from (AX, AY) to (BX, BY), inside on its left in
/// y-down coordinates when the primitive winds positively; the top-left
/// rule keeps samples exactly on top and left edges.
void setEdge(SetupPrim &P, int K, int64_t AX, int64_t AY, int64_t BX,
             int64_t BY) {
  int64_t Dx = BX - AX, Dy = BY - AY;
  P.A[K] = -Dy;
  P.B[K] = Dx;
  P.C[K] = -(P.A[K] * AX + P.B[K] * AY);
  bool TopLeft = (Dy == 0 && Dx > 0) || Dy < 0;
  if (!TopLeft)
    P.C[K] -= 1;
}

void Setup::triangle(uint32_t V0, uint32_t V1, uint32_t V2,
                     uint32_t Provoking, uint32_t Id, bool Front) {
  ScreenVert SV[3] = {screen(V0), screen(V1), screen(V2)};
  int64_t Area = (SV[1].FX - SV[0].FX) * (SV[2].FY - SV[0].FY) -
                 (SV[2].FX - SV[0].FX) * (SV[1].FY - SV[0].FY);
  if (Area == 0)
    return;
  SetupPrim P;
  P.K = SetupPrim::Kind::Triangle;
  P.FrontFacing = Front;
  P.NumEdges = 3;
  int O[3] = {0, 1, 2};
  if (Area < 0)
    std::swap(O[1], O[2]);
  for (int K = 0; K < 3; ++K) {
    const ScreenVert &A = SV[O[K]], &B = SV[O[(K + 1) % 3]];
    setEdge(P, K, A.FX, A.FY, B.FX, B.FY);
  }
  int64_t MinFX = std::min({SV[0].FX, SV[1].FX, SV[2].FX});
  int64_t MaxFX = std::max({SV[0].FX, SV[1].FX, SV[2].FX});
  int64_t MinFY = std::min({SV[0].FY, SV[1].FY, SV[2].FY});
  int64_t MaxFY = std::max({SV[0].FY, SV[1].FY, SV[2].FY});
  if (!boundingBox(P, MinFX, MinFY, MaxFX, MaxFY))
    return;
  // Planes through the snapped positions.
  double X[3], Y[3];
  for (int K = 0; K < 3; ++K) {
    X[K] = double(SV[K].FX) / SubpixelOne;
    Y[K] = double(SV[K].FY) / SubpixelOne;
  }
  double Dx1 = X[1] - X[0], Dy1 = Y[1] - Y[0];
  double Dx2 = X[2] - X[0], Dy2 = Y[2] - Y[0];
  double Det = Dx1 * Dy2 - Dx2 * Dy1;
  auto Solve = [&](double F0, double F1, double F2, double Out[3]) {
    Out[0] = F0;
    Out[1] = ((F1 - F0) * Dy2 - (F2 - F0) * Dy1) / Det;
    Out[2] = ((F2 - F0) * Dx1 - (F1 - F0) * Dx2) / Det;
  };
  P.RefX = X[0];
  P.RefY = Y[0];
  double Z[3];
  Solve(SV[0].Z, SV[1].Z, SV[2].Z, Z);
  P.Z0 = Z[0];
  P.Zx = Z[1];
  P.Zy = Z[2];
  Solve(0, 1, 0, P.L1);
  Solve(0, 0, 1, P.L2);
  Solve(SV[0].InvW, SV[1].InvW, SV[2].InvW, P.Q);
  Solve(0, SV[1].InvW, 0, P.P1);
  Solve(0, 0, SV[2].InvW, P.P2);
  depthBias(P);
  P.V[0] = V0;
  P.V[1] = V1;
  P.V[2] = V2;
  P.Provoking = Provoking;
  P.PrimitiveId = Id;
  Out.push_back(P);
}

void Setup::line(uint32_t V0, uint32_t V1, uint32_t Provoking, uint32_t Id) {
  ScreenVert A = screen(V0), B = screen(V1);
  double Dx = B.X - A.X, Dy = B.Y - A.Y;
  double Len2 = Dx * Dx + Dy * Dy;
  if (Len2 == 0)
    return;
  SetupPrim P;
  P.K = SetupPrim::Kind::Line;
  P.NumEdges = 4;
  double HalfWidth = S.Rasterization.LineWidth / 2.0;
  // Offsets of the two long sides: along the normal for rectangular
  // lines, along the minor axis otherwise.
  double Nx, Ny;
  if (S.Rasterization.LineMode != LineRasterization::Bresenham) {
    double Len = std::sqrt(Len2);
    Nx = -Dy / Len * HalfWidth;
    Ny = Dx / Len * HalfWidth;
  } else if (std::fabs(Dx) >= std::fabs(Dy)) {
    Nx = 0;
    Ny = HalfWidth;
  } else {
    Nx = HalfWidth;
    Ny = 0;
  }
  double CX[4] = {A.X + Nx, B.X + Nx, B.X - Nx, A.X - Nx};
  double CY[4] = {A.Y + Ny, B.Y + Ny, B.Y - Ny, A.Y - Ny};
  int64_t FX[4], FY[4];
  for (int K = 0; K < 4; ++K) {
    FX[K] = snap(CX[K] * SubpixelOne);
    FY[K] = snap(CY[K] * SubpixelOne);
  }
  int64_t Area = (FX[1] - FX[0]) * (FY[2] - FY[0]) -
                 (FX[2] - FX[0]) * (FY[1] - FY[0]);
  if (Area == 0)
    return;
  int O[4] = {0, 1, 2, 3};
  if (Area < 0)
    std::swap(O[1], O[3]);
  for (int K = 0; K < 4; ++K)
    setEdge(P, K, FX[O[K]], FY[O[K]], FX[O[(K + 1) % 4]], FY[O[(K + 1) % 4]]);
  if (!boundingBox(P, *std::min_element(FX, FX + 4),
                   *std::min_element(FY, FY + 4),
                   *std::max_element(FX, FX + 4),
                   *std::max_element(FY, FY + 4)))
    return;
  // t(x, y): the position along the segment, linear in x and y.
  P.RefX = A.X;
  P.RefY = A.Y;
  double Tx = Dx / Len2, Ty = Dy / Len2;
  auto Along = [&](double F0, double F1, double Out[3]) {
    Out[0] = F0;
    Out[1] = (F1 - F0) * Tx;
    Out[2] = (F1 - F0) * Ty;
  };
  double Z[3];
  Along(A.Z, B.Z, Z);
  P.Z0 = Z[0];
  P.Zx = Z[1];
  P.Zy = Z[2];
  Along(0, 1, P.L1);
  Along(0, 0, P.L2);
  Along(A.InvW, B.InvW, P.Q);
  Along(0, B.InvW, P.P1);
  Along(0, 0, P.P2);
  depthBias(P);
  P.V[0] = V0;
  P.V[1] = V1;
  P.V[2] = V1;
  P.Provoking = Provoking;
  P.PrimitiveId = Id;
  P.FrontFacing = true;
  Out.push_back(P);
}

void Setup::point(uint32_t V0, uint32_t Id) {
  ScreenVert A = screen(V0);
  float Size = std::clamp(Verts.pointSize(V0), 1.0f, 256.0f);
  if (!(Size > 0))
    return;
  SetupPrim P;
  P.K = SetupPrim::Kind::Point;
  P.NumEdges = 4;
  int64_t X0 = snap((A.X - Size / 2) * SubpixelOne);
  int64_t X1 = snap((A.X + Size / 2) * SubpixelOne);
  int64_t Y0 = snap((A.Y - Size / 2) * SubpixelOne);
  int64_t Y1 = snap((A.Y + Size / 2) * SubpixelOne);
  // x >= X0, x < X1, y >= Y0, y < Y1 (top-left: left and top inclusive).
  P.A[0] = 1, P.B[0] = 0, P.C[0] = -X0;
  P.A[1] = -1, P.B[1] = 0, P.C[1] = X1 - 1;
  P.A[2] = 0, P.B[2] = 1, P.C[2] = -Y0;
  P.A[3] = 0, P.B[3] = -1, P.C[3] = Y1 - 1;
  if (!boundingBox(P, X0, Y0, X1, Y1))
    return;
  P.RefX = A.X;
  P.RefY = A.Y;
  P.Z0 = A.Z;
  P.Zx = P.Zy = 0;
  for (double *Pl : {P.L1, P.L2, P.P1, P.P2})
    Pl[0] = Pl[1] = Pl[2] = 0;
  P.Q[0] = 1;
  P.Q[1] = P.Q[2] = 0;
  P.V[0] = P.V[1] = P.V[2] = V0;
  P.Provoking = V0;
  P.PrimitiveId = Id;
  P.PointX = float(A.X);
  P.PointY = float(A.Y);
  P.PointSize = Size;
  P.FrontFacing = true;
  depthBias(P);
  Out.push_back(P);
}

bool inside(const std::vector<Plane> &Planes, const ClipVert &V) {
  for (const Plane &Pl : Planes)
    if (distance(Pl, V) < 0)
      return false;
  return true;
}

void Setup::primitive(const Primitive &Pr, const std::vector<uint32_t> &Slot,
                      uint32_t Id) {
  uint32_t Src[3];
  for (unsigned K = 0; K < Pr.N; ++K) {
    Src[K] = Slot[Pr.V[K]];
    if (Src[K] == RestartIndex)
      return;
  }
  uint32_t Provoking = Src[Pr.Provoking];
  ++Stats.Primitives;
  // Vulkan: the provoking vertex's ViewportIndex picks the viewport.
  selectViewport(Verts.viewportIndex(Provoking));
  // Cull distances: the primitive goes when all its vertices are outside
  // the same one. Clip distances: planes like the others.
  const uint32_t NClip = std::min(Verts.NumClip, 8u);
  for (uint32_t J = 0; J < Verts.NumCull; ++J) {
    bool AllOut = true;
    for (unsigned K = 0; K < Pr.N; ++K)
      AllOut &= Verts.distances(Src[K])[Verts.NumClip + J] < 0;
    if (AllOut)
      return;
  }
  const std::vector<Plane> *TriPlanes = &TrianglePlanes[VPIndex],
                           *SegPlanes = &LinePlanes;
  if (NClip) {
    for (unsigned K = 0; K < Pr.N; ++K)
      for (uint32_t J = 0; J < NClip; ++J)
        Dist[K * 8 + J] = Verts.distances(Src[K])[J];
    TriPlanesNow = TrianglePlanes[VPIndex];
    LinePlanesNow = LinePlanes;
    for (uint32_t J = 0; J < NClip; ++J) {
      Plane Pl{{0, 0, 0, 0}, 0, int(J), Dist};
      TriPlanesNow.push_back(Pl);
      LinePlanesNow.push_back(Pl);
    }
    TriPlanes = &TriPlanesNow;
    SegPlanes = &LinePlanesNow;
  }
  Poly.resize(Pr.N);
  for (unsigned K = 0; K < Pr.N; ++K) {
    const float *P = Verts.position(Src[K]);
    for (int C = 0; C < 4; ++C)
      Poly[K].P[C] = P[C];
    for (int C = 0; C < 3; ++C)
      Poly[K].Wt[C] = C == int(K);
  }
  if (Pr.N == 1) {
    if (inside(*SegPlanes, Poly[0]))
      point(Src[0], Id);
    return;
  }
  if (Pr.N == 2) {
    bool Clipped = !inside(*SegPlanes, Poly[0]) || !inside(*SegPlanes, Poly[1]);
    if (Clipped) {
      ++Stats.ClippedPrimitives;
      clip(Poly, *SegPlanes, false);
      if (Poly.size() != 2)
        return;
    }
    line(materialize(Poly[0], Src, 2), materialize(Poly[1], Src, 2),
         Provoking, Id);
    return;
  }
  bool Clipped = false;
  for (const ClipVert &V : Poly)
    Clipped |= !inside(*TriPlanes, V);
  if (Clipped) {
    ++Stats.ClippedPrimitives;
    clip(Poly, *TriPlanes, true);
    if (Poly.size() < 3)
      return;
  }
  // At most 3 + 6 view planes + 8 clip distances vertices.
  uint32_t PVBuf[20];
  double SX[20], SY[20];
  const size_t NV = std::min<size_t>(Poly.size(), 20);
  for (size_t K = 0; K < NV; ++K) {
    PVBuf[K] = materialize(Poly[K], Src, 3);
    const float *P = Verts.position(PVBuf[K]);
    SX[K] = P[0] / P[3] * VP->HalfW;
    SY[K] = P[1] / P[3] * VP->HalfH;
  }
  struct {
    const uint32_t *Data;
    size_t N;
    size_t size() const { return N; }
    uint32_t operator[](size_t I) const { return Data[I]; }
  } PV{PVBuf, NV};
  // Facing from the polygon's signed area (all fan triangles agree).
  double Area = 0;
  for (size_t K = 0; K < NV; ++K) {
    size_t J = (K + 1) % NV;
    Area += SX[K] * SY[J] - SX[J] * SY[K];
  }
  if (Area == 0)
    return;
  // Vulkan: a = -area/2 in framebuffer coordinates; counter-clockwise
  // front faces have a > 0, which is a negative y-down shoelace sum.
  bool CCW = Area < 0;
  bool Front = S.Rasterization.Front == FrontFace::CounterClockwise ? CCW
                                                                     : !CCW;
  uint32_t Cull = uint32_t(S.Rasterization.Cull);
  if ((Front && (Cull & 1)) || (!Front && (Cull & 2)))
    return;
  switch (S.Rasterization.Polygon) {
  case PolygonMode::Fill:
    for (size_t K = 1; K + 1 < PV.size(); ++K)
      triangle(PV[0], PV[K], PV[K + 1], Provoking, Id, Front);
    break;
  case PolygonMode::Line:
    for (size_t K = 0; K < PV.size(); ++K)
      line(PV[K], PV[(K + 1) % PV.size()], Provoking, Id);
    break;
  case PolygonMode::Point:
    for (size_t K = 0; K < PV.size(); ++K)
      point(PV[K], Id);
    break;
  }
  if (S.Rasterization.Polygon != PolygonMode::Fill)
    for (size_t K = Out.size(); K-- > 0 && Out[K].PrimitiveId == Id;)
      Out[K].FrontFacing = Front;
}

} // namespace

void setupPrimitives(DrawContext &Ctx, const std::vector<Primitive> &Prims,
                     const std::vector<uint32_t> &Slot, ShadedVertices &Verts,
                     std::vector<SetupPrim> &Out, DrawStats &Stats) {
  Setup S(Ctx, Verts, Out, Stats);
  for (uint32_t I = 0; I < Prims.size(); ++I)
    S.primitive(Prims[I], Slot, I);
}

} // namespace spirv2llvm::graphics
