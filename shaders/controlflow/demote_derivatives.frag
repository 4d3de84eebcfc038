#version 450
// Demoted lanes keep running for their quad's derivatives: lanes demote in
// a loop inside a function (at an iteration that varies per lane) and keep
// accumulating; fine derivatives taken afterwards in uniform control flow
// must see the demoted neighbours' final values. helperInvocationEXT() is
// true in demoted lanes and in the lanes the caller ran only as helpers
// (entry mask bit clear), which the derivative of h exposes to live lanes.
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

float accumulate(int n) {
  float acc = 0.0;
  for (int i = 0; i < 6; i++) {
    if (i == n % 7 && (n & 1) == 1)
      demote;
    acc += float(i * n);
  }
  return acc;
}

void main() {
  int n = int(x);
  float acc = accumulate(n);
  float h = helperInvocationEXT() ? 1.0 : 0.0;
  r = ivec4(int(acc), int(dFdxFine(acc)), int(dFdyFine(acc)),
            int(dFdxFine(h) + 10.0 * dFdyFine(h)));
}
