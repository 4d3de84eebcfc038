#version 450
// Bilinear RGBA8 2D: 4 textureLod(lod 0) samples per invocation, each
// between texel centres so that all four texels of the footprint count.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D Tex; // linear, clamp to edge
layout(set = 0, binding = 1) buffer Out { vec4 o[]; };
layout(push_constant) uniform P {
  vec2 invSize; // 1 / texture size
  uint rowLength; // invocations per row
} pc;

void main() {
  uvec2 id = gl_GlobalInvocationID.xy;
  vec2 base = vec2(id) * 2.0 + vec2(0.3, 0.7);
  vec4 s = textureLod(Tex, base * pc.invSize, 0.0);
  s += textureLod(Tex, (base + vec2(1.0, 0.0)) * pc.invSize, 0.0);
  s += textureLod(Tex, (base + vec2(0.0, 1.0)) * pc.invSize, 0.0);
  s += textureLod(Tex, (base + vec2(1.0, 1.0)) * pc.invSize, 0.0);
  o[id.y * pc.rowLength + id.x] = s;
}
