#version 450
// Private (module-scope) and Function variables, both dynamically indexed
// with varying indices so that they live in memory: a local uint array, a
// local vec3 array, a private float table and a private counter updated in
// a function called from a loop.
layout(local_size_x = 16) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint X[]; } I;
layout(std430, set = 0, binding = 1) buffer OutU { uint U[]; } OU;
layout(std430, set = 0, binding = 2) buffer OutF { vec4 F[]; } OF;

uint Counter;
float Table[8];

uint hash(uint X) {
  X ^= X >> 16;
  X *= 0x7feb352du;
  X ^= X >> 15;
  X *= 0x846ca68bu;
  X ^= X >> 16;
  return X;
}

void bump(uint By) { Counter += By; }

void main() {
  uint G = gl_GlobalInvocationID.x;
  Counter = G;
  uint Local[12];
  for (uint K = 0u; K < 12u; ++K)
    Local[K] = hash(I.X[G] + K);
  for (int K = 0; K < 8; ++K)
    Table[K] = float(K) * 0.5 + float(G);
  uint Acc = 0u;
  for (uint K = 0u; K < 12u; ++K) {
    Acc ^= Local[(G * 7u + K * 5u) % 12u];
    bump(K & 1u);
  }
  Local[G % 12u] = Acc;          // varying store
  Local[(G + 5u) % 12u] += 1u;   // varying read-modify-write
  uint Sum = 0u;
  for (uint K = 0u; K < 12u; ++K)
    Sum += Local[K] * (K + 1u);
  vec3 Pts[4];
  for (uint K = 0u; K < 4u; ++K)
    Pts[K] = vec3(float(K), float(G), float(K * G));
  Pts[G & 3u].y += 100.0;
  vec3 P = Pts[(G >> 2) & 3u];
  float T = Table[G & 7u] + Table[(G >> 3) & 7u];
  Table[(G * 5u) & 7u] = -1.0;
  OU.U[G * 3u + 0u] = Acc;
  OU.U[G * 3u + 1u] = Sum;
  OU.U[G * 3u + 2u] = Counter;
  OF.F[G] = vec4(P, T + Table[G & 7u]);
}
