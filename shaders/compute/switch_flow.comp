#version 450
// switch on varying selectors: fallthrough, default in the middle, a
// selector with sparse and negative case values (made from an unsigned
// remainder; OpSMod of negative values is in signed_div_mod.spvasm), switch
// inside a loop with break (leaves the switch) and continue (next
// iteration), and a nested switch.
layout(local_size_x = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer In { int X[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { int Y[]; } O;

void main() {
  uint G = gl_GlobalInvocationID.x;
  int X = I.X[G];
  int A = 0;
  switch (X & 7) {
  case 0:
    A += 1;
  case 1:           // 0 falls through to 1
    A += 10;
    break;
  default:
    A += 100;
  case 5:           // default falls through to 5
    A += 1000;
    break;
  case 6:
  case 7:
    A -= 7;
    break;
  }
  int B = 0;
  switch (int(uint(X >> 3) % 5u) - 2) {   // -2..2
  case -2: B = 20; break;
  case -1: B = 10; break;
  case 1000: B = 99; break;
  case 2: B = -20; break;
  default: B = X >> 10; break;
  }
  int C = 0;
  for (int K = 0; K < 12; ++K) {
    switch ((X + K) & 3) {
    case 0:
      C += K;
      continue;
    case 1:
      if (K > (X & 15))
        break;
      C ^= K << 4;
      break;
    case 2:
      switch (K & 1) {
      case 0: C += 3; break;
      default: C -= 1; break;
      }
      break;
    default:
      C *= 2;
      break;
    }
    C += 1;
  }
  O.Y[G * 3u + 0u] = A;
  O.Y[G * 3u + 1u] = B;
  O.Y[G * 3u + 2u] = C;
}
