// RUN: not %spirv2llvm --backend=invocation %s 2>&1 | FileCheck %s
// Images stay unsupported in the invocation back end: a clear diagnostic
// that names the instruction, its word and the variable.
// CHECK: error: {{.*}}word {{[0-9]+}}: OpLoad: unsupported: images and samplers ({{.*}}Img{{.*}}) in the invocation back end
#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2D Img;
layout(std430, set = 0, binding = 1) buffer B { uint X[]; };
void main() {
  X[gl_LocalInvocationIndex] = imageLoad(Img, ivec2(gl_LocalInvocationIndex, 0)).x;
}
