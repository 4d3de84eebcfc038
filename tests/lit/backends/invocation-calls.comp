// RUN: %spirv2llvm --backend=invocation --no-inline %s | FileCheck %s
// RUN: %spirv2llvm --backend=invocation --no-inline %s | %opt -passes=verify -disable-output
// RUN: %spirv2llvm --backend=scalar --no-inline %s | %opt -passes=verify -disable-output
//
// With --no-inline a SPIR-V function is an LLVM function taking the group
// arguments, %env (the entry's per-invocation globals) and its parameters;
// a pointer parameter is a pointer with its array index and length.
#version 450
layout(local_size_x = 16) in;
layout(std430, set = 0, binding = 0) buffer B { uint X[]; };
uint Counter;
void split(uint x, out uint hi, out uint lo) {
  hi = x >> 16;
  lo = x & 0xffffu;
  Counter += 1u;
}
void main() {
  uint hi, lo;
  Counter = 0u;
  split(X[gl_LocalInvocationIndex], hi, lo);
  X[gl_LocalInvocationIndex] = hi + lo + Counter;
}
// CHECK-LABEL: define i32 @s2l_main(ptr
// CHECK: %env = alloca ptr
// glslang passes every parameter through a Function variable: a pointer
// to a variable is element 0 of 1.
// CHECK: call void @"s2l.fn.split{{.*}}"(ptr %args, ptr %env, ptr %param, i64 0, i64 1, ptr %param1, i64 0, i64 1, ptr %param2, i64 0, i64 1)
// CHECK-LABEL: define internal void @"s2l.fn.split{{.*}}"(ptr %0, ptr %1, ptr %2, i64 %3, i64 %4, ptr %5, i64 %6, i64 %7, ptr %8, i64 %9, i64 %10)
// The Private variable comes from %env.
// CHECK: %Counter = load ptr, ptr %1
// CHECK: lshr i32 %{{.*}}, 16
// CHECK: ret void
