// VulkanGraphicsRunner: writes the packed depth and/or stencil values of a
// multisampled depth/stencil attachment, one invocation per sample
// (gl_SampleID makes the pass run per sample): depth through gl_FragDepth,
// as the float the runner chose for the driver to store the wanted value
// (VulkanGraphicsRunner.cpp, depthToFloat), stencil through
// VK_EXT_shader_stencil_export. Compiled with -DDEPTH and/or -DSTENCIL.
#version 450
#ifdef STENCIL
#extension GL_ARB_shader_stencil_export : require
#endif
layout(set = 0, binding = 0) readonly buffer DepthIn { uint Depth[]; };
layout(set = 0, binding = 1) readonly buffer StencilIn { uint Stencil[]; };
layout(push_constant) uniform Params {
  uint Width, Height, Samples;
};
void main() {
  uint I = (uint(gl_FragCoord.y) * Width + uint(gl_FragCoord.x)) * Samples +
           uint(gl_SampleID);
#ifdef DEPTH
  gl_FragDepth = uintBitsToFloat(Depth[I]);
#endif
#ifdef STENCIL
  gl_FragStencilRefARB = int(Stencil[I]);
#endif
}
