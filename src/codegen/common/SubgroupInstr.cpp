//===- SubgroupInstr.cpp - Subgroup instructions, decoded once ------------===//
#include "codegen/common/SubgroupInstr.h"

#include "support/Diagnostic.h"

using namespace llvm;

namespace spirv2llvm {

Expected<SubgroupInstr> decodeSubgroupInstr(const Module &M,
                                            const Instruction &I,
                                            bool NeedSubgroupScope) {
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  SubgroupInstr D;
  D.Kind = Info.Subgroup;
  if (D.Kind == SubgroupOpKind::None)
    return D;
  D.Lane = Info.Lane;
  D.Combine = Info.Combine;
  // Operands after the scope (none for the KHR forms): [group operation,]
  // value[, index or cluster size].
  size_t First = 0;
  if (Info.HasScope) { // not the KHR forms (the grammar says)
    if (I.Operands.empty())
      return makeError("missing scope operand");
    const spirv2llvm::Constant *Scope = M.findConstant(I.Operands[0]);
    if (NeedSubgroupScope &&
        (!Scope || spv::Scope(Scope->scalarBits()) != spv::Scope::Subgroup))
      return makeError(
          "unsupported: a scope other than Subgroup for group operations");
    First = 1;
  }
  bool HasGroupOp = D.Kind == SubgroupOpKind::Arithmetic ||
                    D.Kind == SubgroupOpKind::BallotBitCount;
  bool HasIndex = D.Kind == SubgroupOpKind::Shuffle ||
                  D.Kind == SubgroupOpKind::BallotBitExtract ||
                  (D.Kind == SubgroupOpKind::Broadcast &&
                   D.Lane == LaneSource::Index);
  size_t Need = First + (D.Kind == SubgroupOpKind::Elect ? 0 : 1) +
                (HasGroupOp ? 1 : 0) + (HasIndex ? 1 : 0);
  if (I.Operands.size() < Need)
    return makeError("too few operands");
  if (D.Kind == SubgroupOpKind::Elect)
    return D;
  size_t K = First;
  auto GO = spv::GroupOperation::Reduce;
  if (HasGroupOp)
    GO = spv::GroupOperation(I.Operands[K++]);
  D.Value = I.Operands[K++];
  if (HasIndex)
    D.Index = I.Operands[K++];
  switch (GO) {
  case spv::GroupOperation::Reduce:
    break;
  case spv::GroupOperation::InclusiveScan:
    D.GroupOp = GroupOpKind::InclusiveScan;
    break;
  case spv::GroupOperation::ExclusiveScan:
    D.GroupOp = GroupOpKind::ExclusiveScan;
    break;
  case spv::GroupOperation::ClusteredReduce: {
    if (D.Kind != SubgroupOpKind::Arithmetic)
      return makeError("unsupported: group operation " + Twine(uint32_t(GO)));
    if (K >= I.Operands.size())
      return makeError("too few operands");
    const spirv2llvm::Constant *CS = M.findConstant(I.Operands[K]);
    uint64_t Size = CS ? CS->scalarBits() : 0;
    if (!CS || Size == 0 || (Size & (Size - 1)))
      return makeError("cluster size must be a constant power of two");
    D.ClusterSize = uint32_t(std::min<uint64_t>(Size, uint64_t(1) << 31));
    break;
  }
  default:
    return makeError("unsupported: group operation " + Twine(uint32_t(GO)));
  }
  return D;
}

} // namespace spirv2llvm
