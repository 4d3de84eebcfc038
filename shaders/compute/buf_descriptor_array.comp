#version 450
// Arrays of buffer blocks (descriptor arrays): a uniform index (push
// constant), varying (nonuniformEXT) indices for loads, stores, atomics and
// length(), and an array of uniform blocks (indexed uniformly: lavapipe
// lacks shaderUniformBufferArrayNonUniformIndexing; the exec tests cover
// varying indices into uniform blocks).
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint n; uint vals[]; } data[4];
layout(set = 0, binding = 1) uniform Params { uvec4 k[4]; } params[2];
layout(set = 0, binding = 2) buffer Counters { uint c[4]; } counters[2];
layout(set = 0, binding = 3) buffer Out {
  uint uni[64];
  uint var[64];
  uint len[64];
  uint ulen;
} outb;
layout(push_constant) uniform P { uint which; } pc;

void main() {
  uint i = gl_LocalInvocationIndex;
  outb.uni[i] = data[pc.which].vals[i % data[pc.which].n] +
                params[1].k[pc.which].x;
  uint j = (i * 7u) % 4u;
  outb.var[i] = data[nonuniformEXT(j)].vals[i % 8u] +
                params[pc.which & 1u].k[j].y;
  // length() of an element picked per lane: the exec tests (lavapipe
  // gives lane 0's length to every lane).
  outb.len[i] = data[nonuniformEXT(3u - j)].vals[(i + 3u) % 8u];
  if (i == 0u)
    outb.ulen = uint(data[pc.which].vals.length());
  // Each (element, slot) is written by one invocation.
  data[nonuniformEXT(j)].vals[8u + i] = i * 3u + j;
  atomicAdd(counters[nonuniformEXT(i & 1u)].c[i % 4u], i + 1u);
}
