//===- SubgroupInstr.h - Subgroup instructions, decoded once ----*- C++ -*-===//
//
// What a subgroup instruction (GroupNonUniform, and the SPV_KHR ballot and
// vote forms without a scope operand) asks, from the opcode table and its
// operands: the operation, the lane a broadcast or shuffle reads, the
// combine operation and group operation of a reduction or scan, the
// cluster size, and the ids of its value and index operands. Both back
// ends lower from this; neither lists subgroup opcodes.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_SUBGROUPINSTR_H
#define SPIRV2LLVM_CODEGEN_SUBGROUPINSTR_H

#include "parser/Module.h"
#include "parser/OpcodeTable.h"

#include "llvm/Support/Error.h"

namespace spirv2llvm {

/// How a reduction's or ballot bit count's lanes combine (the SPIR-V group
/// operations the back ends implement).
enum class GroupOpKind : uint8_t {
  Reduce,        ///< over all active lanes, or over clusters of lanes
  InclusiveScan, ///< lanes at or below each lane
  ExclusiveScan, ///< lanes below each lane (the identity in the lowest)
};

struct SubgroupInstr {
  SubgroupOpKind Kind = SubgroupOpKind::None;
  LaneSource Lane = LaneSource::None; ///< Broadcast, Shuffle
  CombineKind Combine = CombineKind::None; ///< Arithmetic
  /// Arithmetic and BallotBitCount.
  GroupOpKind GroupOp = GroupOpKind::Reduce;
  /// ClusteredReduce: the cluster size (a power of two); 0 otherwise.
  uint32_t ClusterSize = 0;
  /// The operand the operation reads: the predicate, value or ballot.
  uint32_t Value = 0;
  /// The lane index, shuffle argument or ballot bit index; 0 if none.
  uint32_t Index = 0;
};

/// Decodes \p I (an instruction of the Subgroup family). Errors: a missing
/// scope, too few operands, an unsupported group operation, a cluster size
/// that is not a constant power of two; with \p NeedSubgroupScope, a scope
/// other than Subgroup (checked first). A Kind of None: \p I is no
/// subgroup instruction the back ends know.
llvm::Expected<SubgroupInstr> decodeSubgroupInstr(const Module &M,
                                                  const Instruction &I,
                                                  bool NeedSubgroupScope);

/// Lane sources that read within a 2x2 quad.
inline bool isQuadLane(LaneSource L) {
  return L == LaneSource::QuadBroadcast || L == LaneSource::QuadSwap;
}

} // namespace spirv2llvm

#endif
