#version 450
// A function returning values from inside nested loops and from a switch
// inside a loop, called in a loop with a varying trip count and under a
// varying branch; its early returns differ per lane.
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

int search(int n, int target) {
  for (int i = 1; i < 8; i++) {
    for (int j = i; j < 8; j++) {
      if (i * j == target)
        return i * 10 + j;
      if (i * j > n)
        break;
    }
  }
  return -1;
}

int classify(int n) {
  for (int k = 0; k < 4; k++) {
    switch ((n >> k) & 3) {
    case 3:
      return 100 + k;
    case 2:
      if (k > 1)
        return 200 + k;
      break;
    default:
      continue;
    }
    n += 1;
  }
  return n;
}

void main() {
  int n = int(x);
  int s = 0;
  for (int t = n % 4; t < 6; t++)
    s += search(n, t * 3 + 2);
  int c = 0;
  if ((n & 8) == 0)
    c = classify(n);
  r = ivec4(s, c, search(63 - n, n % 20), classify(n + 1));
}
