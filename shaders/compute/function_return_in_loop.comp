#version 450
// A called function that returns from inside a loop, with a per-invocation
// trip count, called twice with varying arguments; the result feeds a
// divergent branch.
layout(local_size_x = 24) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint X[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint Y[]; } O;

uint firstSetAbove(uint X, uint From) {
  for (uint B = From; B < 32u; ++B)
    if (((X >> B) & 1u) != 0u)
      return B;
  return 99u;
}

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint X = I.X[G] & ~(0xffu << (G & 15u));
  uint A = firstSetAbove(X, G & 7u);
  uint B = firstSetAbove(X ^ 0xaaaaaaaau, A < 32u ? A : 0u);
  O.Y[G * 2u + 0u] = A;
  O.Y[G * 2u + 1u] = A > B ? A - B : B * 2u;
}
