#version 450
// for, while and do-while loops whose trip counts vary per lane (including
// zero for some lanes), one after another and with loop-carried values of
// several types.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 50u];
  uint n = v % 11u;                           // 0..10
  uint s = 0u;
  for (uint i = 0u; i < n; ++i)
    s += i * i + 1u;
  O.v[g * 8u] = s;

  uint x = v >> 8, steps = 0u;
  while (x > 1000u) {                         // varying, may be zero trips
    x = x / 3u + (x & 1u);
    ++steps;
  }
  O.v[g * 8u + 1u] = steps * 65536u + x;

  int k = int(v >> 28) - 3;
  int px = 0, py = 0;
  do {
    px += k;
    py += 1;
    k += 2;
  } while (px < 25);
  O.v[g * 8u + 2u] = uint(px) ^ (uint(py) << 16);

  // Bounds from both ends: start and end vary.
  uint a = (v >> 3) & 15u, b = (v >> 12) & 15u, c = 0u;
  for (uint i = a; i < b; i += 2u)
    c = c * 3u + i;
  O.v[g * 8u + 3u] = c;
}
