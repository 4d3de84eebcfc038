// VulkanGraphicsRunner: one triangle that covers the whole viewport
// (clip-space corners (-1,-1), (3,-1), (-1,3)), for per-sample passes.
#version 450
void main() {
  vec2 P = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  gl_Position = vec4(P * 2.0 - 1.0, 0.0, 1.0);
}
