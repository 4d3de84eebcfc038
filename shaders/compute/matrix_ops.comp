#version 450
// Matrix arithmetic on matrices loaded from row-major and column-major
// std430 buffers: matrix * vector, vector * matrix, matrix * matrix,
// matrix * scalar, transpose, outer product, non-square shapes, and a few
// GLSL.std.450 functions on the results (abs, min, max, clamp, floor,
// fma-free mix).
layout(local_size_x = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer Mats {
  layout(row_major) mat4 R[8];      // 0
  layout(column_major) mat4 C[8];   // 512
  layout(row_major) mat3x2 R32;     // 1024 (2 rows of vec3, stride 16)
  layout(column_major) mat2x3 C23;  // 1056
} M;

layout(std430, set = 0, binding = 1) readonly buffer Vecs { vec4 V[]; } IV;
layout(std430, set = 0, binding = 2) buffer Out { vec4 O[]; } OV;
layout(std430, set = 0, binding = 3) buffer OutM { layout(row_major) mat4 R[]; } OM;

void main() {
  uint G = gl_GlobalInvocationID.x;
  vec4 X = IV.V[G];
  mat4 A = M.R[G & 7u];
  mat4 B = M.C[(G * 3u) & 7u];
  OV.O[G * 6u + 0u] = A * X;
  OV.O[G * 6u + 1u] = X * B;
  vec2 P = M.R32 * X.xyz;            // mat3x2 * vec3
  vec3 Q = M.C23 * X.zw;             // mat2x3 * vec2
  OV.O[G * 6u + 2u] = vec4(P, Q.x + Q.y, Q.z);
  mat3 S = M.C23 * M.R32;            // (2 cols x 3 rows) * (3 cols x 2 rows) = 3x3
  OV.O[G * 6u + 3u] = vec4(S[G % 3u], S[2][2]);
  vec4 T = transpose(A)[G & 3u] + outerProduct(X, X.wzyx)[1];
  OV.O[G * 6u + 4u] = T;
  vec4 U = abs(X) + min(X, vec4(0.25)) + max(X.yzwx, -0.5) +
           clamp(X * 3.0, -1.0, 1.0) + floor(X * 4.0);
  OV.O[G * 6u + 5u] = U;
  OM.R[G] = A * B * 0.5;
}
