#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
// 8- and 16-bit types in storage buffers (StorageBuffer8BitAccess,
// StorageBuffer16BitAccess) and in arithmetic (Int8, Int16, Float16):
// loads and stores of u8/i8/u16/i16/f16 scalars and vectors in std430,
// wrapping arithmetic at the narrow width, sign and zero extension,
// truncation, 16-bit float math and conversions, shifts by the bit width
// and more (masked as SPIR-V requires), and edge values (0x80, 0x7fff,
// -0.0, halves' infinity and denormals) from the input pattern.
layout(local_size_x = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer In8 { uint8_t U8[]; } I8;
layout(std430, set = 0, binding = 7) readonly buffer InV8 { i8vec4 V8[]; } IV8;
layout(std430, set = 0, binding = 1) readonly buffer In16 { uint16_t U16[]; } I16;
layout(std430, set = 0, binding = 2) readonly buffer InH { float16_t H[]; } IH;
layout(std430, set = 0, binding = 3) buffer Out8 { uint8_t B[]; } O8;
layout(std430, set = 0, binding = 4) buffer Out16 { int16_t S[]; } O16;
layout(std430, set = 0, binding = 5) buffer OutH { f16vec2 H[]; } OH;
layout(std430, set = 0, binding = 6) buffer Out32 { uint W[]; } O32;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint8_t A = I8.U8[G], B = I8.U8[G + 64u];
  int8_t SA = int8_t(A);
  i8vec4 V = IV8.V8[G & 15u];
  uint16_t P = I16.U16[G], Q = I16.U16[G + 64u] | uint16_t(1);
  int16_t SP = int16_t(P);
  float16_t X = IH.H[G], Y = IH.H[G + 64u];

  // 8-bit results, wrapping at 8 bits.
  O8.B[G * 4u + 0u] = A + B * uint8_t(3);
  O8.B[G * 4u + 1u] = uint8_t(SA >> 2) ^ (A << (G & 7u));
  O8.B[G * 4u + 2u] = uint8_t(V.x * V.y + V.z - V.w);
  O8.B[G * 4u + 3u] = uint8_t(min(SA, int8_t(-3)));
  // 16-bit results.
  O16.S[G * 4u + 0u] = int16_t(P * Q + uint16_t(G));
  // % on non-negative operands only: lavapipe computes OpSMod as OpSRem
  // (signed_div_mod.spvasm tests the signs against C++).
  O16.S[G * 4u + 1u] = SP / int16_t(Q | uint16_t(1)) + int16_t(P & uint16_t(0x7fff)) % int16_t(7);
  O16.S[G * 4u + 2u] = int16_t(SA) * int16_t(100) + int16_t(V.w);
  O16.S[G * 4u + 3u] = int16_t(P >> uint16_t(G & 15u)) + int16_t(clamp(SP, int16_t(-1000), int16_t(1000)));
  // Half-precision math: finite products and sums, conversions.
  f16vec2 H = f16vec2(X * Y + float16_t(0.5), max(X, Y) - min(X, Y));
  OH.H[G * 2u + 0u] = H;
  OH.H[G * 2u + 1u] = f16vec2(float16_t(float(P & uint16_t(1023)) * 0.25), abs(X));
  // Widening to 32 bits: sign and zero extension, half to float.
  O32.W[G * 4u + 0u] = uint(SA) ^ (uint(A) << 8) ^ (uint(SP) << 16);
  O32.W[G * 4u + 1u] = floatBitsToUint(float(X) * 2.0);
  O32.W[G * 4u + 2u] = uint(int(V.x) + int(V.y) * 256);
  O32.W[G * 4u + 3u] = uint(uint16_t(X > Y)) + uint(isnan(X)) * 2u + uint(isinf(Y)) * 4u;
}
