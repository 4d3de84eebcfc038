#version 450
// Function calls, run with --no-inline so they stay calls: value, out and
// inout parameters (Function pointers), an array and a struct by value and
// by reference, a Private variable updated by callees, buffer and shared
// memory read and written in callees, a callee calling another, a barrier
// in a callee and returns from inside a loop.
layout(local_size_x = 16) in;
layout(std430, binding = 0) readonly buffer In { uint A[]; };
layout(std430, binding = 1) buffer Out { uint R[]; };

shared uint S[16];
uint Counter; // Private

struct Pair { uint a; uint b; };

uint mix3(uint x, uint y) {
  Counter += 1u;
  return x * 3u + y;
}

void split(uint x, out uint hi, out uint lo) {
  hi = x >> 16;
  lo = x & 0xffffu;
  Counter += 2u;
}

void bump(inout uint arr[4], uint k) {
  for (uint i = 0u; i < 4u; ++i)
    arr[i] += k * i;
}

Pair swapPair(Pair p) { return Pair(p.b, p.a); }

uint firstOver(uint arr[4], uint limit) {
  for (uint i = 0u; i < 4u; ++i)
    if (arr[i] > limit)
      return i;
  return 99u;
}

void publish(uint l, uint v) {
  S[l] = v;
  barrier();
}

uint neighbour(uint l) { return S[(l + 1u) % 16u] + mix3(l, 1u); }

void main() {
  uint g = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
  Counter = 0u;
  uint hi, lo;
  split(A[g], hi, lo);
  uint arr[4] = uint[4](hi, lo, A[g] % 7u, g);
  bump(arr, 3u);
  Pair p = swapPair(Pair(arr[0], arr[1]));
  publish(l, p.a ^ p.b);
  uint n = neighbour(l);
  R[g * 6u + 0u] = mix3(p.a, p.b);
  R[g * 6u + 1u] = firstOver(arr, 40000u);
  R[g * 6u + 2u] = n;
  R[g * 6u + 3u] = Counter;
  R[g * 6u + 4u] = arr[2];
  R[g * 6u + 5u] = arr[3];
}
