//===- InvocationSubgroup.cpp - Subgroup operations on a subgroup of one --===//
//
// One call runs one invocation, so a subgroup is that invocation alone
// (SubgroupSize 1, SubgroupLocalInvocationId 0): votes see one value,
// broadcasts and shuffles of lane 0 return the value itself, a ballot has
// bit 0 set when the predicate holds, reductions and inclusive scans
// return the operand and exclusive scans the operation's identity. The
// SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote forms (no scope operand)
// behave the same. The quad operations need a quad of four and are
// rejected.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/GroupOps.h"
#include "codegen/invocation/InvocationEmitter.h"

using namespace llvm;

namespace spirv2llvm::invocation {

using llvm::Constant;
using llvm::Type;

namespace {

/// Identity of the reduction \p Op (GroupOps.h) for values of type \p T.
Constant *identityOf(spv::Op Op, Type *T) {
  Constant *C = groupIdentity(Op, T->getScalarType(), /*ForFill=*/false);
  if (!C)
    return nullptr;
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return ConstantVector::getSplat(VT->getElementCount(), C);
  return C;
}

} // namespace

bool InvocationEmitter::emitSubgroup(const Instruction &I) {
  using spv::Op;
  const uint32_t Id = I.Result.value();
  auto Arg = [&](size_t K) { return get(I.Operands[K]); };
  switch (I.Opcode) {
  case Op::OpGroupNonUniformElect:
    set(Id, B.getTrue());
    return true;
  case Op::OpGroupNonUniformAll:
  case Op::OpGroupNonUniformAny:
    set(Id, Arg(1));
    return true;
  case Op::OpGroupNonUniformAllEqual:
    set(Id, B.getTrue());
    return true;
  case Op::OpGroupNonUniformBroadcast:
  case Op::OpGroupNonUniformBroadcastFirst:
  case Op::OpGroupNonUniformShuffle:
  case Op::OpGroupNonUniformShuffleXor:
  case Op::OpGroupNonUniformShuffleUp:
  case Op::OpGroupNonUniformShuffleDown:
    // Lane 0 is the only lane; other lanes' values are undefined (an
    // index out of the subgroup), so the value itself serves for all.
    set(Id, Arg(1));
    return true;
  case Op::OpGroupNonUniformBallot:
  case Op::OpSubgroupBallotKHR: {
    Type *T = typeOf(I.ResultType); // uvec4
    Value *Pred = Arg(I.Opcode == Op::OpSubgroupBallotKHR ? 0 : 1);
    if (!Pred->getType()->isIntegerTy(1) || !isa<FixedVectorType>(T)) {
      failAt(I, "a ballot takes a boolean and gives a vector of integers");
      return true;
    }
    Value *Bit = B.CreateZExt(Pred, T->getScalarType());
    set(Id, B.CreateInsertElement(Constant::getNullValue(T), Bit,
                                  uint64_t(0)));
    return true;
  }
  // SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote (no scope operand):
  // the same on a subgroup of one.
  case Op::OpSubgroupAllKHR:
  case Op::OpSubgroupAnyKHR:
  case Op::OpSubgroupFirstInvocationKHR:
  case Op::OpSubgroupReadInvocationKHR:
    // Reading lane 0 (or an index outside the subgroup, which is undefined)
    // gives the value itself.
    set(Id, Arg(0));
    return true;
  case Op::OpSubgroupAllEqualKHR:
    set(Id, B.getTrue());
    return true;
  case Op::OpGroupNonUniformInverseBallot:
    set(Id, B.CreateTrunc(B.CreateExtractElement(Arg(1), uint64_t(0)),
                          B.getInt1Ty()));
    return true;
  case Op::OpGroupNonUniformBallotBitExtract: {
    // Only bit 0 belongs to the subgroup.
    Value *Index = Arg(2);
    Value *Bit0 = B.CreateTrunc(B.CreateExtractElement(Arg(1), uint64_t(0)),
                                B.getInt1Ty());
    set(Id, B.CreateAnd(Bit0, B.CreateICmpEQ(
                                  Index, Constant::getNullValue(
                                             Index->getType()))));
    return true;
  }
  case Op::OpGroupNonUniformBallotBitCount: {
    auto GroupOp = spv::GroupOperation(I.Operands[1]);
    Value *Bit0 = B.CreateAnd(B.CreateExtractElement(Arg(2), uint64_t(0)),
                              B.getInt32(1));
    set(Id, GroupOp == spv::GroupOperation::ExclusiveScan ? B.getInt32(0)
                                                           : Bit0);
    return true;
  }
  case Op::OpGroupNonUniformBallotFindLSB:
  case Op::OpGroupNonUniformBallotFindMSB: {
    // Bit 0 set: 0; no bit set: undefined, -1 as FindILsb would say.
    Value *Bit0 = B.CreateTrunc(B.CreateExtractElement(Arg(1), uint64_t(0)),
                                B.getInt1Ty());
    set(Id, B.CreateSelect(Bit0, B.getInt32(0), B.getInt32(~0u)));
    return true;
  }
  case Op::OpGroupNonUniformQuadBroadcast:
  case Op::OpGroupNonUniformQuadSwap:
    failAt(I, "unsupported: quad operations in the invocation back end (a "
              "subgroup is one invocation)");
    return true;
  default:
    break;
  }
  Constant *Identity = nullptr;
  if (I.Operands.size() >= 3 &&
      (Identity = identityOf(I.Opcode, typeOf(I.ResultType)))) {
    auto GroupOp = spv::GroupOperation(I.Operands[1]);
    switch (GroupOp) {
    case spv::GroupOperation::Reduce:
    case spv::GroupOperation::InclusiveScan:
    case spv::GroupOperation::ClusteredReduce:
      set(Id, Arg(2));
      return true;
    case spv::GroupOperation::ExclusiveScan:
      set(Id, Identity);
      return true;
    default:
      failAt(I, "unsupported: group operation " + Twine(I.Operands[1]));
      return true;
    }
  }
  return false;
}

} // namespace spirv2llvm::invocation
