#version 450
// mat4 x vec4: each vertex goes through a chain of four matrices.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer M { mat4 mats[4]; };
layout(std430, binding = 1) readonly buffer In { vec4 pos[]; };
layout(std430, binding = 2) writeonly buffer Out { vec4 outPos[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n)
    return;
  vec4 v = pos[i];
  for (int k = 0; k < 4; ++k)
    v = mats[k] * v;
  outPos[i] = v;
}
