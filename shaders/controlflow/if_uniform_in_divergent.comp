#version 450
// Uniform branches (push constants, workgroup id) inside divergent regions:
// a uniform if whose arms hold varying ifs, a loop with a uniform trip
// count inside a varying branch, a uniform break inside a varying loop.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 200u];
  uint w = gl_WorkGroupID.x;
  uint s = v & 0xffu;
  if ((v >> 9 & 3u) != 0u) {                  // varying: about 3/4 of lanes
    if (U.b != 0u) {                          // uniform, false: skipped
      s = 0u;
    } else if (w >= 1u) {                     // uniform per workgroup
      for (uint i = 0u; i < U.c; ++i) {       // uniform trip count (3)
        s = s * 5u + i;
        if (((v >> i) & 1u) != 0u)            // varying inside uniform
          s ^= 0x1234u;
      }
    } else {
      s += U.d;
    }
  }
  O.v[g * 8u] = s;

  // A varying loop with a uniform break condition on the iteration count.
  uint n = (v >> 20) % 9u;
  uint acc = 0u;
  for (uint i = 0u; i < n; ++i) {
    if (i == U.a)                             // uniform value, varying loop
      break;
    acc += i * (v >> 28);
  }
  O.v[g * 8u + 1u] = acc;

  // A uniform condition selecting between two divergent constructs.
  uint r = 0u;
  if (w == 1u) {
    if ((v & 3u) == 0u) r = 10u; else r = 11u;
  } else {
    switch (v & 3u) {
    case 0u: r = 20u; break;
    case 2u: r = 22u; break;
    default: r = 29u;
    }
  }
  O.v[g * 8u + 2u] = r;
}
