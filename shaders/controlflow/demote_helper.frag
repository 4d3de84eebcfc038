#version 450
// OpDemoteToHelperInvocation (demote) inside a loop at an iteration that
// varies per lane, and OpIsHelperInvocationEXT (helperInvocationEXT())
// before and after: demoted lanes keep running (their later stores must
// not happen and they come back dead), the others never see themselves as
// helpers and store r.
#extension GL_EXT_demote_to_helper_invocation : require
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

void main() {
  int n = int(x);
  int helpersSeen = helperInvocationEXT() ? 1 : 0;
  int s = 0;
  for (int i = 0; i < 8; i++) {
    if (i == (n % 11) && n % 4 == 1)
      demote;
    if (helperInvocationEXT())
      helpersSeen += 10;
    s += i * n;
  }
  bool h = helperInvocationEXT();
  r = ivec4(s, helpersSeen, h ? 7 : 3, n);
}
