#version 450
// discard (OpKill) inside a loop at an iteration that varies per lane, and
// inside a function called under a varying branch; the surviving lanes go
// on looping and store r afterwards, the killed ones come back dead.
layout(location = 0) in float x;
layout(location = 0) out int r;

int checkBudget(int s, int n) {
  if (s > 60 + n)
    discard;
  return s / 2;
}

void main() {
  int n = int(x);
  int s = 0;
  for (int i = 0; i < 12; i++) {
    s += (n >> (i & 3)) + i;
    if (i == n % 13 && (n & 1) == 1)
      discard;
  }
  int t = 0;
  if (n % 3 != 0)
    t = checkBudget(s, n);
  r = s * 100 + t;
}
