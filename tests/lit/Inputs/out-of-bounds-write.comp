#version 450
// Writes one word at an index from the push constants, with no bounds
// check unless --robust-buffer-access: run-fault.test points it far
// outside binding 1.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(push_constant) uniform P { int index; uint read; };
void main() {
  if (read != 0u)
    a[0] = b[index];
  else
    b[index] = 7u;
}
