#version 450
// inout and out parameters (pointers to Function variables), including an
// array and a struct, written conditionally inside the callee, with calls
// under varying conditions and in a varying loop.
layout(local_size_x_id = 0) in; // 64 or 37: tests/controlflow/ComputeSuite.cpp
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint v[]; } O; // 8 each
layout(push_constant) uniform P { uint a, b, c, d; } U;           // 5, 0, 3, 12

struct Acc { uint sum; uint count; };

void accumulate(inout Acc a, uint x) {
  if ((x & 3u) == 0u)
    return;                                   // no write for these lanes
  a.sum += x;
  a.count++;
}

void split(uint x, out uint hi, out uint lo) {
  hi = x >> 16;
  if ((x & 0x100u) != 0u)
    lo = x & 0xffu;
  else
    lo = x & 0xffffu;
}

void rotate(inout uint arr[3], uint n) {
  for (uint i = 0u; i < n; ++i) {
    uint t = arr[0];
    arr[0] = arr[1];
    arr[1] = arr[2];
    arr[2] = t;
  }
}

void main() {
  uint g = gl_GlobalInvocationID.x;
  uint v = I.v[g + 160u];
  Acc a = Acc(0u, 0u);
  for (uint i = 0u; i < (v & 7u); ++i)
    accumulate(a, I.v[(g + i * 5u) % 1024u]);
  O.v[g * 8u] = a.sum;
  O.v[g * 8u + 1u] = a.count;
  uint hi = 1u, lo = 2u;
  if ((v & 0x800u) != 0u)
    split(v, hi, lo);
  O.v[g * 8u + 2u] = hi;
  O.v[g * 8u + 3u] = lo;
  uint arr[3] = uint[3](g, v, 7u);
  if ((v >> 30) != 1u)
    rotate(arr, (v >> 4) & 3u);
  O.v[g * 8u + 4u] = arr[0];
  O.v[g * 8u + 5u] = arr[1];
  O.v[g * 8u + 6u] = arr[2];
}
