#version 450
layout(local_size_x_id = 3) in;
layout(constant_id = 5) const uint scale = 2u;
layout(std430, binding = 0) buffer O { uint o[]; };
void main() { o[gl_GlobalInvocationID.x] = gl_WorkGroupSize.x * 1000u + gl_LocalInvocationID.x * scale; }
