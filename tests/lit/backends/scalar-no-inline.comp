// RUN: %spirv2llvm --backend=invocation --no-inline %s | FileCheck --check-prefix=INV %s
// RUN: %spirv2llvm --backend=scalar --no-inline %s | FileCheck --check-prefix=SCALAR %s
// RUN: %spirv2llvm --backend=scalar --no-inline %s | %vectorcheck
// RUN: %spirv2llvm --backend=dxil --no-inline %s | %vectorcheck
// RUN: %spirv2llvm --backend=dxil --no-inline %s | %opt -passes=verify -disable-output
//
// Calls left by --no-inline keep their vector and matrix results in the
// invocation back end; the scalar pipeline's dxil-scalarize-signatures
// turns them into arrays of scalars, so no vector type is left.
//
// INV-DAG: define internal [2 x <2 x float>] @"s2l.fn.twice(mf22;"(
// INV-DAG: define internal <3 x float> @"s2l.fn.scale(vf4;f1;"(
// SCALAR-DAG: define internal [2 x [2 x float]] @"s2l.fn.twice(mf22;"(
// SCALAR-DAG: define internal [3 x float] @"s2l.fn.scale(vf4;f1;"(
// SCALAR-DAG: call [3 x float] @"s2l.fn.scale(vf4;f1;"(
#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { vec4 v[]; };
vec3 scale(vec4 a, float s) { return a.xyz * s + vec3(a.w); }
mat2 twice(mat2 m) { return m * 2.0; }
void main() {
  uint i = gl_GlobalInvocationID.x;
  mat2 m = twice(mat2(v[i].xy, v[i].zw));
  v[i] = vec4(scale(v[i], 2.0), m[1][0]);
}
