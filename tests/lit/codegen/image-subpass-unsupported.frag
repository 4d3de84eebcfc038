// RUN: not %spirv2llvm %s 2>&1 | FileCheck %s
// Subpass loads read at an offset from the fragment's position, which the
// entry point does not have: refused with a clear message (docs/images.md).
// CHECK: error: {{.*}}OpImageRead: unsupported: subpass loads (input attachments)
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput Prev;
layout(location = 0) out vec4 Color;
void main() { Color = subpassLoad(Prev) * 0.5; }
