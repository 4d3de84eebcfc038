#version 450
// do-while loops: a varying exit condition, a continue (which jumps to the
// condition), a nested do-while, and a do-while whose body breaks.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 240u];
  uint x = v, n = 0u;
  do {
    x = x * 1103515245u + 12345u;
    ++n;
    if ((x & 0x30000u) == 0x10000u)
      continue;                               // to the condition
    n += 16u;
  } while ((x >> 28) != 0u && n < 200u);
  O.v[g * 8u] = n;
  O.v[g * 8u + 1u] = x;
  uint s = 0u, a = 0u;
  do {
    uint b = 0u;
    do {
      s += a * b;
      ++b;
    } while (b < ((v >> (a * 2u)) & 3u));
    ++a;
    if (s > 10u && (v & 1u) != 0u)
      break;
  } while (a < ((v >> 20) & 7u));
  O.v[g * 8u + 2u] = s;
  O.v[g * 8u + 3u] = a;
}
