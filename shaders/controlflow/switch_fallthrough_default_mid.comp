#version 450
// Switch fall-through chains: default first, default in the middle falling
// into a case, default last reached by fall-through, an empty case, inside
// a loop so lanes go through different chains in different iterations.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 300u];
  uint s = 0u;
  for (uint i = 0u; i < 4u; ++i) {
    uint k = (v >> (i * 4u)) & 7u;
    switch (k) {
    default:                                  // default first, falls
      s += 1u;
    case 2u:
      s += 10u;
    case 3u:
      s *= 3u;
      break;
    case 5u:
    case 6u:                                  // empty case sharing a body
      s += 500u;
    }
    switch (k) {
    case 0u:
      s ^= 0xf0u;
      break;
    default:                                  // default in the middle
      s += 7u;
    case 1u:
      s += 1u;
      break;
    case 4u:
      s = s / 2u;
    case 7u:                                  // reached from case 4
      s += 4u;
    }
  }
  O.v[g * 8u] = s;
}
