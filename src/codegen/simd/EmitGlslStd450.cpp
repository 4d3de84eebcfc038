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

/// One GLSL.std.450 instruction being emitted: its decoded operands and
/// result, and one method per group of forms (GlslFormKind). A member of
/// SimdEmitter, so it reaches the emitter's values.
struct SimdEmitter::GlslCall {
  SimdEmitter &E;
  const Instruction &I;
  const uint32_t Inst;
  const GlslStd450Info &Info;
  const std::string What;
  const uint32_t Id;
  const bool Varying;
  /// The result's components (never empty).
  const std::vector<ScalarType> RC;
  IRBuilder<> &B;
  MathBuilder MB;
  /// The lane type of the result's first component.
  Type *T0;

  uint32_t opId(size_t K) const { return I.Operands[2 + K]; }
  const std::vector<ScalarType> &opTypes(size_t K) {
    return E.components(E.M.typeOf(opId(K)));
  }
  /// Operand K's components, with the result's uniformity.
  LaneValue arg(size_t K) { return E.coerce(E.get(opId(K)), Varying); }
  bool requireFloat(size_t K) { return allOfKind(opTypes(K), true); }
  bool bad(const Twine &Msg) {
    E.failAt(I, What + ": " + Msg);
    return false;
  }
  bool finish(ArrayRef<Value *> Comps) {
    LaneValue R;
    R.Varying = Varying;
    R.Comps.assign(Comps.begin(), Comps.end());
    E.set(Id, std::move(R));
    return true;
  }

  bool componentWise();
  bool matrix();       ///< Determinant, MatrixInverse
  bool secondResult(); ///< Modf, Frexp
  bool ldexp();
  bool packing();      ///< Pack, Unpack, PackDouble, UnpackDouble
  bool geometry();     ///< Length, Normalize, Cross, FaceForward, Reflect,
                       ///< Refract
  bool findBit();
  bool interpolate();
};

bool SimdEmitter::emitGlslStd450(const Instruction &I) {
  if (I.Operands.size() < 2 || !I.Result) {
    failAt(I, "GLSL.std.450 instruction without an instruction number or "
              "result");
    return false;
  }
  const uint32_t Inst = I.Operands[1];
  const GlslStd450Info &Info = glslStd450Info(Inst);
  const char *Name = glslStd450Name(Inst);
  const std::string What =
      "GLSL.std.450 " + (Name ? std::string(Name) : std::to_string(Inst));
  if (!Info.OperandCount) {
    failAt(I, What + (Inst == GLSLstd450IMix ? " is reserved"
                                             : " is not an instruction"));
    return false;
  }
  if (I.Operands.size() - 2 != Info.OperandCount) {
    failAt(I, What + " takes " + Twine(unsigned(Info.OperandCount)) +
                  " operands, not " + Twine(I.Operands.size() - 2));
    return false;
  }
  const uint32_t Id = I.Result.value();
  const bool Varying = isVarying(Id);
  const std::vector<ScalarType> RC = components(I.ResultType);
  if (RC.empty()) {
    failAt(I, What + ": result type has no components");
    return false;
  }
  GlslCall C{*this, I, Inst, Info, What, Id, Varying, RC, B,
             MathBuilder(B, *LM), laneType(RC[0], Varying)};
  switch (Info.Form) {
  case GlslFormKind::ComponentWise:
    return C.componentWise();
  case GlslFormKind::Determinant:
  case GlslFormKind::MatrixInverse:
    return C.matrix();
  case GlslFormKind::Modf:
  case GlslFormKind::Frexp:
    return C.secondResult();
  case GlslFormKind::Ldexp:
    return C.ldexp();
  case GlslFormKind::Pack:
  case GlslFormKind::Unpack:
  case GlslFormKind::PackDouble:
  case GlslFormKind::UnpackDouble:
    return C.packing();
  case GlslFormKind::Length:
  case GlslFormKind::Normalize:
  case GlslFormKind::Cross:
  case GlslFormKind::FaceForward:
  case GlslFormKind::Reflect:
  case GlslFormKind::Refract:
    return C.geometry();
  case GlslFormKind::FindBit:
    return C.findBit();
  case GlslFormKind::Interpolate:
    return C.interpolate();
  case GlslFormKind::None:
    break;
  }
  return C.bad("not implemented");
}

bool SimdEmitter::GlslCall::componentWise() {
  // Operands all of the result's type (GlslComponentWise.cpp, shared with
  // the one-invocation back end).
  GlslComponentOp Op = glslComponentOp(B, MB, Inst);
  assert(Op.Map && "a ComponentWise form without a component operation");
  if (!allOfKind(RC, Op.FloatOp))
    return bad(Twine("result type must be ") +
               (Op.FloatOp ? "floating-point" : "integer"));
  SmallVector<LaneValue, 3> Args;
  for (unsigned K = 0; K < Info.OperandCount; ++K) {
    if (!sameShape(opTypes(K), RC))
      return bad("operand " + Twine(K + 1) +
                 " does not have the result's type");
    Args.push_back(arg(K));
  }
  SmallVector<Value *, 4> Comps;
  for (size_t C = 0; C < RC.size(); ++C) {
    SmallVector<Value *, 3> A;
    for (const LaneValue &V : Args)
      A.push_back(V.Comps[C]);
    Comps.push_back(Op.Transcendental ? MB.viaFloat(A, Op.Map) : Op.Map(A));
  }
  return finish(Comps);
}

bool SimdEmitter::GlslCall::matrix() {
  const std::vector<ScalarType> &MT = opTypes(0);
  unsigned N = 0;
  while (N < 5 && N * N < MT.size())
    ++N;
  if (N < 2 || N > 4 || N * N != MT.size() || !requireFloat(0))
    return bad("operand must be a square floating-point matrix");
  bool Inverse = Info.Form == GlslFormKind::MatrixInverse;
  if (!Inverse ? RC.size() != 1 || RC[0].Bits != MT[0].Bits
               : !sameShape(RC, MT))
    return bad("result type does not match the matrix");
  // Components are column-major, as the helper takes and returns them.
  return finish(MB.determinantOrInverse(arg(0).Comps, N, Inverse));
}

bool SimdEmitter::GlslCall::secondResult() {
  bool IsModf = Info.Form == GlslFormKind::Modf;
  bool Struct = Info.Out == GlslOutKind::Struct;
  const std::vector<ScalarType> &XT = opTypes(0);
  if (!requireFloat(0))
    return bad("operand must be floating-point");
  // The second part: a struct's second member or the pointer's pointee.
  std::vector<ScalarType> Second;
  PointerValue P;
  if (Struct) {
    if (RC.size() != 2 * XT.size())
      return bad("result must be a struct of two members of x's shape");
    Second.assign(RC.begin() + XT.size(), RC.end());
    if (!sameShape(
            std::vector<ScalarType>(RC.begin(), RC.begin() + XT.size()), XT))
      return bad("result's first member does not have x's type");
  } else {
    if (!sameShape(RC, XT))
      return bad("result does not have x's type");
    if (!E.pointerOf(opId(1), P))
      return false;
    Second = E.components(P.Pointee);
  }
  if (IsModf ? !sameShape(Second, XT)
             : Second.size() != XT.size() || !allOfKind(Second, false))
    return bad(IsModf ? "the whole part does not have x's type"
                      : "the exponent must be integers, one per component");
  LaneValue X = arg(0);
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
      Rest.push_back(B.CreateSExtOrTrunc(Exp, E.laneType(Second[C], Varying)));
    }
  }
  if (Struct) {
    First.append(Rest.begin(), Rest.end());
    return finish(First);
  }
  if (!P.InMemory) {
    // The uniformity analysis does not count this write: a variable it
    // left Uniform has one scalar slot, which a per-lane value or a
    // partial mask cannot update.
    const Variable *V = E.M.findVariable(P.Var);
    if (V &&
        (V->Storage == spv::StorageClass::Function ||
         V->Storage == spv::StorageClass::Private) &&
        E.UI.variable(ValueId(P.Var)) != Uniformity::Varying &&
        (Varying || !E.isUniformBlock(E.FS.CurBlock)))
      return bad("unsupported: writing a per-invocation result through "
                 "the pointer operand to " +
                 E.M.friendlyName(P.Var) + " (the uniformity analysis "
                 "does not treat it as a store)");
  }
  LaneValue Out;
  Out.Varying = Varying;
  Out.Comps.assign(Rest.begin(), Rest.end());
  E.store(P, std::move(Out));
  return finish(First);
}

bool SimdEmitter::GlslCall::ldexp() {
  const std::vector<ScalarType> &ET = opTypes(1);
  if (!sameShape(RC, opTypes(0)) || !requireFloat(0))
    return bad("x must have the result's floating-point type");
  if (ET.size() != RC.size() || !allOfKind(ET, false))
    return bad("the exponent must be integers, one per component");
  LaneValue X = arg(0), Exp = arg(1);
  SmallVector<Value *, 4> Comps;
  for (size_t C = 0; C < RC.size(); ++C)
    Comps.push_back(MB.ldexp(X.Comps[C], Exp.Comps[C]));
  return finish(Comps);
}

bool SimdEmitter::GlslCall::packing() {
  const std::vector<ScalarType> &VT = opTypes(0);
  switch (Info.Form) {
  case GlslFormKind::Pack: {
    GlslPacking PK = *glslPacking(Inst);
    if (VT.size() != PK.Count || !requireFloat(0) || VT[0].Bits != 32)
      return bad("operand must be a vector of " + Twine(PK.Count) +
                 " 32-bit floats");
    if (RC.size() != 1 || RC[0].Kind == ScalarKind::Float ||
        RC[0].Kind == ScalarKind::Bool || RC[0].Bits != 32)
      return bad("result must be a 32-bit integer");
    return finish(
        {MB.packComponents(arg(0).Comps, T0, PK.Bits, PK.Snorm, PK.Half)});
  }
  case GlslFormKind::Unpack: {
    GlslPacking PK = *glslPacking(Inst);
    if (VT.size() != 1 || !allOfKind(VT, false) || VT[0].Bits != 32)
      return bad("operand must be a 32-bit integer");
    if (RC.size() != PK.Count || !allOfKind(RC, true) || RC[0].Bits != 32)
      return bad("result must be a vector of " + Twine(PK.Count) +
                 " 32-bit floats");
    return finish(MB.unpackComponents(arg(0).Comps[0], T0, PK.Count, PK.Bits,
                                      PK.Snorm, PK.Half));
  }
  case GlslFormKind::PackDouble: {
    if (VT.size() != 2 || !allOfKind(VT, false) || VT[0].Bits != 32)
      return bad("operand must be a vector of two 32-bit integers");
    if (RC.size() != 1 || !allOfKind(RC, true) || RC[0].Bits != 64)
      return bad("result must be a 64-bit float");
    LaneValue X = arg(0);
    Type *I64 = T0->getWithNewType(B.getInt64Ty());
    // Component 0 holds the low bits.
    Value *Bits = B.CreateOr(
        B.CreateZExt(X.Comps[0], I64),
        B.CreateShl(B.CreateZExt(X.Comps[1], I64), MB.iconst(I64, 32)));
    return finish({B.CreateBitCast(Bits, T0)});
  }
  default: {
    // UnpackDouble
    if (VT.size() != 1 || !requireFloat(0) || VT[0].Bits != 64)
      return bad("operand must be a 64-bit float");
    if (RC.size() != 2 || !allOfKind(RC, false) || RC[0].Bits != 32)
      return bad("result must be a vector of two 32-bit integers");
    Value *X = arg(0).Comps[0];
    Value *Bits = B.CreateBitCast(X, MB.bitsType(X->getType()));
    Value *Lo = B.CreateTrunc(Bits, T0);
    return finish(
        {Lo,
         B.CreateTrunc(B.CreateLShr(Bits, MB.iconst(Bits->getType(), 32)), T0)});
  }
  }
}

bool SimdEmitter::GlslCall::geometry() {
  const GlslFormKind Form = Info.Form;
  if (Form == GlslFormKind::Length || Form == GlslFormKind::Normalize) {
    // Length with two operands is Distance: the length of x - y.
    const std::vector<ScalarType> &VT = opTypes(0);
    if (!requireFloat(0))
      return bad("operand must be floating-point");
    if (Info.OperandCount == 2 && !sameShape(opTypes(1), VT))
      return bad("operands have different types");
    if (Form == GlslFormKind::Normalize
            ? !sameShape(RC, VT)
            : RC.size() != 1 || RC[0].Bits != VT[0].Bits ||
                  RC[0].Kind != ScalarKind::Float)
      return bad("result type does not match the operand");
    LaneValue X = arg(0);
    if (Info.OperandCount == 2) {
      LaneValue Y = arg(1);
      for (size_t C = 0; C < X.Comps.size(); ++C)
        X.Comps[C] = B.CreateFSub(X.Comps[C], Y.Comps[C]);
    }
    Value *Len = MB.length(X.Comps);
    if (Form == GlslFormKind::Length)
      return finish({Len});
    // x / length(x): the sign for a scalar, NaN for zero.
    SmallVector<Value *, 4> Comps;
    for (Value *C : X.Comps)
      Comps.push_back(B.CreateFDiv(C, Len));
    return finish(Comps);
  }
  if (Form == GlslFormKind::Cross) {
    if (RC.size() != 3 || !allOfKind(RC, true) ||
        !sameShape(opTypes(0), RC) || !sameShape(opTypes(1), RC))
      return bad("operands and result must be 3-component float vectors");
    LaneValue X = arg(0), Y = arg(1);
    auto Diff = [&](unsigned A, unsigned Bc) {
      return B.CreateFSub(B.CreateFMul(X.Comps[A], Y.Comps[Bc]),
                          B.CreateFMul(Y.Comps[A], X.Comps[Bc]));
    };
    Value *Cx = Diff(1, 2), *Cy = Diff(2, 0), *Cz = Diff(0, 1);
    return finish({Cx, Cy, Cz});
  }
  // FaceForward, Reflect, Refract: vectors of the result's type (and eta).
  unsigned Vectors = Form == GlslFormKind::FaceForward ? 3 : 2;
  if (!allOfKind(RC, true))
    return bad("result must be floating-point");
  for (unsigned K = 0; K < Vectors; ++K)
    if (!sameShape(opTypes(K), RC))
      return bad("operand " + Twine(K + 1) +
                 " does not have the result's type");
  if (Form == GlslFormKind::Refract &&
      (opTypes(2).size() != 1 || !requireFloat(2)))
    return bad("eta must be a floating-point scalar");
  SmallVector<Value *, 4> Comps;
  if (Form == GlslFormKind::FaceForward) {
    // dot(Nref, I) < 0 ? N : -N
    LaneValue N = arg(0), In = arg(1), Ref = arg(2);
    Value *Front =
        B.CreateFCmpOLT(MB.dot(Ref.Comps, In.Comps), MB.fconst(T0, 0.0));
    for (Value *C : N.Comps)
      Comps.push_back(B.CreateSelect(Front, C, B.CreateFNeg(C)));
    return finish(Comps);
  }
  LaneValue In = arg(0), N = arg(1);
  Value *D = MB.dot(N.Comps, In.Comps);
  if (Form == GlslFormKind::Reflect) {
    // I - 2 * dot(N, I) * N
    Value *D2 = B.CreateFMul(MB.fconst(T0, 2.0), D);
    for (size_t C = 0; C < RC.size(); ++C)
      Comps.push_back(B.CreateFSub(In.Comps[C], B.CreateFMul(D2, N.Comps[C])));
    return finish(Comps);
  }
  // k = 1 - eta^2 * (1 - dot(N, I)^2);
  // k < 0 ? 0 : eta * I - (eta * dot(N, I) + sqrt(k)) * N
  Value *Eta = B.CreateFPCast(arg(2).Comps[0], T0);
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
  return finish(Comps);
}

bool SimdEmitter::GlslCall::findBit() {
  const std::vector<ScalarType> &VT = opTypes(0);
  if (!allOfKind(VT, false) || !allOfKind(RC, false) || VT.size() != RC.size())
    return bad("operand and result must be integers with as many "
               "components");
  LaneValue X = arg(0);
  SmallVector<Value *, 4> Comps;
  for (size_t C = 0; C < RC.size(); ++C)
    Comps.push_back(B.CreateSExtOrTrunc(
        MB.findBit(X.Comps[C], Info.Find != GlslFindKind::Lsb,
                   Info.Find == GlslFindKind::SMsb),
        E.laneType(RC[C], Varying)));
  return finish(Comps);
}

bool SimdEmitter::GlslCall::interpolate() {
  // The input's value at this invocation (see the file comment).
  PointerValue P;
  if (!E.pointerOf(opId(0), P))
    return false;
  const Variable *V = P.InMemory ? nullptr : E.M.findVariable(P.Var);
  if (!V || V->Storage != spv::StorageClass::Input)
    return bad("interpolant must point into an Input variable");
  if (!sameShape(E.components(P.Pointee), RC) || !allOfKind(RC, true))
    return bad("result type does not match the interpolant");
  // The uniformity analysis reads the pointer operand as a value, not as
  // a load: a Uniform result of a per-lane input would keep lane 0 only.
  if (!Varying && E.UI.variable(ValueId(P.Var)) == Uniformity::Varying)
    return bad("the result of reading per-invocation input " +
               E.M.friendlyName(P.Var) +
               " needs the uniformity analysis to treat it as a load (not "
               "supported yet)");
  E.set(Id, E.load(P, Varying));
  return true;
}

} // namespace spirv2llvm::simd
