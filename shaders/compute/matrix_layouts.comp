#version 450
// Row-major and column-major matrices in std430 storage buffers: whole
// matrix loads with uniform and varying array indices, single elements with
// varying column and row indices, non-square matrices, and whole-matrix
// stores that convert column-major to row-major and back.
layout(local_size_x = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer Mats {
  layout(row_major) mat4 R[8];        // 0, 64 bytes each
  layout(column_major) mat4 C[8];     // 512
  layout(row_major) mat3x2 R32;       // 1024: 3 columns, 2 rows; row-major: 2 rows of vec3, stride 16
  layout(column_major) mat2x3 C23;    // 1056: 2 columns of vec3, stride 16
} M;

layout(std430, set = 0, binding = 1) readonly buffer Vecs { vec4 V[]; } IV;
layout(std430, set = 0, binding = 2) buffer Out { vec4 O[]; } OV;
layout(std430, set = 0, binding = 3) buffer OutR { layout(row_major) mat4 R[]; } OR;
layout(std430, set = 0, binding = 4) buffer OutC { layout(column_major) mat4 C[]; } OC;

vec4 mulRows(mat4 A, vec4 X) { return A[0] * X.x + A[1] * X.y + A[2] * X.z + A[3] * X.w; }

void main() {
  uint G = gl_GlobalInvocationID.x;
  vec4 X = IV.V[G];
  mat4 Rm = M.R[G & 7u];
  mat4 Cm = M.C[(G * 3u) & 7u];
  mat4 Ru = M.R[gl_WorkGroupID.x & 7u];
  OV.O[G * 4u + 0u] = mulRows(Rm, X);
  OV.O[G * 4u + 1u] = mulRows(Cm, X) + mulRows(Ru, X.wzyx);
  uint Col = G & 3u, Row = (G >> 2) & 3u;
  OV.O[G * 4u + 2u] = vec4(M.R[G & 7u][Col][Row], M.C[G & 7u][Col][Row],
                          M.R32[G % 3u][Row & 1u], M.C23[Col & 1u][G % 3u]);
  vec2 T = M.R32[0] * X.x + M.R32[1] * X.y + M.R32[2] * X.z;
  vec2 U2 = vec2(M.C23[0][G % 3u], M.C23[1][0]);
  OV.O[G * 4u + 3u] = vec4(T.x, T.y, U2);
  // Layout conversions: column-major source to row-major destination and
  // the reverse.
  OR.R[G] = M.C[G & 7u];
  OC.C[G] = M.R[(G + 1u) & 7u];
}
