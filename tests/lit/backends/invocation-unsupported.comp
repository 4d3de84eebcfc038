// RUN: not %spirv2llvm --backend=invocation %s 2>&1 | FileCheck %s
// An instruction the invocation back end does not implement is a clear
// "unsupported:" diagnostic naming it and its word, not a crash.
// CHECK: error: {{.*}}word {{[0-9]+}}: OpGroupNonUniformQuadSwap: unsupported: quad operations in the invocation back end
#version 450
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 4) in;
layout(std430, set = 0, binding = 0) buffer B { uint X[]; };
void main() {
  X[gl_LocalInvocationIndex] = subgroupQuadSwapHorizontal(X[gl_LocalInvocationIndex]);
}
