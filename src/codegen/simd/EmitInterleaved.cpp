//===- EmitInterleaved.cpp - Lane-strided buffer accesses as wide ones ----===//
//
// When each lane accesses a whole vec4 (or struct of same-typed scalars)
// and consecutive lanes' values are consecutive in memory (dst[i] = vec4(..)
// with i = base + lane), the offsets are base + lane * Stride with Stride
// the size of the value. Per scalar that is a gather or scatter of W
// elements Stride bytes apart; together the scalars cover the W * Stride
// bytes from base. So the access is one masked vector load or store of
// W * Stride / size-of-scalar elements, with a shuffle that de-interleaves
// (loads) or interleaves (stores) the components. Masked-off lanes and
// padding between the scalars stay untouched, as with the gathers.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

#include "llvm/Analysis/VectorUtils.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;

namespace {
/// For A/B measurements (s2l-bench accepts it): the gathers and scatters.
llvm::cl::opt<bool> NoInterleaved(
    "s2l-no-interleaved-access", llvm::cl::Hidden,
    llvm::cl::desc("access lane-strided vectors with gathers and scatters"));

/// More elements than this per lane or in all, or fewer than half of them
/// used, and the gathers are cheaper than moving (and shuffling) the whole
/// span: 64 is four 512-bit registers of floats.
constexpr unsigned MaxElemsPerLane = 16;
constexpr unsigned MaxElems = 64;
} // namespace

std::optional<SimdEmitter::InterleavedAccess>
SimdEmitter::interleavedAccess(const PointerValue &P,
                               const std::vector<ScalarSlot> &Slots) {
  if (NoInterleaved || Slots.size() < 2 || isPerInvocationStorage(P.Storage) ||
      !P.offsetVarying() || P.LaneBase)
    return std::nullopt;
  std::optional<AffineInfo> Af = offsetAffine(P);
  if (!Af || Af->Stride <= 0)
    return std::nullopt;
  auto MemTypeOf = [&](const ScalarType &T) {
    return T.Kind == ScalarKind::Bool ? B.getInt32Ty() : scalarType(T);
  };
  InterleavedAccess IA;
  IA.MemT = MemTypeOf(Slots[0].Type);
  uint64_t Bytes = Slots[0].Type.bytes();
  uint64_t Stride = uint64_t(Af->Stride);
  if (!Bytes || Stride % Bytes || Stride / Bytes > MaxElemsPerLane ||
      W * (Stride / Bytes) > MaxElems || Slots.size() * 2 < Stride / Bytes)
    return std::nullopt;
  IA.PerLane = unsigned(Stride / Bytes);
  SmallVector<bool, 16> Used(IA.PerLane, false);
  for (const ScalarSlot &S : Slots) {
    if (MemTypeOf(S.Type) != IA.MemT || S.Type.bytes() != Bytes ||
        S.Offset % Bytes || S.Offset / Bytes >= IA.PerLane ||
        Used[S.Offset / Bytes])
      return std::nullopt;
    Used[S.Offset / Bytes] = true;
    IA.Position.push_back(unsigned(S.Offset / Bytes));
  }
  IA.Addr = B.CreateGEP(B.getInt8Ty(), P.Base, Af->Base);
  IA.Align = Align(Bytes);
  return IA;
}

Value *SimdEmitter::interleavedMask(const InterleavedAccess &IA,
                                    ArrayRef<Value *> SlotMasks) {
  // Element j of the wide access belongs to lane j / PerLane and to the
  // scalar at position j % PerLane, if any (else it is padding: off).
  unsigned N = W * IA.PerLane;
  bool Same = llvm::all_of(SlotMasks,
                           [&](Value *M) { return M == SlotMasks[0]; });
  SmallVector<int, 64> Owner(IA.PerLane, -1);
  for (size_t K = 0; K < IA.Position.size(); ++K)
    Owner[IA.Position[K]] = int(K);
  Value *Off = Constant::getNullValue(maskType());
  SmallVector<Value *, 8> Parts;
  if (Same)
    Parts = {SlotMasks[0]};
  else
    Parts.assign(SlotMasks.begin(), SlotMasks.end());
  unsigned ZeroAt = unsigned(Parts.size()) * W;
  Parts.push_back(Off);
  Value *All = concatenateVectors(B, Parts);
  SmallVector<int, 64> Idx(N);
  for (unsigned J = 0; J < N; ++J) {
    int K = Owner[J % IA.PerLane];
    Idx[J] = K < 0 ? int(ZeroAt) : int((Same ? 0 : K) * W + J / IA.PerLane);
  }
  return B.CreateShuffleVector(All, Idx, "wide.mask");
}

SmallVector<Value *, 4>
SimdEmitter::loadInterleaved(const InterleavedAccess &IA,
                             ArrayRef<Value *> SlotMasks) {
  unsigned N = W * IA.PerLane;
  auto *VT = FixedVectorType::get(IA.MemT, N);
  Value *Wide = B.CreateMaskedLoad(VT, IA.Addr, IA.Align,
                                   interleavedMask(IA, SlotMasks),
                                   Constant::getNullValue(VT), "wide");
  SmallVector<Value *, 4> Comps;
  for (unsigned Pos : IA.Position) {
    SmallVector<int, 16> Idx;
    for (unsigned L = 0; L < W; ++L)
      Idx.push_back(int(L * IA.PerLane + Pos));
    Comps.push_back(B.CreateShuffleVector(Wide, Idx));
  }
  return Comps;
}

void SimdEmitter::storeInterleaved(const InterleavedAccess &IA,
                                   ArrayRef<Value *> Comps,
                                   ArrayRef<Value *> SlotMasks) {
  unsigned N = W * IA.PerLane;
  Value *All = concatenateVectors(B, Comps);
  SmallVector<int, 64> Owner(IA.PerLane, -1);
  for (size_t K = 0; K < IA.Position.size(); ++K)
    Owner[IA.Position[K]] = int(K);
  SmallVector<int, 64> Idx(N);
  for (unsigned J = 0; J < N; ++J) {
    int K = Owner[J % IA.PerLane];
    Idx[J] = K < 0 ? PoisonMaskElem : int(K * W + J / IA.PerLane);
  }
  Value *Wide = B.CreateShuffleVector(All, Idx, "wide");
  B.CreateMaskedStore(Wide, IA.Addr, IA.Align,
                      interleavedMask(IA, SlotMasks));
}

} // namespace spirv2llvm::simd
