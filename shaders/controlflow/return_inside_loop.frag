#version 450
// A return from main inside a loop, under a varying condition: lanes
// return in different iterations, the others reach the store after the loop.
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int n = int(x);
  r = -1;
  for (int i = 0; i < 50; i++) {
    if (i * i > n) {
      r = i;
      return;
    }
  }
  r = 99;
}
