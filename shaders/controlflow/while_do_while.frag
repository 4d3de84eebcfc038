#version 450
// A while loop with a data-dependent trip count (Collatz steps, capped)
// and a do-while whose body runs at least once.
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int v = int(x);
  int steps = 0;
  while (v != 1 && steps < 40) {
    v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
    steps++;
  }
  int d = 0;
  do {
    d += 7;
  } while (d < int(x));
  r = steps * 1000 + d;
}
