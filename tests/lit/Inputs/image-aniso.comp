#version 450
// run-image-anisotropy.test: one sample whose footprint (textureGrad) is 8
// texels long along u and 1 along v, centred in texel (8, 8) at u = 8.25.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D Tex;
layout(set = 0, binding = 1) buffer Out { float v[]; };
void main() {
  v[0] = textureGrad(Tex, vec2(8.25, 8.25) / 16.0, vec2(8.0 / 16.0, 0.0),
                     vec2(0.0, 1.0 / 16.0)).r;
}
