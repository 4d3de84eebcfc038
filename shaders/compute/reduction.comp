#version 450
// Tree reduction in shared memory with a barrier in a uniform loop, for a
// workgroup size given by a spec constant (the cases use 3, 17, 100 and
// 256): works for sizes that are not powers of two. Reduces floats (sum),
// uints (sum and max by comparison) at once; one result per workgroup.
layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer InF { float X[]; } IF;
layout(std430, set = 0, binding = 1) readonly buffer InU { uint X[]; } IU;
layout(std430, set = 0, binding = 2) buffer OutF { float S[]; } OF;
layout(std430, set = 0, binding = 3) buffer OutU { uvec2 S[]; } OU;

shared float PF[gl_WorkGroupSize.x];
shared uint PS[gl_WorkGroupSize.x];
shared uint PM[gl_WorkGroupSize.x];

void main() {
  const uint Size = gl_WorkGroupSize.x;
  uint L = gl_LocalInvocationID.x;
  uint G = gl_GlobalInvocationID.x;
  PF[L] = IF.X[G];
  PS[L] = IU.X[G];
  PM[L] = IU.X[G] * 2654435761u;
  barrier();
  uint Pow = 1u;
  while (Pow < Size)
    Pow <<= 1;
  for (uint Stride = Pow >> 1; Stride > 0u; Stride >>= 1) {
    if (L < Stride && L + Stride < Size) {
      PF[L] += PF[L + Stride];
      PS[L] += PS[L + Stride];
      uint Other = PM[L + Stride];
      if (Other > PM[L])
        PM[L] = Other;
    }
    barrier();
  }
  if (L == 0u) {
    OF.S[gl_WorkGroupID.x] = PF[0];
    OU.S[gl_WorkGroupID.x] = uvec2(PS[0], PM[0]);
  }
}
