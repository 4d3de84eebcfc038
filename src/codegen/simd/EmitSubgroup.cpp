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
#include "codegen/common/SubgroupInstr.h"
#include "codegen/simd/SimdEmitter.h"

#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

namespace {

/// The lane arithmetic the subgroup operations share, over one SIMD group
/// of W lanes of which Mask are active. Values are <W x T> vectors.
struct GroupLanes {
  IRBuilder<> &B;
  unsigned W;
  Value *Mask;     ///< <W x i1>: the active lanes
  Value *Lanes;    ///< <W x i32>: 0, 1, ... W-1
  Value *First;    ///< i32: the lowest active lane (W if none, never used)
  Value *MaskWord; ///< <W x i32>: the active lanes as a bit set, every lane

  GroupLanes(IRBuilder<> &B, unsigned W, Value *Mask, Value *Lanes)
      : B(B), W(W), Mask(Mask), Lanes(Lanes) {
    Type *I32 = B.getInt32Ty();
    Value *MaskBits = B.CreateBitCast(Mask, B.getIntNTy(W), "sg.maskbits");
    First = B.CreateZExtOrTrunc(
        B.CreateBinaryIntrinsic(Intrinsic::cttz, MaskBits, B.getFalse()), I32,
        "sg.first");
    MaskWord = splat(B.CreateZExtOrTrunc(MaskBits, I32));
  }

  Value *splat(Value *V) { return splatLanes(B, W, V); }
  Value *splatI32(uint32_t C) { return splat(B.getInt32(C)); }
  /// To <W x i32>, from any integer width.
  Value *toI32(Value *V) {
    return B.CreateZExtOrTrunc(V, FixedVectorType::get(B.getInt32Ty(), W));
  }
  /// Lane \p Lane (a scalar) of \p X in every lane.
  Value *broadcastLane(Value *X, Value *Lane) {
    return splat(B.CreateExtractElement(X, Lane));
  }
  /// Lane \p Src's value of \p X in every lane (Src is <W x i32>); 0 where
  /// Src is out of range or inactive.
  Value *permute(Value *X, Value *Src) {
    Value *Clamped = B.CreateAnd(Src, splatI32(W - 1));
    Value *R = PoisonValue::get(X->getType());
    for (unsigned L = 0; L < W; ++L)
      R = B.CreateInsertElement(
          R, B.CreateExtractElement(X, B.CreateExtractElement(Clamped, L)), L);
    Value *InRange = B.CreateICmpULT(Src, splatI32(W));
    Value *SrcActive = B.CreateICmpNE(
        B.CreateAnd(B.CreateLShr(MaskWord, Clamped), splatI32(1)),
        splatI32(0));
    return B.CreateSelect(B.CreateAnd(InRange, SrcActive), R,
                          Constant::getNullValue(X->getType()));
  }
  /// The lane each lane reads for shuffle rule \p L with argument \p Arg
  /// (<W x i32>).
  Value *shuffleSource(LaneSource L, Value *Arg) {
    switch (L) {
    case LaneSource::Xor:
      return B.CreateXor(Lanes, Arg);
    case LaneSource::Up:
      return B.CreateSub(Lanes, Arg); // wraps to out of range below 0
    case LaneSource::Down:
      return B.CreateAdd(Lanes, Arg);
    case LaneSource::QuadBroadcast:
      return B.CreateOr(B.CreateAnd(Lanes, splatI32(~3u)),
                        B.CreateAnd(Arg, splatI32(3)));
    case LaneSource::QuadSwap: // 0 horizontal, 1 vertical, 2 diagonal
      return B.CreateXor(
          Lanes, B.CreateAdd(B.CreateAnd(Arg, splatI32(3)), splatI32(1)));
    default: // Index
      return Arg;
    }
  }
  /// Lane i gets lane i - K's value, or \p Identity below K.
  Value *shiftUp(Value *X, unsigned K, Constant *Identity) {
    SmallVector<int, 16> Idx;
    for (unsigned L = 0; L < W; ++L)
      Idx.push_back(L < K ? int(W) : int(L - K));
    return B.CreateShuffleVector(X, splat(Identity), Idx);
  }
  /// Lane i gets lane i ^ K's value.
  Value *butterfly(Value *X, unsigned K) {
    SmallVector<int, 16> Idx;
    for (unsigned L = 0; L < W; ++L)
      Idx.push_back(int(L ^ K));
    return B.CreateShuffleVector(X, X, Idx);
  }
  /// The ballot word of \p V (uvec4, first word), limited to the lanes.
  Value *ballotWord(const LaneValue &V) {
    Value *Low = splatI32(W >= 32 ? ~0u : (1u << W) - 1);
    return B.CreateAnd(toI32(V.Comps[0]), Low);
  }
  /// Reduction (over clusters of \p Cluster lanes) or scan \p GO of
  /// component \p C by \p Kind; inactive lanes count as the identity.
  Value *arithmetic(CombineKind Kind, GroupOpKind GO, unsigned Cluster,
                    Value *C) {
    Type *ET = C->getType()->getScalarType();
    Constant *Fill = groupIdentity(Kind, ET, /*ForFill=*/true);
    Value *V = B.CreateSelect(Mask, C, splat(Fill));
    if (GO == GroupOpKind::Reduce) {
      for (unsigned K = 1; K < Cluster; K *= 2)
        V = emitGroupCombine(B, Kind, V, butterfly(V, K));
      return V;
    }
    for (unsigned K = 1; K < W; K *= 2)
      V = emitGroupCombine(B, Kind, V, shiftUp(V, K, Fill));
    if (GO == GroupOpKind::ExclusiveScan)
      V = shiftUp(V, 1, groupIdentity(Kind, ET, /*ForFill=*/false));
    return V;
  }
};

} // namespace

bool SimdEmitter::emitSubgroup(const Instruction &I) {
  Expected<SubgroupInstr> DE =
      decodeSubgroupInstr(M, I, /*NeedSubgroupScope=*/true);
  if (!DE) {
    failAt(I, toString(DE.takeError()));
    return true;
  }
  const SubgroupInstr &D = *DE;
  if (D.Kind == SubgroupOpKind::None)
    return false;
  uint32_t Id = I.Result.value();
  const std::vector<ScalarType> &RC = components(I.ResultType);
  auto Operand = [&](uint32_t V) { return coerce(get(V), true); };
  Type *I32 = B.getInt32Ty();
  GroupLanes G(B, W, FS.CurMask, laneIndices(I32));
  Value *Mask = G.Mask;

  LaneValue R;
  R.Varying = true;
  switch (D.Kind) {
  case SubgroupOpKind::Elect:
    R.Comps.push_back(B.CreateICmpEQ(G.Lanes, G.splat(G.First), "sg.elect"));
    break;
  case SubgroupOpKind::All:
    R.Comps.push_back(G.splat(B.CreateNot(
        anyLane(B.CreateAnd(Mask, B.CreateNot(Operand(D.Value).Comps[0]))))));
    break;
  case SubgroupOpKind::Any:
    R.Comps.push_back(
        G.splat(anyLane(B.CreateAnd(Mask, Operand(D.Value).Comps[0]))));
    break;
  case SubgroupOpKind::AllEqual: {
    Value *Diff = Constant::getNullValue(Mask->getType());
    for (Value *C : Operand(D.Value).Comps) {
      Value *Ref = G.broadcastLane(C, G.First);
      Value *Ne = C->getType()->isFPOrFPVectorTy() ? B.CreateFCmpUNE(C, Ref)
                                                   : B.CreateICmpNE(C, Ref);
      Diff = B.CreateOr(Diff, Ne);
    }
    R.Comps.push_back(
        G.splat(B.CreateNot(anyLane(B.CreateAnd(Mask, Diff)), "sg.alleq")));
    break;
  }
  case SubgroupOpKind::Broadcast: {
    LaneValue X = Operand(D.Value);
    Value *Lane = G.First;
    if (D.Lane == LaneSource::Index) {
      // The id is dynamically uniform: read it from the first active lane.
      LaneValue Ix = get(D.Index);
      Value *L = Ix.Comps[0];
      if (Ix.Varying)
        L = B.CreateExtractElement(L, G.First);
      Lane = B.CreateAnd(B.CreateZExtOrTrunc(L, I32), B.getInt32(W - 1));
    }
    for (Value *C : X.Comps)
      R.Comps.push_back(G.broadcastLane(C, Lane));
    break;
  }
  case SubgroupOpKind::Ballot: {
    Value *P = B.CreateAnd(Mask, Operand(D.Value).Comps[0]);
    Value *Word = B.CreateZExtOrTrunc(B.CreateBitCast(P, B.getIntNTy(W)), I32,
                                      "sg.ballot");
    R.Comps.push_back(G.splat(Word));
    for (unsigned C = 1; C < 4; ++C)
      R.Comps.push_back(G.splatI32(0));
    break;
  }
  case SubgroupOpKind::InverseBallot: {
    Value *Word = G.toI32(Operand(D.Value).Comps[0]);
    R.Comps.push_back(B.CreateICmpNE(
        B.CreateAnd(B.CreateLShr(Word, G.Lanes), G.splatI32(1)),
        G.splatI32(0)));
    break;
  }
  case SubgroupOpKind::BallotBitExtract: {
    LaneValue V = Operand(D.Value);
    Value *Ix = G.toI32(Operand(D.Index).Comps[0]);
    Value *WordIx = B.CreateLShr(Ix, G.splatI32(5));
    Value *Word = G.toI32(V.Comps[0]);
    for (unsigned C = 1; C < 4 && C < V.Comps.size(); ++C)
      Word = B.CreateSelect(B.CreateICmpEQ(WordIx, G.splatI32(C)),
                            G.toI32(V.Comps[C]), Word);
    Value *Bit = B.CreateLShr(Word, B.CreateAnd(Ix, G.splatI32(31)));
    R.Comps.push_back(
        B.CreateICmpNE(B.CreateAnd(Bit, G.splatI32(1)), G.splatI32(0)));
    break;
  }
  case SubgroupOpKind::BallotBitCount: {
    Value *Word = G.ballotWord(Operand(D.Value));
    if (D.GroupOp != GroupOpKind::Reduce) {
      // Bits at or below (inclusive) or below (exclusive) each lane.
      Value *Ones = B.CreateShl(
          G.splatI32(D.GroupOp == GroupOpKind::InclusiveScan ? 2 : 1),
          G.Lanes);
      Word = B.CreateAnd(Word, B.CreateSub(Ones, G.splatI32(1)));
    }
    R.Comps.push_back(B.CreateUnaryIntrinsic(Intrinsic::ctpop, Word));
    break;
  }
  case SubgroupOpKind::BallotFindLSB:
    R.Comps.push_back(B.CreateBinaryIntrinsic(
        Intrinsic::cttz, G.ballotWord(Operand(D.Value)), B.getFalse()));
    break;
  case SubgroupOpKind::BallotFindMSB:
    R.Comps.push_back(B.CreateSub(
        G.splatI32(31),
        B.CreateBinaryIntrinsic(Intrinsic::ctlz,
                                G.ballotWord(Operand(D.Value)), B.getFalse())));
    break;
  case SubgroupOpKind::Shuffle: {
    LaneValue X = Operand(D.Value);
    Value *Src = G.shuffleSource(D.Lane, G.toI32(Operand(D.Index).Comps[0]));
    for (Value *C : X.Comps)
      R.Comps.push_back(G.permute(C, Src));
    break;
  }
  case SubgroupOpKind::Arithmetic: {
    unsigned Cluster = D.ClusterSize ? std::min(D.ClusterSize, W) : W;
    for (Value *C : Operand(D.Value).Comps)
      R.Comps.push_back(G.arithmetic(D.Combine, D.GroupOp, Cluster, C));
    break;
  }
  case SubgroupOpKind::None:
    return false;
  }
  if (R.Comps.size() != RC.size()) {
    failAt(I, "operands do not match the result type");
    return true;
  }
  set(Id, coerce(std::move(R), isVarying(Id)));
  return true;
}

} // namespace spirv2llvm::simd
