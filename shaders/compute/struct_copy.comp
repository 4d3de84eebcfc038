#version 450
// Whole-struct copies: between buffers of the same layout (OpLoad/OpStore
// of the struct), between std430 and std140 (OpCopyLogical or member-wise
// copies), through Function variables and a dynamically indexed local array
// of structs, and struct assignment with one member changed.
layout(local_size_x = 16) in;

struct Particle {
  vec4 Pos;
  vec3 Vel;
  uint Id;
  float Mass[3];
  ivec2 Cell;
};

layout(std430, set = 0, binding = 0) readonly buffer In { Particle P[]; } I;
layout(std140, set = 0, binding = 1) buffer Out140 { Particle P[]; } O140;
layout(std430, set = 0, binding = 2) buffer Out430 { Particle P[]; } O430;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint N = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  Particle A = I.P[(G * 5u) % N];   // gathered whole struct
  Particle B = A;
  B.Id += 1000u;
  B.Mass[G % 3u] = 0.5;
  Particle Arr[4];
  for (uint K = 0u; K < 4u; ++K)
    Arr[K] = I.P[(G + K) % N];
  Arr[G & 3u] = B;
  O140.P[G] = Arr[(G >> 2) & 3u];
  O430.P[G] = I.P[G];
  O430.P[G + N] = B;
}
