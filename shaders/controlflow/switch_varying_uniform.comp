#version 450
// OpSwitch on varying selectors and on uniform ones (push constant,
// workgroup id), nested both ways: a uniform switch inside a varying case,
// a varying switch inside a uniform case.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 17u];
  uint w = gl_WorkGroupID.x;
  uint s = 0u;
  switch (v % 5u) {                           // varying
  case 0u:
    switch (U.c) {                            // uniform (3)
    case 1u: s = 1u; break;
    case 3u: s = 3u + (v >> 30); break;
    default: s = 7u; break;
    }
    break;
  case 1u:
  case 2u:
    switch (w) {                              // workgroup-uniform
    case 0u: s = 100u; break;
    case 2u: s = 102u; break;
    default: s = 109u + (v & 1u); break;
    }
    break;
  case 4u:
    s = v >> 24;
    break;
  default:
    s = 55u;
  }
  O.v[g * 8u] = s;

  uint t = 0u;
  switch (w) {                                // uniform outer
  case 1u:
    switch ((v >> 3) & 3u) {                  // varying inner
    case 0u: t = 10u; break;
    case 3u: t = 13u; // fall through
    case 1u: t += 11u; break;
    }
    break;
  default:
    t = (v >> 5) & 0xfu;
    if (t > 7u) t = 99u;
  }
  O.v[g * 8u + 1u] = t;
}
