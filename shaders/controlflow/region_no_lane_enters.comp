#version 450
// Regions no lane of a group enters: conditions false for every lane of a
// group (or of the dispatch) guard stores, loops and nested branches that
// must not run. With 37 invocations per workgroup, local indices >= 40 do
// not exist; with 64, only the groups holding them enter.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint l = gl_LocalInvocationIndex;
  uint v = I.v[g + 400u];
  O.v[g * 8u] = 1u;
  if (l >= 40u) {                             // whole groups skip it
    O.v[g * 8u + 1u] = v;
    for (uint i = 0u; i < (v & 7u); ++i)
      O.v[g * 8u + 2u] += i;
  }
  if (v == I.v[g + 401u]) {                   // never (hash words differ),
                                              // not provably: no lane enters
    for (uint i = 0u; i < v; ++i)             // billions of iterations
      O.v[g * 8u + 3u] = i;
  }
  uint s = 0u;
  // A loop no lane of some groups iterates: trip count 0 below index 16.
  uint n = l < 16u ? 0u : (v >> 8) % 5u;
  for (uint i = 0u; i < n; ++i) {
    s += i + 1u;
    if (l < 16u)                              // inside, again never
      O.v[g * 8u + 4u] = 0u;
  }
  O.v[g * 8u + 5u] = s;
  // A divergent region containing a branch none of its lanes takes.
  if ((v & 1u) == 0u) {
    if ((v & 1u) == 1u)
      O.v[g * 8u + 6u] = 0u;
    else
      O.v[g * 8u + 6u] = v >> 16;
  }
}
