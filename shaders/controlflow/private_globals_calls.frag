#version 450
// Private variables (GLSL globals) read and written by functions called
// under divergent control flow, including from a loop with a varying trip
// count and from both arms of a varying if.
layout(location = 0) in float x;
layout(location = 0) out ivec4 r;

int counter = 0;
int history[4] = int[4](0, 0, 0, 0);

void record(int v) {
  history[counter & 3] = v;
  counter++;
}

int bumpIfOdd(int v) {
  if ((v & 1) == 0)
    return 0;
  counter += 100;
  return 1;
}

void main() {
  int n = int(x);
  for (int i = 0; i < n % 6; i++)
    record(n + i);
  int odd = 0;
  if (n > 30)
    odd = bumpIfOdd(n);
  else
    record(-n);
  r = ivec4(counter, history[0] + history[1] * 3, history[2] - history[3], odd);
}
