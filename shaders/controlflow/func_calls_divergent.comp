#version 450
// Calls under every kind of divergence: a function called with a uniform
// argument (push constant) and with varying ones, inside and outside a
// varying branch; a function storing to the output buffer called from a
// varying loop (on the break path) and from switch cases; an inout
// parameter forwarded through three levels of calls; a call after some
// lanes returned from main.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

uint tri(uint n) {
  uint s = 0u;
  for (uint i = 1u; i <= n; ++i)
    s += i;
  return s;
}

void emit(uint g, uint slot, uint val) {
  if (slot >= 8u)
    return;
  O.v[g * 8u + slot] = val;
}

void level3(inout uint x, uint k) {
  if ((k & 1u) != 0u)
    x = x * 3u + k;
}
void level2(inout uint x, uint k) {
  for (uint i = 0u; i < (k & 3u); ++i)
    level3(x, k >> i);
}
void level1(inout uint x, uint k) {
  if (k > 0x80000000u)
    return;
  level2(x, k);
  x ^= 0x5au;
}

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 500u];
  emit(g, 0u, tri(U.c));                      // uniform argument
  uint s = tri(v & 7u);                       // varying argument
  if ((v & 8u) != 0u)
    s += tri(U.a) * 100u;                     // uniform call, varying branch
  emit(g, 1u, s);
  for (uint i = 0u; i < 6u; ++i) {
    if (((v >> (i * 4u)) & 15u) < 3u) {
      emit(g, 2u, i);                         // store on the break path
      break;
    }
  }
  switch ((v >> 24) & 3u) {
  case 0u: emit(g, 3u, 30u); break;
  case 1u: emit(g, 9u, 31u); break;          // slot 9: the callee returns
  case 2u: emit(g, 4u, tri((v >> 26) & 7u)); break;
  }
  if ((v >> 29) == 7u)
    return;
  uint x = g;
  level1(x, v);
  emit(g, 5u, x);
}
