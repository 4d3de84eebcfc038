// imageStore of a buffer of values into every texel of a 2D storage image,
// for the image layer's lavapipe reference test (ImageFormatLavapipeTest.cpp).
// Compiled three times: IMG/VEC4 = image2D/vec4, iimage2D/ivec4,
// uimage2D/uvec4. No format qualifier (shaderStorageImageWriteWithoutFormat):
// one shader serves every format.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly uniform IMG Img;
layout(set = 0, binding = 1, std430) readonly buffer In { VEC4 Texels[]; };
layout(push_constant) uniform Size { int Width; int Height; };
void main() {
  int I = int(gl_GlobalInvocationID.x);
  if (I < Width * Height)
    imageStore(Img, ivec2(I % Width, I / Width), Texels[I]);
}
