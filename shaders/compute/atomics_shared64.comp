#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// 64-bit atomics on shared memory (shaderSharedInt64Atomics): Add, Min,
// Max, Xor and a CompSwap loop from a workgroup of 40 invocations, values
// with significant high halves; one write per counter after the barrier.
layout(local_size_x = 40) in;

layout(std430, set = 0, binding = 0) buffer Out64 { uint64_t V[]; } O;   // 6 per workgroup

shared uint64_t Sum64, Max64, Min64, Xor64, Cas64;
shared int64_t SMin64;

void main() {
  uint L = gl_LocalInvocationIndex;
  uint W = gl_WorkGroupID.x;
  if (L == 0u) {
    Sum64 = 0ul; Max64 = 0ul; Min64 = 0xfffffffffffffffful; Xor64 = 0ul;
    Cas64 = 0ul; SMin64 = 0l;
  }
  barrier();
  uint H = (L + 1u) * 2654435761u ^ (W * 40503u);
  uint64_t H64 = (uint64_t(H) << 32) | uint64_t(L * W + 7u);
  atomicAdd(Sum64, H64);
  atomicMax(Max64, H64);
  atomicMin(Min64, H64);
  atomicXor(Xor64, H64);
  atomicMin(SMin64, int64_t(H64));
  uint64_t Old = Cas64;
  for (;;) {
    uint64_t Prev = atomicCompSwap(Cas64, Old, Old + (uint64_t(L) << 40) + 1ul);
    if (Prev == Old)
      break;
    Old = Prev;
  }
  barrier();
  if (L == 0u) {
    O.V[W * 6u + 0u] = Sum64;
    O.V[W * 6u + 1u] = Max64;
    O.V[W * 6u + 2u] = Min64;
    O.V[W * 6u + 3u] = Xor64;
    O.V[W * 6u + 4u] = Cas64;
    O.V[W * 6u + 5u] = uint64_t(SMin64);
  }
}
