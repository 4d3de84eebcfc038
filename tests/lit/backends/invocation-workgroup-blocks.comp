// RUN: not %spirv2llvm --backend=invocation %s 2>&1 | FileCheck %s
// Explicit-layout workgroup blocks (GL_EXT_shared_memory_block) alias one
// another; the invocation back end gives every Workgroup variable its own
// groupshared global, so it refuses them rather than miscompile.
// CHECK: error: {{.*}}unsupported: 2 workgroup blocks with an explicit layout, which alias one another, in the invocation back end
#version 450
#extension GL_EXT_shared_memory_block : require
layout(local_size_x = 16) in;
shared A { uint words[16]; } a;
shared B { uvec2 pairs[8]; } b;
layout(std430, set = 0, binding = 0) buffer Out { uvec2 pairs[8]; } outb;
void main() {
  uint i = gl_LocalInvocationIndex;
  a.words[i] = i;
  barrier();
  if (i < 8u)
    outb.pairs[i] = b.pairs[i];
}
