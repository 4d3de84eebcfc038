//===- image/SamplerCube.cpp - Cube face selection and seamless edges -----===//
//
// Vulkan 1.3 "Cube Map Face Selection": the major axis of the direction
// picks the face and its (sc, tc, ma), and s = (sc / |ma| + 1) / 2,
// t = (tc / |ma| + 1) / 2. "Cube Map Edge Handling": a linear filter that
// reaches past a face edge reads the texel of the adjacent face; the
// neighbour is found by turning the texel's centre back into a direction
// and selecting the face again, which needs no table of edge orientations.
//
//===----------------------------------------------------------------------===//
#include "image/ImageOpsInternal.h"

#include <algorithm>
#include <cmath>

namespace spirv2llvm::imageops {

namespace {

/// The spec's table: for each face, which component of the direction is
/// sc, tc and ma, and their signs (as +/-(index + 1)).
struct FaceAxes {
  int SC, TC, MA;
};
constexpr FaceAxes Axes[6] = {
    {-3, -2, 1}, // +X: sc = -rz, tc = -ry, ma = rx
    {3, -2, 1},  // -X: sc = +rz, tc = -ry, ma = rx
    {1, 3, 2},   // +Y: sc = +rx, tc = +rz, ma = ry
    {1, -3, 2},  // -Y: sc = +rx, tc = -rz, ma = ry
    {1, -2, 3},  // +Z: sc = +rx, tc = -ry, ma = rz
    {-1, -2, 3}, // -Z: sc = -rx, tc = -ry, ma = rz
};

template <typename T> T pick(const T R[3], int Signed) {
  T V = R[std::abs(Signed) - 1];
  return Signed < 0 ? -V : V;
}

template <typename T> uint32_t majorFace(const T R[3]) {
  T AX = std::fabs(R[0]), AY = std::fabs(R[1]), AZ = std::fabs(R[2]);
  // Ties: z over x and y, then y over x (llvmpipe's order; Vulkan leaves
  // the choice to the implementation).
  if (AZ >= AX && AZ >= AY)
    return R[2] < 0 ? 5 : 4;
  if (AY >= AX)
    return R[1] < 0 ? 3 : 2;
  return R[0] < 0 ? 1 : 0;
}

} // namespace

CubeFace selectCubeFace(const float R[3]) {
  uint32_t Face = majorFace(R);
  const FaceAxes &A = Axes[Face];
  float MA = std::fabs(R[A.MA - 1]);
  CubeFace F;
  F.Face = Face;
  if (MA == 0 || std::isnan(MA)) { // The zero vector: the face's centre.
    F.S = F.T = 0.5f;
    return F;
  }
  F.S = 0.5f * (pick(R, A.SC) / MA + 1.0f);
  F.T = 0.5f * (pick(R, A.TC) / MA + 1.0f);
  return F;
}

void cubeFaceDerivatives(const float R[3], const float DR[3], float &DS,
                         float &DT) {
  const FaceAxes &A = Axes[majorFace(R)];
  float MA = R[A.MA - 1];
  if (MA == 0 || std::isnan(MA)) {
    DS = DT = 0;
    return;
  }
  // s = (sc / |ma| + 1) / 2, so ds = (dsc * |ma| - sc * d|ma|) / (2 ma^2).
  float AbsMA = std::fabs(MA);
  float DAbsMA = MA < 0 ? -DR[A.MA - 1] : DR[A.MA - 1];
  float SC = pick(R, A.SC), TC = pick(R, A.TC);
  float DSC = pick(DR, A.SC), DTC = pick(DR, A.TC);
  DS = 0.5f * (DSC * AbsMA - SC * DAbsMA) / (MA * MA);
  DT = 0.5f * (DTC * AbsMA - TC * DAbsMA) / (MA * MA);
}

void cubeNeighbour(uint32_t Face, int32_t I, int32_t J, int32_t N,
                   uint32_t &OutFace, int32_t &OutI, int32_t &OutJ) {
  // The texel centre as face coordinates (just outside [-1, 1] on one
  // axis), then as a direction with |ma| = 1 by inverting the table.
  double SC = 2.0 * (I + 0.5) / N - 1.0, TC = 2.0 * (J + 0.5) / N - 1.0;
  const FaceAxes &A = Axes[Face];
  double R[3] = {0, 0, 0};
  R[A.MA - 1] = Face % 2 ? -1.0 : 1.0;
  R[std::abs(A.SC) - 1] = A.SC < 0 ? -SC : SC;
  R[std::abs(A.TC) - 1] = A.TC < 0 ? -TC : TC;
  OutFace = majorFace(R);
  const FaceAxes &B = Axes[OutFace];
  double MA = std::fabs(R[B.MA - 1]);
  double S = 0.5 * (pick(R, B.SC) / MA + 1.0);
  double T = 0.5 * (pick(R, B.TC) / MA + 1.0);
  // The centre moved towards the new face's centre by less than half a
  // texel, so the floor is the touching texel.
  OutI = std::clamp(int32_t(std::floor(S * N)), 0, N - 1);
  OutJ = std::clamp(int32_t(std::floor(T * N)), 0, N - 1);
}

} // namespace spirv2llvm::imageops
