#version 450
// Integer bit manipulation: hashing rounds with reverse, popcount, msb/lsb,
// rotates and bitfield extract/insert.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint src[]; };
layout(std430, binding = 1) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform P { uint n; };
uint rotl(uint v, uint r) { return (v << r) | (v >> (32u - r)); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n)
    return;
  uint h = src[i] ^ 0x9e3779b9u;
  for (uint r = 0u; r < 16u; ++r) {
    h ^= h >> 16;
    h *= 0x7feb352du;
    h = rotl(h, 1u + (h & 15u));
    h ^= bitfieldReverse(h) + uint(bitCount(h));
    h += uint(findMSB(h | 1u)) * 3u + uint(findLSB(h | 0x80000000u));
    h = bitfieldInsert(h, bitfieldExtract(h, 7, 9), 20, 9);
  }
  dst[i] = h;
}
