#version 450
// A loop with a constant bound whose break depends on x: lanes leave in
// different iterations (break under a varying condition).
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int n = int(x);
  int s = 0;
  for (int i = 0; i < 100; i++) {
    if (i >= n)
      break;
    s += i * i;
  }
  r = s;
}
