//===- Scene.cpp - The raster demo's geometry, texture and matrices -------===//
#include "Scene.h"

#include <cmath>

namespace demo {

namespace {

constexpr float Pi = 3.14159265358979f;

/// Two triangles per cell of a (Columns + 1) x (Rows + 1) vertex grid,
/// row-major from \p Base, counter-clockwise seen from outside for the
/// parametrizations here.
void gridIndices(Mesh &M, uint32_t Base, unsigned Columns, unsigned Rows) {
  for (unsigned R = 0; R < Rows; ++R)
    for (unsigned C = 0; C < Columns; ++C) {
      uint32_t A = Base + R * (Columns + 1) + C, B = A + 1,
               D = A + (Columns + 1), E = D + 1;
      M.Indices.insert(M.Indices.end(), {A, D, B, B, D, E});
    }
}

} // namespace

Mesh sphere(float Radius, unsigned Slices, unsigned Stacks) {
  Mesh M;
  // The seam and the poles repeat vertices so that each has one u and v.
  for (unsigned S = 0; S <= Stacks; ++S) {
    float V = float(S) / float(Stacks), Theta = V * Pi;
    for (unsigned L = 0; L <= Slices; ++L) {
      float U = float(L) / float(Slices), Phi = U * 2 * Pi;
      float N[3] = {std::sin(Theta) * std::cos(Phi), std::cos(Theta),
                    -std::sin(Theta) * std::sin(Phi)};
      M.Vertices.push_back({{Radius * N[0], Radius * N[1], Radius * N[2]},
                            {N[0], N[1], N[2]},
                            {U, V}});
    }
  }
  gridIndices(M, 0, Slices, Stacks);
  return M;
}

Mesh torus(float Major, float Minor, unsigned Rings, unsigned Sides) {
  Mesh M;
  for (unsigned R = 0; R <= Rings; ++R) {
    float U = float(R) / float(Rings), Phi = U * 2 * Pi;
    for (unsigned S = 0; S <= Sides; ++S) {
      float V = float(S) / float(Sides), Theta = V * 2 * Pi;
      // Around the tube: outwards from the circle, then up.
      float N[3] = {std::cos(Theta) * std::cos(Phi), std::sin(Theta),
                    -std::cos(Theta) * std::sin(Phi)};
      float C[3] = {Major * std::cos(Phi), 0, -Major * std::sin(Phi)};
      M.Vertices.push_back(
          {{C[0] + Minor * N[0], C[1] + Minor * N[1], C[2] + Minor * N[2]},
           {N[0], N[1], N[2]},
           {U, V}});
    }
  }
  gridIndices(M, 0, Sides, Rings);
  return M;
}

void append(Mesh &A, const Mesh &B) {
  uint32_t Base = uint32_t(A.Vertices.size());
  A.Vertices.insert(A.Vertices.end(), B.Vertices.begin(), B.Vertices.end());
  for (uint32_t I : B.Indices)
    A.Indices.push_back(Base + I);
}

spirv2llvm::Result<spirv2llvm::Image> checkerTexture(uint32_t Size,
                                                     uint32_t Cells) {
  uint32_t Levels = 1;
  while ((Size >> Levels) > 0)
    ++Levels;
  auto I =
      spirv2llvm::Image::create({spirv2llvm::Format::R8G8B8A8_UNORM,
                                 S2L_VIEW_2D, Size, Size, 1, 1, Levels, 1});
  if (!I)
    return I.status();
  // Warm orange and off-white squares, a darker line along each edge.
  uint32_t Cell = Size / Cells;
  for (uint32_t Y = 0; Y < Size; ++Y)
    for (uint32_t X = 0; X < Size; ++X) {
      bool Odd = ((X / Cell) + (Y / Cell)) & 1;
      bool Edge = X % Cell == 0 || Y % Cell == 0;
      uint8_t Rgb[3] = {235, 232, 220};
      if (Odd)
        Rgb[0] = 226, Rgb[1] = 120, Rgb[2] = 40;
      uint8_t *T = I->texelAddress(0, X, Y, 0);
      for (int C = 0; C < 3; ++C)
        T[C] = uint8_t(Edge ? Rgb[C] * 3 / 5 : Rgb[C]);
      T[3] = 255;
    }
  for (uint32_t L = 1; L < Levels; ++L) {
    uint32_t S = Size >> L;
    for (uint32_t Y = 0; Y < S; ++Y)
      for (uint32_t X = 0; X < S; ++X) {
        uint8_t *T = I->texelAddress(L, X, Y, 0);
        for (int C = 0; C < 4; ++C) {
          unsigned Sum = 0;
          for (uint32_t K = 0; K < 4; ++K)
            Sum += I->texelAddress(L - 1, 2 * X + (K & 1), 2 * Y + K / 2, 0)[C];
          T[C] = uint8_t((Sum + 2) / 4);
        }
      }
  }
  return I;
}

Mat4 multiply(const Mat4 &A, const Mat4 &B) {
  Mat4 R{};
  for (int Col = 0; Col < 4; ++Col)
    for (int Row = 0; Row < 4; ++Row)
      for (int K = 0; K < 4; ++K)
        R[Col * 4 + Row] += A[K * 4 + Row] * B[Col * 4 + K];
  return R;
}

// The matrices below are written column by column, one column a line.
// clang-format off
Mat4 rotationX(float A) {
  float C = std::cos(A), S = std::sin(A);
  return {1, 0, 0, 0,
          0, C, S, 0,
          0, -S, C, 0,
          0, 0, 0, 1};
}

Mat4 rotationY(float A) {
  float C = std::cos(A), S = std::sin(A);
  return {C, 0, -S, 0,
          0, 1, 0, 0,
          S, 0, C, 0,
          0, 0, 0, 1};
}

Mat4 rotationZ(float A) {
  float C = std::cos(A), S = std::sin(A);
  return {C, S, 0, 0,
          -S, C, 0, 0,
          0, 0, 1, 0,
          0, 0, 0, 1};
}
// clang-format on

Mat4 lookAt(const std::array<float, 3> &Eye,
            const std::array<float, 3> &Target) {
  auto Normalize = [](std::array<float, 3> V) {
    float L = std::sqrt(V[0] * V[0] + V[1] * V[1] + V[2] * V[2]);
    return std::array<float, 3>{V[0] / L, V[1] / L, V[2] / L};
  };
  auto Cross = [](const std::array<float, 3> &A,
                  const std::array<float, 3> &B) {
    return std::array<float, 3>{A[1] * B[2] - A[2] * B[1],
                                A[2] * B[0] - A[0] * B[2],
                                A[0] * B[1] - A[1] * B[0]};
  };
  auto Dot = [](const std::array<float, 3> &A, const std::array<float, 3> &B) {
    return A[0] * B[0] + A[1] * B[1] + A[2] * B[2];
  };
  // Forward is -z in view space.
  std::array<float, 3> F =
      Normalize({Target[0] - Eye[0], Target[1] - Eye[1], Target[2] - Eye[2]});
  std::array<float, 3> S = Normalize(Cross(F, {0, 1, 0}));
  std::array<float, 3> U = Cross(S, F);
  // clang-format off
  return {S[0], U[0], -F[0], 0,
          S[1], U[1], -F[1], 0,
          S[2], U[2], -F[2], 0,
          -Dot(S, Eye), -Dot(U, Eye), Dot(F, Eye), 1};
  // clang-format on
}

Mat4 perspective(float FovY, float Aspect, float Near, float Far) {
  float F = 1 / std::tan(FovY / 2);
  // Clip y = -F * view y: Vulkan's framebuffer y points down. Depth:
  // z = -Near gives 0, z = -Far gives 1.
  // clang-format off
  return {F / Aspect, 0, 0, 0,
          0, -F, 0, 0,
          0, 0, Far / (Near - Far), -1,
          0, 0, Near * Far / (Near - Far), 0};
  // clang-format on
}

} // namespace demo
