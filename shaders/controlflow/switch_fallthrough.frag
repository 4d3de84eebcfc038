#version 450
// A varying switch with fall-through, a default in the middle that falls
// into a case, and a case that negates.
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int k = int(x) % 6;
  int s = 100;
  switch (k) {
  case 0:
    s += 1;
  case 1:
    s += 10;
    break;
  default:
    s += 1000;
  case 3:
    s += 5;
    break;
  case 4:
    s = -s;
    break;
  }
  r = s;
}
