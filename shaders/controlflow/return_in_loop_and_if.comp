#version 450
// Returns from main under varying conditions: inside a loop, inside an if
// inside a loop, inside a switch, and at top level; stores after a lane's
// return must not happen.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 120u];
  O.v[g * 8u] = 1u;
  if ((v & 15u) == 0u)
    return;                                   // top-level varying return
  uint s = 0u;
  for (uint i = 0u; i < 12u; ++i) {
    s += (v >> i) & 7u;
    if (s > 30u) {
      O.v[g * 8u + 1u] = i;
      return;                                 // return inside loop
    }
    if (((v >> i) & 0x41u) == 0x41u) {
      if (i > 3u) {
        O.v[g * 8u + 2u] = s;
        return;                               // depth 2
      }
    }
  }
  O.v[g * 8u + 3u] = s;
  switch ((v >> 20) & 3u) {
  case 1u:
    return;
  case 2u:
    O.v[g * 8u + 4u] = 2u;
    break;
  }
  O.v[g * 8u + 5u] = s * 2u;
}
