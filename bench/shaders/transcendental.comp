#version 450
// Transcendental math: sin, cos, exp, log, pow, atan, sqrt, inversesqrt.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 dst[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n)
    return;
  float x = src[i];                 // in [0, 1)
  float a = sin(x * 6.0) * cos(x * 3.0 + 0.5);
  float b = exp(x * 2.0 - 1.0) + log(x + 1.5);
  float c = pow(x + 0.25, 1.7) + atan(x * 4.0 - 2.0);
  float d = sqrt(x + 0.1) * inversesqrt(x + 2.0);
  dst[i] = vec4(a, b, c, d);
}
