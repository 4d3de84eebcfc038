//===- image/SamplerFilter.cpp - Sample, gather and lod query -------------===//
//
// Vulkan 1.3 "Image Operations": for one invocation, from the coordinates
// to the filtered texel.
//   * Cube: the face from the major axis (SamplerCube.cpp), derivatives of
//     the face coordinates by the chain rule, seamless filtering across
//     edges and (average of the three texels) corners.
//   * Arrays: layer = clamp(RNE(a), 0, layers - 1) (6 per cube).
//   * Level of detail (SamplerLod.cpp) from Lod, Bias, gradients; the mag
//     filter when lambda <= 0, else the min filter; one or two levels.
//   * Texel coordinates: u = s * width_level (unnormalized: u = s), plus
//     the Offset operand; nearest i = floor(u); linear i0 = floor(u - 0.5),
//     alpha = frac(u - 0.5) kept to 8 bits (subTexelPrecisionBits, as
//     lavapipe); address modes per axis; border texels.
//   * Depth compare on every texel before filtering (result in R).
//   * Anisotropy: ceil(eta) probes evenly spread along the longer
//     gradient, averaged (Vulkan leaves the method to the implementation).
// Integer views are always filtered as nearest with nearest mipmaps
// (linear filtering of integer formats is not allowed by Vulkan).
//
//===----------------------------------------------------------------------===//
#include "image/ImageOpsInternal.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace spirv2llvm::imageops {

namespace {

struct SampleState {
  const s2l_image_operands &Ops;
  ImageAccess &A;
  const s2l_sampler &Sampler;
  bool Cube;
  unsigned Axes;
  bool Normalized;
  bool Compare;
  float Dref;
};

float compareDepth(uint32_t Op, float Ref, float D) {
  bool Pass;
  switch (Op) { // VkCompareOp: the reference against the texel.
  case 0: Pass = false; break;
  case 1: Pass = Ref < D; break;
  case 2: Pass = Ref == D; break;
  case 3: Pass = Ref <= D; break;
  case 4: Pass = Ref > D; break;
  case 5: Pass = Ref != D; break;
  case 6: Pass = Ref >= D; break;
  default: Pass = true; break;
  }
  return Pass ? 1.0f : 0.0f;
}

Texel compared(const SampleState &S, const Texel &T) {
  if (!S.Compare)
    return T;
  return {compareDepth(S.Sampler.compare_op, S.Dref, T[0]), 0, 0, 1};
}

/// Texel (I, J, K) of Level after the address modes (or, for cubes, the
/// seamless neighbours); Layer is the array layer (cubes: 6 * cube index)
/// and Face the cube face. Depth compare applied.
Texel texelAt(SampleState &S, uint32_t Level, int32_t I, int32_t J,
              int32_t K, uint32_t Layer, uint32_t Face) {
  const s2l_image_level &L = S.A.image().level[Level];
  Texel T;
  if (S.Cube) {
    int32_t N = int32_t(L.width);
    if (N <= 0)
      return compared(S, Texel{0, 0, 0, 0});
    bool OutI = I < 0 || I >= N, OutJ = J < 0 || J >= N;
    if (!OutI && !OutJ) {
      S.A.load(Level, I, J, int32_t(Layer + Face), 0, T);
      return compared(S, T);
    }
    uint32_t F2;
    int32_t I2, J2;
    if (OutI != OutJ) {
      cubeNeighbour(Face, I, J, N, F2, I2, J2);
      S.A.load(Level, I2, J2, int32_t(Layer + F2), 0, T);
      return compared(S, T);
    }
    // A corner: the average of the three texels that touch it.
    int32_t IC = std::clamp(I, 0, N - 1), JC = std::clamp(J, 0, N - 1);
    S.A.load(Level, IC, JC, int32_t(Layer + Face), 0, T);
    T = compared(S, T);
    if (!S.A.isFloat())
      return T;
    Texel Sum = T;
    cubeNeighbour(Face, I, JC, N, F2, I2, J2);
    S.A.load(Level, I2, J2, int32_t(Layer + F2), 0, T);
    T = compared(S, T);
    for (int C = 0; C < 4; ++C)
      Sum[C] += T[C];
    cubeNeighbour(Face, IC, J, N, F2, I2, J2);
    S.A.load(Level, I2, J2, int32_t(Layer + F2), 0, T);
    T = compared(S, T);
    for (int C = 0; C < 4; ++C)
      Sum[C] = (Sum[C] + T[C]) / 3.0f;
    return Sum;
  }
  const uint32_t *Modes = S.Sampler.address_mode;
  int32_t X = wrapIndex(I, int32_t(L.width), Modes[0]);
  int32_t Y = S.Axes >= 2 ? wrapIndex(J, int32_t(L.height), Modes[1]) : 0;
  int32_t Z = S.Axes == 3 ? wrapIndex(K, int32_t(L.depth), Modes[2])
                          : int32_t(Layer);
  if (X < 0 || Y < 0 || Z < 0)
    return compared(S, borderTexel(S.Sampler.border_color, S.A.view()));
  S.A.load(Level, X, Y, Z, 0, T);
  return compared(S, T);
}

/// i0 = floor(u - 0.5) and alpha = frac(u - 0.5) with SubTexelBits bits.
void linearCoord(float U, int32_t &I0, float &Alpha) {
  if (std::isnan(U)) {
    I0 = 0;
    Alpha = 0;
    return;
  }
  constexpr double Scale = 1 << SubTexelBits;
  double X = std::floor((double(U) - 0.5) * Scale);
  X = std::clamp(X, -double(1ll << 36), double(1ll << 36));
  int64_t Q = int64_t(X);
  I0 = int32_t(Q >> SubTexelBits); // Arithmetic shift: floor.
  Alpha = float(Q & ((1 << SubTexelBits) - 1)) / float(Scale);
}

/// Where one sample lands before filtering: texel-space coordinates at
/// level 0 scale (multiplied per level), the layer and the face.
struct Footprint {
  float Coord[3] = {0, 0, 0}; // normalized (or unnormalized) s, t, r
  uint32_t Layer = 0, Face = 0;
};

uint32_t arrayLayer(float A, uint32_t Count) {
  if (std::isnan(A) || Count == 0)
    return 0;
  float R = std::nearbyint(std::clamp(A, -1.0f, float(Count))); // RNE.
  return uint32_t(std::clamp(R, 0.0f, float(Count - 1)));
}

Footprint footprint(const SampleState &S, const float Coord[4]) {
  Footprint F;
  const s2l_image &Img = S.A.image();
  uint32_t LayerIndex = S.Ops.arrayed ? (S.Cube ? 3 : S.Axes) : 4;
  if (S.Cube) {
    CubeFace CF = selectCubeFace(Coord);
    F.Coord[0] = CF.S;
    F.Coord[1] = CF.T;
    F.Face = CF.Face;
    if (LayerIndex < 4)
      F.Layer = 6 * arrayLayer(Coord[LayerIndex], Img.layers / 6);
    return F;
  }
  for (unsigned I = 0; I < S.Axes; ++I)
    F.Coord[I] = Coord[I];
  if (LayerIndex < 4)
    F.Layer = arrayLayer(Coord[LayerIndex], Img.layers);
  return F;
}

/// The filtered texel of one level.
Texel filterLevel(SampleState &S, uint32_t Level, const Footprint &F,
                  bool Linear) {
  const s2l_image_level &L = S.A.image().level[Level];
  uint32_t Size[3] = {L.width, L.height, L.depth};
  bool Offset = (S.Ops.flags & S2L_IMAGE_HAS_OFFSET) && !S.Cube;
  float U[3];
  for (unsigned I = 0; I < 3; ++I) {
    U[I] = I < S.Axes ? F.Coord[I] : 0.0f;
    if (S.Normalized)
      U[I] *= float(Size[I]);
    if (Offset && I < S.Axes)
      U[I] += float(S.Ops.offset[I]);
  }
  if (!Linear) {
    int32_t I = floorToInt(U[0]), J = floorToInt(U[1]);
    if (S.Cube) {
      // "Cube images ignore the wrap modes": nearest clamps to the edge,
      // only linear filtering crosses to the adjacent face.
      I = std::clamp(I, 0, int32_t(Size[0]) - 1);
      J = std::clamp(J, 0, int32_t(Size[1]) - 1);
    }
    return texelAt(S, Level, I, J, floorToInt(U[2]), F.Layer, F.Face);
  }
  int32_t I0[3] = {0, 0, 0};
  float W[3] = {0, 0, 0};
  for (unsigned I = 0; I < S.Axes; ++I)
    linearCoord(U[I], I0[I], W[I]);
  Texel Sum = {0, 0, 0, 0};
  unsigned Corners = 1u << S.Axes;
  for (unsigned C = 0; C < Corners; ++C) {
    float Weight = 1;
    int32_t Idx[3] = {I0[0], I0[1], I0[2]};
    for (unsigned I = 0; I < S.Axes; ++I) {
      bool Hi = C >> I & 1;
      Idx[I] += Hi;
      Weight *= Hi ? W[I] : 1 - W[I];
    }
    if (Weight == 0)
      continue;
    Texel T = texelAt(S, Level, Idx[0], Idx[1], Idx[2], F.Layer, F.Face);
    for (int K = 0; K < 4; ++K)
      Sum[K] += Weight * T[K];
  }
  return Sum;
}

/// One probe: the footprint at Coord, filtered at the levels of Lod.
Texel sampleAt(SampleState &S, const float Coord[4], const LodResult &Lod) {
  Footprint F = footprint(S, Coord);
  uint32_t Filter = Lod.Magnify ? S.Sampler.mag_filter : S.Sampler.min_filter;
  bool Linear = Filter == 1 && S.A.isFloat();
  Texel T = filterLevel(S, Lod.Level[0], F, Linear);
  if (Lod.Level[1] != Lod.Level[0] && Lod.Delta > 0) {
    Texel T1 = filterLevel(S, Lod.Level[1], F, Linear);
    for (int K = 0; K < 4; ++K)
      T[K] = (1 - Lod.Delta) * T[K] + Lod.Delta * T1[K];
  }
  return T;
}

SampleState makeState(const s2l_image_operands &Ops, ImageAccess &A,
                      const s2l_sampler &Sampler) {
  bool Cube = Ops.dim == DimCube;
  // Dref with a sampler whose compare is off is undefined in Vulkan;
  // llvmpipe then skips the compare (and returns depth), so does this.
  bool Compare = (Ops.flags & S2L_IMAGE_HAS_DREF) &&
                 Sampler.compare_enable && A.isFloat();
  float Dref = Ops.dref;
  // A UNORM depth format compares with the reference clamped to [0, 1].
  const FormatInfo &Info = A.info();
  if (Compare && Info.hasDepth() &&
      Info.Components[0].Numeric == NumericKind::UNorm)
    Dref = std::clamp(Dref, 0.0f, 1.0f);
  return SampleState{Ops,
                     A,
                     Sampler,
                     Cube,
                     Cube ? 2u : filteredAxes(Ops.dim),
                     !Sampler.unnormalized_coordinates || Cube,
                     Compare,
                     Dref};
}

/// The level-0 texel-space derivatives of the coordinates along x and y.
void derivatives(const SampleState &S, float DUx[3], float DUy[3]) {
  const s2l_image_level &L0 = S.A.image().level[0];
  float Size[3] = {float(L0.width), float(L0.height), float(L0.depth)};
  for (int I = 0; I < 3; ++I)
    DUx[I] = DUy[I] = 0;
  if (S.Cube) {
    cubeFaceDerivatives(S.Ops.coord, S.Ops.grad_x, DUx[0], DUx[1]);
    cubeFaceDerivatives(S.Ops.coord, S.Ops.grad_y, DUy[0], DUy[1]);
    for (int I = 0; I < 2; ++I) {
      DUx[I] *= Size[0];
      DUy[I] *= Size[0];
    }
    return;
  }
  for (unsigned I = 0; I < S.Axes; ++I) {
    DUx[I] = S.Ops.grad_x[I] * Size[I];
    DUy[I] = S.Ops.grad_y[I] * Size[I];
  }
}

LodResult lodOf(const SampleState &S) {
  if (!S.Normalized)
    return LodResult{}; // Unnormalized: level 0, the mag filter.
  // One level, one filter, no anisotropy: the level of detail cannot
  // change the result (level 0 whether magnified or minified), and
  // computing it is a sixth of a bilinear sample's cost.
  const s2l_sampler &Sm = S.Sampler;
  if (S.A.image().levels <= 1 && Sm.mag_filter == Sm.min_filter &&
      !(Sm.max_anisotropy > 1))
    return LodResult{};
  float DUx[3], DUy[3];
  derivatives(S, DUx, DUy);
  uint32_t Levels = std::min<uint32_t>(S.A.image().levels, S2L_MAX_IMAGE_LEVELS);
  return selectLod(S.Ops, S.Sampler, Levels, DUx, DUy,
                   S.Ops.flags & S2L_IMAGE_HAS_GRAD, S.A.isFloat());
}

void storeResult(const Texel &T, uint32_t Result[4]) {
  for (int I = 0; I < 4; ++I)
    Result[I] = std::bit_cast<uint32_t>(T[I]);
}

} // namespace

void sampleImage(const s2l_image_operands &Ops, ImageAccess &A,
                 const s2l_sampler &Sampler, uint32_t Result[4]) {
  SampleState S = makeState(Ops, A, Sampler);
  LodResult Lod = lodOf(S);
  Texel T;
  if (Lod.Probes > 1 && A.isFloat()) {
    // Probes at (k + 0.5) / N - 0.5 of the major gradient around the
    // centre, each filtered at the anisotropic level of detail.
    const float *G = Lod.ProbeAlongX ? Ops.grad_x : Ops.grad_y;
    T = {0, 0, 0, 0};
    for (uint32_t K = 0; K < Lod.Probes; ++K) {
      float Step = (float(K) + 0.5f) / float(Lod.Probes) - 0.5f;
      float Coord[4];
      std::memcpy(Coord, Ops.coord, sizeof(Coord));
      unsigned N = S.Cube ? 3 : S.Axes;
      for (unsigned I = 0; I < N; ++I)
        Coord[I] += Step * G[I];
      Texel P = sampleAt(S, Coord, Lod);
      for (int C = 0; C < 4; ++C)
        T[C] += P[C] / float(Lod.Probes);
    }
  } else {
    T = sampleAt(S, Ops.coord, Lod);
  }
  storeResult(T, Result);
}

void gatherImage(const s2l_image_operands &Ops, ImageAccess &A,
                 const s2l_sampler &Sampler, uint32_t Result[4]) {
  SampleState S = makeState(Ops, A, Sampler);
  S.Axes = 2;
  Footprint F = footprint(S, Ops.coord);
  const s2l_image_level &L = A.image().level[0];
  float U = S.Normalized ? F.Coord[0] * float(L.width) : F.Coord[0];
  float V = S.Normalized ? F.Coord[1] * float(L.height) : F.Coord[1];
  uint32_t Component = S.Compare ? 0 : (Ops.component & 3);
  // The spec's order: i0j1, i1j1, i1j0, i0j0.
  static constexpr int Corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  for (int K = 0; K < 4; ++K) {
    float UK = U, VK = V;
    if (!S.Cube && (Ops.flags & S2L_IMAGE_HAS_OFFSETS)) {
      UK += float(Ops.gather_offsets[K][0]);
      VK += float(Ops.gather_offsets[K][1]);
    } else if (!S.Cube && (Ops.flags & S2L_IMAGE_HAS_OFFSET)) {
      UK += float(Ops.offset[0]);
      VK += float(Ops.offset[1]);
    }
    int32_t I0, J0;
    float Alpha, Beta;
    linearCoord(UK, I0, Alpha);
    linearCoord(VK, J0, Beta);
    // ConstOffsets: texel k is i0j0 of the footprint at P + offset k (GLSL
    // textureGatherOffsets; lavapipe agrees), not corner k of it.
    bool PerTexel = !S.Cube && (Ops.flags & S2L_IMAGE_HAS_OFFSETS);
    int CI = PerTexel ? 0 : Corner[K][0], CJ = PerTexel ? 0 : Corner[K][1];
    Texel T = texelAt(S, 0, I0 + CI, J0 + CJ, 0, F.Layer, F.Face);
    Result[K] = std::bit_cast<uint32_t>(T[Component]);
  }
}

void queryLod(const s2l_image_operands &Ops, ImageAccess &A,
              const s2l_sampler &Sampler, uint32_t Result[4]) {
  SampleState S = makeState(Ops, A, Sampler);
  // The lod the sample would use, the mipmap mode aside (x is d' before
  // the nearest rounding, as GLSL's textureQueryLod describes).
  s2l_image_operands O = Ops;
  O.flags &= ~(S2L_IMAGE_HAS_LOD | S2L_IMAGE_HAS_BIAS | S2L_IMAGE_HAS_MIN_LOD);
  SampleState S2{O, A, Sampler, S.Cube, S.Axes, S.Normalized, false, 0};
  LodResult Lod = lodOf(S2);
  Result[0] = std::bit_cast<uint32_t>(Lod.DPrime);
  Result[1] = std::bit_cast<uint32_t>(Lod.LambdaPrime);
  Result[2] = Result[3] = 0;
}

} // namespace spirv2llvm::imageops
