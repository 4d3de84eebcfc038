#version 450
// Copies a whole private array of @N@ floats (big2 = big);
// tests/lit/regress/value-limit.test substitutes @N@.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float data[]; };
float big[@N@];
float big2[@N@];
void main() {
  big[gl_GlobalInvocationID.x] = 1.0;
  big2 = big;
  data[0] = big2[gl_GlobalInvocationID.x];
}
