#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// OpBitcast between types of different component counts (the first
// component is the low bits): uvec2 <-> uint64 (packUint2x32 and its
// inverse), u16vec2 <-> uint, f16vec2 <-> uint, u16vec4 <-> uint64 and
// uvec2 <-> double, on per-invocation (Varying) and uniform values, with
// values that cross the word boundary on the way.
layout(local_size_x = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint X[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint Y[]; } O;
layout(push_constant) uniform Push { uint K; } P;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint A = I.X[G], B = I.X[G + 64u];
  uint Base = G * 12u;
  // Varying: uvec2 -> u64 -> add with carry across the words -> uvec2.
  uint64_t W = packUint2x32(uvec2(A, B)) + (uint64_t(A) << 16);
  uvec2 V = unpackUint2x32(W);
  O.Y[Base + 0u] = V.x;
  O.Y[Base + 1u] = V.y;
  // uint -> u16vec2 -> uint.
  u16vec2 H = unpack16(A ^ B);
  O.Y[Base + 2u] = uint(H.x) * 3u + uint(H.y);
  O.Y[Base + 3u] = pack32(u16vec2(H.y, H.x + uint16_t(G)));
  // f16vec2 <-> uint, through bit patterns of halves (no arithmetic on
  // them, so NaN payloads survive either way).
  f16vec2 F = unpackFloat2x16(A);
  O.Y[Base + 4u] = packFloat2x16(F.yx);
  // u64 -> u16vec4 -> u64.
  u16vec4 Q = unpack16(W);
  O.Y[Base + 5u] = uint(Q.x) + (uint(Q.w) << 16);
  O.Y[Base + 6u] = uint(pack64(Q.wzyx) >> 8);
  // uvec2 -> double -> uvec2, the double only moved.
  double D = packDouble2x32(uvec2(B, A & 0x3fffffffu));
  uvec2 DB = unpackDouble2x32(D);
  O.Y[Base + 7u] = DB.x ^ DB.y;
  // Uniform operands (push constant): scalar code.
  uvec2 U = unpackUint2x32(packUint2x32(uvec2(P.K, ~P.K)) * 3ul);
  O.Y[Base + 8u] = U.x;
  O.Y[Base + 9u] = U.y;
  u16vec2 UH = unpack16(P.K);
  O.Y[Base + 10u] = uint(UH.y) - uint(UH.x);
  O.Y[Base + 11u] = pack32(UH.yx) + G;
}
