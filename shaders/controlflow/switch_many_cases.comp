#version 450
// A switch with 24 sparse cases (negative, large and consecutive values)
// on a varying int selector, and one with 16 dense cases; most lanes of a
// group take different cases.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

int sparse(int k) {
  switch (k) {
  case -1000000: return 1;
  case -7: return 2;
  case -3: return 3;
  case -2: return 4;
  case -1: return 5;
  case 0: return 6;
  case 1: return 7;
  case 2: return 8;
  case 3: return 9;
  case 5: return 10;
  case 8: return 11;
  case 13: return 12;
  case 21: return 13;
  case 34: return 14;
  case 55: return 15;
  case 89: return 16;
  case 144: return 17;
  case 233: return 18;
  case 1000: return 19;
  case 4096: return 20;
  case 65535: return 21;
  case 65536: return 22;
  case 2147483647: return 23;
  case -2147483648: return 24;
  default: return 0;
  }
}

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 600u];
  const int picks[12] = int[12](-1000000, -7, -3, 0, 3, 8, 89, 4096, 65536,
                                2147483647, -2147483648, 17);
  int k = (v & 1u) == 0u ? picks[(v >> 1) % 12u] : int(v >> 1) % 40 - 5;
  O.v[g * 8u] = uint(sparse(k));
  uint d = 0u;
  switch (v >> 28) {
  case 0u: d = 3u; break;   case 1u: d = 1u; break;
  case 2u: d = 4u; break;   case 3u: d = 1u; break;
  case 4u: d = 5u; break;   case 5u: d = 9u; break;
  case 6u: d = 2u; break;   case 7u: d = 6u; break;
  case 8u: d = 5u; break;   case 9u: d = 3u; break;
  case 10u: d = 5u; break;  case 11u: d = 8u; break;
  case 12u: d = 9u; break;  case 13u: d = 7u; break;
  case 14u: d = 9u; break;  case 15u: d = 3u; break;
  }
  O.v[g * 8u + 1u] = d * 1000u + uint(k + 10);
}
