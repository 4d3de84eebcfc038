// Descriptor arrays: a uniform index loads the element's base and size
// once, as scalars (an index out of range selects an empty descriptor); a
// varying (nonuniformEXT) index gathers one base and size per lane, and the
// access through it is a gather at those bases.
//
// RUN: %spirv2llvm %s -O2 | FileCheck %s
// RUN: %spirv2llvm %s -O2 --width=8 | FileCheck %s --check-prefix=W8
// RUN: %spirv2llvm %s --width=8 -O0 | %opt -passes=verify -disable-output
#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; } data[4];
layout(push_constant) uniform P { uint which; } pc;
void main() {
  uint i = gl_LocalInvocationIndex;
  data[pc.which].v[i] = data[nonuniformEXT(i % 4u)].v[i];
}

// CHECK: @s2l.empty.descriptor = private unnamed_addr constant { ptr, i64 } zeroinitializer
// CHECK-LABEL: define {{.*}} @s2l_main(
// CHECK: %data.descs = load ptr, ptr %set
// Varying index: per-lane bases and sizes, then a gather through them.
// CHECK: %data.in.range = icmp ugt <4 x i64>
// CHECK: %data.bases = tail call <4 x ptr> @llvm.masked.gather.v4p0.v4p0({{.*}}, <4 x i1> %data.in.range, <4 x ptr> zeroinitializer)
// CHECK: %data.sizes = tail call <4 x i64> @llvm.masked.gather.v4i64.v4p0({{.*}}, <4 x i1> %data.in.range, <4 x i64> zeroinitializer)
// CHECK: [[ADDRS:%.*]] = getelementptr i8, <4 x ptr> %data.bases, <4 x i64>
// CHECK: call <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr> [[ADDRS]]
// Uniform index: one scalar load of the base and one of the size.
// CHECK: %data.in.range{{[0-9]+}} = icmp ugt i64
// CHECK: [[DESC:%.*]] = select i1 %data.in.range{{[0-9]+}}, ptr {{%.*}}, ptr @s2l.empty.descriptor
// CHECK: %data.base = load ptr, ptr [[DESC]]
// CHECK: %data.size = load i64
// CHECK-NOT: @llvm.masked.scatter
// CHECK: call void @llvm.masked.store.v4i32.p0(<4 x i32> {{.*}}, ptr {{.*}}
// CHECK-NOT: @llvm.masked.scatter
// CHECK: ret i32

// W8: %data.bases = tail call <8 x ptr> @llvm.masked.gather.v8p0.v8p0
// W8: %data.base = load ptr
