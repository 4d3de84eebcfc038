// RUN: %spirv2llvm --backend=invocation %s | FileCheck %s
// The one-invocation back end runs an image load as one call to the
// runtime's s2l_image_op, with the image handle read from the binding's
// descriptor (docs/images.md, "In the translator").
// CHECK: %s2l_image_operands = type
// CHECK: define {{.*}}@s2l_main(
// CHECK: %image.ops = alloca %s2l_image_operands
// CHECK: call i32 @s2l_image_op(ptr %image.ops, ptr %Img.data, ptr null, ptr %image.result)
// CHECK: declare i32 @s2l_image_op(ptr, ptr, ptr, ptr)
#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2D Img;
layout(std430, set = 0, binding = 1) buffer B { uint X[]; };
void main() {
  X[gl_LocalInvocationIndex] = imageLoad(Img, ivec2(gl_LocalInvocationIndex, 0)).x;
}
