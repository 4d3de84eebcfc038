#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// 64-bit buffer atomics (shaderBufferInt64Atomics): Add, Min, Max (signed
// and unsigned), And, Or, Xor, Exchange and CompSwap on values whose high
// halves matter, all invocations on one address and 4 per slot.
layout(local_size_x = 32) in;

layout(std430, set = 0, binding = 0) buffer Counters {
  uint64_t UAdd, UMin, UMax, UAnd, UOr, UXor, UCas, Winners;
  int64_t IAdd, IMin, IMax, IAnd, IOr, IXor;
} C;
layout(std430, set = 0, binding = 1) buffer Slots { uint64_t S[]; } S;   // 4 slots x 4
layout(std430, set = 0, binding = 2) buffer Exch { uint64_t E[]; } E;    // N returns + target
layout(std430, set = 0, binding = 3) buffer Claims { uint64_t Won[]; } Cl;

uint64_t hash64(uint X) {
  uint64_t Z = uint64_t(X) * 0x9e3779b97f4a7c15ul + 0x632be59bd9b4e019ul;
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ul;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebul;
  return Z ^ (Z >> 31);
}

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint N = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint64_t H = hash64(G);
  int64_t SH = int64_t(H) >> 4;
  atomicAdd(C.UAdd, H);
  atomicMin(C.UMin, H);
  atomicMax(C.UMax, H);
  atomicAnd(C.UAnd, H | 0x8000000100000001ul);
  atomicOr(C.UOr, H & 0x000f0000f0000f00ul);
  atomicXor(C.UXor, H);
  atomicAdd(C.IAdd, SH);
  atomicMin(C.IMin, SH);
  atomicMax(C.IMax, SH);
  atomicAnd(C.IAnd, SH | int64_t(0x8000000300000000ul));
  atomicOr(C.IOr, SH & 0x00f0f0f000000000l);
  atomicXor(C.IXor, SH);
  uint64_t Old = atomicAdd(C.UCas, 0ul);
  for (;;) {
    uint64_t Prev = atomicCompSwap(C.UCas, Old, Old + (uint64_t(G) << 33));
    if (Prev == Old)
      break;
    Old = Prev;
  }
  uint Slot = (G % 4u) * 4u;
  atomicAdd(S.S[Slot + 0u], uint64_t(G) << 31);
  atomicMin(S.S[Slot + 1u], H);
  atomicMax(S.S[Slot + 2u], int64_t(H) < 0l ? 0ul : H);
  atomicXor(S.S[Slot + 3u], H);
  E.E[G] = atomicExchange(E.E[N], H);
  if (atomicCompSwap(Cl.Won[G & 7u], 0ul, uint64_t(G + 1u) << 32) == 0ul)
    atomicAdd(C.Winners, 1ul);
}
