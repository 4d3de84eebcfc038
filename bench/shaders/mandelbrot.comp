#version 450
// Divergent escape-time loop: neighbouring pixels leave the loop at very
// different iterations.
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) writeonly buffer Out { uint iters[]; };
layout(push_constant) uniform P { uint width; uint height; uint maxIter; };
void main() {
  uvec2 p = gl_GlobalInvocationID.xy;
  if (p.x >= width || p.y >= height)
    return;
  vec2 c = vec2(-2.0, -1.25) + vec2(p) * vec2(2.5 / float(width), 2.5 / float(height));
  // precise: no FMA contraction on either side, so escape counts match.
  precise vec2 z = vec2(0.0);
  uint k = 0;
  while (k < maxIter && dot(z, z) < 4.0) {
    z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    ++k;
  }
  iters[p.y * width + p.x] = k;
}
