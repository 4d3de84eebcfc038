#version 450
// imageStore: every texel of an rgba8 storage image, one per invocation,
// with a value computed from the coordinate.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D Img;
layout(push_constant) uniform P {
  vec2 invSize;
  uint rowLength;
} pc;

void main() {
  uvec2 id = gl_GlobalInvocationID.xy;
  vec2 uv = (vec2(id) + 0.5) * pc.invSize;
  imageStore(Img, ivec2(id), vec4(uv, uv.x * uv.y, 1.0 - uv.x));
}
