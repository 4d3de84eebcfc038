#version 450
// Divergent control flow: loops whose trip counts differ per invocation,
// break and continue under varying conditions, nested loops with an inner
// break, and a loop whose only exit is under a varying branch.
layout(local_size_x = 32) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint X[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint Y[]; } O;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint X = I.X[G];
  // Collatz steps (bounded): varying trip count, exit from the body.
  uint N = (X & 0xffffu) + 1u, Steps = 0u;
  while (N != 1u && Steps < 500u) {
    N = (N & 1u) != 0u ? 3u * N + 1u : N >> 1;
    ++Steps;
  }
  // continue and break under varying conditions.
  uint Acc = 0u;
  for (uint K = 0u; K < (X & 31u) + 3u; ++K) {
    if (((X >> (K & 31u)) & 1u) != 0u)
      continue;
    Acc += K * K + 1u;
    if (Acc > (X >> 20))
      break;
  }
  // Nested loops; the inner one breaks early for some invocations.
  uint Nest = 0u;
  for (uint A = 0u; A < (G & 7u) + 1u; ++A) {
    for (uint B = 0u; B < 10u; ++B) {
      if (B * A > (X & 15u))
        break;
      Nest += A ^ B;
    }
    Nest *= 3u;
  }
  // The only exit is under a varying condition.
  uint Probe = X;
  uint Count = 0u;
  for (;;) {
    Probe = Probe * 1103515245u + 12345u;
    ++Count;
    if ((Probe >> 27) == (G & 31u) || Count == 200u)
      break;
  }
  // do-while with a varying condition.
  uint D = G;
  do {
    D = D / 3u + (D & 1u);
  } while (D > 2u);
  O.Y[G * 5u + 0u] = Steps;
  O.Y[G * 5u + 1u] = Acc;
  O.Y[G * 5u + 2u] = Nest;
  O.Y[G * 5u + 3u] = Count;
  O.Y[G * 5u + 4u] = D;
}
