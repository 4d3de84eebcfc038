// RUN: %spirv2llvm --width=8 %s | FileCheck %s
// SIMD back end: a texel fetch with per-lane coordinates runs one
// s2l_image_op call per active lane in a loop over the lanes; one with
// uniform operands runs once, for the lowest active lane (cttz of the
// mask), and its result stays scalar (docs/images.md).
// CHECK: define {{.*}}@s2l_main(
// CHECK: lanes:
// CHECK: %lane = phi i32
// CHECK: lanes.do:
// CHECK: extractelement <8 x i32> {{.*}}, i32 %lane
// CHECK: call i32 @s2l_image_op(
// CHECK: lanes.next:
// CHECK: icmp ult i32 {{.*}}, 8
// The uniform load: its mask keeps only the lowest lane (x & -x), and its
// result is read back from that lane as a scalar.
// CHECK: sub i8 0,
// CHECK: call i32 @s2l_image_op(
// CHECK: call i8 @llvm.cttz.i8(
// CHECK: load i32, ptr
// CHECK: declare i32 @s2l_image_op(
#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform usampler2D Img;
layout(std430, set = 0, binding = 1) buffer B { uint X[]; };
layout(push_constant) uniform P { ivec2 at; } pc;
void main() {
  uint i = gl_LocalInvocationIndex;
  X[i] = texelFetch(Img, ivec2(i, 0), 0).x + texelFetch(Img, pc.at, 0).y;
}
