#version 450
// Nested if/else whose conditions mix varying (input words, invocation id),
// uniform (push constants) and workgroup-uniform (gl_WorkGroupID) values in
// every order, including else-if chains and a uniform arm no lane takes.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g];
  uint w = gl_WorkGroupID.x;
  uint s = 0u, t = 1u;
  if ((v & 1u) != 0u) {                       // varying
    if (U.a > 4u) {                           // uniform, true
      s += v >> 3;
      if ((v & 6u) == 2u)                     // varying
        s ^= 0x55u;
      else if (w == 1u)                       // workgroup-uniform
        s += 100u;
      else
        t = 7u;
    } else {
      s = 999u;                               // uniform, false
    }
  } else {
    if (w != 0u) {                            // workgroup-uniform, both ways
      if ((v & 8u) != 0u)
        s = v * 3u;
      else if (U.b == 0u)                     // uniform inside varying
        t += 2u;
      else
        t = 0u;
    } else {
      if (g % 3u == 0u)                       // varying on the id
        s = 77u;
      else if (U.c == 3u)
        s = v % 1000u;
    }
  }
  O.v[g * 8u] = s;
  O.v[g * 8u + 1u] = t;

  // Uniform outside, varying inside, uniform innermost.
  uint q = 0u;
  if (w == 2u) {
    if (((v >> 5) & 3u) == 1u) {
      if (U.d > 10u)
        q = 1u;
      else
        q = 2u;
    } else {
      q = 3u;
    }
  } else if (((v >> 7) & 1u) == 0u) {
    q = 4u;
    if (U.a == 5u && (v & 16u) != 0u)         // uniform && varying
      q = 5u;
  }
  O.v[g * 8u + 2u] = q;
  // Conditional stores: the untouched slots keep 0xdeadbeef.
  if ((v & 0x300u) == 0x100u)
    O.v[g * 8u + 3u] = s + q;
  else if (w == 1u && (v & 0x300u) == 0x200u)
    O.v[g * 8u + 4u] = t;
}
