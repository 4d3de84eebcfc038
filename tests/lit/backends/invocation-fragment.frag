// RUN: %spirv2llvm --backend=invocation %s | FileCheck %s
// RUN: %spirv2llvm --backend=invocation %s | %opt -passes=verify -disable-output
// RUN: %spirv2llvm --backend=invocation %s --print-interface | FileCheck --check-prefix=LAYOUT %s
//
// A fragment shader: the interface blocks of abi.h at width 1 (one element
// per component), a vec3 input as a <3 x float> value, a mat2 as
// [2 x <2 x float>], discard returning 0 without writing the outputs.
#version 450
layout(location = 0) in vec3 Color;
layout(location = 1) in flat mat2 Rot;
layout(location = 0) out vec4 Out;

// LAYOUT: width 1
// LAYOUT: %Rot location 1 offset 0 components 4
// LAYOUT: %Color location 0 offset 16 components 3
// CHECK: define i32 @s2l_main(ptr
// A matrix indexed with a varying column stays an array of columns.
// CHECK: alloca [2 x <2 x float>]
// CHECK: %inputs = load ptr
// CHECK: insertelement <3 x float>
// CHECK-DAG: ret i32 0
// CHECK-DAG: %outputs = load ptr
// CHECK-DAG: ret i32 1
// CHECK-NOT: llvm.masked
void main() {
  vec2 P = Rot * Color.xy + Rot[int(Color.z) & 1];
  if (P.x < 0.0)
    discard;
  Out = vec4(normalize(Color) * P.y, 1.0);
}
