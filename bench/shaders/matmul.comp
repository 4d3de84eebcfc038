#version 450
// Tiled matrix multiply C = A * B (N x N, row-major) with 16x16 tiles in
// shared memory and two barriers per tile.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint n; };
shared float tileA[16][16];
shared float tileB[16][16];
void main() {
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint row = gl_WorkGroupID.y * 16u + ty;
  uint col = gl_WorkGroupID.x * 16u + tx;
  float sum = 0.0;
  for (uint t = 0u; t < n; t += 16u) {
    tileA[ty][tx] = a[row * n + t + tx];
    tileB[ty][tx] = b[(t + ty) * n + col];
    barrier();
    for (uint k = 0u; k < 16u; ++k)
      sum += tileA[ty][k] * tileB[k][tx];
    barrier();
  }
  c[row * n + col] = sum;
}
