#version 450
// Tiled matrix multiply C = A * B with 8x8 tiles in shared memory: a 2-D
// workgroup, a uniform loop over K tiles with two barriers per iteration,
// and matrix sizes from push constants that are not multiples of the tile
// (edges padded with zeros). The inputs are small dyadic values, so every
// product and partial sum is exact in float and contraction cannot change
// the result.
layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, set = 0, binding = 0) readonly buffer A { float V[]; } MA; // M x K, row-major
layout(std430, set = 0, binding = 1) readonly buffer B { float V[]; } MB; // K x N
layout(std430, set = 0, binding = 2) buffer C { float V[]; } MC;          // M x N
layout(push_constant) uniform P { uint M, N, K; } PC;

shared float TA[8][8];
shared float TB[8][8];

void main() {
  uint Row = gl_GlobalInvocationID.y, Col = gl_GlobalInvocationID.x;
  uint Ly = gl_LocalInvocationID.y, Lx = gl_LocalInvocationID.x;
  float Acc = 0.0;
  uint Tiles = (PC.K + 7u) / 8u;
  for (uint T = 0u; T < Tiles; ++T) {
    uint Ka = T * 8u + Lx, Kb = T * 8u + Ly;
    TA[Ly][Lx] = Row < PC.M && Ka < PC.K ? MA.V[Row * PC.K + Ka] : 0.0;
    TB[Ly][Lx] = Kb < PC.K && Col < PC.N ? MB.V[Kb * PC.N + Col] : 0.0;
    barrier();
    for (uint I = 0u; I < 8u; ++I)
      Acc += TA[Ly][I] * TB[I][Lx];
    barrier();
  }
  if (Row < PC.M && Col < PC.N)
    MC.V[Row * PC.N + Col] = Acc;
}
