#version 450
// std430 storage buffers: a struct array with vec3 followed by a float
// (offset 12), ivec2, arrays of vec2 inside the struct and a header before
// the runtime array; vec3 arrays with stride 16. Float results go to one
// buffer, integer results to another, and each invocation also writes a
// transformed copy of its struct back in std430.
layout(local_size_x = 32) in;

struct Item {
  vec3 P;       // 0
  float W;      // 12
  ivec2 Q;      // 16
  uint Flags;   // 24
  vec2 UV[2];   // 32, stride 8
  vec3 N;       // 48
};              // size 64

layout(std430, set = 0, binding = 0) readonly buffer In {
  uint Count;
  float Pad;
  vec3 Extra[4]; // offset 16, stride 16
  Item Items[];  // offset 80
} I;

layout(std430, set = 0, binding = 1) buffer OutF { float F[]; } OF;
layout(std430, set = 0, binding = 2) buffer OutI { int V[]; } OI;
layout(std430, set = 0, binding = 3) buffer OutItems { Item Items[]; } OS;

void main() {
  uint G = gl_GlobalInvocationID.x;
  Item It = I.Items[G];
  vec3 E = I.Extra[G & 3u];
  OF.F[G * 4u + 0u] = It.P.x * It.W + It.UV[1].y;
  OF.F[G * 4u + 1u] = It.P.y - It.P.z + E.z;
  OF.F[G * 4u + 2u] = It.UV[0].x * It.UV[0].y + It.N.x;
  OF.F[G * 4u + 3u] = dot(It.N, E) + float(I.Count & 7u);
  OI.V[G * 2u + 0u] = It.Q.x + It.Q.y * 3;
  OI.V[G * 2u + 1u] = int(It.Flags >> 3) ^ It.Q.y;
  Item Out = It;
  Out.P = It.N;
  Out.N = It.P;
  Out.Q = It.Q.yx;
  Out.Flags = It.Flags + G;
  Out.UV[0] = It.UV[1];
  Out.UV[1] = E.xy;
  OS.Items[G] = Out;
}
