//===- EmitDerivative.cpp - OpDPdx, OpDPdy, OpFwidth and variants ---------===//
//
// A fragment group's lanes are 2x2 quads: lane 4q + i is pixel
// (x0 + (i & 1), y0 + (i >> 1)) of quad q (docs/abi.md), the layout the Quad
// subgroup operations assume too. A derivative is a difference within the
// quad: x between the lanes of a row, y between the lanes of a column.
// Fine derivatives use the lane's own row or column; coarse ones the quad's
// first row or column for all four lanes (Vulkan allows either for the
// unsuffixed forms; like most drivers we take fine). Inactive and demoted
// lanes still compute their values, so neighbours' derivatives are defined
// whenever the caller fills the whole quad.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

namespace {
enum class Axis { X, Y };
} // namespace

bool SimdEmitter::emitDerivative(const Instruction &I) {
  using spv::Op;
  bool Coarse = false, Width = false;
  Axis Dir = Axis::X;
  switch (I.Opcode) {
  case Op::OpDPdx:
  case Op::OpDPdxFine:
    break;
  case Op::OpDPdxCoarse:
    Coarse = true;
    break;
  case Op::OpDPdy:
  case Op::OpDPdyFine:
    Dir = Axis::Y;
    break;
  case Op::OpDPdyCoarse:
    Dir = Axis::Y;
    Coarse = true;
    break;
  case Op::OpFwidth:
  case Op::OpFwidthFine:
    Width = true;
    break;
  case Op::OpFwidthCoarse:
    Width = true;
    Coarse = true;
    break;
  default:
    return false;
  }
  if (EP.Model != spv::ExecutionModel::Fragment) {
    failAt(I, "unsupported: derivatives outside fragment shaders");
    return true;
  }
  // Lane indices of the two ends of each lane's difference.
  auto Diff = [&](Value *V, Axis D) -> Value * {
    if (!V->getType()->isVectorTy())
      return Constant::getNullValue(V->getType());
    unsigned Bit = D == Axis::X ? 1 : 2;
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
    if (Width) {
      Out = B.CreateFAdd(B.CreateUnaryIntrinsic(Intrinsic::fabs, Diff(C, Axis::X)),
                         B.CreateUnaryIntrinsic(Intrinsic::fabs, Diff(C, Axis::Y)));
    } else {
      Out = Diff(C, Dir);
    }
    R.Comps.push_back(Out);
  }
  set(I.Result.value(), std::move(R));
  return true;
}

} // namespace spirv2llvm::simd
