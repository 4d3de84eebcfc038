//===- EmitSubgroup.cpp - GroupNonUniform operations over the SIMD group --===//
//
// A subgroup is the SIMD group: SubgroupSize is W and lane L of the call is
// SubgroupLocalInvocationId L. Only lanes in CurMask take part; an inactive
// lane's input is replaced by the operation's identity before combining.
//
// Results are computed as <W x T> vectors; reductions, broadcasts,
// ballots and votes hold the same value in every lane, and the uniformity
// analysis marks them Uniform, so set() keeps lane 0 as a scalar.
//
// Reductions and clustered reductions are butterflies (lane i combines with
// lane i ^ k for k = 1, 2, 4, ... below the cluster size), so every lane
// ends with its cluster's result; scans are Hillis-Steele (lane i combines
// with lane i - k). Floating-point sums are therefore not in lane order,
// which SPIR-V allows.
//
// Undefined reads: Shuffle, ShuffleXor, ShuffleUp, ShuffleDown and the Quad
// operations return 0 when the source lane is out of range or inactive.
// Broadcast with an out-of-range or inactive lane returns that lane's
// value modulo W (whatever the inactive lane holds). Ballot masks cover
// only the first word (W <= 32); the other three words are 0.
//
// Limitations: only the Subgroup scope (others get a diagnostic);
// PartitionedReduceNV and the non-uniform rotate are not supported.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/GroupOps.h"
#include "codegen/simd/SimdEmitter.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

namespace {

/// Identity of the arithmetic group operation \p Kind (GroupOps.h).
Constant *identityOf(spv::Op Kind, Type *T, bool ForFill) {
  return groupIdentity(Kind, T, ForFill);
}

/// Combines \p X and \p Y lane by lane with group operation \p Kind.
Value *combine(IRBuilder<> &B, spv::Op Kind, Value *X, Value *Y) {
  using spv::Op;
  switch (Kind) {
  case Op::OpGroupNonUniformIAdd:
    return B.CreateAdd(X, Y);
  case Op::OpGroupNonUniformFAdd:
    return B.CreateFAdd(X, Y);
  case Op::OpGroupNonUniformIMul:
    return B.CreateMul(X, Y);
  case Op::OpGroupNonUniformFMul:
    return B.CreateFMul(X, Y);
  case Op::OpGroupNonUniformSMin:
    return B.CreateBinaryIntrinsic(Intrinsic::smin, X, Y);
  case Op::OpGroupNonUniformUMin:
    return B.CreateBinaryIntrinsic(Intrinsic::umin, X, Y);
  case Op::OpGroupNonUniformFMin:
    return B.CreateBinaryIntrinsic(Intrinsic::minnum, X, Y);
  case Op::OpGroupNonUniformSMax:
    return B.CreateBinaryIntrinsic(Intrinsic::smax, X, Y);
  case Op::OpGroupNonUniformUMax:
    return B.CreateBinaryIntrinsic(Intrinsic::umax, X, Y);
  case Op::OpGroupNonUniformFMax:
    return B.CreateBinaryIntrinsic(Intrinsic::maxnum, X, Y);
  case Op::OpGroupNonUniformBitwiseAnd:
  case Op::OpGroupNonUniformLogicalAnd:
    return B.CreateAnd(X, Y);
  case Op::OpGroupNonUniformBitwiseOr:
  case Op::OpGroupNonUniformLogicalOr:
    return B.CreateOr(X, Y);
  case Op::OpGroupNonUniformBitwiseXor:
  case Op::OpGroupNonUniformLogicalXor:
    return B.CreateXor(X, Y);
  default:
    llvm_unreachable("not an arithmetic group operation");
  }
}

} // namespace

bool SimdEmitter::emitSubgroup(const Instruction &In) {
  using spv::Op;
  // SPV_KHR_shader_ballot and SPV_KHR_subgroup_vote: the GroupNonUniform
  // operations without a scope operand (always the subgroup).
  Op Same = Op::Max;
  switch (In.Opcode) {
  case Op::OpSubgroupBallotKHR:
    Same = Op::OpGroupNonUniformBallot;
    break;
  case Op::OpSubgroupFirstInvocationKHR:
    Same = Op::OpGroupNonUniformBroadcastFirst;
    break;
  case Op::OpSubgroupAllKHR:
    Same = Op::OpGroupNonUniformAll;
    break;
  case Op::OpSubgroupAnyKHR:
    Same = Op::OpGroupNonUniformAny;
    break;
  case Op::OpSubgroupAllEqualKHR:
    Same = Op::OpGroupNonUniformAllEqual;
    break;
  case Op::OpSubgroupReadInvocationKHR:
    Same = Op::OpGroupNonUniformBroadcast;
    break;
  default:
    break;
  }
  Instruction Scoped;
  if (Same != Op::Max) {
    Scoped = In;
    Scoped.Opcode = Same;
    Scoped.Operands.insert(Scoped.Operands.begin(), 0);
    Scoped.OperandIsId.insert(Scoped.OperandIsId.begin(), false);
  }
  const Instruction &I = Same != Op::Max ? Scoped : In;
  uint32_t OpV = static_cast<uint32_t>(I.Opcode);
  if (OpV < static_cast<uint32_t>(Op::OpGroupNonUniformElect) ||
      OpV > static_cast<uint32_t>(Op::OpGroupNonUniformQuadSwap))
    return false;
  uint32_t Id = I.Result.value();
  if (I.Operands.empty()) {
    failAt(I, "missing scope operand");
    return true;
  }
  const spirv2llvm::Constant *Scope = M.findConstant(I.Operands[0]);
  if (Same == Op::Max &&
      (!Scope || spv::Scope(Scope->scalarBits()) != spv::Scope::Subgroup)) {
    failAt(I, "unsupported: a scope other than Subgroup for group operations");
    return true;
  }
  const std::vector<ScalarType> &RC = components(I.ResultType);
  auto Operand = [&](size_t K) { return coerce(get(I.Operands[K]), true); };
  auto Need = [&](size_t N) {
    if (I.Operands.size() >= N)
      return true;
    failAt(I, "too few operands");
    return false;
  };
  Type *I32 = B.getInt32Ty();
  Value *Mask = FS.CurMask;
  Value *MaskBits = B.CreateBitCast(Mask, B.getIntNTy(W), "sg.maskbits");
  Value *Lanes = laneIndices(I32);
  // Lane index of the lowest active lane (W if none, never used then).
  Value *First = B.CreateZExtOrTrunc(
      B.CreateBinaryIntrinsic(Intrinsic::cttz, MaskBits, B.getFalse()), I32,
      "sg.first");
  // The active lanes as a <W x i32> bit set in every lane.
  Value *MaskWord = splat(B.CreateZExtOrTrunc(MaskBits, I32));
  auto SplatI32 = [&](uint32_t C) { return splat(B.getInt32(C)); };
  // To <W x i32>, from any integer width.
  auto ToI32 = [&](Value *V) {
    return B.CreateZExtOrTrunc(V, FixedVectorType::get(I32, W));
  };
  // Lane \p Src's value of \p X in every lane (Src is <W x i32>); 0 where
  // Src is out of range or inactive.
  auto Permute = [&](Value *X, Value *Src, bool ZeroUndefined) {
    Value *Clamped = B.CreateAnd(Src, SplatI32(W - 1));
    Value *R = PoisonValue::get(X->getType());
    for (unsigned L = 0; L < W; ++L)
      R = B.CreateInsertElement(
          R, B.CreateExtractElement(X, B.CreateExtractElement(Clamped, L)), L);
    if (!ZeroUndefined)
      return R;
    Value *InRange = B.CreateICmpULT(Src, SplatI32(W));
    Value *SrcActive = B.CreateICmpNE(
        B.CreateAnd(B.CreateLShr(MaskWord, Clamped), SplatI32(1)), SplatI32(0));
    return B.CreateSelect(B.CreateAnd(InRange, SrcActive), R,
                          Constant::getNullValue(X->getType()));
  };
  // Lane \p Lane (a scalar) of \p X in every lane.
  auto BroadcastLane = [&](Value *X, Value *Lane) {
    return splat(B.CreateExtractElement(X, Lane));
  };
  // Inactive lanes replaced by \p Id.
  auto Fill = [&](Value *X, Constant *Identity) {
    return B.CreateSelect(Mask, X, splat(Identity));
  };
  // Lane i gets lane i - K's value, or \p Identity below K.
  auto ShiftUp = [&](Value *X, unsigned K, Constant *Identity) {
    SmallVector<int, 16> Idx;
    for (unsigned L = 0; L < W; ++L)
      Idx.push_back(L < K ? int(W) : int(L - K));
    return B.CreateShuffleVector(X, splat(Identity), Idx);
  };
  auto Butterfly = [&](Value *X, unsigned K) {
    SmallVector<int, 16> Idx;
    for (unsigned L = 0; L < W; ++L)
      Idx.push_back(int(L ^ K));
    return B.CreateShuffleVector(X, X, Idx);
  };
  // The ballot word of \p V (uvec4, first word), limited to the lanes.
  auto BallotWord = [&](const LaneValue &V) {
    Value *Low = SplatI32(W >= 32 ? ~0u : (1u << W) - 1);
    return B.CreateAnd(ToI32(V.Comps[0]), Low);
  };

  LaneValue R;
  R.Varying = true;
  switch (I.Opcode) {
  case Op::OpGroupNonUniformElect:
    R.Comps.push_back(B.CreateICmpEQ(Lanes, splat(First), "sg.elect"));
    break;
  case Op::OpGroupNonUniformAll:
  case Op::OpGroupNonUniformAny: {
    if (!Need(2))
      return true;
    Value *P = Operand(1).Comps[0];
    Value *V;
    if (I.Opcode == Op::OpGroupNonUniformAll)
      V = B.CreateNot(anyLane(B.CreateAnd(Mask, B.CreateNot(P))));
    else
      V = anyLane(B.CreateAnd(Mask, P));
    R.Comps.push_back(splat(V));
    break;
  }
  case Op::OpGroupNonUniformAllEqual: {
    if (!Need(2))
      return true;
    LaneValue X = Operand(1);
    Value *Diff = Constant::getNullValue(Mask->getType());
    for (Value *C : X.Comps) {
      Value *Ref = BroadcastLane(C, First);
      Value *Ne = C->getType()->isFPOrFPVectorTy() ? B.CreateFCmpUNE(C, Ref)
                                                   : B.CreateICmpNE(C, Ref);
      Diff = B.CreateOr(Diff, Ne);
    }
    R.Comps.push_back(
        splat(B.CreateNot(anyLane(B.CreateAnd(Mask, Diff)), "sg.alleq")));
    break;
  }
  case Op::OpGroupNonUniformBroadcast:
  case Op::OpGroupNonUniformBroadcastFirst: {
    if (!Need(2))
      return true;
    LaneValue X = Operand(1);
    Value *Lane = First;
    if (I.Opcode == Op::OpGroupNonUniformBroadcast) {
      if (!Need(3))
        return true;
      // The id is dynamically uniform: read it from the first active lane.
      LaneValue Ix = get(I.Operands[2]);
      Value *L = Ix.Comps[0];
      if (Ix.Varying)
        L = B.CreateExtractElement(L, First);
      Lane = B.CreateAnd(B.CreateZExtOrTrunc(L, I32), B.getInt32(W - 1));
    }
    for (Value *C : X.Comps)
      R.Comps.push_back(BroadcastLane(C, Lane));
    break;
  }
  case Op::OpGroupNonUniformBallot: {
    if (!Need(2))
      return true;
    Value *P = B.CreateAnd(Mask, Operand(1).Comps[0]);
    Value *Word = B.CreateZExtOrTrunc(B.CreateBitCast(P, B.getIntNTy(W)), I32,
                                      "sg.ballot");
    R.Comps.push_back(splat(Word));
    for (unsigned C = 1; C < 4; ++C)
      R.Comps.push_back(SplatI32(0));
    break;
  }
  case Op::OpGroupNonUniformInverseBallot: {
    if (!Need(2))
      return true;
    Value *Word = ToI32(Operand(1).Comps[0]);
    R.Comps.push_back(B.CreateICmpNE(
        B.CreateAnd(B.CreateLShr(Word, Lanes), SplatI32(1)), SplatI32(0)));
    break;
  }
  case Op::OpGroupNonUniformBallotBitExtract: {
    if (!Need(3))
      return true;
    LaneValue V = Operand(1);
    Value *Ix = ToI32(Operand(2).Comps[0]);
    Value *WordIx = B.CreateLShr(Ix, SplatI32(5));
    Value *Word = ToI32(V.Comps[0]);
    for (unsigned C = 1; C < 4 && C < V.Comps.size(); ++C)
      Word = B.CreateSelect(B.CreateICmpEQ(WordIx, SplatI32(C)),
                            ToI32(V.Comps[C]), Word);
    Value *Bit = B.CreateLShr(Word, B.CreateAnd(Ix, SplatI32(31)));
    R.Comps.push_back(
        B.CreateICmpNE(B.CreateAnd(Bit, SplatI32(1)), SplatI32(0)));
    break;
  }
  case Op::OpGroupNonUniformBallotBitCount: {
    if (!Need(3))
      return true;
    auto GO = spv::GroupOperation(I.Operands[1]);
    Value *Word = BallotWord(Operand(2));
    if (GO == spv::GroupOperation::InclusiveScan ||
        GO == spv::GroupOperation::ExclusiveScan) {
      // Bits at or below (inclusive) or below (exclusive) each lane.
      Value *Ones = GO == spv::GroupOperation::InclusiveScan
                        ? B.CreateShl(SplatI32(2), Lanes)
                        : B.CreateShl(SplatI32(1), Lanes);
      Word = B.CreateAnd(Word, B.CreateSub(Ones, SplatI32(1)));
    } else if (GO != spv::GroupOperation::Reduce) {
      failAt(I, "unsupported: group operation " + Twine(I.Operands[1]));
      return true;
    }
    R.Comps.push_back(B.CreateUnaryIntrinsic(Intrinsic::ctpop, Word));
    break;
  }
  case Op::OpGroupNonUniformBallotFindLSB:
  case Op::OpGroupNonUniformBallotFindMSB: {
    if (!Need(2))
      return true;
    Value *Word = BallotWord(Operand(1));
    if (I.Opcode == Op::OpGroupNonUniformBallotFindLSB)
      R.Comps.push_back(
          B.CreateBinaryIntrinsic(Intrinsic::cttz, Word, B.getFalse()));
    else
      R.Comps.push_back(B.CreateSub(
          SplatI32(31),
          B.CreateBinaryIntrinsic(Intrinsic::ctlz, Word, B.getFalse())));
    break;
  }
  case Op::OpGroupNonUniformShuffle:
  case Op::OpGroupNonUniformShuffleXor:
  case Op::OpGroupNonUniformShuffleUp:
  case Op::OpGroupNonUniformShuffleDown:
  case Op::OpGroupNonUniformQuadBroadcast:
  case Op::OpGroupNonUniformQuadSwap: {
    if (!Need(3))
      return true;
    LaneValue X = Operand(1);
    Value *Arg = ToI32(Operand(2).Comps[0]);
    Value *Src = nullptr;
    switch (I.Opcode) {
    case Op::OpGroupNonUniformShuffle:
      Src = Arg;
      break;
    case Op::OpGroupNonUniformShuffleXor:
      Src = B.CreateXor(Lanes, Arg);
      break;
    case Op::OpGroupNonUniformShuffleUp:
      Src = B.CreateSub(Lanes, Arg); // wraps to out of range below 0
      break;
    case Op::OpGroupNonUniformShuffleDown:
      Src = B.CreateAdd(Lanes, Arg);
      break;
    case Op::OpGroupNonUniformQuadBroadcast:
      Src = B.CreateOr(B.CreateAnd(Lanes, SplatI32(~3u)),
                       B.CreateAnd(Arg, SplatI32(3)));
      break;
    default: // QuadSwap: 0 horizontal, 1 vertical, 2 diagonal
      Src = B.CreateXor(
          Lanes, B.CreateAdd(B.CreateAnd(Arg, SplatI32(3)), SplatI32(1)));
      break;
    }
    for (Value *C : X.Comps)
      R.Comps.push_back(Permute(C, Src, /*ZeroUndefined=*/true));
    break;
  }
  default: {
    // The arithmetic operations: scope, group operation, value[, cluster].
    // IAdd through LogicalXor are the only opcodes left in the range.
    if (!Need(3))
      return true;
    auto GO = spv::GroupOperation(I.Operands[1]);
    unsigned Cluster = W;
    if (GO == spv::GroupOperation::ClusteredReduce) {
      const spirv2llvm::Constant *CS =
          Need(4) ? M.findConstant(I.Operands[3]) : nullptr;
      uint64_t Size = CS ? CS->scalarBits() : 0;
      if (!CS || Size == 0 || (Size & (Size - 1))) {
        failAt(I, "cluster size must be a constant power of two");
        return true;
      }
      Cluster = unsigned(std::min<uint64_t>(Size, W));
    } else if (GO != spv::GroupOperation::Reduce &&
               GO != spv::GroupOperation::InclusiveScan &&
               GO != spv::GroupOperation::ExclusiveScan) {
      failAt(I, "unsupported: group operation " + Twine(I.Operands[1]));
      return true;
    }
    LaneValue X = Operand(2);
    for (Value *C : X.Comps) {
      Type *ET = C->getType()->getScalarType();
      Value *V = Fill(C, identityOf(I.Opcode, ET, /*ForFill=*/true));
      if (GO == spv::GroupOperation::Reduce ||
          GO == spv::GroupOperation::ClusteredReduce) {
        for (unsigned K = 1; K < Cluster; K *= 2)
          V = combine(B, I.Opcode, V, Butterfly(V, K));
      } else {
        Constant *Id = identityOf(I.Opcode, ET, /*ForFill=*/true);
        for (unsigned K = 1; K < W; K *= 2)
          V = combine(B, I.Opcode, V, ShiftUp(V, K, Id));
        if (GO == spv::GroupOperation::ExclusiveScan)
          V = ShiftUp(V, 1, identityOf(I.Opcode, ET, /*ForFill=*/false));
      }
      R.Comps.push_back(V);
    }
    break;
  }
  }
  if (R.Comps.size() != RC.size()) {
    failAt(I, "operands do not match the result type");
    return true;
  }
  set(Id, coerce(std::move(R), isVarying(Id)));
  return true;
}

} // namespace spirv2llvm::simd
