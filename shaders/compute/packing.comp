#version 450
// The GLSL.std.450 packing instructions: Pack/Unpack Snorm4x8, Unorm4x8,
// Snorm2x16, Unorm2x16, Half2x16 and Double2x32. Packed inputs are floats
// in [-1.5, 1.5) (so the clamps matter), NaN-free; unpacked inputs are
// random words (Half2x16's with the exponents kept below infinity/NaN).
#extension GL_ARB_gpu_shader_fp64 : require
layout(local_size_x = 32) in;

layout(std430, binding = 0) readonly buffer In { vec4 V[]; } I;
layout(std430, binding = 1) readonly buffer Words { uint W[]; } WI;
layout(std430, binding = 2) buffer PackOut { uint P[]; } PO;
layout(std430, binding = 3) buffer UnpackOut { vec4 U[]; } UO;

void main() {
  uint g = gl_GlobalInvocationID.x;
  vec4 v = I.V[g] * 1.5;
  PO.P[g * 8u + 0u] = packSnorm4x8(v);
  PO.P[g * 8u + 1u] = packUnorm4x8(v);
  PO.P[g * 8u + 2u] = packSnorm2x16(v.xy);
  PO.P[g * 8u + 3u] = packUnorm2x16(v.zw);
  PO.P[g * 8u + 4u] = packHalf2x16(v.yz * 1000.0);
  PO.P[g * 8u + 5u] = packHalf2x16(v.wx * 1e-5);
  uvec2 d = unpackDouble2x32(double(v.x) * 3.0);
  PO.P[g * 8u + 6u] = d.x;
  PO.P[g * 8u + 7u] = d.y ^ uint(packDouble2x32(uvec2(WI.W[g], 0x3ff00000u)) == 1.0);
  uint w = WI.W[g];
  UO.U[g * 4u + 0u] = unpackSnorm4x8(w);
  UO.U[g * 4u + 1u] = unpackUnorm4x8(w);
  UO.U[g * 4u + 2u] = vec4(unpackSnorm2x16(w), unpackUnorm2x16(w));
  UO.U[g * 4u + 3u] = vec4(unpackHalf2x16(w & 0xbfffbfffu), 0.0, 0.0);
}
