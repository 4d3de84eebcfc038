#version 450
// A std140 uniform buffer: vec3 followed by a float, a mat3 (column stride
// 16), a float array with 16-byte stride, an ivec3 array, a row-major mat2x3
// and an array of structs; indexed with uniform and varying indices. The
// matrix-vector products are written out by column so that only loads and
// vector arithmetic are involved.
layout(local_size_x = 16) in;

struct S {
  vec4 A;
  float B;
};

layout(std140, set = 0, binding = 0) uniform Params {
  vec3 Scale;                  // 0
  float Bias;                  // 12
  mat3 M;                      // 16, 3 columns of stride 16
  float Weights[8];            // 64, stride 16
  ivec3 Offs[3];               // 192, stride 16
  vec2 V2;                     // 240
  layout(row_major) mat2x3 RM; // 256: 2 columns of 3 rows, row-major: 3 rows of vec2 at stride 16
  S Ss[2];                     // 304, stride 32
} U;

layout(std430, set = 0, binding = 1) readonly buffer In { vec4 X[]; } I;
layout(std430, set = 0, binding = 2) buffer Out { vec4 Y[]; } O;

void main() {
  uint G = gl_GlobalInvocationID.x;
  vec3 V = I.X[G].xyz;
  vec3 MV = U.M[0] * V.x + U.M[1] * V.y + U.M[2] * V.z;
  float W = U.Weights[G & 7u] + U.Weights[(G >> 1) & 7u] * U.Bias;
  ivec3 Off = U.Offs[G % 3u];
  vec3 RMv = U.RM[0] * V.x + U.RM[1] * V.y;
  S Elem = U.Ss[G & 1u];
  O.Y[G * 4u + 0u] = vec4(MV * U.Scale, W);
  O.Y[G * 4u + 1u] = vec4(vec3(Off) + V, U.V2.x * U.V2.y);
  O.Y[G * 4u + 2u] = vec4(RMv, U.RM[1][2] - U.RM[0][G % 3u]);
  O.Y[G * 4u + 3u] = Elem.A * Elem.B + vec4(U.M[G % 3u][(G + 1u) % 3u]);
}
