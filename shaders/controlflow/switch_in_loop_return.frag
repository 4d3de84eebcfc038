#version 450
// A switch inside a loop: break leaves the switch, continue the loop's
// iteration, one case returns from main (r written before), one breaks the
// loop through a flag; selectors vary per lane and per iteration.
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

void main() {
  int n = int(x);
  int s = 0;
  bool stop = false;
  int i;
  r = ivec4(-1);
  for (i = 0; i < 10 && !stop; i++) {
    switch ((n >> (i % 5)) & 3) {
    case 0:
      s += 1;
      break;
    case 1:
      s += 10;
      continue;
    case 2:
      if (s > 25) {
        stop = true;
        break;
      }
      s *= 2;
      break;
    default:
      if (n > 55 && i > 5) {
        r = ivec4(s, i, 0, 1);
        return;
      }
      s -= 1;
    }
    s += i;
  }
  r = ivec4(s, i, stop ? 1 : 0, 2);
}
