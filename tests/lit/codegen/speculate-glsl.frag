// RUN: %spirv2llvm %s | FileCheck %s
// RUN: %spirv2llvm %s --no-speculate-small-blocks | FileCheck %s --check-prefix=GUARD
//
// A short divergent block of cheap GLSL.std.450 instructions (min, clamp,
// abs: OpcodeProperties.txt's Speculatable=Yes) runs without its any-lane
// branch, like core arithmetic; one with a transcendental call (sin) keeps
// the branch, since it would run for no lane.
#version 450
layout(location = 0) in float x;
layout(location = 0) out float r;
void main() {
  float v = x;
  if (x > 0.5) {
    v = clamp(abs(min(v, 0.75)), 0.1, 0.9);
  }
  if (x < 0.25) {
    v = sin(v);
  }
  r = v;
}
// The cheap block: entered unconditionally, its lanes merged by select.
// CHECK: fcmp ogt <4 x float>
// CHECK-NOT: call i1 @llvm.vector.reduce.or
// CHECK: br label %L[[V:[0-9]+]]{{$}}
// CHECK: L[[V]]:
// CHECK: call <4 x float> @llvm.minnum.v4f32
// The transcendental block: behind a reduction of its lane mask.
// CHECK: fcmp olt <4 x float>
// CHECK: [[ANY:%[0-9]+]] = call i1 @llvm.vector.reduce.or.v4i1
// CHECK-NEXT: br i1 [[ANY]]
//
// GUARD: fcmp ogt <4 x float>
// GUARD: [[ANY:%[0-9]+]] = call i1 @llvm.vector.reduce.or.v4i1
// GUARD-NEXT: br i1 [[ANY]]
