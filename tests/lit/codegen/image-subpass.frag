// RUN: %spirv2llvm %s --print-interface -o /dev/null | FileCheck %s --check-prefix=IFACE
// RUN: %spirv2llvm %s -O2 -o - | FileCheck %s
// RUN: %spirv2llvm %s --backend=invocation -O2 -o - | FileCheck %s --check-prefix=INV
// A subpass load reads at the fragment's pixel, FragCoord.xy truncated, plus
// its coordinate. The shader declares no FragCoord: the translator adds one
// to the interface (a rasterizer fills it), and the read is per lane even
// though its operands are uniform.
// IFACE: inputs (64 bytes)
// IFACE-NEXT: %s2l.subpass.FragCoord builtin FragCoord offset 0 components 4
// CHECK: %frag.x = {{.*}}call <4 x i32> @llvm.fptosi.sat.v4i32.v4f32(
// CHECK: %frag.y = {{.*}}call <4 x i32> @llvm.fptosi.sat.v4i32.v4f32(
// CHECK: call i32 @s2l_image_op(
// INV: %frag.x = {{.*}}call i32 @llvm.fptosi.sat.i32.f32(
// INV: call i32 @s2l_image_op(
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput Prev;
layout(location = 0) out vec4 Color;
void main() { Color = subpassLoad(Prev) * 0.5; }
