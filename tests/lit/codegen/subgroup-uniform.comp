// Subgroup votes, reductions and ballot counts are the same in every lane
// of the subgroup (the SIMD group), so the uniformity analysis keeps them
// Uniform: a loop whose exit is subgroupAny runs as one scalar loop, and
// the results match a scalar reference at every width (the subgroup is W
// lanes) and in the invocation back end (a subgroup of one).
//
// RUN: %spirv2llvm run %s --buffer 0:32 --dispatch 1 -q --width=4 --dump 0:%t.w4
// RUN: od -An -td4 -w32 -v %t.w4 | FileCheck %s --check-prefix=W4
// RUN: %spirv2llvm run %s --buffer 0:32 --dispatch 1 -q --width=8 --dump 0:%t.w8
// RUN: od -An -td4 -w32 -v %t.w8 | FileCheck %s --check-prefix=W8
// RUN: %spirv2llvm run %s --buffer 0:32 --dispatch 1 -q --no-inline --width=8 --dump 0:%t.w8c
// RUN: cmp %t.w8 %t.w8c
// RUN: %spirv2llvm run %s --buffer 0:32 --dispatch 1 -q --backend=invocation --dump 0:%t.inv
// RUN: od -An -td4 -w32 -v %t.inv | FileCheck %s --check-prefix=INV
// RUN: %spirv2llvm %s -O2 | FileCheck %s --check-prefix=IR
// RUN: %spirv2llvm %s --width=16 -O2 | %opt -passes=verify -disable-output
#version 450
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 8) in;
layout(std430, binding = 0) buffer Out { int r[]; };
void main() {
  uint i = gl_LocalInvocationID.x;
  int n = int(i % 3u); // 0 1 2 0 1 2 0 1
  int k = 0;
  // Every lane iterates while any lane of its subgroup needs to.
  while (subgroupAny(k < n))
    k++;
  int m = subgroupMax(n);
  int c = int(subgroupBallotBitCount(subgroupBallot(n == 0)));
  r[i] = k * 100 + m * 10 + c;
}
// W=4: subgroups {0 1 2 0} and {1 2 0 1}: both loop twice, max 2, two and
// one lanes with n == 0.
// W4: 222 222 222 222 221 221 221 221
// W=8: one subgroup, three lanes with n == 0.
// W8: 223 223 223 223 223 223 223 223
// A subgroup of one: k = n, m = n, c = (n == 0).
// INV: 1 110 220 1 110 220 1 110
//
// The loop counter k is one scalar for the whole subgroup (a Varying
// exit would make it a <4 x i32> kept per lane), and the loop repeats on
// the vote: a scalar condition.
// IR-LABEL: define {{.*}}@s2l_main
// IR-NOT: phi <4 x i32>
// IR: phi i32 {{.*}}[ 1, %{{.*}} ]
// IR-NOT: phi <4 x i32>
// IR: br i1 %{{.*}}, label %{{.*}}, label %{{.*}}, !llvm.loop
