#version 450
// GL_EXT_shared_memory_block (WorkgroupMemoryExplicitLayoutKHR): shared
// blocks with explicit layouts all alias the same memory.
#extension GL_EXT_shared_memory_block : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 16) in;
shared A { uint words[16]; } a;
shared B { uvec2 pairs[8]; } b;
shared C { uint16_t halves[32]; } c;
layout(set = 0, binding = 0) buffer Out {
  uvec2 pairs[8];
  uint halves[32];
  uint words[16];
} outb;

void main() {
  uint i = gl_LocalInvocationIndex;
  a.words[i] = i * 0x10003u + 1u;
  barrier();
  if (i < 8u)
    outb.pairs[i] = b.pairs[i];
  outb.halves[2u * i] = uint(c.halves[2u * i]);
  outb.halves[2u * i + 1u] = uint(c.halves[2u * i + 1u]);
  barrier();
  c.halves[i] = uint16_t(i + 500u);
  barrier();
  outb.words[i] = a.words[i];
}
