#version 450
// The smallest loop with both a continue and a break under varying
// conditions: the accumulator's phi in the continue target joins the
// "continue" path and the fall-through path of a varying branch, and
// that block is itself control dependent on the branch (because of the
// break), so its phi must be Varying.
layout(local_size_x = 8) in;

layout(std430, set = 0, binding = 0) buffer Out { uint Y[]; } O;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint X = G * 0x9e3779b9u;
  uint Acc = 0u;
  for (uint K = 0u; K < (X & 31u) + 3u; ++K) {
    if (((X >> (K & 31u)) & 1u) != 0u)
      continue;
    Acc += K * K + 1u;
    if (Acc > (X >> 20))
      break;
  }
  O.Y[G] = Acc;
}
