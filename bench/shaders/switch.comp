#version 450
// Branchy code: a data-dependent switch inside a loop, so lanes of one
// SIMD group take different cases every round.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint src[]; };
layout(std430, binding = 1) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n)
    return;
  uint v = src[i];
  uint acc = 0u;
  for (uint r = 0u; r < 12u; ++r) {
    switch ((v >> (r & 7u)) & 7u) {
    case 0u: acc += v * 3u; break;
    case 1u: acc ^= v >> 3; break;
    case 2u: acc = acc * 5u + 1u; break;
    case 3u: acc -= v & 0xffu; break;
    case 4u:
      if ((acc & 1u) != 0u) acc = (acc >> 1) ^ 0xedb88320u; else acc >>= 1;
      break;
    case 5u: acc += acc << 7; break;
    case 6u: acc = min(acc, v) + 17u; break;
    default: acc = ~acc; break;
    }
    v = v * 1664525u + 1013904223u;
  }
  dst[i] = acc;
}
