#version 450
#extension GL_EXT_nonuniform_qualifier : require
// An array of textures indexed per invocation, with one separate sampler
// (tests/lit/cli/run-image-errors.test and run-image-read.test).
layout(local_size_x = 3) in;
layout(set = 0, binding = 0) uniform texture2D Texs[3];
layout(set = 0, binding = 1) uniform sampler Smp;
layout(set = 0, binding = 2) buffer Out { vec4 o[]; };
void main() {
  uint i = gl_LocalInvocationID.x;
  o[i] = texelFetch(sampler2D(Texs[nonuniformEXT(i)], Smp), ivec2(1, 0), 0);
}
