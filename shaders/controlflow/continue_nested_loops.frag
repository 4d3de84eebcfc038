#version 450
// Continue under a varying condition, and a nested loop (varying trip
// count) left by a break out of the inner loop only.
layout(location = 0) in float x;
layout(location = 0) out int r;

void main() {
  int n = int(x);
  int s = 0;
  for (int i = 0; i < n; i++) {
    if ((i & 1) == 1)
      continue;
    for (int j = 0; j < i; j++) {
      if (j == 3)
        break;
      s += j + i;
    }
  }
  r = s;
}
