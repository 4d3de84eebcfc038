#version 450
// Scene "mesh": a torus in model space, transformed by the push constants'
// matrices (column-major, as GLSL reads them).
layout(push_constant) uniform Push {
  mat4 mvp;
  mat4 model;
} pc;
layout(location = 0) in vec3 pos;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 uv;
layout(location = 0) out vec3 vnormal;
layout(location = 1) out vec2 vuv;
layout(location = 2) out vec3 vworld;
void main() {
  gl_Position = pc.mvp * vec4(pos, 1.0);
  vnormal = mat3(pc.model) * normal;
  vuv = uv;
  vworld = (pc.model * vec4(pos, 1.0)).xyz;
}
