//===- EmitDerivative.cpp - OpDPdx, OpDPdy, OpFwidth and variants ---------===//
//
// A fragment group's lanes are 2x2 quads: lane 4q + i is pixel
// (x0 + (i & 1), y0 + (i >> 1)) of quad q (docs/abi.md), the layout the Quad
// subgroup operations assume too. A derivative is a difference within the
// quad: x between the lanes of a row, y between the lanes of a column.
// Fine derivatives use the lane's own row or column; coarse ones the quad's
// first row or column for all four lanes (Vulkan allows either for the
// unsuffixed forms; like most drivers the opcode table takes fine). Inactive and demoted
// lanes still compute their values, so neighbours' derivatives are defined
// whenever the caller fills the whole quad.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"
#include "parser/OpcodeTable.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

bool SimdEmitter::emitDerivative(const Instruction &I) {
  // The difference and the quad lanes it reads (DerivativeKind, QuadRows
  // in the opcode table).
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  if (Info.Derivative == DerivativeKind::None)
    return false;
  bool Coarse = Info.Quad == QuadRows::Coarse;
  if (EP.Model != spv::ExecutionModel::Fragment) {
    failAt(I, "unsupported: derivatives outside fragment shaders");
    return true;
  }
  // Lane indices of the two ends of each lane's difference.
  auto Diff = [&](Value *V, DerivativeKind D) -> Value * {
    if (!V->getType()->isVectorTy())
      return Constant::getNullValue(V->getType());
    unsigned Bit = D == DerivativeKind::X ? 1 : 2;
    SmallVector<int, 16> Hi, Lo;
    for (unsigned L = 0; L < W; ++L) {
      // Coarse: the quad's first row (x) or column (y).
      unsigned Base = Coarse ? (L & ~3u) : L;
      Hi.push_back(int(Base | Bit));
      Lo.push_back(int(Base & ~Bit));
    }
    return B.CreateFSub(B.CreateShuffleVector(V, Hi),
                        B.CreateShuffleVector(V, Lo));
  };
  LaneValue P = get(I.Operands[0]);
  LaneValue R;
  R.Varying = true;
  for (Value *C : P.Comps) {
    C = splat(C);
    Value *Out;
    if (Info.Derivative == DerivativeKind::Width) {
      Out = B.CreateFAdd(
          B.CreateUnaryIntrinsic(Intrinsic::fabs, Diff(C, DerivativeKind::X)),
          B.CreateUnaryIntrinsic(Intrinsic::fabs, Diff(C, DerivativeKind::Y)));
    } else {
      Out = Diff(C, Info.Derivative);
    }
    R.Comps.push_back(Out);
  }
  set(I.Result.value(), std::move(R));
  return true;
}

} // namespace spirv2llvm::simd
