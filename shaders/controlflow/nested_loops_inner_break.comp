#version 450
// Three nested loops with varying bounds: breaks out of the innermost and
// the middle loop, a continue of the outer loop from the middle one, and
// values carried across all three.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 800u];
  uint n = 2u + v % 5u, s = 0u, count = 0u;
  for (uint a = 0u; a < n; ++a) {
    if (((v >> a) & 9u) == 9u)
      continue;
    for (uint b = 0u; b < 6u; ++b) {
      if (b > a + ((v >> 12) & 3u))
        break;                                // leaves the middle loop
      for (uint c = b; c < 7u; ++c) {
        ++count;
        if (((v >> (a + b + c)) & 3u) == 0u)
          break;                              // leaves the innermost loop
        s += a * 100u + b * 10u + c;
      }
      s ^= b << 16;
    }
  }
  O.v[g * 8u] = s;
  O.v[g * 8u + 1u] = count;
}
