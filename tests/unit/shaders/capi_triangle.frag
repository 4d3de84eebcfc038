#version 450
// CApiGraphics.c: one colour per draw, from the push constants.
layout(push_constant) uniform Pc { vec4 Color; } pc;
layout(location = 0) out vec4 Out;
void main() { Out = pc.Color; }
