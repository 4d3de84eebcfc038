#version 450
// Transpose through shared memory with a 3-D workgroup (8x4x2): the z
// layer picks one of two matrices, each invocation writes one element of
// the tile and reads its transposed partner after the barrier. Also checks
// the shared array layout with a vec2 element type.
layout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;

layout(std430, set = 0, binding = 0) readonly buffer In { vec2 X[]; } I;  // 2 layers x (Rows x Cols)
layout(std430, set = 0, binding = 1) buffer Out { vec2 Y[]; } O;
layout(push_constant) uniform P { uint Rows, Cols; } PC;   // multiples of 8

shared vec2 Tile[2][8][9];

void main() {
  uint Z = gl_LocalInvocationID.z;
  uint Layer = PC.Rows * PC.Cols * Z;
  uint Lx = gl_LocalInvocationID.x, Ly = gl_LocalInvocationID.y;
  uint Bx = gl_WorkGroupID.x * 8u, By = gl_WorkGroupID.y * 8u;
  // 8x8 tile, 4 rows of invocations: two rows each.
  for (uint R = Ly; R < 8u; R += 4u)
    Tile[Z][R][Lx] = I.X[Layer + (By + R) * PC.Cols + Bx + Lx];
  barrier();
  for (uint R = Ly; R < 8u; R += 4u)
    O.Y[Layer + (Bx + R) * PC.Rows + By + Lx] = Tile[Z][Lx][R].yx;
}
