#version 450
// texelFetch RGBA8: the 2x2 texels of each invocation's block, level 0.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D Tex;
layout(set = 0, binding = 1) buffer Out { vec4 o[]; };
layout(push_constant) uniform P {
  vec2 invSize;
  uint rowLength;
} pc;

void main() {
  uvec2 id = gl_GlobalInvocationID.xy;
  ivec2 base = ivec2(id) * 2;
  vec4 s = texelFetch(Tex, base, 0);
  s += texelFetch(Tex, base + ivec2(1, 0), 0);
  s += texelFetch(Tex, base + ivec2(0, 1), 0);
  s += texelFetch(Tex, base + ivec2(1, 1), 0);
  o[id.y * pc.rowLength + id.x] = s;
}
