#version 450
#extension GL_EXT_scalar_block_layout : require
// Scalar block layout (VK_EXT_scalar_block_layout): vec3 packed at 12-byte
// strides, structs with no padding (stride 40), a vec3 straight after a
// float. Reads with consecutive and reversed indices, writes packed vec3.
layout(local_size_x = 24) in;

struct Rec {
  vec3 A;    // 0
  vec3 B;    // 12
  float C;   // 24
  uvec3 D;   // 28
};           // size 40

layout(scalar, set = 0, binding = 0) readonly buffer In {
  float Head;     // 0
  vec3 First;     // 4
  Rec Recs[];     // 16 (struct alignment 4: 16)
} I;

layout(scalar, set = 0, binding = 1) buffer OutV { vec3 V[]; } OV;
layout(scalar, set = 0, binding = 2) buffer OutU { uvec3 U[]; } OU;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint N = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  Rec R = I.Recs[G];
  Rec S = I.Recs[N - 1u - G];
  OV.V[G * 2u] = R.A + S.B * R.C;
  OV.V[G * 2u + 1u] = I.First * I.Head - R.B;
  OU.U[G] = R.D ^ S.D.zxy + uvec3(G);
}
