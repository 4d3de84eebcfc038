// texelFetch of every texel of a 2D image into a buffer, for the image
// layer's lavapipe reference test (ImageFormatLavapipeTest.cpp). Compiled
// three times: TEX/VEC4 = texture2D/vec4, itexture2D/ivec4, utexture2D/uvec4.
#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform TEX Tex;
layout(set = 0, binding = 1, std430) buffer Out { VEC4 Texels[]; };
layout(push_constant) uniform Size { int Width; int Height; };
void main() {
  int I = int(gl_GlobalInvocationID.x);
  if (I < Width * Height)
    Texels[I] = texelFetch(Tex, ivec2(I % Width, I / Width), 0);
}
