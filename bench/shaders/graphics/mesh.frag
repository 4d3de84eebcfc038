#version 450
// Scene "mesh": a texture lit by one directional light, ambient, diffuse
// and Blinn-Phong specular, the camera at the origin of world space.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec3 vnormal;
layout(location = 1) in vec2 vuv;
layout(location = 2) in vec3 vworld;
layout(location = 0) out vec4 color;
void main() {
  vec3 n = normalize(vnormal);
  vec3 l = normalize(vec3(0.4, 0.7, 0.6));
  vec3 v = normalize(-vworld);
  vec3 h = normalize(l + v);
  float diffuse = max(dot(n, l), 0.0);
  float specular = pow(max(dot(n, h), 0.0), 32.0);
  vec3 albedo = texture(tex, vuv).rgb;
  color = vec4(albedo * (0.15 + 0.85 * diffuse) + vec3(0.3 * specular), 1.0);
}
