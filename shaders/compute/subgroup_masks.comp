#version 450
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_ARB_shader_group_vote : require
// The subgroup lane-mask built-ins (gl_SubgroupEq/Ge/Gt/Le/LtMask) and the
// ARB/KHR ballot and vote operations without a scope operand
// (OpSubgroupBallotKHR, OpSubgroupFirstInvocationKHR,
// OpSubgroupReadInvocationKHR, OpSubgroupAny/All/AllEqualKHR), under a
// divergent branch so inactive lanes must be left out. Binding 0 holds raw
// values and depends on the subgroup size (it must match lavapipe's);
// binding 1 holds one bit per relation that holds at any subgroup size up
// to 32, a subgroup of one included (the one-invocation back ends).
layout(local_size_x = 32) in;

layout(std430, set = 0, binding = 0) buffer Out { uvec4 R[]; } O;
layout(std430, set = 0, binding = 1) buffer Rel { uint R[]; } Q;

uint bit(bool Holds, uint K) { return Holds ? 1u << K : 0u; }

void main() {
  uint G = gl_GlobalInvocationID.x;
  uint L = gl_SubgroupInvocationID;
  O.R[G * 4u + 0u] = uvec4(gl_SubgroupEqMask.x, gl_SubgroupGeMask.x,
                           gl_SubgroupGtMask.x, gl_SubgroupLeMask.x);
  O.R[G * 4u + 1u] = uvec4(gl_SubgroupLtMask.x,
                           subgroupBallotBitCount(gl_SubgroupLtMask & subgroupBallot(true)),
                           gl_SubgroupEqMask.y, 0u);
  uint Eq = gl_SubgroupEqMask.x, Ge = gl_SubgroupGeMask.x;
  uint Gt = gl_SubgroupGtMask.x, Le = gl_SubgroupLeMask.x;
  uint Lt = gl_SubgroupLtMask.x;
  uint Rel = bit(Eq == 1u << L, 0u) | bit(Ge == (Eq | Gt), 1u) |
             bit(Le == (Eq | Lt), 2u) | bit(Lt == Eq - 1u, 3u) |
             bit((Gt & Le) == 0u, 4u) |
             bit(uint(bitCount(Ge) + bitCount(Lt)) == min(gl_SubgroupSize, 32u),
                 5u) |
             bit(subgroupBallotBitCount(gl_SubgroupLtMask &
                                        subgroupBallot(true)) == L, 6u) |
             bit(gl_SubgroupEqMask.yzw == uvec3(0u), 7u);
  if ((G * 7u) % 5u < 3u) {
    uint64_t Active = ballotARB(true);
    uint64_t Third = ballotARB(L % 3u == 0u);
    uint FirstLane = uint(findLSB(uint(Active)));
    uint First = readFirstInvocationARB(G);
    Rel |= bit(((Third >> L) & 1ul) == uint64_t(L % 3u == 0u), 8u) |
           bit(First == G - L + FirstLane, 9u) |
           bit(readInvocationARB(G * 3u, FirstLane) == First * 3u, 10u) |
           bit(anyInvocationARB(L == 2u) == (ballotARB(L == 2u) != 0ul), 11u) |
           bit(allInvocationsARB(L < 100u), 12u) |
           bit(allInvocationsEqualARB(G < 64u), 13u) |
           bit(gl_SubGroupEqMaskARB == 1ul << L, 14u) |
           bit((Third & ~Active) == 0ul, 15u) | bit(((Active >> L) & 1ul) == 1ul, 16u);
  }
  Q.R[G] = Rel;
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
