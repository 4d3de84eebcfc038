// RUN: %spirv2llvm --backend=invocation --robust-buffer-access %s | FileCheck %s
// RUN: %spirv2llvm --backend=invocation --robust-buffer-access %s | %opt -passes=verify -disable-output
// RUN: %spirv2llvm --backend=invocation %s | FileCheck --check-prefix=PLAIN %s
//
// Robust buffer access: each access is checked against the buffer's size;
// out of bounds, a load reads zeros (s2l.zeros) and a store or atomic goes
// to a scratch slot. Elements of a descriptor array are checked always,
// and an index out of the array selects the empty descriptor.
#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer B { uint X[]; };
layout(std430, set = 0, binding = 1) buffer D { uint Y[]; } Arr[3];
layout(push_constant) uniform P { int K; };
void main() {
  uint i = gl_LocalInvocationIndex;
  X[i + uint(K)] = X[i] + Arr[K].Y[i];
  atomicAdd(X[0], 1u);
}
// CHECK: @s2l.zeros = private constant [32 x i8] zeroinitializer
// CHECK: @s2l.empty.descriptor = private constant { ptr, i64 } zeroinitializer
// CHECK: %discard = alloca [32 x i8]
// CHECK: %in.bounds = and i1
// CHECK: select i1 %in.bounds, ptr %{{.*}}, ptr @s2l.zeros
// CHECK: select i1 %{{.*}}.in.range, ptr %{{.*}}, ptr @s2l.empty.descriptor
// CHECK: select i1 %in.bounds{{[0-9]*}}, ptr %{{.*}}, ptr %discard
// CHECK: atomicrmw add
//
// Without it only the descriptor array's element is checked.
// PLAIN: select i1 %{{.*}}.in.range, ptr %{{.*}}, ptr @s2l.empty.descriptor
// PLAIN-COUNT-1: %in.bounds = and i1
// PLAIN-NOT: %in.bounds{{[0-9]+}} = and i1
