// VulkanGraphicsRunner: writes the packed texels of a multisampled colour
// attachment (samples of a texel adjacent) into it through an unsigned
// integer view of the same texel size (R8/R16/R32/R32G32/R32G32B32A32_UINT),
// one invocation per sample. Buffer copies cannot reach multisampled images.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint Words[]; };
layout(set = 0, binding = 1) uniform writeonly uimage2DMS Target;
layout(push_constant) uniform Params {
  uint Width, Height, Samples, TexelBytes;
};
void main() {
  uint I = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
  if (I >= Width * Height * Samples)
    return;
  uint S = I % Samples, X = (I / Samples) % Width, Y = I / (Samples * Width);
  uvec4 V = uvec4(0u);
  if (TexelBytes >= 4u) {
    uint N = TexelBytes / 4u;
    for (uint K = 0u; K < N; ++K)
      V[K] = Words[I * N + K];
  } else {
    uint Byte = I * TexelBytes;
    V.x = (Words[Byte / 4u] >> (8u * (Byte % 4u))) &
          ((1u << (8u * TexelBytes)) - 1u);
  }
  imageStore(Target, ivec2(X, Y), int(S), V);
}
