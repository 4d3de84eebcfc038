#version 450
// Constant-trip (uniform) loops and constant-condition branches inside
// divergent regions: a uniform loop in a varying if, in a varying switch
// case and in a varying loop; a uniform break inside a varying loop; and a
// region no lane enters (x is never above 100).
layout(location = 0) in float x;
layout(location = 0) out int r;

const int K = 4;

void main() {
  int n = int(x);
  int s = 0;
  if (n % 2 == 0) {
    for (int i = 0; i < K; i++)                  // uniform trip count
      s += i * n;
  } else {
    switch (n % 3) {
    case 0:
      for (int i = 0; i < 3; i++)
        s ^= n << i;
      break;
    default:
      s = -n;
    }
  }
  for (int i = 0; i < n % 6; i++) {              // varying
    for (int j = 0; j < 2; j++)                  // uniform inside varying
      s += j + i;
    if (i == K - 1)                              // uniform condition
      break;
  }
  if (x > 100.0) {                               // no lane enters
    for (int i = 0; i < 1000000; i++)
      s += i;
    s = 123456;
  }
  r = s;
}
