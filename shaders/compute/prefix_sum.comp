#version 450
// Inclusive prefix sum (Hillis-Steele) in shared memory: double-buffered,
// two barriers per step of a uniform loop, workgroup size from a spec
// constant (the cases use 64 and 100). Integers, so the result is exact;
// each workgroup also writes its total.
layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint X[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint Y[]; } O;
layout(std430, set = 0, binding = 2) buffer Totals { uint T[]; } T;

shared uint Buf[2][gl_WorkGroupSize.x];

void main() {
  const uint Size = gl_WorkGroupSize.x;
  uint L = gl_LocalInvocationID.x;
  uint G = gl_GlobalInvocationID.x;
  uint Cur = 0u;
  Buf[0][L] = I.X[G];
  barrier();
  for (uint Offset = 1u; Offset < Size; Offset <<= 1) {
    uint V = Buf[Cur][L];
    if (L >= Offset)
      V += Buf[Cur][L - Offset];
    Buf[1u - Cur][L] = V;
    barrier();
    Cur = 1u - Cur;
  }
  O.Y[G] = Buf[Cur][L];
  if (L == Size - 1u)
    T.T[gl_WorkGroupID.x] = Buf[Cur][L];
}
