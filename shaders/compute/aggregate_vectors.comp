#version 450
// Vectors inside aggregates, the cases the scalar and DXIL pipelines must
// take apart (docs/dxil-passes.md): whole-struct loads and stores of a
// struct holding a vec3, an array of uvec2 and a mat2 (buffer -> shared ->
// local array -> buffer), structs chosen by a select and merged by a phi,
// a dynamically indexed local array of such structs, a 3-D shared array of
// vec2 (the [2 x [8 x [9 x <2 x float>]]] that dxil-flatten-arrays
// flattens), and the vector forms of uaddCarry and frexp (LLVM intrinsics
// returning a struct of vectors).
layout(local_size_x = 64) in;

struct Item {
  vec3 Pos;
  uint Id;
  uvec2 Pair[2];
  mat2 M;
};

layout(std430, set = 0, binding = 0) readonly buffer In { Item I[]; } Src;
layout(std430, set = 0, binding = 1) buffer Out { Item I[]; } Dst;
layout(std430, set = 0, binding = 2) buffer Misc { uvec4 V[]; } Extra;

shared Item Tile[64];
shared vec2 Grid[2][8][9];

Item pick(bool C, Item A, Item B) { return C ? A : B; }

void main() {
  uint L = gl_LocalInvocationIndex;
  uint G = gl_GlobalInvocationID.x;
  // Shared memory starts undefined: clear the grid first.
  for (uint K = L; K < 144u; K += 64u)
    Grid[K / 72u][(K / 9u) % 8u][K % 9u] = vec2(0.0);
  Item It = Src.I[G];
  Tile[L] = It;
  barrier();
  Grid[L & 1u][(L >> 1) & 7u][L % 9u] = It.Pos.xy * 2.0;
  barrier();

  Item Other = Tile[63u - L];
  Item Local[2];
  Local[0] = It;
  Local[1] = Other;
  Item Chosen = Local[L & 1u];
  Item S = pick(It.Id > Other.Id, It, Other);
  if (L % 3u == 0u) {
    S.Pos += vec3(1.0);
    S.Pair[1] = S.Pair[0] + uvec2(7u);
  }
  S.M = S.M * Chosen.M;
  Dst.I[G] = S;

  uvec2 Carry;
  uvec2 Sum = uaddCarry(S.Pair[0], Chosen.Pair[1], Carry);
  ivec3 E;
  vec3 Mant = frexp(It.Pos, E);
  vec2 Cell = Grid[(L + 1u) & 1u][(L >> 2) & 7u][(L + 4u) % 9u];
  Extra.V[G * 3u] = uvec4(floatBitsToUint(Mant), uint(E.x + 3 * E.y + 9 * E.z));
  Extra.V[G * 3u + 1u] = uvec4(Sum, Carry);
  Extra.V[G * 3u + 2u] =
      uvec4(floatBitsToUint(Cell), floatBitsToUint(Chosen.Pos.z), Chosen.Id);
}
