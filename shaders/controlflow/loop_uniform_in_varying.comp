#version 450
// Loops whose conditions are uniform nested in loops whose conditions vary,
// and the reverse: a uniform-trip loop inside a varying one, a varying loop
// inside a uniform one, a uniform loop inside a varying if.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 100u];
  uint s = 0u;
  for (uint i = 0u; i < (v & 7u); ++i)        // varying
    for (uint j = 0u; j < U.c; ++j)           // uniform (3)
      s += i * 4u + j;
  O.v[g * 8u] = s;

  uint t = 0u;
  for (uint i = 0u; i < U.a; ++i) {           // uniform (5)
    uint m = (v >> (i * 3u)) & 7u;
    for (uint j = 0u; j < m; ++j)             // varying
      t = t * 3u + j;
  }
  O.v[g * 8u + 1u] = t;

  uint u = 1u;
  if ((v & 0x30u) != 0u) {
    for (uint i = 0u; i < U.d; ++i) {         // uniform (12), varying region
      if (i == U.c + gl_WorkGroupID.x)        // uniform break
        break;
      u = u * 7u + i;
    }
  }
  O.v[g * 8u + 2u] = u;
}
