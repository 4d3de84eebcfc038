#version 450
// Every workgroup built-in for a 3-D workgroup of 8x4x2 invocations in a
// 3-D dispatch: LocalInvocationId has to be unpacked from the linear index
// along all three axes. Also derives the linear index and the global id
// back from the other built-ins, as a shader would.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;

layout(std430, set = 0, binding = 0) buffer Out { uvec4 Rec[]; } O;

void main() {
  uvec3 Total = gl_NumWorkGroups * gl_WorkGroupSize;
  uint G = gl_GlobalInvocationID.x +
           Total.x * (gl_GlobalInvocationID.y + Total.y * gl_GlobalInvocationID.z);
  uvec3 L = gl_LocalInvocationID;
  uint Index = L.x + gl_WorkGroupSize.x * (L.y + gl_WorkGroupSize.y * L.z);
  uvec3 Global = gl_WorkGroupID * gl_WorkGroupSize + L;
  uint Base = G * 5u;
  O.Rec[Base + 0u] = uvec4(L, gl_LocalInvocationIndex);
  O.Rec[Base + 1u] = uvec4(gl_GlobalInvocationID, G);
  O.Rec[Base + 2u] = uvec4(gl_WorkGroupID, Index);
  O.Rec[Base + 3u] = uvec4(gl_NumWorkGroups, gl_WorkGroupSize.x * gl_WorkGroupSize.y);
  O.Rec[Base + 4u] = uvec4(Global - gl_GlobalInvocationID, gl_WorkGroupSize.z);
}
