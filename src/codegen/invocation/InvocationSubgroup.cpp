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
#include "codegen/common/SubgroupInstr.h"
#include "codegen/invocation/InvocationEmitter.h"

using namespace llvm;

namespace spirv2llvm::invocation {

using llvm::Constant;
using llvm::Type;

namespace {

/// Identity of the reduction \p Kind (GroupOps.h) for values of type \p T.
Constant *identityOf(CombineKind Kind, Type *T) {
  Constant *C = groupIdentity(Kind, T->getScalarType(), /*ForFill=*/false);
  if (!C)
    return nullptr;
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return ConstantVector::getSplat(VT->getElementCount(), C);
  return C;
}

} // namespace

bool InvocationEmitter::emitSubgroup(const Instruction &I) {
  // The scope does not matter: every scope holds this invocation alone
  // as far as the operation can see.
  Expected<SubgroupInstr> DE =
      decodeSubgroupInstr(M, I, /*NeedSubgroupScope=*/false);
  if (!DE) {
    failAt(I, toString(DE.takeError()));
    return true;
  }
  const SubgroupInstr &D = *DE;
  const uint32_t Id = I.Result.value();
  // Bit 0 of the ballot operand: the only bit that belongs to the subgroup.
  auto Bit0 = [&] {
    return B.CreateTrunc(B.CreateExtractElement(get(D.Value), uint64_t(0)),
                         B.getInt1Ty());
  };
  switch (D.Kind) {
  case SubgroupOpKind::Elect:
  case SubgroupOpKind::AllEqual:
    set(Id, B.getTrue());
    return true;
  case SubgroupOpKind::All:
  case SubgroupOpKind::Any:
    set(Id, get(D.Value));
    return true;
  case SubgroupOpKind::Broadcast:
  case SubgroupOpKind::Shuffle:
    if (isQuadLane(D.Lane)) {
      failAt(I, "unsupported: quad operations in the invocation back end (a "
                "subgroup is one invocation)");
      return true;
    }
    // Lane 0 is the only lane; other lanes' values are undefined (an
    // index out of the subgroup), so the value itself serves for all.
    set(Id, get(D.Value));
    return true;
  case SubgroupOpKind::Ballot: {
    Type *T = typeOf(I.ResultType); // uvec4
    Value *Pred = get(D.Value);
    if (!Pred->getType()->isIntegerTy(1) || !isa<FixedVectorType>(T)) {
      failAt(I, "a ballot takes a boolean and gives a vector of integers");
      return true;
    }
    Value *Bit = B.CreateZExt(Pred, T->getScalarType());
    set(Id, B.CreateInsertElement(Constant::getNullValue(T), Bit,
                                  uint64_t(0)));
    return true;
  }
  case SubgroupOpKind::InverseBallot:
    set(Id, Bit0());
    return true;
  case SubgroupOpKind::BallotBitExtract: {
    Value *Index = get(D.Index);
    Value *Bit = Bit0();
    set(Id, B.CreateAnd(Bit, B.CreateICmpEQ(Index, Constant::getNullValue(
                                                       Index->getType()))));
    return true;
  }
  case SubgroupOpKind::BallotBitCount: {
    Value *Bit = B.CreateAnd(B.CreateExtractElement(get(D.Value), uint64_t(0)),
                             B.getInt32(1));
    set(Id, D.GroupOp == GroupOpKind::ExclusiveScan ? B.getInt32(0) : Bit);
    return true;
  }
  case SubgroupOpKind::BallotFindLSB:
  case SubgroupOpKind::BallotFindMSB:
    // Bit 0 set: 0; no bit set: undefined, -1 as FindILsb would say.
    set(Id, B.CreateSelect(Bit0(), B.getInt32(0), B.getInt32(~0u)));
    return true;
  case SubgroupOpKind::Arithmetic: {
    Constant *Identity = identityOf(D.Combine, typeOf(I.ResultType));
    if (!Identity)
      return false;
    // A reduction or inclusive scan of one value is the value; an
    // exclusive scan sees no value.
    set(Id, D.GroupOp == GroupOpKind::ExclusiveScan ? Identity : get(D.Value));
    return true;
  }
  case SubgroupOpKind::None:
    break;
  }
  return false;
}

} // namespace spirv2llvm::invocation
