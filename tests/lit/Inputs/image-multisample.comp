#version 450
// Writes every sample of a multisampled storage image: texel i, sample s
// gets 10 * i + s (tests/lit/cli/run-image-write.test).
layout(local_size_x = 2, local_size_y = 2) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DMS Ms;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  for (int s = 0; s < 4; ++s)
    imageStore(Ms, p, s, uvec4(uint(p.y * 2 + p.x) * 10u + uint(s)));
}
