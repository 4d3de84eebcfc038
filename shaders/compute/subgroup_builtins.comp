#version 450
#extension GL_KHR_shader_subgroup_basic : require
// The subgroup built-ins. Binding 0 holds the raw values, which depend on
// the subgroup size (spirv2llvm: W; lavapipe: its vector width), binding 1
// relations that hold for any size. Workgroup size from spec constants; the
// cases use 30 (5x3x2), 100 and 3 invocations, none a multiple of 16.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(std430, set = 0, binding = 0) buffer Raw { uvec4 R[]; } Raw_;
layout(std430, set = 0, binding = 1) buffer Rel { uvec4 R[]; } Rel_;

void main() {
  const uint Size = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
  uint G = gl_WorkGroupID.x * Size + gl_LocalInvocationIndex;
  Raw_.R[G] = uvec4(gl_SubgroupSize, gl_SubgroupInvocationID, gl_NumSubgroups,
                    gl_SubgroupID);
  uint S = gl_SubgroupSize;
  Rel_.R[G] = uvec4(
      gl_SubgroupID * S + gl_SubgroupInvocationID == gl_LocalInvocationIndex ? 1u : 0u,
      gl_NumSubgroups == (Size + S - 1u) / S ? 1u : 0u,
      (gl_SubgroupInvocationID < S ? 1u : 0u) + (gl_SubgroupID < gl_NumSubgroups ? 2u : 0u) +
          ((S & (S - 1u)) == 0u ? 4u : 0u),
      G);
}
