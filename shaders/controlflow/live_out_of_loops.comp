#version 450
// Values defined in loops and used after them: the counter and values
// set before a varying break, values of an inner loop used in the outer
// loop and after both, a value only some lanes define in the loop.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 220u];
  uint i, last = 0u, found = 0xffffu;
  for (i = 0u; i < 20u; ++i) {
    last = (v >> i) & 0xffu;
    if (last > 200u) {
      found = i;
      break;
    }
  }
  O.v[g * 8u] = i;
  O.v[g * 8u + 1u] = last;
  O.v[g * 8u + 2u] = found;
  uint outer = 0u, innerLast = 0u, j = 0u;
  for (uint a = 0u; a < ((v >> 24) & 3u) + 1u; ++a) {
    for (j = 0u; j < 10u; ++j) {
      innerLast = j * a + (v & 0xfu);
      if (((v >> (a + j)) & 3u) == 2u)
        break;
    }
    outer += j * 16u + innerLast;             // inner values used outside
  }
  O.v[g * 8u + 3u] = outer;
  O.v[g * 8u + 4u] = innerLast + j * 1000u;   // and after both
  float f = 0.0;
  int k = 0;
  while (k < int(v & 7u)) {
    f = f * 0.5 + float(k);
    ++k;
  }
  O.v[g * 8u + 5u] = uint(f * 64.0);
  O.v[g * 8u + 6u] = uint(k);
}
