#version 450
// demote inside a function called under a varying branch and a varying
// loop, helperInvocationEXT() read in another function; the demoted lanes
// keep executing the loop (no early exit) and store nothing.
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

void maybeDemote(int v) {
  if (v % 9 == 4)
    demote;
}

int helperBit() { return helperInvocationEXT() ? 1 : 0; }

void main() {
  int n = int(x);
  int seen = 0, s = 0;
  for (int i = 0; i < n % 5; i++) {
    if ((n & 2) != 0)
      maybeDemote(n + i);
    seen += helperBit();
    s += n - i;
  }
  r = ivec4(s, seen, helperBit(), -n);
}
