#version 450
// OpSelect with varying conditions on vectors: mix() with a bvec (a
// per-component select), ternaries on ivec4 with a scalar condition,
// nested ternaries; and a varying select of the result of a varying branch.
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

void main() {
  int n = int(x);
  ivec4 a = ivec4(n, n * 2, n * 3, n * 4);
  ivec4 b = ivec4(-1, -2, -3, -4);
  bvec4 c = bvec4((n & 1) != 0, (n & 2) != 0, (n & 4) != 0, (n & 8) != 0);
  ivec4 m = mix(a, b, c);                        // b where c is true
  ivec4 t = (n % 3 == 0) ? m : a.wzyx;
  ivec4 u = n > 40 ? (n > 50 ? t + 1 : t - 1) : t * 2;
  int extra;
  if (n % 5 == 2)
    extra = u.x + u.y;
  else
    extra = u.z - u.w;
  r = (n & 16) != 0 ? ivec4(extra, u.yzw) : u + extra;
}
