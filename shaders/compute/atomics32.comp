#version 450
// 32-bit buffer atomics: Add, Sub, Min, Max (signed and unsigned), And, Or,
// Xor, Exchange and CompSwap, with every invocation of the dispatch hitting
// one address, and with 8 invocations per address. Results that depend on
// the order in which invocations arrive are either not written or written
// where the test compares them as a multiset (Tickets, Exch).
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Counters {
  uint UAdd, USub, UMin, UMax, UAnd, UOr, UXor, UCas, Winners, Pad0, Pad1, Pad2;
  int IAdd, ISub, IMin, IMax, IAnd, IOr, IXor, Pad3;
} C;
layout(std430, set = 0, binding = 1) buffer Slots { uint S[]; } S;     // 8 slots x 8 counters
layout(std430, set = 0, binding = 2) buffer Tickets { uint T[]; } T;  // N returned tickets
layout(std430, set = 0, binding = 3) buffer Exch { uint E[]; } E;     // N returns + the target
layout(std430, set = 0, binding = 4) buffer Claims { uint Won[]; } Cl;

uint hash(uint X) {
  X ^= X >> 16;
  X *= 0x7feb352du;
  X ^= X >> 15;
  X *= 0x846ca68bu;
  X ^= X >> 16;
  return X;
}

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint N = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint H = hash(G);
  int SH = int(H) >> 8;
  atomicAdd(C.UAdd, H);
  atomicAdd(C.USub, -H);
  atomicMin(C.UMin, H);
  atomicMax(C.UMax, H);
  atomicAnd(C.UAnd, H | 0x80000001u);
  atomicOr(C.UOr, H & 0x0f0f0f0fu);
  atomicXor(C.UXor, H);
  atomicAdd(C.IAdd, SH);
  atomicAdd(C.ISub, -SH);
  atomicMin(C.IMin, SH);
  atomicMax(C.IMax, SH);
  atomicAnd(C.IAnd, SH | int(0x80000003u));
  atomicOr(C.IOr, SH & 0x00f0f0f0);
  atomicXor(C.IXor, SH);
  // Compare-and-swap loop: adds G; the final sum does not depend on order.
  uint Old = atomicAdd(C.UCas, 0u);
  for (;;) {
    uint Prev = atomicCompSwap(C.UCas, Old, Old + G);
    if (Prev == Old)
      break;
    Old = Prev;
  }
  // 8 invocations per slot.
  uint Slot = (G % 8u) * 8u;
  atomicAdd(S.S[Slot + 0u], G);
  atomicMin(S.S[Slot + 1u], H);
  atomicMax(S.S[Slot + 2u], H);
  atomicXor(S.S[Slot + 3u], H);
  atomicOr(S.S[Slot + 4u], 1u << (G & 31u));
  atomicAnd(S.S[Slot + 5u], ~(1u << (H & 31u)));
  atomicMin(S.S[Slot + 6u], uint(int(G) - 100));  // wraps: large
  atomicMax(S.S[Slot + 7u], G ^ 0x55u);
  // Order-dependent returns, compared as multisets.
  T.T[G] = atomicAdd(T.T[N], 1u);
  E.E[G] = atomicExchange(E.E[N], G + 1u);
  // First claimer of each of 16 slots wins; the number of winners is fixed.
  if (atomicCompSwap(Cl.Won[G & 15u], 0u, G + 1u) == 0u)
    atomicAdd(C.Winners, 1u);
}
