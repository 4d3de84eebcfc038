#version 450
// Fine derivatives of values computed in divergent code: a function with
// a per-lane trip count (a real call with --no-inline/--no-canonicalize)
// and a varying if; the derivatives themselves are taken in uniform
// control flow. Lanes the caller left off still run (docs/abi.md), so a
// partial quad's derivatives use their values too.
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

float series(float v) {
  float s = 0.0;
  for (int i = 0; i < int(v) % 5 + 1; i++)
    s += v * float(i + 1);
  return s;
}

void main() {
  float a = series(floor(x));
  float b = floor(x);
  if (int(x) % 3 == 1)
    b = -b * 2.0;
  r = ivec4(int(a), int(dFdxFine(a)), int(dFdyFine(a)),
            int(dFdxFine(b) * 1000.0 + dFdyFine(b)));
}
