// RUN: %spirv2llvm --width=8 %s | FileCheck %s
// SIMD back end: reads and writes of storage images whose format the
// shader declares are inline (docs/images.md): a bounds check against
// level 0's size, a masked gather or scatter at the texel address, and
// the UNORM conversion in vectors; no runtime call.
// CHECK: define {{.*}}@s2l_main(
// CHECK-NOT: call {{.*}}@s2l_image_op
// CHECK: %img.width = load i32
// CHECK: %texel.addr = getelementptr i8, <8 x ptr>
// CHECK: call <8 x i32> @llvm.masked.gather.v8i32.v8p0(<8 x ptr> %texel.addr
// CHECK: uitofp <8 x i32> {{.*}} to <8 x float>
// CHECK: call <8 x float> @llvm.roundeven.v8f32(
// CHECK: call void @llvm.masked.scatter.v8i32.v8p0(
// CHECK-NOT: call {{.*}}@s2l_image_op
// CHECK: ret
#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0, rgba8) uniform image2D Img;
void main() {
  ivec2 p = ivec2(gl_LocalInvocationIndex, 0);
  imageStore(Img, p + ivec2(1, 0), imageLoad(Img, p) * 0.5);
}
