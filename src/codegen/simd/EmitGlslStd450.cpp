//===- EmitGlslStd450.cpp - The GLSL.std.450 extended instructions --------===//
//
// All 81 instructions of the set (IMix is reserved and rejected), for 16-,
// 32- and 64-bit floats and integers of any width, component by component
// over vectors. Like the core arithmetic, a component is a scalar when the
// result is Uniform and <W x T> when it is Varying.
//
// Where an LLVM intrinsic has the instruction's meaning it is used (the
// backend scalarizes vectors into libm calls where it has no vector code);
// asinh, acosh, atanh and atan2, which have no intrinsic in LLVM 19, are
// libm calls made once per lane. The JIT resolves libm from the process.
// 16-bit transcendental functions are computed in 32 bits and rounded,
// well inside Vulkan's 16-bit precision.
//
// Choices where the specification leaves room, and where this stops:
// - Round rounds halfway cases away from zero (llvm.round); the packing
//   instructions' round() rounds them to even, as GPUs do.
// - FMin/FMax/FClamp are NMin/NMax/NClamp (llvm.minnum/maxnum): with one
//   NaN operand the other is returned, which SPIR-V allows.
// - Frexp and Ldexp are exact bit manipulation, with no libm call and no
//   flushing of denormals; Frexp of 0, +-Inf or NaN returns x and 0.
// - Modf of +-Inf returns +-0 and +-Inf; both parts keep x's sign.
// - Length, Distance, Normalize and the matrix functions use the plain
//   formulas (sqrt(dot(x, x)), cofactors), so they overflow as those do;
//   Vulkan's precision for them is inherited from the formulas.
// - InterpolateAtCentroid/Sample/Offset return the input's value at the
//   invocation's own position: inputs are given per invocation, with no
//   interpolation state to evaluate elsewhere. (The parser does not accept
//   the InterpolationFunction capability yet.)
// - The uniformity analysis treats pointer operands as values: it does not
//   count Modf/Frexp as stores nor InterpolateAt* as loads. A Function or
//   Private variable it left Uniform cannot take a per-lane (or partially
//   masked) write, and a Uniform interpolation of a Varying input would
//   keep lane 0; both are diagnostics rather than silently wrong code.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/GlslComponentWise.h"
#include "codegen/common/MathBuilder.h"
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"

#include "llvm/IR/Intrinsics.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <numbers>

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

namespace {

/// Whether two flattened types have the same shape: as many components,
/// each float or integer alike and of the same width (signedness may
/// differ, as SPIR-V allows for the integer instructions).
bool sameShape(const std::vector<ScalarType> &A,
               const std::vector<ScalarType> &B) {
  if (A.size() != B.size() || A.empty())
    return false;
  for (size_t C = 0; C < A.size(); ++C)
    if ((A[C].Kind == ScalarKind::Float) != (B[C].Kind == ScalarKind::Float) ||
        A[C].Kind == ScalarKind::Bool || B[C].Kind == ScalarKind::Bool ||
        A[C].Bits != B[C].Bits)
      return false;
  return true;
}

bool allOfKind(const std::vector<ScalarType> &A, bool Float) {
  for (const ScalarType &S : A)
    if (S.Kind == ScalarKind::Bool || (S.Kind == ScalarKind::Float) != Float)
      return false;
  return !A.empty();
}


} // namespace

bool SimdEmitter::emitGlslStd450(const Instruction &I) {
  if (I.Operands.size() < 2 || !I.Result) {
    failAt(I, "GLSL.std.450 instruction without an instruction number or "
              "result");
    return false;
  }
  const uint32_t Inst = I.Operands[1];
  const char *Name = glslStd450Name(Inst);
  const unsigned Count = glslStd450OperandCount(Inst);
  const std::string What =
      "GLSL.std.450 " + (Name ? std::string(Name) : std::to_string(Inst));
  if (!Count) {
    failAt(I, What + (Inst == GLSLstd450IMix ? " is reserved"
                                             : " is not an instruction"));
    return false;
  }
  if (I.Operands.size() - 2 != Count) {
    failAt(I, What + " takes " + Twine(Count) + " operands, not " +
                  Twine(I.Operands.size() - 2));
    return false;
  }
  auto Bad = [&](const Twine &Msg) {
    failAt(I, What + ": " + Msg);
    return false;
  };

  const uint32_t Id = I.Result.value();
  const bool Varying = isVarying(Id);
  const std::vector<ScalarType> RC = components(I.ResultType);
  if (RC.empty())
    return Bad("result type has no components");
  auto OpId = [&](size_t K) { return I.Operands[2 + K]; };
  auto OpTypes = [&](size_t K) -> const std::vector<ScalarType> & {
    return components(M.typeOf(OpId(K)));
  };
  // Operand K's components, with the result's uniformity.
  auto Arg = [&](size_t K) { return coerce(get(OpId(K)), Varying); };
  auto Finish = [&](SmallVectorImpl<Value *> &Comps) {
    LaneValue R;
    R.Varying = Varying;
    R.Comps.assign(Comps.begin(), Comps.end());
    set(Id, std::move(R));
    return true;
  };
  MathBuilder MB(B, *LM);
  Type *T0 = laneType(RC[0], Varying);

  // Component-wise instructions whose operands all have the result's type
  // (GlslComponentWise.cpp, shared with the one-invocation back end).
  GlslComponentOp Op = glslComponentOp(B, MB, Inst);
  auto &Map = Op.Map;
  const bool FloatOp = Op.FloatOp, Transcendental = Op.Transcendental;
  if (Map) {
    if (!allOfKind(RC, FloatOp))
      return Bad(Twine("result type must be ") +
                 (FloatOp ? "floating-point" : "integer"));
    SmallVector<LaneValue, 3> Args;
    for (unsigned K = 0; K < Count; ++K) {
      if (!sameShape(OpTypes(K), RC))
        return Bad("operand " + Twine(K + 1) +
                   " does not have the result's type");
      Args.push_back(Arg(K));
    }
    SmallVector<Value *, 4> Comps;
    for (size_t C = 0; C < RC.size(); ++C) {
      SmallVector<Value *, 3> A;
      for (const LaneValue &V : Args)
        A.push_back(V.Comps[C]);
      Comps.push_back(Transcendental ? MB.viaFloat(A, Map) : Map(A));
    }
    return Finish(Comps);
  }

  // The rest have operands of other shapes; each checks its own.
  auto RequireFloat = [&](size_t K) {
    return allOfKind(OpTypes(K), /*Float=*/true);
  };
  switch (Inst) {
  case GLSLstd450Determinant:
  case GLSLstd450MatrixInverse: {
    const std::vector<ScalarType> &MT = OpTypes(0);
    unsigned N = 0;
    while (N < 5 && N * N < MT.size())
      ++N;
    if (N < 2 || N > 4 || N * N != MT.size() || !RequireFloat(0))
      return Bad("operand must be a square floating-point matrix");
    if (Inst == GLSLstd450Determinant
            ? RC.size() != 1 || RC[0].Bits != MT[0].Bits
            : !sameShape(RC, MT))
      return Bad("result type does not match the matrix");
    // Components are column-major, as the helper takes and returns them.
    SmallVector<Value *, 16> Comps = MB.determinantOrInverse(
        Arg(0).Comps, N, Inst == GLSLstd450MatrixInverse);
    return Finish(Comps);
  }

  case GLSLstd450Modf:
  case GLSLstd450ModfStruct:
  case GLSLstd450Frexp:
  case GLSLstd450FrexpStruct: {
    bool IsModf = Inst == GLSLstd450Modf || Inst == GLSLstd450ModfStruct;
    bool Struct = Inst == GLSLstd450ModfStruct || Inst == GLSLstd450FrexpStruct;
    const std::vector<ScalarType> &XT = OpTypes(0);
    if (!RequireFloat(0))
      return Bad("operand must be floating-point");
    // The second part: a struct's second member or the pointer's pointee.
    std::vector<ScalarType> Second;
    PointerValue P;
    if (Struct) {
      if (RC.size() != 2 * XT.size())
        return Bad("result must be a struct of two members of x's shape");
      Second.assign(RC.begin() + XT.size(), RC.end());
      if (!sameShape(
              std::vector<ScalarType>(RC.begin(), RC.begin() + XT.size()), XT))
        return Bad("result's first member does not have x's type");
    } else {
      if (!sameShape(RC, XT))
        return Bad("result does not have x's type");
      if (!pointerOf(OpId(1), P))
        return false;
      Second = components(P.Pointee);
    }
    if (IsModf ? !sameShape(Second, XT)
               : Second.size() != XT.size() || !allOfKind(Second, false))
      return Bad(IsModf ? "the whole part does not have x's type"
                        : "the exponent must be integers, one per component");
    LaneValue X = Arg(0);
    SmallVector<Value *, 8> First, Rest;
    for (size_t C = 0; C < XT.size(); ++C) {
      Value *V = X.Comps[C];
      if (IsModf) {
        auto [Frac, Whole] = MB.modf(V);
        First.push_back(Frac);
        Rest.push_back(Whole);
      } else {
        auto [Mant, Exp] = MB.frexp(V);
        First.push_back(Mant);
        Rest.push_back(B.CreateSExtOrTrunc(Exp, laneType(Second[C], Varying)));
      }
    }
    if (Struct) {
      First.append(Rest.begin(), Rest.end());
      return Finish(First);
    }
    if (!P.InMemory) {
      // The uniformity analysis does not count this write: a variable it
      // left Uniform has one scalar slot, which a per-lane value or a
      // partial mask cannot update.
      const Variable *V = M.findVariable(P.Var);
      if (V &&
          (V->Storage == spv::StorageClass::Function ||
           V->Storage == spv::StorageClass::Private) &&
          UI.variable(ValueId(P.Var)) != Uniformity::Varying &&
          (Varying || !isUniformBlock(FS.CurBlock)))
        return Bad("unsupported: writing a per-invocation result through "
                   "the pointer operand to " +
                   M.friendlyName(P.Var) + " (the uniformity analysis "
                   "does not treat it as a store)");
    }
    LaneValue Out;
    Out.Varying = Varying;
    Out.Comps.assign(Rest.begin(), Rest.end());
    store(P, std::move(Out));
    return Finish(First);
  }

  case GLSLstd450Ldexp: {
    const std::vector<ScalarType> &ET = OpTypes(1);
    if (!sameShape(RC, OpTypes(0)) || !RequireFloat(0))
      return Bad("x must have the result's floating-point type");
    if (ET.size() != RC.size() || !allOfKind(ET, false))
      return Bad("the exponent must be integers, one per component");
    LaneValue X = Arg(0), E = Arg(1);
    SmallVector<Value *, 4> Comps;
    for (size_t C = 0; C < RC.size(); ++C)
      Comps.push_back(MB.ldexp(X.Comps[C], E.Comps[C]));
    return Finish(Comps);
  }

  case GLSLstd450PackSnorm4x8:
  case GLSLstd450PackUnorm4x8:
  case GLSLstd450PackSnorm2x16:
  case GLSLstd450PackUnorm2x16:
  case GLSLstd450PackHalf2x16: {
    GlslPacking PK = *glslPacking(Inst);
    const std::vector<ScalarType> &VT = OpTypes(0);
    if (VT.size() != PK.Count || !RequireFloat(0) || VT[0].Bits != 32)
      return Bad("operand must be a vector of " + Twine(PK.Count) +
                 " 32-bit floats");
    if (RC.size() != 1 || RC[0].Kind == ScalarKind::Float ||
        RC[0].Kind == ScalarKind::Bool || RC[0].Bits != 32)
      return Bad("result must be a 32-bit integer");
    SmallVector<Value *, 1> Comps{MB.packComponents(
        Arg(0).Comps, T0, PK.Bits, PK.Snorm, PK.Half)};
    return Finish(Comps);
  }

  case GLSLstd450UnpackSnorm4x8:
  case GLSLstd450UnpackUnorm4x8:
  case GLSLstd450UnpackSnorm2x16:
  case GLSLstd450UnpackUnorm2x16:
  case GLSLstd450UnpackHalf2x16: {
    GlslPacking PK = *glslPacking(Inst);
    const std::vector<ScalarType> &VT = OpTypes(0);
    if (VT.size() != 1 || !allOfKind(VT, false) || VT[0].Bits != 32)
      return Bad("operand must be a 32-bit integer");
    if (RC.size() != PK.Count || !allOfKind(RC, true) || RC[0].Bits != 32)
      return Bad("result must be a vector of " + Twine(PK.Count) +
                 " 32-bit floats");
    SmallVector<Value *, 4> Comps = MB.unpackComponents(
        Arg(0).Comps[0], T0, PK.Count, PK.Bits, PK.Snorm, PK.Half);
    return Finish(Comps);
  }

  case GLSLstd450PackDouble2x32: {
    const std::vector<ScalarType> &VT = OpTypes(0);
    if (VT.size() != 2 || !allOfKind(VT, false) || VT[0].Bits != 32)
      return Bad("operand must be a vector of two 32-bit integers");
    if (RC.size() != 1 || !allOfKind(RC, true) || RC[0].Bits != 64)
      return Bad("result must be a 64-bit float");
    LaneValue X = Arg(0);
    Type *I64 = T0->getWithNewType(B.getInt64Ty());
    // Component 0 holds the low bits.
    Value *Bits = B.CreateOr(
        B.CreateZExt(X.Comps[0], I64),
        B.CreateShl(B.CreateZExt(X.Comps[1], I64), MB.iconst(I64, 32)));
    SmallVector<Value *, 1> Comps{B.CreateBitCast(Bits, T0)};
    return Finish(Comps);
  }

  case GLSLstd450UnpackDouble2x32: {
    const std::vector<ScalarType> &VT = OpTypes(0);
    if (VT.size() != 1 || !RequireFloat(0) || VT[0].Bits != 64)
      return Bad("operand must be a 64-bit float");
    if (RC.size() != 2 || !allOfKind(RC, false) || RC[0].Bits != 32)
      return Bad("result must be a vector of two 32-bit integers");
    Value *X = Arg(0).Comps[0];
    Value *Bits = B.CreateBitCast(X, MB.bitsType(X->getType()));
    SmallVector<Value *, 2> Comps{
        B.CreateTrunc(Bits, T0),
        B.CreateTrunc(B.CreateLShr(Bits, MB.iconst(Bits->getType(), 32)), T0)};
    return Finish(Comps);
  }

  case GLSLstd450Length:
  case GLSLstd450Distance:
  case GLSLstd450Normalize: {
    const std::vector<ScalarType> &VT = OpTypes(0);
    if (!RequireFloat(0))
      return Bad("operand must be floating-point");
    if (Inst == GLSLstd450Distance && !sameShape(OpTypes(1), VT))
      return Bad("operands have different types");
    if (Inst == GLSLstd450Normalize
            ? !sameShape(RC, VT)
            : RC.size() != 1 || RC[0].Bits != VT[0].Bits ||
                  RC[0].Kind != ScalarKind::Float)
      return Bad("result type does not match the operand");
    LaneValue X = Arg(0);
    if (Inst == GLSLstd450Distance) {
      LaneValue Y = Arg(1);
      for (size_t C = 0; C < X.Comps.size(); ++C)
        X.Comps[C] = B.CreateFSub(X.Comps[C], Y.Comps[C]);
    }
    SmallVector<Value *, 4> Comps;
    if (Inst != GLSLstd450Normalize) {
      Comps.push_back(MB.length(X.Comps));
      return Finish(Comps);
    }
    // x / length(x): the sign for a scalar, NaN for zero.
    Value *Len = MB.length(X.Comps);
    for (Value *C : X.Comps)
      Comps.push_back(B.CreateFDiv(C, Len));
    return Finish(Comps);
  }

  case GLSLstd450Cross: {
    if (RC.size() != 3 || !allOfKind(RC, true) || !sameShape(OpTypes(0), RC) ||
        !sameShape(OpTypes(1), RC))
      return Bad("operands and result must be 3-component float vectors");
    LaneValue X = Arg(0), Y = Arg(1);
    auto Diff = [&](unsigned A, unsigned Bc) {
      return B.CreateFSub(B.CreateFMul(X.Comps[A], Y.Comps[Bc]),
                          B.CreateFMul(Y.Comps[A], X.Comps[Bc]));
    };
    SmallVector<Value *, 3> Comps{Diff(1, 2), Diff(2, 0), Diff(0, 1)};
    return Finish(Comps);
  }

  case GLSLstd450FaceForward:
  case GLSLstd450Reflect:
  case GLSLstd450Refract: {
    unsigned Vectors = Inst == GLSLstd450FaceForward ? 3 : 2;
    if (!allOfKind(RC, true))
      return Bad("result must be floating-point");
    for (unsigned K = 0; K < Vectors; ++K)
      if (!sameShape(OpTypes(K), RC))
        return Bad("operand " + Twine(K + 1) +
                   " does not have the result's type");
    if (Inst == GLSLstd450Refract &&
        (OpTypes(2).size() != 1 || !RequireFloat(2)))
      return Bad("eta must be a floating-point scalar");
    SmallVector<Value *, 4> Comps;
    if (Inst == GLSLstd450FaceForward) {
      // dot(Nref, I) < 0 ? N : -N
      LaneValue N = Arg(0), In = Arg(1), Ref = Arg(2);
      Value *Front =
          B.CreateFCmpOLT(MB.dot(Ref.Comps, In.Comps), MB.fconst(T0, 0.0));
      for (Value *C : N.Comps)
        Comps.push_back(B.CreateSelect(Front, C, B.CreateFNeg(C)));
      return Finish(Comps);
    }
    LaneValue In = Arg(0), N = Arg(1);
    Value *D = MB.dot(N.Comps, In.Comps);
    if (Inst == GLSLstd450Reflect) {
      // I - 2 * dot(N, I) * N
      Value *D2 = B.CreateFMul(MB.fconst(T0, 2.0), D);
      for (size_t C = 0; C < RC.size(); ++C)
        Comps.push_back(
            B.CreateFSub(In.Comps[C], B.CreateFMul(D2, N.Comps[C])));
      return Finish(Comps);
    }
    // k = 1 - eta^2 * (1 - dot(N, I)^2);
    // k < 0 ? 0 : eta * I - (eta * dot(N, I) + sqrt(k)) * N
    Value *Eta = B.CreateFPCast(Arg(2).Comps[0], T0);
    Value *One = MB.fconst(T0, 1.0);
    Value *K =
        B.CreateFSub(One, B.CreateFMul(B.CreateFMul(Eta, Eta),
                                       B.CreateFSub(One, B.CreateFMul(D, D))));
    Value *Total = B.CreateFCmpOLT(K, MB.fconst(T0, 0.0));
    Value *S = B.CreateFAdd(B.CreateFMul(Eta, D), MB.unary(Intrinsic::sqrt, K));
    for (size_t C = 0; C < RC.size(); ++C) {
      Value *V = B.CreateFSub(B.CreateFMul(Eta, In.Comps[C]),
                              B.CreateFMul(S, N.Comps[C]));
      Comps.push_back(B.CreateSelect(Total, MB.fconst(T0, 0.0), V));
    }
    return Finish(Comps);
  }

  case GLSLstd450FindILsb:
  case GLSLstd450FindSMsb:
  case GLSLstd450FindUMsb: {
    const std::vector<ScalarType> &VT = OpTypes(0);
    if (!allOfKind(VT, false) || !allOfKind(RC, false) ||
        VT.size() != RC.size())
      return Bad("operand and result must be integers with as many "
                 "components");
    LaneValue X = Arg(0);
    SmallVector<Value *, 4> Comps;
    for (size_t C = 0; C < RC.size(); ++C)
      Comps.push_back(B.CreateSExtOrTrunc(
          MB.findBit(X.Comps[C], Inst != GLSLstd450FindILsb,
                     Inst == GLSLstd450FindSMsb),
          laneType(RC[C], Varying)));
    return Finish(Comps);
  }

  case GLSLstd450InterpolateAtCentroid:
  case GLSLstd450InterpolateAtSample:
  case GLSLstd450InterpolateAtOffset: {
    // The input's value at this invocation (see the file comment).
    PointerValue P;
    if (!pointerOf(OpId(0), P))
      return false;
    const Variable *V = P.InMemory ? nullptr : M.findVariable(P.Var);
    if (!V || V->Storage != spv::StorageClass::Input)
      return Bad("interpolant must point into an Input variable");
    if (!sameShape(components(P.Pointee), RC) || !allOfKind(RC, true))
      return Bad("result type does not match the interpolant");
    // The uniformity analysis reads the pointer operand as a value, not as
    // a load: a Uniform result of a per-lane input would keep lane 0 only.
    if (!Varying && UI.variable(ValueId(P.Var)) == Uniformity::Varying)
      return Bad("the result of reading per-invocation input " +
                 M.friendlyName(P.Var) +
                 " needs the uniformity analysis to treat it as a load (not "
                 "supported yet)");
    set(Id, load(P, Varying));
    return true;
  }

  default:
    return Bad("not implemented");
  }
}

} // namespace spirv2llvm::simd
