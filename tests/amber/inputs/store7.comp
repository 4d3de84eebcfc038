#version 450
layout(set = 0, binding = 0) buffer B { uint v; } b;
void main() { b.v = 7u; }
