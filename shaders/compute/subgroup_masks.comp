#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_ARB_shader_group_vote : require
// The subgroup lane-mask built-ins (gl_SubgroupEq/Ge/Gt/Le/LtMask) and the
// ARB/KHR ballot and vote operations without a scope operand
// (OpSubgroupBallotKHR, OpSubgroupFirstInvocationKHR,
// OpSubgroupReadInvocationKHR, OpSubgroupAny/All/AllEqualKHR), under a
// divergent branch so inactive lanes must be left out. The subgroup size
// must match lavapipe's (the case is subgroup-sized).
layout(local_size_x = 32) in;

layout(std430, set = 0, binding = 0) buffer Out { uvec4 R[]; } O;

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint L = gl_SubgroupInvocationID;
  O.R[G * 4u + 0u] = uvec4(gl_SubgroupEqMask.x, gl_SubgroupGeMask.x,
                           gl_SubgroupGtMask.x, gl_SubgroupLeMask.x);
  O.R[G * 4u + 1u] = uvec4(gl_SubgroupLtMask.x,
                           subgroupBallotBitCount(gl_SubgroupLtMask & subgroupBallot(true)),
                           gl_SubgroupEqMask.y, 0u);
  if ((G * 7u) % 5u < 3u) {
    // ARB_shader_ballot: 64-bit ballot, first and read invocation.
    uint64_t B = ballotARB(L % 3u == 0u);
    uint First = readFirstInvocationARB(G);
    uint Read = readInvocationARB(G * 3u, 1u);
    O.R[G * 4u + 2u] = uvec4(uint(B), uint(B >> 32), First, Read);
    // KHR_subgroup_vote through ARB_shader_group_vote spellings.
    O.R[G * 4u + 3u] = uvec4(uint(anyInvocationARB(L == 2u)),
                             uint(allInvocationsARB(L < 100u)),
                             uint(allInvocationsEqualARB(G < 64u)),
                             uint(gl_SubGroupEqMaskARB));
  }
}
