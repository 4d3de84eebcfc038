#version 450
#extension GL_KHR_shader_subgroup_vote : require
// A loop whose exit the subgroup agrees on: subgroupAny is the same in
// every lane, so spirv2llvm's uniformity analysis keeps the loop uniform (a
// scalar branch, no loop masks; docs/architecture.md, "Subgroup-uniform
// results"), while each lane's own work stays behind a divergent if. A
// lane's result does not depend on the subgroup size.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint src[]; };
layout(std430, binding = 1) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = i < n ? src[i] : 0u;
  uint count = v & 31u;
  uint acc = v;
  for (uint r = 0u; subgroupAny(r < count); ++r) {
    if (r < count)
      acc = acc * 1664525u + (acc >> 7) + r;
  }
  if (i < n)
    dst[i] = acc;
}
