#version 450
#extension GL_EXT_null_initializer : require
// Shared memory: a histogram zero-initialized with "= {}" (OpVariable with
// an OpConstantNull initializer; VK_KHR_zero_initialize_workgroup_memory),
// filled with shared atomics from 24 invocations (not a multiple of 16)
// over several workgroups, so stale counts from an earlier workgroup would
// show. A second shared array is written before it is read.
layout(local_size_x = 24) in;

layout(std430, set = 0, binding = 0) readonly buffer In { uint Keys[]; } I;
layout(std430, set = 0, binding = 1) buffer Out { uint H[]; } O;

shared uint Hist[64] = {};
shared uint Scratch[24];

void main() {
  uint L = gl_LocalInvocationIndex;
  uint Base = gl_WorkGroupID.x * 24u * 5u;
  for (uint K = 0u; K < 5u; ++K)
    atomicAdd(Hist[I.Keys[Base + K * 24u + L] & 63u], 1u);
  Scratch[L] = L * 3u + gl_WorkGroupID.x;
  barrier();
  for (uint B = L; B < 64u; B += 24u)
    O.H[gl_WorkGroupID.x * 88u + B] = Hist[B];
  O.H[gl_WorkGroupID.x * 88u + 64u + L] = Scratch[23u - L];
}
