#version 450
// Functions taking values (scalar, vector, struct, array), returning
// values, with early returns, called under divergent control flow (in a
// varying if, in a loop with a varying trip count, in a switch case).
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

struct Pair { uint lo; uint hi; };

uint mixBits(uint a, uvec2 b, Pair p) {
  if ((a & 1u) != 0u)
    return a ^ b.x ^ p.hi;
  uint r = a + b.y;
  for (uint i = 0u; i < (p.lo & 3u); ++i)
    r = r * 33u + i;
  return r;
}

uint pick(uint k, uint arr[4]) {
  if (k >= 4u)
    return 0u;
  return arr[k];
}

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 140u];
  uint s = 0u;
  if ((v & 3u) != 0u)
    s = mixBits(v >> 4, uvec2(g, v >> 16), Pair(v, 0x1234u));
  O.v[g * 8u] = s;
  uint arr[4] = uint[4](v >> 8, g, 7u, v * 3u);
  uint t = 0u;
  for (uint i = 0u; i < (v >> 29) + 1u; ++i)
    t += pick((v >> (i * 3u)) & 7u, arr);
  O.v[g * 8u + 1u] = t;
  switch ((v >> 12) & 3u) {
  case 0u: O.v[g * 8u + 2u] = mixBits(t, uvec2(1u, 2u), Pair(3u, 4u)); break;
  case 3u: O.v[g * 8u + 2u] = pick(g & 3u, arr); break;
  }
}
