#version 450
// An infinite loop whose only exit is under a varying branch: the break
// block post-dominates the loop, yet lanes reach it in different iterations.
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int i = 0;
  int s = 0;
  for (;;) {
    if (float(i) > x) {
      r = i * 10 + s;
      break;
    }
    s += i;
    i++;
  }
}
