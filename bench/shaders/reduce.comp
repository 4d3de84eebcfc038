#version 450
// Shared-memory tree reduction with barriers: each workgroup sums 1024
// values (4 per invocation) and writes one partial sum.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float partial[]; };
shared float tile[256];
void main() {
  uint l = gl_LocalInvocationIndex;
  uint base = gl_WorkGroupID.x * 1024u;
  tile[l] = (src[base + l] + src[base + l + 256u]) +
            (src[base + l + 512u] + src[base + l + 768u]);
  barrier();
  for (uint s = 128u; s > 0u; s >>= 1) {
    if (l < s)
      tile[l] += tile[l + s];
    barrier();
  }
  if (l == 0u)
    partial[gl_WorkGroupID.x] = tile[0];
}
