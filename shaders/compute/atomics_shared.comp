#version 450
// 32-bit atomics on shared memory (Add, Min, Max signed and unsigned, And,
// Or, Xor, a CompSwap loop) from a workgroup of 100 invocations, then a
// barrier and one write per counter; also each invocation's ticket from a
// shared counter, a permutation of 0..99 in every workgroup (compared
// sorted per workgroup).
layout(local_size_x = 100) in;

layout(std430, set = 0, binding = 0) buffer Out { uint U[]; } O;         // 16 per workgroup
layout(std430, set = 0, binding = 1) buffer Tickets { uint T[]; } T;

shared uint Sum, Min, Max, And, Or, Xor, Cas, Ticket;
shared int SMin, SMax;
shared uint Bins[6];

void main() {
  uint L = gl_LocalInvocationIndex;
  uint W = gl_WorkGroupID.x;
  if (L == 0u) {
    Sum = 0u; Min = 0xffffffffu; Max = 0u; And = 0xffffffffu; Or = 0u; Xor = 0u;
    Cas = 0u; Ticket = 0u; SMin = 0x7fffffff; SMax = -0x7fffffff;
    for (uint K = 0u; K < 6u; ++K) Bins[K] = 0u;
  }
  barrier();
  uint H = (L + 1u) * 2654435761u ^ (W * 40503u);
  atomicAdd(Sum, H);
  atomicMin(Min, H);
  atomicMax(Max, H);
  atomicAnd(And, H | 0x10000u);
  atomicOr(Or, H & 0x01010101u);
  atomicXor(Xor, H);
  atomicMin(SMin, int(H));
  atomicMax(SMax, int(H));
  atomicAdd(Bins[H % 6u], 1u);
  uint Old = Cas;
  for (;;) {
    uint Prev = atomicCompSwap(Cas, Old, Old + L);
    if (Prev == Old)
      break;
    Old = Prev;
  }
  T.T[W * 100u + L] = atomicAdd(Ticket, 1u);
  barrier();
  if (L < 6u)
    O.U[W * 16u + 10u + L] = Bins[L];
  if (L == 0u) {
    O.U[W * 16u + 0u] = Sum;
    O.U[W * 16u + 1u] = Min;
    O.U[W * 16u + 2u] = Max;
    O.U[W * 16u + 3u] = And;
    O.U[W * 16u + 4u] = Or;
    O.U[W * 16u + 5u] = Xor;
    O.U[W * 16u + 6u] = Cas;
    O.U[W * 16u + 7u] = Ticket;
    O.U[W * 16u + 8u] = uint(SMin);
    O.U[W * 16u + 9u] = uint(SMax);
  }
}
