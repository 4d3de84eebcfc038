#version 450
// Scene "fill": one bilinear sample per pixel. The discard is never taken
// (the bench pushes never = 0); it only keeps lavapipe from treating the
// shader as opaque, which would let it drop all but the last of the
// full-screen quads a timed render pass draws (see GraphicsBench.cpp).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform Push { float never; } pc;
layout(location = 0) in vec2 vuv;
layout(location = 0) out vec4 color;
void main() {
  if (pc.never > 0.5)
    discard;
  color = texture(tex, vuv);
}
