//===- MathBuilder.h - Type-generic GLSL.std.450 math helpers ---*- C++ -*-===//
//
// Shared by the SIMD and the one-invocation back ends: every helper works on
// a scalar or on any fixed vector of that scalar (a SIMD lane vector <W x T>
// or a SPIR-V vector <N x T>), since it only uses type-generic IRBuilder
// calls and overloaded intrinsics.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_MATHBUILDER_H
#define SPIRV2LLVM_CODEGEN_MATHBUILDER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

namespace spirv2llvm {
namespace mathbuilder_detail {
using namespace llvm;
// LLVM's, not the parser's.
using llvm::Constant;
using llvm::Type;

/// Math on one value type: a scalar, <W x T> SIMD lanes or a SPIR-V vector
/// <N x T>; every operation takes and returns values of that type.
class MathBuilder {
public:
  MathBuilder(IRBuilder<> &B, llvm::Module &LM) : B(B), LM(LM) {}

  Value *fconst(Type *T, double V) { return ConstantFP::get(T, V); }
  Value *iconst(Type *T, int64_t V) {
    return ConstantInt::get(T, uint64_t(V), /*IsSigned=*/true);
  }
  Value *unary(Intrinsic::ID IID, Value *X) {
    return B.CreateUnaryIntrinsic(IID, X);
  }
  Value *binary(Intrinsic::ID IID, Value *X, Value *Y) {
    return B.CreateBinaryIntrinsic(IID, X, Y);
  }
  Value *fma(Value *X, Value *Y, Value *Z) {
    return B.CreateIntrinsic(Intrinsic::fma, {X->getType()}, {X, Y, Z});
  }
  Value *fmin(Value *X, Value *Y) { return binary(Intrinsic::minnum, X, Y); }
  Value *fmax(Value *X, Value *Y) { return binary(Intrinsic::maxnum, X, Y); }
  Value *fclamp(Value *X, Value *Lo, Value *Hi) {
    return fmin(fmax(X, Lo), Hi);
  }

  /// libm's \p Name (the double version; "f" is appended for float) on
  /// every lane. libm has no vector entry points, so a vector becomes one
  /// call per lane.
  Value *libm(StringRef Name, ArrayRef<Value *> Args) {
    Type *T = Args[0]->getType();
    Type *ET = T->getScalarType();
    std::string Symbol = (Name + (ET->isFloatTy() ? "f" : "")).str();
    SmallVector<Type *, 2> Params(Args.size(), ET);
    FunctionCallee F =
        LM.getOrInsertFunction(Symbol, FunctionType::get(ET, Params, false));
    if (auto *Fn = dyn_cast<llvm::Function>(F.getCallee())) {
      // Only errno is written, which no shader can observe.
      Fn->setDoesNotThrow();
      Fn->setWillReturn();
      Fn->setDoesNotAccessMemory();
    }
    auto *VT = dyn_cast<FixedVectorType>(T);
    if (!VT)
      return B.CreateCall(F, Args);
    Value *R = PoisonValue::get(T);
    for (unsigned L = 0; L < VT->getNumElements(); ++L) {
      SmallVector<Value *, 2> LaneArgs;
      for (Value *A : Args)
        LaneArgs.push_back(B.CreateExtractElement(A, uint64_t(L)));
      R = B.CreateInsertElement(R, B.CreateCall(F, LaneArgs), uint64_t(L));
    }
    return R;
  }

  /// \p F applied to \p Args, computed in float when they are half: libm
  /// has no half functions, and float rounded to half is more precise
  /// than Vulkan asks of 16-bit transcendental functions.
  Value *viaFloat(ArrayRef<Value *> Args,
                  function_ref<Value *(ArrayRef<Value *>)> F) {
    Type *T = Args[0]->getType();
    if (!T->getScalarType()->isHalfTy())
      return F(Args);
    Type *FT = T->getWithNewType(B.getFloatTy());
    SmallVector<Value *, 3> Ext;
    for (Value *A : Args)
      Ext.push_back(B.CreateFPExt(A, FT));
    return B.CreateFPTrunc(F(Ext), T);
  }

  /// Integer type of the same width and shape as the float type \p T.
  Type *bitsType(Type *T) {
    return T->getWithNewType(
        B.getIntNTy(T->getScalarType()->getPrimitiveSizeInBits()));
  }

  /// 2^K for integer K (of bitsType(T)) in the normal range of \p T.
  Value *pow2(Type *T, Value *K) {
    const fltSemantics &S = T->getScalarType()->getFltSemantics();
    unsigned Mant = APFloat::semanticsPrecision(S) - 1;
    int Bias = -APFloat::semanticsMinExponent(S) + 1;
    Type *IT = bitsType(T);
    Value *E = B.CreateAdd(K, iconst(IT, Bias));
    return B.CreateBitCast(B.CreateShl(E, iconst(IT, Mant)), T);
  }

  /// x * 2^E: exact for normal results (a denormal one may be rounded
  /// twice, which Vulkan allows as it may even flush it). E is clamped to
  /// the range in which the result can still be finite and nonzero, then
  /// applied in three steps that each stay in the normal exponent range;
  /// no libm call, so vectors stay vectors.
  Value *ldexp(Value *X, Value *E) {
    Type *T = X->getType();
    const fltSemantics &S = T->getScalarType()->getFltSemantics();
    int Mant = int(APFloat::semanticsPrecision(S)) - 1;
    int Bias = -APFloat::semanticsMinExponent(S) + 1;
    int64_t Limit = 2 * Bias + Mant + 2;
    Type *I32 = T->getWithNewType(B.getInt32Ty());
    Type *ET = E->getType();
    if (ET->getScalarSizeInBits() > 32) {
      E = B.CreateBinaryIntrinsic(Intrinsic::smin, E, iconst(ET, Limit));
      E = B.CreateBinaryIntrinsic(Intrinsic::smax, E, iconst(ET, -Limit));
      E = B.CreateTrunc(E, I32);
    } else {
      E = B.CreateSExt(E, I32);
      E = B.CreateBinaryIntrinsic(Intrinsic::smin, E, iconst(I32, Limit));
      E = B.CreateBinaryIntrinsic(Intrinsic::smax, E, iconst(I32, -Limit));
    }
    Value *E1 = B.CreateSDiv(E, iconst(I32, 3));
    Value *Rest = B.CreateSub(E, E1);
    Value *E2 = B.CreateSDiv(Rest, iconst(I32, 2));
    Value *E3 = B.CreateSub(Rest, E2);
    Type *IT = bitsType(T);
    Value *R = X;
    for (Value *K : {E1, E2, E3})
      R = B.CreateFMul(R, pow2(T, B.CreateSExtOrTrunc(K, IT)));
    return R;
  }

  /// frexp: a mantissa with magnitude in [0.5, 1) and the exponent, in
  /// bitsType(T). 0, +-Inf and NaN give x and 0; denormals are scaled into
  /// the normal range first.
  std::pair<Value *, Value *> frexp(Value *X) {
    Type *T = X->getType();
    const fltSemantics &S = T->getScalarType()->getFltSemantics();
    int Mant = int(APFloat::semanticsPrecision(S)) - 1;
    int Bias = -APFloat::semanticsMinExponent(S) + 1;
    int ExpBits = int(T->getScalarSizeInBits()) - 1 - Mant;
    Type *IT = bitsType(T);
    Value *Abs = unary(Intrinsic::fabs, X);
    Value *Special =
        B.CreateOr(B.CreateFCmpUEQ(X, fconst(T, 0.0)),
                   B.CreateFCmpOEQ(Abs, ConstantFP::getInfinity(T)));
    Value *Denormal = B.CreateFCmpOLT(
        Abs, ConstantFP::get(T, APFloat::getSmallestNormalized(S)));
    Value *Scaled = B.CreateSelect(
        Denormal, B.CreateFMul(X, pow2(T, iconst(IT, Mant + 1))), X);
    Value *Bits = B.CreateBitCast(Scaled, IT);
    Value *Field = B.CreateAnd(B.CreateLShr(Bits, iconst(IT, Mant)),
                               iconst(IT, (int64_t(1) << ExpBits) - 1));
    Value *Exp = B.CreateSub(Field, iconst(IT, Bias - 1));
    Exp = B.CreateSelect(Denormal, B.CreateSub(Exp, iconst(IT, Mant + 1)), Exp);
    APInt FieldMask =
        APInt::getBitsSet(T->getScalarSizeInBits(), Mant, Mant + ExpBits);
    Value *MantBits =
        B.CreateOr(B.CreateAnd(Bits, ConstantInt::get(IT, ~FieldMask)),
                   iconst(IT, int64_t(Bias - 1) << Mant));
    Value *M = B.CreateBitCast(MantBits, T);
    return {B.CreateSelect(Special, X, M),
            B.CreateSelect(Special, Constant::getNullValue(IT), Exp)};
  }

  /// GLSL.std.450 Modf: {fraction, whole number}. Both parts keep x's
  /// sign; an infinity splits into +-Inf and +-0.
  std::pair<Value *, Value *> modf(Value *X) {
    Type *T = X->getType();
    Value *Whole = unary(Intrinsic::trunc, X);
    Value *IsInf = B.CreateFCmpOEQ(unary(Intrinsic::fabs, X),
                                   ConstantFP::getInfinity(T));
    Value *Frac = B.CreateSelect(IsInf, fconst(T, 0.0), B.CreateFSub(X, Whole));
    return {binary(Intrinsic::copysign, Frac, X), Whole};
  }

  /// Sum of the products of \p X and \p Y, in component order (as OpDot).
  Value *dot(ArrayRef<Value *> X, ArrayRef<Value *> Y) {
    Value *Sum = nullptr;
    for (size_t C = 0; C < X.size(); ++C) {
      Value *P = B.CreateFMul(X[C], Y[C]);
      Sum = Sum ? B.CreateFAdd(Sum, P) : P;
    }
    return Sum;
  }

  Value *length(ArrayRef<Value *> X) {
    // A scalar's length is exact; the vector formula would overflow.
    if (X.size() == 1)
      return unary(Intrinsic::fabs, X[0]);
    return unary(Intrinsic::sqrt, dot(X, X));
  }

  /// Determinant of the N x N matrix A (A[R * N + C] is row R, column C),
  /// by Laplace expansion along row 0. N is at most 4.
  Value *determinant(ArrayRef<Value *> A, unsigned N) {
    if (N == 1)
      return A[0];
    if (N == 2)
      return B.CreateFSub(B.CreateFMul(A[0], A[3]), B.CreateFMul(A[1], A[2]));
    Value *Sum = nullptr;
    for (unsigned C = 0; C < N; ++C) {
      Value *Term = B.CreateFMul(A[C], determinant(minor(A, N, 0, C), N - 1));
      Sum = !Sum    ? Term
            : C % 2 ? B.CreateFSub(Sum, Term)
                    : B.CreateFAdd(Sum, Term);
    }
    return Sum;
  }

  /// The cofactor (-1)^(R+C) * det(minor(R, C)) of A.
  Value *cofactor(ArrayRef<Value *> A, unsigned N, unsigned R, unsigned C) {
    Value *D = determinant(minor(A, N, R, C), N - 1);
    return (R + C) % 2 ? B.CreateFNeg(D) : D;
  }

  /// GLSL.std.450 Determinant (one value) or MatrixInverse (N * N values)
  /// of the N x N matrix \p Cols, column-major (column C, row R at
  /// C * N + R), as is the result. Half matrices are computed in float and
  /// rounded once at the end: rounding every product of the cofactor
  /// expansion to half loses more than the precision Vulkan requires (the
  /// CTS's fp16 inverse test).
  SmallVector<Value *, 16> determinantOrInverse(ArrayRef<Value *> Cols,
                                                unsigned N, bool Inverse) {
    SmallVector<Value *, 16> A(N * N); // row-major
    for (unsigned R = 0; R < N; ++R)
      for (unsigned C = 0; C < N; ++C)
        A[R * N + C] = Cols[C * N + R];
    Type *Orig = A[0]->getType();
    bool Widen = Orig->getScalarType()->isHalfTy();
    if (Widen)
      for (Value *&V : A)
        V = B.CreateFPExt(V, Orig->getWithNewType(B.getFloatTy()));
    SmallVector<Value *, 16> Out;
    if (!Inverse) {
      Out.push_back(determinant(A, N));
    } else {
      // inverse = adjugate / det; the adjugate is the transposed cofactors.
      SmallVector<Value *, 4> Row0;
      Value *Det = nullptr;
      for (unsigned C = 0; C < N; ++C) {
        Value *Cof = cofactor(A, N, 0, C);
        Row0.push_back(Cof);
        Value *Term = B.CreateFMul(A[C], Cof);
        Det = Det ? B.CreateFAdd(Det, Term) : Term;
      }
      Out.resize(N * N);
      for (unsigned R = 0; R < N; ++R)
        for (unsigned C = 0; C < N; ++C) {
          // Result column C, row R is cofactor (C, R) over det.
          Value *Cof = C == 0 ? Row0[R] : cofactor(A, N, C, R);
          Out[C * N + R] = B.CreateFDiv(Cof, Det);
        }
    }
    if (Widen)
      for (Value *&V : Out)
        V = B.CreateFPTrunc(V, Orig);
    return Out;
  }

  /// GLSL.std.450 FindILsb (\p Msb false) or FindSMsb / FindUMsb: the bit
  /// index in \p X's type, -1 where there is none.
  Value *findBit(Value *X, bool Msb, bool Signed) {
    Type *T = X->getType();
    unsigned Bits = T->getScalarSizeInBits();
    if (!Msb) {
      // cttz(0) is the width; FindILsb(0) is -1.
      Value *R = B.CreateBinaryIntrinsic(Intrinsic::cttz, X, B.getFalse());
      return B.CreateSelect(B.CreateICmpEQ(X, Constant::getNullValue(T)),
                            Constant::getAllOnesValue(T), R);
    }
    // The most significant bit that differs from the sign bit: a negative
    // value is complemented first. width - 1 - ctlz gives -1 for 0 (and for
    // -1 in the signed case).
    if (Signed)
      X = B.CreateSelect(B.CreateICmpSLT(X, Constant::getNullValue(T)),
                         B.CreateNot(X), X);
    return B.CreateSub(iconst(T, Bits - 1),
                       B.CreateBinaryIntrinsic(Intrinsic::ctlz, X,
                                               B.getFalse()));
  }

  /// OpQuantizeToF16: \p X rounded to half precision and back. Too large
  /// a magnitude gives an infinity; a result too small for a normal half
  /// is +0 (SPIR-V allows either zero, not a half denormal; +0 as
  /// lavapipe), and zeros keep their sign.
  Value *quantizeToF16(Value *X) {
    Type *T = X->getType();
    Value *R = B.CreateFPExt(
        B.CreateFPTrunc(X, T->getWithNewType(B.getHalfTy())), T);
    Value *Abs = unary(Intrinsic::fabs, R);
    Value *Denormal = B.CreateAnd(B.CreateFCmpOLT(Abs, fconst(T, 0x1p-14)),
                                  B.CreateFCmpONE(Abs, fconst(T, 0.0)));
    return B.CreateSelect(Denormal, fconst(T, 0.0), R);
  }

  /// GLSL.std.450 Pack{S,U}norm4x8, Pack{S,U}norm2x16 and PackHalf2x16
  /// (\p Snorm / \p Half say which; \p Bits is 8 or 16): the 32-bit
  /// components \p X, one value each (all of one type), packed into values
  /// of the integer type \p IntT, component 0 in the low bits.
  Value *packComponents(ArrayRef<Value *> X, Type *IntT, unsigned Bits,
                        bool Snorm, bool Half) {
    double Scale = double((1u << (Bits - Snorm)) - 1);
    Value *Packed = nullptr;
    for (unsigned C = 0; C < X.size(); ++C) {
      Value *V = X[C];
      Type *FT = V->getType();
      Value *Part;
      if (Half) {
        Part = B.CreateBitCast(
            B.CreateFPTrunc(V, FT->getWithNewType(B.getHalfTy())),
            FT->getWithNewType(B.getInt16Ty()));
        Part = B.CreateZExt(Part, IntT);
      } else {
        // round(clamp(v, lo, 1) * scale); the clamp also turns NaN into lo,
        // so the conversion is always defined.
        V = fclamp(V, fconst(FT, Snorm ? -1.0 : 0.0), fconst(FT, 1.0));
        V = unary(Intrinsic::roundeven, B.CreateFMul(V, fconst(FT, Scale)));
        Part = B.CreateFPToSI(V, IntT);
        Part = B.CreateAnd(Part, iconst(IntT, (int64_t(1) << Bits) - 1));
      }
      if (C)
        Part = B.CreateShl(Part, iconst(IntT, C * Bits));
      Packed = Packed ? B.CreateOr(Packed, Part) : Part;
    }
    return Packed;
  }

  /// The inverse of packComponents: \p N components of the float type
  /// \p FloatT from the 32-bit integers \p X.
  SmallVector<Value *, 4> unpackComponents(Value *X, Type *FloatT, unsigned N,
                                           unsigned Bits, bool Snorm,
                                           bool Half) {
    double Scale = double((1u << (Bits - Snorm)) - 1);
    Type *PartT = X->getType()->getWithNewType(B.getIntNTy(Bits));
    SmallVector<Value *, 4> Out;
    for (unsigned C = 0; C < N; ++C) {
      Value *Part = B.CreateTrunc(
          C ? B.CreateLShr(X, iconst(X->getType(), C * Bits)) : X, PartT);
      Value *V;
      if (Half) {
        V = B.CreateFPExt(
            B.CreateBitCast(Part, PartT->getWithNewType(B.getHalfTy())),
            FloatT);
      } else if (Snorm) {
        // -128 / 127 is below -1: clamp.
        V = B.CreateFDiv(B.CreateSIToFP(Part, FloatT), fconst(FloatT, Scale));
        V = fmax(V, fconst(FloatT, -1.0));
      } else {
        V = B.CreateFDiv(B.CreateUIToFP(Part, FloatT), fconst(FloatT, Scale));
      }
      Out.push_back(V);
    }
    return Out;
  }

private:
  static SmallVector<Value *, 16> minor(ArrayRef<Value *> A, unsigned N,
                                        unsigned SkipR, unsigned SkipC) {
    SmallVector<Value *, 16> Out;
    for (unsigned R = 0; R < N; ++R)
      for (unsigned C = 0; C < N; ++C)
        if (R != SkipR && C != SkipC)
          Out.push_back(A[R * N + C]);
    return Out;
  }

  IRBuilder<> &B;
  llvm::Module &LM;
};

} // namespace mathbuilder_detail
using mathbuilder_detail::MathBuilder;
} // namespace spirv2llvm

#endif
