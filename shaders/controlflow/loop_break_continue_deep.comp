#version 450
// break and continue under varying conditions at several depths: directly
// in the loop, inside an if, inside an if inside an if; and a flag that
// propagates a break out of an inner loop.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 90u];
  uint s = 0u, i;
  for (i = 0u; i < 32u; ++i) {
    uint bit = (v >> i) & 1u;
    if (bit == 0u)
      continue;                               // depth 1
    s += i;
    if (i > 4u) {
      if ((s & 3u) == 0u)
        break;                                // depth 2
      if (i > 10u) {
        if (((v >> (i - 5u)) & 3u) == 3u)
          continue;                           // depth 3
        if (s > 150u)
          break;                              // depth 3
      }
    }
    s ^= i << 8;
  }
  O.v[g * 8u] = s;
  O.v[g * 8u + 1u] = i;

  bool stop = false;
  uint t = 0u, j = 0u;
  for (j = 0u; j < 6u && !stop; ++j) {
    for (uint k = 0u; k < 6u; ++k) {
      uint nib = (v >> ((j * 5u + k) % 28u)) & 15u;
      if (nib == 15u) { stop = true; break; }
      if (nib < 4u) continue;
      t += nib * (k + 1u);
    }
  }
  O.v[g * 8u + 2u] = t;
  O.v[g * 8u + 3u] = j;
}
