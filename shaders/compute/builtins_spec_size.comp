#version 450
// Workgroup size from specialization constants (local_size_{x,y,z}_id).
// Compiled for Vulkan 1.2 glslang declares it as the WorkgroupSize built-in
// (an OpSpecConstantComposite); for Vulkan 1.3 (SPIR-V 1.6) as LocalSizeId.
// The cases run it with sizes 3x1x1, 100x1x1 and 5x3x2. A shared array
// sized by the spec constant makes every invocation read its neighbour.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer Out { uvec4 Rec[]; } O;

shared uint Ids[gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z];

void main() {
  const uint Size = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
  uvec3 Total = gl_NumWorkGroups * gl_WorkGroupSize;
  uint G = gl_GlobalInvocationID.x +
           Total.x * (gl_GlobalInvocationID.y + Total.y * gl_GlobalInvocationID.z);
  Ids[gl_LocalInvocationIndex] = G;
  barrier();
  uint Next = Ids[(gl_LocalInvocationIndex + 1u) % Size];
  uint Base = G * 4u;
  O.Rec[Base + 0u] = uvec4(gl_LocalInvocationID, gl_LocalInvocationIndex);
  O.Rec[Base + 1u] = uvec4(gl_GlobalInvocationID, Next);
  O.Rec[Base + 2u] = uvec4(gl_WorkGroupID, Size);
  O.Rec[Base + 3u] = uvec4(gl_WorkGroupSize, gl_NumWorkGroups.x);
}
