// VulkanGraphicsRunner: reads a multisampled depth/stencil attachment back,
// one invocation per sample, through single-aspect sampled views: depth as
// the bits of the float the driver returns (the runner turns them back
// into the stored value, VulkanGraphicsRunner.cpp, floatToDepth), stencil
// as is. Compiled with -DDEPTH and/or -DSTENCIL.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer DepthOut { uint Depth[]; };
layout(set = 0, binding = 1) buffer StencilOut { uint Stencil[]; };
#ifdef DEPTH
layout(set = 0, binding = 2) uniform sampler2DMS DepthTex;
#endif
#ifdef STENCIL
layout(set = 0, binding = 3) uniform usampler2DMS StencilTex;
#endif
layout(push_constant) uniform Params {
  uint Width, Height, Samples;
};
void main() {
  uint I = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
  if (I >= Width * Height * Samples)
    return;
  uint S = I % Samples, X = (I / Samples) % Width, Y = I / (Samples * Width);
#ifdef DEPTH
  Depth[I] = floatBitsToUint(texelFetch(DepthTex, ivec2(X, Y), int(S)).r);
#endif
#ifdef STENCIL
  Stencil[I] = texelFetch(StencilTex, ivec2(X, Y), int(S)).r;
#endif
}
