//===- GlslComponentWise.cpp - Component-wise GLSL.std.450 ----------------===//
#include "codegen/common/GlslComponentWise.h"

#include "parser/OpcodeTable.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <iterator>

#include <numbers>

using namespace llvm;

namespace spirv2llvm {

using llvm::Type;

GlslComponentOp glslComponentOp(IRBuilder<> &B, MathBuilder &MB,
                                uint32_t Inst) {
  GlslComponentOp R;
  auto &Map = R.Map;
  bool &FloatOp = R.FloatOp, &Transcendental = R.Transcendental;
  auto Un = [&](Intrinsic::ID IID) {
    Map = [&MB, IID](ArrayRef<Value *> A) { return MB.unary(IID, A[0]); };
  };
  auto Bin = [&](Intrinsic::ID IID) {
    Map = [&MB, IID](ArrayRef<Value *> A) {
      return MB.binary(IID, A[0], A[1]);
    };
  };
  auto Lib = [&](StringRef Sym) {
    Map = [&MB, Sym](ArrayRef<Value *> A) { return MB.libm(Sym, A); };
    Transcendental = true;
  };
  auto IntBin = [&](Intrinsic::ID IID) {
    Bin(IID);
    FloatOp = false;
  };
  auto IntClamp = [&](Intrinsic::ID Max, Intrinsic::ID Min) {
    Map = [&MB, Max, Min](ArrayRef<Value *> A) {
      return MB.binary(Min, MB.binary(Max, A[0], A[1]), A[2]);
    };
    FloatOp = false;
  };
  // One line per simple case: the switch reads as a table.
  // clang-format off
  switch (Inst) {
  case GLSLstd450Round: Un(Intrinsic::round); break;
  case GLSLstd450RoundEven: Un(Intrinsic::roundeven); break;
  case GLSLstd450Trunc: Un(Intrinsic::trunc); break;
  case GLSLstd450FAbs: Un(Intrinsic::fabs); break;
  case GLSLstd450Floor: Un(Intrinsic::floor); break;
  case GLSLstd450Ceil: Un(Intrinsic::ceil); break;
  case GLSLstd450SAbs:
    // abs(INT_MIN) is INT_MIN, not poison.
    Map = [&](ArrayRef<Value *> A) {
      return B.CreateBinaryIntrinsic(Intrinsic::abs, A[0], B.getFalse());
    };
    FloatOp = false;
    break;
  case GLSLstd450SSign:
    Map = [&](ArrayRef<Value *> A) {
      Type *T = A[0]->getType();
      return MB.binary(Intrinsic::smin,
                       MB.binary(Intrinsic::smax, A[0], MB.iconst(T, -1)),
                       MB.iconst(T, 1));
    };
    FloatOp = false;
    break;
  case GLSLstd450FSign:
    // +-0 and NaN come back unchanged.
    Map = [&](ArrayRef<Value *> A) {
      Type *T = A[0]->getType();
      Value *Neg = B.CreateSelect(B.CreateFCmpOLT(A[0], MB.fconst(T, 0.0)),
                                  MB.fconst(T, -1.0), A[0]);
      return B.CreateSelect(B.CreateFCmpOGT(A[0], MB.fconst(T, 0.0)),
                            MB.fconst(T, 1.0), Neg);
    };
    break;
  case GLSLstd450Fract:
    // The definition, x - floor(x): 1.0 for tiny negative x, NaN for Inf.
    Map = [&](ArrayRef<Value *> A) {
      return B.CreateFSub(A[0], MB.unary(Intrinsic::floor, A[0]));
    };
    break;
  case GLSLstd450Radians:
  case GLSLstd450Degrees: {
    double K = Inst == GLSLstd450Radians ? std::numbers::pi / 180.0
                                         : 180.0 / std::numbers::pi;
    Map = [&, K](ArrayRef<Value *> A) {
      return B.CreateFMul(A[0], MB.fconst(A[0]->getType(), K));
    };
    break;
  }
  case GLSLstd450Sin: Un(Intrinsic::sin); Transcendental = true; break;
  case GLSLstd450Cos: Un(Intrinsic::cos); Transcendental = true; break;
  case GLSLstd450Tan: Un(Intrinsic::tan); Transcendental = true; break;
  case GLSLstd450Asin: Un(Intrinsic::asin); Transcendental = true; break;
  case GLSLstd450Acos: Un(Intrinsic::acos); Transcendental = true; break;
  case GLSLstd450Atan: Un(Intrinsic::atan); Transcendental = true; break;
  case GLSLstd450Sinh: Un(Intrinsic::sinh); Transcendental = true; break;
  case GLSLstd450Cosh: Un(Intrinsic::cosh); Transcendental = true; break;
  case GLSLstd450Tanh: Un(Intrinsic::tanh); Transcendental = true; break;
  case GLSLstd450Asinh: Lib("asinh"); break;
  case GLSLstd450Acosh: Lib("acosh"); break;
  case GLSLstd450Atanh: Lib("atanh"); break;
  case GLSLstd450Atan2: Lib("atan2"); break;
  case GLSLstd450Pow: Bin(Intrinsic::pow); Transcendental = true; break;
  case GLSLstd450Exp: Un(Intrinsic::exp); Transcendental = true; break;
  case GLSLstd450Log: Un(Intrinsic::log); Transcendental = true; break;
  case GLSLstd450Exp2: Un(Intrinsic::exp2); Transcendental = true; break;
  case GLSLstd450Log2: Un(Intrinsic::log2); Transcendental = true; break;
  case GLSLstd450Sqrt: Un(Intrinsic::sqrt); break;
  case GLSLstd450InverseSqrt:
    Map = [&](ArrayRef<Value *> A) {
      return B.CreateFDiv(MB.fconst(A[0]->getType(), 1.0),
                          MB.unary(Intrinsic::sqrt, A[0]));
    };
    break;
  case GLSLstd450FMin:
  case GLSLstd450NMin: Bin(Intrinsic::minnum); break;
  case GLSLstd450FMax:
  case GLSLstd450NMax: Bin(Intrinsic::maxnum); break;
  case GLSLstd450FClamp:
  case GLSLstd450NClamp:
    // maxnum(NaN, lo) is lo, which NClamp requires.
    Map = [&](ArrayRef<Value *> A) { return MB.fclamp(A[0], A[1], A[2]); };
    break;
  case GLSLstd450UMin: IntBin(Intrinsic::umin); break;
  case GLSLstd450SMin: IntBin(Intrinsic::smin); break;
  case GLSLstd450UMax: IntBin(Intrinsic::umax); break;
  case GLSLstd450SMax: IntBin(Intrinsic::smax); break;
  case GLSLstd450UClamp: IntClamp(Intrinsic::umax, Intrinsic::umin); break;
  case GLSLstd450SClamp: IntClamp(Intrinsic::smax, Intrinsic::smin); break;
  case GLSLstd450FMix:
    // x * (1 - a) + y * a, the definition: exact at a = 0 and a = 1.
    Map = [&](ArrayRef<Value *> A) {
      Value *OneMinusA = B.CreateFSub(MB.fconst(A[2]->getType(), 1.0), A[2]);
      return B.CreateFAdd(B.CreateFMul(A[0], OneMinusA),
                          B.CreateFMul(A[1], A[2]));
    };
    break;
  case GLSLstd450Step:
    Map = [&](ArrayRef<Value *> A) {
      Type *T = A[1]->getType();
      return B.CreateSelect(B.CreateFCmpOLT(A[1], A[0]), MB.fconst(T, 0.0),
                            MB.fconst(T, 1.0));
    };
    break;
  case GLSLstd450SmoothStep:
    Map = [&](ArrayRef<Value *> A) {
      Type *T = A[2]->getType();
      Value *X =
          B.CreateFDiv(B.CreateFSub(A[2], A[0]), B.CreateFSub(A[1], A[0]));
      X = MB.fclamp(X, MB.fconst(T, 0.0), MB.fconst(T, 1.0));
      Value *Poly =
          B.CreateFSub(MB.fconst(T, 3.0), B.CreateFMul(MB.fconst(T, 2.0), X));
      return B.CreateFMul(B.CreateFMul(X, X), Poly);
    };
    break;
  case GLSLstd450Fma:
    Map = [&](ArrayRef<Value *> A) { return MB.fma(A[0], A[1], A[2]); };
    break;
  default:
    break;
  }
  // clang-format on
  return R;
}

std::optional<GlslPacking> glslPacking(uint32_t Inst) {
  const GlslStd450Info &Info = glslStd450Info(Inst);
  if (Info.Form != GlslFormKind::Pack && Info.Form != GlslFormKind::Unpack)
    return std::nullopt;
  // {Count, Bits, Snorm, Half} in GlslPackingKind's order.
  static constexpr GlslPacking Encodings[] = {
      {},                          // None
      {true, 4, 8, true, false},   // Snorm4x8
      {true, 4, 8, false, false},  // Unorm4x8
      {true, 2, 16, true, false},  // Snorm2x16
      {true, 2, 16, false, false}, // Unorm2x16
      {true, 2, 16, false, true},  // Half2x16
  };
  static_assert(std::size(Encodings) == size_t(GlslPackingKind::Half2x16) + 1);
  GlslPacking P = Encodings[size_t(Info.Packing)];
  P.Pack = Info.Form == GlslFormKind::Pack;
  return P;
}

} // namespace spirv2llvm
