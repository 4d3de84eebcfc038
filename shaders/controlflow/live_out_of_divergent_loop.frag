#version 450
// Values defined in a loop with a varying trip count and a varying break,
// used after it (the counter and the last value, per lane).
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int n = int(x);
  int last = 0;
  int i;
  for (i = 0; i < n; i++) {
    last = i * 3;
    if (last > 20)
      break;
  }
  r = last * 100 + i;
}
