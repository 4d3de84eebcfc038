#version 450
// Push constants (std430 by default): scalars, a vec3 at offset 16, a uvec2
// at 32, a uint array and a mat2, read with uniform and varying indices.
layout(local_size_x = 20) in;

layout(push_constant) uniform PC {
  uint N;          // 0
  int Offset;      // 4
  float Scale;     // 8
  vec3 Dir;        // 16
  uvec2 Mask;      // 32
  uint Table[4];   // 40
  mat2 M;          // 56
} P;

layout(std430, set = 0, binding = 0) readonly buffer In { float X[]; } I;
layout(std430, set = 0, binding = 1) buffer OutF { vec4 F[]; } OF;
layout(std430, set = 0, binding = 2) buffer OutU { uvec4 U[]; } OU;

void main() {
  uint G = gl_GlobalInvocationID.x;
  if (G >= P.N)
    return;
  float X = I.X[G];
  vec2 MX = P.M[0] * X + P.M[1] * P.Scale;
  OF.F[G] = vec4(P.Dir * X + vec3(P.Scale), MX.x - MX.y);
  uint T = P.Table[G & 3u];
  OU.U[G] = uvec4(T, (G ^ P.Mask.x) & P.Mask.y, uint(int(G) + P.Offset),
                  P.Table[(G >> 2) & 3u] + P.N);
}
