#version 450
// A Function array indexed with uniform and varying indices lives in
// memory, one copy per lane; a varying store then varying loads.
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  float a[8];
  int n = int(x);
  for (int k = 0; k < 8; k++)
    a[k] = float(k * k) + float(n % 3);
  int j = n % 8;
  a[j] = -1.0;
  ivec2 v[3] = ivec2[3](ivec2(1, 2), ivec2(3, 4), ivec2(5, 6));
  v[n % 3].y += n;
  r = int(a[(j + 3) % 8] * 10.0) + int(a[j]) * 1000 +
      v[(n + 1) % 3].y * 100000 + v[n % 3].y;
}
