// buffer_reference pointers are 64-bit addresses: a uniform one (from a
// push constant) is one scalar base; a varying one that is lane-affine
// (base + lane * 16) is still one scalar base with per-lane offsets; one
// loaded per lane becomes per-lane bases, accessed with gathers and
// scatters.
//
// RUN: %spirv2llvm %s -O2 | FileCheck %s
// RUN: %spirv2llvm %s --width=8 -O0 | %opt -passes=verify -disable-output
#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
  Node next;
  uint value;
};
layout(push_constant) uniform P { Node head; } pc;
void main() {
  uint i = gl_LocalInvocationIndex;
  Node first = pc.head;
  Node n = first.next;          // uniform pointer, uniform load
  Node mine = Node(uint64_t(n) + uint64_t(i) * 16ul);  // varying pointer
  mine.next.value = i;          // load a pointer per lane, store through it
}

// CHECK-LABEL: define {{.*}} @s2l_main(
// CHECK: [[HEAD:%.*]] = load i64, ptr %push.constants
// CHECK: [[FIRST:%.*]] = inttoptr i64 [[HEAD]] to ptr
// CHECK: load i64, ptr [[FIRST]]
// CHECK: [[MINE:%.*]] = inttoptr i64 {{%.*}} to ptr
// CHECK: [[NEXTS:%.*]] = tail call <4 x i64> @llvm.masked.gather.v4i64.v4p0(<4 x ptr> [[MINEPTRS:%.*]], i32 8
// CHECK: [[LANES:%.*]] = inttoptr <4 x i64> [[NEXTS]] to <4 x ptr>
// CHECK: [[ADDRS:%.*]] = getelementptr {{.*}}<4 x ptr> [[LANES]]
// CHECK: call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> {{.*}}, <4 x ptr> [[ADDRS]]
