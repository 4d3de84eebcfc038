#version 450
// Streaming: z = a*x + y, one element per invocation.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) readonly buffer Y { float y[]; };
layout(std430, binding = 2) writeonly buffer Z { float z[]; };
layout(push_constant) uniform P { float a; uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n)
    z[i] = a * x[i] + y[i];
}
