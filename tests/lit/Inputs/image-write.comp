#version 450
// Storage images for `run --image ... --dump` (tests/lit/cli/run-image-write.test):
// every texel gets a value computed from its coordinate.
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D A;
layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2D B;
layout(set = 0, binding = 2, r32f) uniform writeonly image2D C;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2DArray D;
// Accumulates: shows whether each dispatch starts from the initial texels.
layout(set = 0, binding = 4, r32ui) uniform uimage2D E;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(A, p, vec4(float(p.x) / 3.0, float(p.y), 0.5, 1.0));
  imageStore(B, p, uvec4(uint(p.x) * 30000u + uint(p.y) * 7u));
  imageStore(C, p, vec4(float(p.x) * 0.25 + float(p.y) * 0.125));
  for (int l = 0; l < 2; ++l)
    imageStore(D, ivec3(p, l), vec4(float(p.x) / 3.0, float(p.y), float(l), 0.25));
  imageAtomicAdd(E, p, uint(p.x) + 1u);
}
