#version 450
// GL_EXT_buffer_reference: pointers from push constants, pointer
// arithmetic through uint64_t and uvec2, pointers stored in and loaded from
// memory (a linked list chased per lane with varying pointers), pointer
// selects, and atomics through uniform and varying pointers.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
  Node next;
  uint value;
  uint pad;
};
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Counter {
  uint count;
  uint total;
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words {
  uint w[];
};
layout(push_constant) uniform P {
  Node pool;
  Counter counter;
  Words words;
} pc;
layout(set = 0, binding = 0) buffer Out {
  uint chase[32];
  uint arith[32];
  uint sel[32];
  uint diff[32];
} outb;

void main() {
  uint i = gl_LocalInvocationIndex;
  Node self = Node(uint64_t(pc.pool) + uint64_t(i) * 16ul);
  self.next = Node(uint64_t(pc.pool) + uint64_t((i * 5u + 3u) % 32u) * 16ul);
  self.value = i * i + 1u;
  memoryBarrierBuffer();
  barrier();
  Node n = self;
  uint sum = 0u;
  for (uint k = 0u; k <= i % 7u; ++k) {
    sum += n.value;
    n = n.next;
  }
  outb.chase[i] = sum;
  Node p = (i & 1u) != 0u ? self : self.next;
  outb.sel[i] = p.value;
  outb.diff[i] = uint(uint64_t(p) - uint64_t(pc.pool)) / 16u;
  // uvec2 round trip and an element through pointer arithmetic.
  uvec2 a = uvec2(pc.words);
  Words w2 = Words(a);
  outb.arith[i] = w2.w[8u + i] + Words(uint64_t(w2) + 4ul * 40ul).w[i];
  Counter c = pc.counter;
  atomicAdd(c.count, 1u);
  atomicAdd(c.total, i);
  atomicAdd(Words(uint64_t(pc.words) + 4ul * uint64_t(i % 4u)).w[0], i + 1u);
}
