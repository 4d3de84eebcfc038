// VulkanGraphicsRunner: reads a multisampled colour attachment back into
// the packed layout through an unsigned integer view of the same texel
// size; texels narrower than a word are merged with atomicOr into a buffer
// the runner zeroes first.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint Words[]; };
layout(set = 0, binding = 1) uniform usampler2DMS Source;
layout(push_constant) uniform Params {
  uint Width, Height, Samples, TexelBytes;
};
void main() {
  uint I = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
  if (I >= Width * Height * Samples)
    return;
  uint S = I % Samples, X = (I / Samples) % Width, Y = I / (Samples * Width);
  uvec4 V = texelFetch(Source, ivec2(X, Y), int(S));
  if (TexelBytes >= 4u) {
    uint N = TexelBytes / 4u;
    for (uint K = 0u; K < N; ++K)
      Words[I * N + K] = V[K];
  } else {
    uint Byte = I * TexelBytes;
    uint Mask = (1u << (8u * TexelBytes)) - 1u;
    atomicOr(Words[Byte / 4u], (V.x & Mask) << (8u * (Byte % 4u)));
  }
}
