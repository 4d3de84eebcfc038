#version 450
// CApiGraphicsSafety.c: positions from vertex buffer binding 0, in NDC.
layout(location = 0) in vec2 Pos;
void main() { gl_Position = vec4(Pos, 0.5, 1.0); }
