#version 450
// Nested if/else chains whose conditions all vary per lane.
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int a = int(x);
  int s;
  if (a > 10) {
    if (a % 2 == 0)
      s = a;
    else
      s = -a;
  } else if (a > 5) {
    s = a * 3;
  } else {
    s = 7;
  }
  r = s;
}
