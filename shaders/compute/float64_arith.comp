#version 450
// Doubles (shaderFloat64): add, sub, mul, div, conversions from and to
// float and integers, comparisons, double vectors in std430 (dvec3 stride
// 32) and a double push constant.
layout(local_size_x = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer In { double X[]; } I;
layout(std430, set = 0, binding = 1) readonly buffer InV { dvec3 V[]; } IV;
layout(std430, set = 0, binding = 2) buffer Out { double Y[]; } O;
layout(std430, set = 0, binding = 3) buffer OutI { int Z[]; } OI;
layout(push_constant) uniform P { double Scale; float F; } PC;

void main() {
  uint G = gl_GlobalInvocationID.x;
  double A = I.X[G];
  double B = I.X[G + 64u] + 2.0lf;
  dvec3 V = IV.V[G];
  uint Base = G * 8u;
  O.Y[Base + 0u] = A + B;
  O.Y[Base + 1u] = A - B * PC.Scale;
  O.Y[Base + 2u] = A * B;
  O.Y[Base + 3u] = A / B;
  O.Y[Base + 4u] = dot(V, V.zxy);
  O.Y[Base + 5u] = double(float(A)) + double(PC.F);
  O.Y[Base + 6u] = double(int(G) - 8) * 0.125lf + double(G * 1000000007u);
  O.Y[Base + 7u] = V.x * A - V.y;
  OI.Z[G * 4u + 0u] = int(A * 1000.0lf);
  OI.Z[G * 4u + 1u] = (A < B ? 1 : 0) + (V.x >= V.y ? 2 : 0) + (A == A ? 4 : 0);
  OI.Z[G * 4u + 2u] = int(uint(B * 100.0lf));
  OI.Z[G * 4u + 3u] = floatBitsToInt(float(A * B));
}
