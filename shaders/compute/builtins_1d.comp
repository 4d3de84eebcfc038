#version 450
// Every workgroup built-in for a 1-D workgroup of 17 invocations (not a
// multiple of W = 4, 8 or 16, so the last SIMD group is partial), in a 3-D
// dispatch. Each invocation writes four uvec4 records at its linear id.
layout(local_size_x = 17) in;

layout(std430, set = 0, binding = 0) buffer Out { uvec4 Rec[]; } O;

void main() {
  uvec3 Total = gl_NumWorkGroups * gl_WorkGroupSize;
  uint G = gl_GlobalInvocationID.x +
           Total.x * (gl_GlobalInvocationID.y + Total.y * gl_GlobalInvocationID.z);
  uint Base = G * 4u;
  O.Rec[Base + 0u] = uvec4(gl_LocalInvocationID, gl_LocalInvocationIndex);
  O.Rec[Base + 1u] = uvec4(gl_GlobalInvocationID, G);
  O.Rec[Base + 2u] = uvec4(gl_WorkGroupID, 0xabcdu);
  O.Rec[Base + 3u] = uvec4(gl_NumWorkGroups,
                           gl_WorkGroupSize.x * 10000u +
                               gl_WorkGroupSize.y * 100u + gl_WorkGroupSize.z);
}
