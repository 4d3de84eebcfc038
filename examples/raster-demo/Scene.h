//===- Scene.h - The raster demo's scene ------------------------*- C++ -*-===//
//
// What examples/raster-demo/main.cpp draws, generated in code: indexed
// meshes with normals and texture coordinates (a UV sphere and a torus),
// a checkerboard texture with its mip chain, and the few matrices of a
// perspective camera in Vulkan's clip space (y down, depth 0 to 1).
//
//===----------------------------------------------------------------------===//
#ifndef S2L_RASTER_DEMO_SCENE_H
#define S2L_RASTER_DEMO_SCENE_H

#include "spirv2llvm/Image.h"
#include "spirv2llvm/Status.h"

#include <array>
#include <cstdint>
#include <vector>

namespace demo {

/// One vertex as the vertex shader reads it (binding 0, locations 0-2).
struct Vertex {
  float Pos[3];
  float Normal[3];
  float Uv[2];
};

struct Mesh {
  std::vector<Vertex> Vertices;
  std::vector<uint32_t> Indices; ///< triangle list
};

/// A sphere of \p Radius around the origin: \p Slices around the y axis,
/// \p Stacks from pole to pole; u goes once around, v from top to bottom.
Mesh sphere(float Radius, unsigned Slices, unsigned Stacks);
/// A torus in the xz plane around the origin: the tube of radius \p Minor
/// follows a circle of radius \p Major; u goes once around the circle, v
/// once around the tube.
Mesh torus(float Major, float Minor, unsigned Rings, unsigned Sides);
/// Appends \p B to \p A (B's indices offset by A's vertex count).
void append(Mesh &A, const Mesh &B);

/// A Size x Size R8G8B8A8_UNORM checkerboard of \p Cells x \p Cells squares
/// with its full mip chain, each level the 2x2 box filter of the one
/// above. \p Size is a power of two.
spirv2llvm::Result<spirv2llvm::Image> checkerTexture(uint32_t Size,
                                                     uint32_t Cells);

/// A column-major 4x4 matrix, as GLSL's mat4 in a std140 block.
using Mat4 = std::array<float, 16>;

Mat4 multiply(const Mat4 &A, const Mat4 &B);
Mat4 rotationX(float Radians);
Mat4 rotationY(float Radians);
Mat4 rotationZ(float Radians);
/// A right-handed camera at \p Eye looking at \p Target, y up.
Mat4 lookAt(const std::array<float, 3> &Eye,
            const std::array<float, 3> &Target);
/// Vulkan's clip space: y down, depth 0 at \p Near and 1 at \p Far.
Mat4 perspective(float FovY, float Aspect, float Near, float Far);

} // namespace demo

#endif
