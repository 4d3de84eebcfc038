#version 450
// Functions with value, inout and out parameters (a scalar, an ivec2 and an
// array), writing them under varying conditions, called under a varying if
// and in a loop with a varying trip count.
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

void step(inout int acc, inout ivec2 minmax, int v) {
  if (v < 0)
    return;
  acc += v;
  if (v < minmax.x)
    minmax.x = v;
  if (v > minmax.y)
    minmax.y = v;
}

void digits(int v, out int lo, out int hi) {
  lo = v % 10;
  if (v >= 10)
    hi = v / 10;
  else
    hi = -1;
}

int sumArr(inout int a[4], int k) {
  a[k & 3] += k;
  return a[0] + a[1] + a[2] + a[3];
}

void main() {
  int n = int(x);
  int acc = 0;
  ivec2 mm = ivec2(1000, -1000);
  for (int i = 0; i < n % 7; i++)
    step(acc, mm, ((n * (i + 3)) % 17) - 4);
  int lo = 5, hi = 5;
  if (n % 3 != 1)
    digits(n, lo, hi);
  int a[4] = int[4](1, 2, 3, 4);
  int t = 0;
  if ((n & 4) != 0)
    t = sumArr(a, n);
  r = ivec4(acc, mm.x * 10000 + mm.y, lo * 100 + hi, t * 100 + a[n & 3]);
}
