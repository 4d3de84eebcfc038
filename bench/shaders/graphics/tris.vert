#version 450
// Scene "tris": small triangles, positions in NDC with depth, a colour per
// vertex.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec4 color;
layout(location = 0) out vec4 vcolor;
void main() {
  gl_Position = vec4(pos, 1.0);
  vcolor = color;
}
