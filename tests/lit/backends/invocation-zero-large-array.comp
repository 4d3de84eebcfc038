// RUN: %spirv2llvm --backend=invocation %s | FileCheck %s
// RUN: %spirv2llvm --backend=dxil %s | FileCheck --check-prefix=DXIL %s
//
// A function-scope array starts as zero. A large one is cleared with one
// memset: a store of the aggregate zero is split by SROA into one store per
// element, which for an array of 131,074 vec2 (a fuzz finding) made the
// DXIL pipeline take seconds and the IR 500,000 lines. Small variables keep
// the store, which SROA turns into registers.
#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer B { vec2 X[]; };
void main() {
  vec2 big[2000];
  vec2 small[3];
  uint i = gl_GlobalInvocationID.x;
  big[i % 2000u] = X[i];
  small[i % 3u] = X[i + 1u];
  X[i] = big[(i + 1u) % 2000u] + small[(i + 2u) % 3u];
}
// CHECK: define i32 @s2l_main(
// CHECK-NOT: getelementptr inbounds [2000 x <2 x float>], ptr %big, i32 0, i32 1{{$}}
// CHECK: call void @llvm.memset.p0.i64(ptr align {{[0-9]+}} %big, i8 0, i64 16000, i1 false)
// CHECK-NOT: getelementptr inbounds [2000 x <2 x float>], ptr %big, i32 0, i32 1{{$}}
// CHECK: store <2 x float> zeroinitializer, ptr %small
// CHECK-NOT: getelementptr inbounds [2000 x <2 x float>], ptr %big, i32 0, i32 1{{$}}
// CHECK: ret i32
// DXIL has no memset: its scalarizer expands the call into element stores.
// DXIL: %big = alloca [4000 x float]
// DXIL-NOT: @llvm.memset
