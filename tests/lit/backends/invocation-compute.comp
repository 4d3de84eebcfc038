// RUN: %spirv2llvm --backend=invocation %s | FileCheck %s
// RUN: %spirv2llvm --backend=invocation %s | %opt -passes=verify -disable-output
// RUN: %spirv2llvm --backend=invocation -O2 %s | %opt -passes=verify -disable-output
//
// One invocation per call: SPIR-V vectors are LLVM vectors, matrices arrays
// of column vectors, Workgroup variables addrspace(3) globals, control flow
// plain branches with no lane masks.
#version 450
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data {
  mat4 M;
  vec4 V[];
} D;

shared vec4 Tile[64];
shared uint Count;
shared mat4 Ms[2];

// The entry takes abi.h's argument block and returns the alive flag.
// CHECK-DAG: @Tile = addrspace(3) global [64 x <4 x float>] zeroinitializer
// CHECK-DAG: @Count = addrspace(3) global i32 0
// CHECK-DAG: @Ms = addrspace(3) global [2 x [4 x <4 x float>]] zeroinitializer
// CHECK: define i32 @s2l_main(ptr noalias nocapture readonly %args)
// A column-major mat4 in a buffer: four <4 x float> columns.
// CHECK: load <4 x float>
// A whole matrix stored to groupshared memory is one [4 x <4 x float>].
// CHECK: store [4 x <4 x float>] {{.*}}, ptr addrspace(3)
// mat * vec: columns scaled by splatted components, summed.
// CHECK: fmul <4 x float>
// CHECK: fadd <4 x float>
// Groupshared stores go through addrspace(3) pointers.
// CHECK: store <4 x float> {{.*}}, ptr addrspace(3)
// A barrier calls back into the runtime.
// CHECK: call void %barrier.fn(ptr %barrier.ctx)
// CHECK: switch i32
// CHECK: atomicrmw add ptr addrspace(3) @Count, i32 1 seq_cst
// CHECK: ret i32 1
// CHECK-NOT: llvm.masked
// CHECK-NOT: <64 x i1>
void main() {
  uint L = gl_LocalInvocationID.x;
  uint G = gl_GlobalInvocationID.x;
  Ms[L & 1u] = D.M;
  vec4 X = D.M * D.V[G];
  Tile[L] = X + vec4(1.0);
  barrier();
  vec4 Y = Tile[63u - L] + Ms[1u - (L & 1u)][L & 3u];
  switch (L % 3u) {
  case 0u: Y *= 2.0; break;
  case 1u: Y = Y.wzyx; break;
  default: break;
  }
  for (int I = 0; I < 4; ++I)
    Y[I] += float(I);
  D.V[G] = Y;
  atomicAdd(Count, 1u);
}
