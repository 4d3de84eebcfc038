#version 450
// OpTerminateInvocation (terminateInvocation) inside a switch inside a
// loop, under varying selectors; the other lanes keep iterating.
#extension GL_EXT_terminate_invocation : require
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int n = int(x);
  int s = 1;
  for (int i = 0; i < 6; i++) {
    switch ((n + i) % 7) {
    case 3:
      if (i > 2 && n > 40)
        terminateInvocation;
      s += 3;
      break;
    case 5:
      s *= 2;
      continue;
    default:
      s += i;
    }
    s ^= n;
  }
  r = s;
}
