#version 450
// A switch inside a loop: break leaves the switch only, continue goes to
// the loop's next iteration, a case sets a flag that ends the loop, and a
// case returns from main; all under varying selectors.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 700u];
  uint s = 0u, i = 0u;
  bool done = false;
  for (i = 0u; i < 16u && !done; ++i) {
    uint k = (v >> (i * 2u)) & 3u;
    switch (k) {
    case 0u:
      s += 1u;
      break;                                  // leaves the switch
    case 1u:
      s += 10u;
      continue;                               // next iteration
    case 2u:
      if (s > 40u) {
        done = true;
        break;
      }
      s *= 2u;
      // fall through
    default:
      s += 100u;
      if ((s & 7u) == 3u)
        continue;
    }
    s += i;                                   // after the switch
  }
  O.v[g * 8u] = s;
  O.v[g * 8u + 1u] = i;
  for (uint j = 0u; j < 8u; ++j) {
    switch ((v >> (j * 3u)) & 7u) {
    case 6u:
      O.v[g * 8u + 2u] = j;
      return;                                 // returns from main
    case 7u:
      continue;
    default:
      s += j;
    }
    O.v[g * 8u + 3u] = s;
  }
  O.v[g * 8u + 4u] = 0xffffu;
}
