#version 450
// Loops until word 0 of the buffer is non-zero, which nothing writes:
// run-timeout.test stops it with --timeout.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() {
  uint i = 0u;
  while (a[0] == 0u)
    a[1 + gl_LocalInvocationID.x] = i++;
}
