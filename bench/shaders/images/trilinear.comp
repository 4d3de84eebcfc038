#version 450
// Trilinear: 4 textureLod samples per invocation over a full mip chain
// (linear filter, linear mipmaps) at fractional levels 0.3 to 2.4, so every
// sample blends two levels.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D Tex;
layout(set = 0, binding = 1) buffer Out { vec4 o[]; };
layout(push_constant) uniform P {
  vec2 invSize;
  uint rowLength;
} pc;

void main() {
  uvec2 id = gl_GlobalInvocationID.xy;
  vec2 base = vec2(id) * 2.0 + vec2(0.3, 0.7);
  float lod = 0.3 + 0.6 * float((id.x + id.y) & 3u);
  vec4 s = textureLod(Tex, base * pc.invSize, lod);
  s += textureLod(Tex, (base + vec2(1.0, 0.0)) * pc.invSize, lod + 0.1);
  s += textureLod(Tex, (base + vec2(0.0, 1.0)) * pc.invSize, lod + 0.2);
  s += textureLod(Tex, (base + vec2(1.0, 1.0)) * pc.invSize, lod + 0.3);
  o[id.y * pc.rowLength + id.x] = s;
}
