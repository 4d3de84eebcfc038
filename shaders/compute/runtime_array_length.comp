#version 450
// OpArrayLength: .length() of runtime arrays after headers of different
// sizes and with element strides 4, 16 and 12, on descriptors whose size is
// not a whole number of elements (length rounds down). The lengths drive
// loops with per-invocation trip counts.
layout(local_size_x = 8) in;

struct Trip { uint A; float B; uint C; }; // std430 stride 12

layout(std430, set = 0, binding = 0) readonly buffer A { uint Header; uint Data[]; } BA;
layout(std430, set = 0, binding = 1) readonly buffer B { vec4 Head; vec3 Data[]; } BB;
layout(std430, set = 0, binding = 2) readonly buffer C { Trip Data[]; } BC;
layout(std430, set = 0, binding = 3) buffer Out { uint L[]; } O;

void main() {
  uint I = gl_LocalInvocationIndex;
  uint LA = uint(BA.Data.length());
  uint LB = uint(BB.Data.length());
  uint LC = uint(BC.Data.length());
  uint LO = uint(O.L.length());
  if (I == 0u) {
    O.L[0] = LA;
    O.L[1] = LB;
    O.L[2] = LC;
    O.L[3] = LO;
  }
  // Invocation I sums elements I, I+8, ... of each array.
  uint SA = 0u;
  for (uint K = I; K < LA; K += 8u)
    SA += BA.Data[K] * (K + 1u);
  float SB = 0.0;
  for (uint K = I; K < LB; K += 8u)
    SB += BB.Data[K].y;
  uint SC = 0u;
  for (uint K = I; K < LC; K += 8u)
    SC ^= BC.Data[K].A + BC.Data[K].C;
  O.L[4u + I * 3u] = SA;
  O.L[5u + I * 3u] = floatBitsToUint(SB); // a fixed-order sum: exact
  O.L[6u + I * 3u] = SC;
}
