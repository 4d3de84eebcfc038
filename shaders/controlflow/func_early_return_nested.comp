#version 450
// Functions with returns inside nested loops and a switch, a function
// calling another, a void function returning early; all called under
// divergent control flow (after some lanes returned from main).
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

uint findPair(uint v, uint target) {
  for (uint i = 0u; i < 8u; ++i)
    for (uint j = i + 1u; j < 8u; ++j) {
      uint a = (v >> (i * 4u)) & 15u, b = (v >> (j * 4u)) & 15u;
      if (a + b == target)
        return i * 8u + j;                    // return from depth 2
    }
  return 99u;
}

uint classify(uint v) {
  switch (v & 7u) {
  case 0u: return 1000u;
  case 1u:
  case 2u: return findPair(v, 15u);
  case 5u: break;
  default: return findPair(v >> 1, (v >> 3) & 15u) + 500u;
  }
  return 7u;
}

void maybeStore(uint g, uint x) {
  if (x > 600u)
    return;
  O.v[g * 8u + 2u] = x;
}

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 180u];
  if ((v >> 28) == 3u)
    return;
  uint c = 0u;
  if ((v & 0x10u) != 0u)
    c = classify(v);
  O.v[g * 8u] = c;
  O.v[g * 8u + 1u] = findPair(v ^ g, 20u);
  maybeStore(g, c);
}
