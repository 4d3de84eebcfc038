#version 450
// CApiGraphicsSafety.c: writes Words[Index] (a fault when Index is past
// the buffer), then loops until Stop is set, counting its iterations.
layout(push_constant) uniform Pc { int Index; } pc;
layout(set = 0, binding = 0) buffer B { uint Stop; uint Count; uint Words[]; } b;
layout(location = 0) out vec4 Out;
void main() {
  b.Words[pc.Index] = 7u;
  while (b.Stop == 0u)
    atomicAdd(b.Count, 1u);
  Out = vec4(1.0);
}
