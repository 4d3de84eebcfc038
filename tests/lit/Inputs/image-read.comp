#version 450
// Reads images through a combined image sampler, a storage image and a
// separate texture and sampler, and writes what it read to a buffer
// (tests/lit/cli/run-image-read.test). Every image is 4x4.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0) uniform sampler2D Tex;
layout(set = 0, binding = 1, rgba8) uniform readonly image2D Src;
layout(set = 0, binding = 2) uniform texture2D SepTex;
layout(set = 0, binding = 3) uniform sampler SepSmp;
layout(set = 0, binding = 4) buffer Out { vec4 o[]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  uint i = 4u * (uint(p.y) * 4u + uint(p.x));
  o[i] = texelFetch(Tex, p, 0);
  // Halfway between texel x and x + 1 of row y: the filter and the
  // addressing of the sampler decide.
  o[i + 1u] = textureLod(Tex, (vec2(p) + vec2(1.0, 0.5)) / 4.0, 0.0);
  o[i + 2u] = imageLoad(Src, p);
  o[i + 3u] = textureLod(sampler2D(SepTex, SepSmp), (vec2(p) + 0.5) / 4.0, 0.0);
}
