#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integers (shaderInt64): add, sub, mul, unsigned and signed
// division, remainder (OpUMod; OpSMod on non-negative operands only, see
// signed_div_mod.spvasm), shifts by amounts over 32, comparisons, bitwise
// ops and conversions to and from 32-bit integers and floats, 64-bit
// values computed from the invocation id; u64 buffers and a u64vec2 in
// std430 (alignment 16).
layout(local_size_x = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint64_t X[]; } I;
layout(std430, set = 0, binding = 1) readonly buffer InV { u64vec2 V[]; } IV;
layout(std430, set = 0, binding = 2) buffer Out { uint64_t Y[]; } O;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint64_t A = I.X[G];
  uint64_t B = I.X[G + 64u] | 1ul;
  int64_t SA = int64_t(A);
  int64_t SB = int64_t(B >> 7) - 0x10000000000l;
  u64vec2 V = IV.V[G];
  uint Base = G * 13u;
  O.Y[Base + 0u] = A + B;
  O.Y[Base + 1u] = A - B * 3ul;
  O.Y[Base + 2u] = A * B;
  O.Y[Base + 3u] = A / (B >> 20 | 1ul);
  O.Y[Base + 4u] = A % (B >> 40 | 1ul);
  O.Y[Base + 5u] = uint64_t(SA / (SB | 1l));
  O.Y[Base + 6u] = uint64_t((SA & 0x7fffffffffffffffl) % ((SB & 0xffffffffffl) | 1l));
  O.Y[Base + 7u] = (A << ((G + 30u) & 63u)) ^ (A >> ((G + 20u) & 63u)) ^ uint64_t(SA >> 40);
  O.Y[Base + 8u] = (A < B ? 1ul : 0ul) | (SA < SB ? 2ul : 0ul) | (A == V.x ? 4ul : 0ul);
  O.Y[Base + 9u] = uint64_t(uint(A)) + (uint64_t(uint(A >> 32)) << 16) + uint64_t(int(SB));
  O.Y[Base + 10u] = V.x * V.y + (V.y & ~V.x) + (V.x | 0xff00000000000000ul);
  O.Y[Base + 11u] = uint64_t(int64_t(float(int(G) - 8) * 1.0e9)) + uint64_t(float(A >> 40));
  // Lane-affine 64-bit values shifted by a 32-bit amount, also as an index.
  uint64_t Lane = (uint64_t(G) << 7) + (uint64_t(G + 3u) << 31);
  O.Y[Base + 12u] = Lane ^ I.X[uint(uint64_t(G) << 1) & 127u];
}
