// RUN: %spirv2llvm %s -O2 | FileCheck %s --check-prefix=O2
// RUN: %spirv2llvm %s | FileCheck %s --check-prefix=O0
// RUN: %spirv2llvm %s --no-speculate-small-blocks | FileCheck %s --check-prefix=GUARD
// RUN: %spirv2llvm %s --width=16 -O2 | %opt -passes=verify -disable-output
//
// A branch on a flat (Uniform) input stays a scalar branch on a scalar
// comparison; a branch on a smooth (Varying) input splits the lane mask and
// its arm runs behind an any-lane test.
#version 450
layout(location = 0) flat in int mode;
layout(location = 1) in float x;
layout(location = 0) out float r;
void main() {
  float v = x;
  if (mode > 3) {
    v = v * 2.0;
  }
  if (x > 0.5) {
    v = v + 1.0;
  }
  r = v;
}
// The uniform condition is one scalar comparison (LLVM may then turn the
// small arm into a select on it); the varying one compares all lanes.
// O2: [[U:%.*]] = icmp sgt i32 %{{.*}}, 3
// O2-NOT: icmp sgt <4 x i32>
// Its merge picks v with that one scalar, not a select per lane.
// O2: select i1 [[U]], <4 x float>
// O2: fcmp ogt <4 x float>
// O2: call void @llvm.masked.store.v4f32
//
// At -O0 the uniform arm is guarded by a scalar reached flag. The varying
// arm is one add: by default it runs unguarded (speculated: cheaper than a
// branch on divergent data), the select on its lane mask keeps the other
// lanes' v.
// O0: %[[C:[a-z_0-9]+]] = icmp sgt i32
// O0: %reached.[[A:[0-9]+]]{{.*}} = phi i1
// O0: br i1 %reached.[[A]]{{.*}}, label %L[[A]]
// O0: fcmp ogt <4 x float>
// O0: br label %L[[V:[0-9]+]]{{$}}
// O0: L[[V]]:
// O0-NEXT: fadd <4 x float>
// O0: select <4 x i1> %mask.[[V]]{{[.0-9]*}}, <4 x float>
//
// With --no-speculate-small-blocks it runs behind a reduction of its lane
// mask, skipped when no lane takes it.
// GUARD: fcmp ogt <4 x float>
// GUARD: [[ANY:%[0-9]+]] = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %mask.[[V:[0-9]+]]
// GUARD-NEXT: br i1 [[ANY]], label %L[[V]], label %L[[V]].next
// GUARD: L[[V]]:
// GUARD-NEXT: fadd <4 x float>
