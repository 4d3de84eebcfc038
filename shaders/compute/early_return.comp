#version 450
// Returns from divergent control flow: invocations leave main from inside
// a loop and from an if while the others keep storing; stores after a
// return must come only from the invocations still running.
layout(local_size_x = 24) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint X[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint Y[]; } O;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint X = I.X[G];
  O.Y[G * 4u + 0u] = X >> 3;
  if ((X & 3u) == 0u)
    return;
  uint S = 0u;
  for (uint K = 0u; K < 16u; ++K) {
    S += (X >> K) & 7u;
    if (S > 20u + (G & 3u)) {
      O.Y[G * 4u + 1u] = K;
      return;
    }
  }
  O.Y[G * 4u + 2u] = S;
  if (G % 3u == 0u)
    return;
  O.Y[G * 4u + 3u] = X ^ S;
}
