#version 450
// Buffer accesses whose addresses are the same in every lane (push-constant
// index, workgroup id), lane-consecutive (forward, reversed, offset),
// strided, random gathers from a hash and a scatter through a permutation.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint A[]; } I;   // 4096 words
layout(std430, set = 0, binding = 1) readonly buffer InV { uvec4 V[]; } IV; // 256 uvec4
layout(std430, set = 0, binding = 2) buffer Out { uint O[]; } O;
layout(std430, set = 0, binding = 3) buffer Scatter { uint S[]; } S;
layout(push_constant) uniform P { uint K; uint N; } PC;

uint hash(uint X) {
  X ^= X >> 16;
  X *= 0x7feb352du;
  X ^= X >> 15;
  X *= 0x846ca68bu;
  X ^= X >> 16;
  return X;
}

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint Uni = I.A[PC.K];                          // one address
  uint Wg = I.A[gl_WorkGroupID.x * 7u];          // one address per workgroup
  uint Cons = I.A[G];                            // consecutive
  uint Off = I.A[G + 13u];                       // consecutive, unaligned
  uint Rev = I.A[PC.N - 1u - G];                 // reversed
  uint Str = I.A[G * 3u + 1u];                   // strided
  uint Rnd = I.A[hash(G) & 4095u];               // gather
  uvec4 Vec = IV.V[(G * 5u) & 255u];             // gather of vectors
  uvec4 VCons = IV.V[G & 255u];                  // consecutive vectors
  uint Base = G * 8u;
  O.O[Base + 0u] = Uni + Wg;
  O.O[Base + 1u] = Cons;
  O.O[Base + 2u] = Off ^ Rev;
  O.O[Base + 3u] = Str;
  O.O[Base + 4u] = Rnd;
  O.O[Base + 5u] = Vec.x + Vec.w;
  O.O[Base + 6u] = VCons.y - VCons.z;
  O.O[Base + 7u] = G;
  // Scatter through a permutation of [0, N): 37 is coprime to N.
  S.S[(G * 37u) % PC.N] = Cons + Rnd;
  // Uniform-address store: every lane of every workgroup stores the same
  // value, so the result does not depend on which store lands last.
  S.S[PC.N] = Uni * 2u;
}
