//===- InvocationArithmetic.cpp - Values: arithmetic, composites, math ----===//
//
// Component-wise instructions apply the shared ComponentOps.h and
// GlslComponentWise.h builders to whole values: a vec4 operation is one
// <4 x T> LLVM operation. Composites are LLVM vectors (extractelement,
// insertelement, shufflevector) and aggregates (extractvalue, insertvalue);
// matrices are arrays of column vectors, so matrix products are sums of
// column vectors scaled by splatted components.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ComponentOps.h"
#include "codegen/common/CompositeAccess.h"
#include "codegen/common/GlslComponentWise.h"
#include "codegen/invocation/InvocationEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"

#include <spirv/unified1/GLSL.std.450.h>

using namespace llvm;

namespace spirv2llvm::invocation {

using llvm::Constant;
using llvm::Type;

namespace {

/// Sum of the products of the components of \p X and \p Y, in component
/// order (OpDot; the same rounding as the SIMD back end).
Value *dot(IRBuilder<> &B, Value *X, Value *Y) {
  auto *VT = dyn_cast<FixedVectorType>(X->getType());
  if (!VT)
    return B.CreateFMul(X, Y);
  Value *P = B.CreateFMul(X, Y);
  Value *Sum = B.CreateExtractElement(P, uint64_t(0));
  for (unsigned C = 1; C < VT->getNumElements(); ++C)
    Sum = B.CreateFAdd(Sum, B.CreateExtractElement(P, uint64_t(C)));
  return Sum;
}

Value *splatTo(IRBuilder<> &B, Value *S, Type *T) {
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return B.CreateVectorSplat(VT->getNumElements(), S);
  return S;
}

} // namespace

bool InvocationEmitter::emitArithmetic(const Instruction &I) {
  uint32_t Id = I.Result.value();
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  if (isComponentBinary(I.Opcode)) {
    Value *X = get(I.Operands[0]), *Y = get(I.Operands[1]);
    // Shift amounts may have another width than the shifted value, which
    // the shared builder handles; other operands must match.
    bool Shift = Info.Bin != BinaryOpKind::None &&
                 llvm::Instruction::isShift(llvmBinaryOp(Info.Bin));
    if (!Shift && X->getType() != Y->getType()) {
      failAt(I, "operands have different types");
      return true;
    }
    if (Shift && (!X->getType()->isIntOrIntVectorTy() ||
                  !Y->getType()->isIntOrIntVectorTy())) {
      failAt(I, "shift operands must be integers");
      return true;
    }
    if (Shift && isa<FixedVectorType>(X->getType()) !=
                     isa<FixedVectorType>(Y->getType())) {
      failAt(I, "shift operands must both be scalars or vectors");
      return true;
    }
    if (Shift && X->getType()->getScalarSizeInBits() !=
                     Y->getType()->getScalarSizeInBits()) {
      // Widen or narrow the amount to the shifted value's width first.
      Y = B.CreateZExtOrTrunc(Y, X->getType());
    }
    set(Id, emitComponentBinary(B, I.Opcode, X, Y));
    return true;
  }
  if (isComponentUnary(I.Opcode)) {
    if (Info.Unary == UnaryOpKind::Copy) {
      auto P = Pointers.find(I.Operands[0]);
      if (P != Pointers.end()) {
        Pointers[Id] = P->second;
        return true;
      }
    }
    Value *X = get(I.Operands[0]);
    Type *T = typeOf(I.ResultType);
    if (Info.Unary == UnaryOpKind::Copy) {
      // Types that differ only in decorations are the same LLVM type.
      if (X->getType() != T) {
        failAt(I, "operand and result types differ");
        return true;
      }
      set(Id, X);
      return true;
    }
    if (Info.Cast == CastKind::BitCast &&
        X->getType()->getPrimitiveSizeInBits() !=
            T->getPrimitiveSizeInBits()) {
      failAt(I, "operand and result have different sizes");
      return true;
    }
    Value *V = emitComponentUnary(B, I.Opcode, X, T);
    if (V->getType() != T) {
      failAt(I, "operand and result types do not match");
      return true;
    }
    set(Id, V);
    return true;
  }
  return emitEvaluated(I, Info);
}

bool InvocationEmitter::emitEvaluated(const Instruction &I,
                                      const OpcodeInfo &Info) {
  uint32_t Id = I.Result.value();
  // How the opcode table says the value is computed.
  switch (Info.Eval) {
  case EvalKind::Select: {
    // Pointers are not values here (variable pointers).
    if (M.type(I.ResultType).Kind == TypeKind::Pointer) {
      emitPointerSelect(I);
      return true;
    }
    Value *C = get(I.Operands[0]), *X = get(I.Operands[1]),
          *Y = get(I.Operands[2]);
    if (X->getType() != Y->getType()) {
      failAt(I, "operands have different types");
      return true;
    }
    set(Id, B.CreateSelect(C, X, Y));
    return true;
  }
  case EvalKind::Scale: {
    // A vector times a scalar, or each column of a matrix.
    Value *X = get(I.Operands[0]), *S = get(I.Operands[1]);
    auto *AT = dyn_cast<ArrayType>(X->getType());
    if (!AT) {
      set(Id, B.CreateFMul(X, splatTo(B, S, X->getType())));
      return true;
    }
    if (!isa<FixedVectorType>(AT->getElementType())) {
      failAt(I, "operand must be a matrix");
      return true;
    }
    Value *R = PoisonValue::get(typeOf(I.ResultType));
    for (unsigned C = 0; C < AT->getNumElements(); ++C) {
      Value *Col = B.CreateExtractValue(X, C);
      R = B.CreateInsertValue(
          R, B.CreateFMul(Col, splatTo(B, S, Col->getType())), C);
    }
    set(Id, R);
    return true;
  }
  case EvalKind::Dot:
    set(Id, dot(B, get(I.Operands[0]), get(I.Operands[1])));
    return true;
  case EvalKind::Reduce: {
    // Any and all: the components combined by Bin, in order.
    Value *X = get(I.Operands[0]);
    auto *VT = dyn_cast<FixedVectorType>(X->getType());
    if (!VT) {
      failAt(I, "operand must be a vector");
      return true;
    }
    Value *R = B.CreateExtractElement(X, uint64_t(0));
    for (unsigned C = 1; C < VT->getNumElements(); ++C)
      R = emitBinaryOp(B, Info.Bin, R,
                       B.CreateExtractElement(X, uint64_t(C)));
    set(Id, R);
    return true;
  }
  case EvalKind::FloatTest:
    set(Id, emitFloatTest(B, Info.Cmp, get(I.Operands[0])));
    return true;
  case EvalKind::Undef:
    set(Id, Constant::getNullValue(typeOf(I.ResultType)));
    return true;
  case EvalKind::Quantize: {
    Value *X = get(I.Operands[0]);
    if (!X->getType()->isFPOrFPVectorTy() ||
        !X->getType()->getScalarType()->isFloatTy() ||
        X->getType() != typeOf(I.ResultType)) {
      failAt(I, "operand and result must be the same 32-bit float type");
      return true;
    }
    MathBuilder MB(B, *LM);
    set(Id, MB.quantizeToF16(X));
    return true;
  }
  case EvalKind::BitFieldInsert:
  case EvalKind::BitFieldExtract: {
    bool Insert = Info.Eval == EvalKind::BitFieldInsert;
    Value *X = get(I.Operands[0]);
    Value *Ins = Insert ? get(I.Operands[1]) : nullptr;
    Type *T = X->getType();
    if (!T->isIntOrIntVectorTy() || (Ins && Ins->getType() != T)) {
      failAt(I, "base and insert must be integers of the result's type");
      return true;
    }
    // Offset and count are scalars of any width: match X's shape.
    auto Amount = [&](size_t K) {
      Value *A = get(I.Operands[K]);
      A = B.CreateZExtOrTrunc(A, T->getScalarType());
      return splatTo(B, A, T);
    };
    Value *Off = Amount(Insert ? 2 : 1), *Cnt = Amount(Insert ? 3 : 2);
    set(Id, Insert ? emitBitFieldInsert(B, X, Ins, Off, Cnt)
                   : emitBitFieldExtract(B, X, Off, Cnt,
                                         Info.Cast == CastKind::SExt));
    return true;
  }
  case EvalKind::WithOverflow:
  case EvalKind::ExtendedMul: {
    // Result struct {result or low bits, carry or high bits}.
    Value *X = get(I.Operands[0]), *Y = get(I.Operands[1]);
    Type *T = X->getType();
    if (!T->isIntOrIntVectorTy() || Y->getType() != T) {
      failAt(I, "operands must be integers of one type");
      return true;
    }
    auto [Lo, Hi] = Info.Eval == EvalKind::WithOverflow
                        ? emitWithOverflow(B, Info.Intr, X, Y)
                        : emitExtendedMul(B, Info.Cast, X, Y);
    Type *RT = typeOf(I.ResultType);
    auto *ST = dyn_cast<StructType>(RT);
    if (!ST || ST->getNumElements() != 2 || ST->getElementType(0) != T ||
        ST->getElementType(1) != T) {
      failAt(I, "result must be a struct of two members of the operands' type");
      return true;
    }
    Value *R = B.CreateInsertValue(PoisonValue::get(RT), Lo, 0);
    set(Id, B.CreateInsertValue(R, Hi, 1));
    return true;
  }
  case EvalKind::UnaryIntrinsic: {
    Value *X = get(I.Operands[0]);
    if (!X->getType()->isIntOrIntVectorTy()) {
      failAt(I, "operand must be an integer");
      return true;
    }
    Value *R = B.CreateUnaryIntrinsic(llvmIntrinsic(Info.Intr), X);
    // OpBitCount's result may be narrower or wider than its operand.
    set(Id, B.CreateZExtOrTrunc(R, typeOf(I.ResultType)));
    return true;
  }
  default:
    return false;
  }
}

bool InvocationEmitter::emitComposite(const Instruction &I) {
  uint32_t Id = I.Result.value();
  switch (opcodeInfo(I.Opcode).Eval) {
  case EvalKind::Member:
    return emitMember(I);
  case EvalKind::Construct: {
    Type *T = typeOf(I.ResultType);
    Value *R = PoisonValue::get(T);
    if (auto *VT = dyn_cast<FixedVectorType>(T)) {
      unsigned Pos = 0;
      for (size_t K = 0; K < I.Operands.size(); ++K) {
        Value *C = get(I.Operands[K]);
        if (auto *CT = dyn_cast<FixedVectorType>(C->getType())) {
          for (unsigned E = 0; E < CT->getNumElements(); ++E)
            if (Pos < VT->getNumElements())
              R = B.CreateInsertElement(
                  R, B.CreateExtractElement(C, uint64_t(E)), uint64_t(Pos++));
        } else if (Pos < VT->getNumElements()) {
          R = B.CreateInsertElement(R, C, uint64_t(Pos++));
        }
      }
      if (Pos != VT->getNumElements()) {
        failAt(I, "constituents do not fill the vector");
        return true;
      }
    } else {
      for (size_t K = 0; K < I.Operands.size(); ++K) {
        Value *C = get(I.Operands[K]);
        Type *ET = ExtractValueInst::getIndexedType(T, unsigned(K));
        if (ET != C->getType()) {
          failAt(I, "constituent " + Twine(K) +
                        " does not have the element's type");
          return true;
        }
        R = B.CreateInsertValue(R, C, unsigned(K));
      }
    }
    set(Id, R);
    return true;
  }
  case EvalKind::Shuffle: {
    Value *X = get(I.Operands[0]), *Y = get(I.Operands[1]);
    auto *XT = dyn_cast<FixedVectorType>(X->getType());
    auto *YT = dyn_cast<FixedVectorType>(Y->getType());
    if (!XT || !YT) {
      failAt(I, "operands must be vectors");
      return true;
    }
    unsigned NX = XT->getNumElements(), NY = YT->getNumElements();
    SmallVector<int, 8> Mask;
    for (size_t K = 2; K < I.Operands.size(); ++K) {
      uint32_t S = I.Operands[K];
      // 0xFFFFFFFF is an undefined component: component 0, deterministic.
      Mask.push_back(S == 0xFFFFFFFFu || S >= NX + NY ? 0 : int(S));
    }
    if (NX == NY) {
      set(Id, B.CreateShuffleVector(X, Y, Mask));
      return true;
    }
    Value *R = PoisonValue::get(typeOf(I.ResultType));
    for (size_t K = 0; K < Mask.size(); ++K) {
      unsigned S = unsigned(Mask[K]);
      Value *E = S < NX ? B.CreateExtractElement(X, uint64_t(S))
                        : B.CreateExtractElement(Y, uint64_t(S - NX));
      R = B.CreateInsertElement(R, E, uint64_t(K));
    }
    set(Id, R);
    return true;
  }
  default:
    return false;
  }
}

bool InvocationEmitter::emitMember(const Instruction &I) {
  uint32_t Id = I.Result.value();
  std::optional<MemberAccess> A = decodeMemberAccess(I);
  if (!A) {
    failAt(I, "missing operands");
    return true;
  }
  if (A->Dynamic) {
    Value *V = get(A->Composite);
    Value *Idx = get(A->IndexId);
    auto *VT = dyn_cast<FixedVectorType>(V->getType());
    if (!VT || !Idx->getType()->isIntegerTy()) {
      failAt(I, "operands must be a vector and an integer index");
      return true;
    }
    // An out-of-range index reads or writes the last component instead of
    // making poison.
    Idx = B.CreateBinaryIntrinsic(
        Intrinsic::umin, Idx,
        ConstantInt::get(Idx->getType(), VT->getNumElements() - 1));
    set(Id, A->Write ? B.CreateInsertElement(V, get(A->Object), Idx)
                     : B.CreateExtractElement(V, Idx));
    return true;
  }
  ArrayRef<uint32_t> Path = A->Literals;
  if (!A->Write) {
    Value *V = get(A->Composite);
    for (size_t K = 0; K < Path.size(); ++K) {
      Type *T = V->getType();
      if (isa<FixedVectorType>(T)) {
        // A vector component is always the last index.
        if (K + 1 != Path.size() ||
            Path[K] >= cast<FixedVectorType>(T)->getNumElements()) {
          failAt(I, "index out of range");
          return true;
        }
        V = B.CreateExtractElement(V, uint64_t(Path[K]));
        continue;
      }
      if (!ExtractValueInst::getIndexedType(T, Path[K])) {
        failAt(I, "index out of range");
        return true;
      }
      V = B.CreateExtractValue(V, Path[K]);
    }
    set(Id, V);
    return true;
  }
  Value *Obj = get(A->Object), *Comp = get(A->Composite);
  // Walk down, remembering each level, then rebuild upwards.
  SmallVector<Value *, 4> Levels{Comp};
  for (size_t K = 0; K < Path.size(); ++K) {
    Type *T = Levels.back()->getType();
    bool Ok = isa<FixedVectorType>(T)
                  ? Path[K] < cast<FixedVectorType>(T)->getNumElements() &&
                        K + 1 == Path.size()
                  : ExtractValueInst::getIndexedType(T, Path[K]) != nullptr;
    if (!Ok) {
      failAt(I, "index out of range");
      return true;
    }
    if (K + 1 < Path.size())
      Levels.push_back(B.CreateExtractValue(Levels.back(), Path[K]));
  }
  Value *V = Obj;
  for (size_t K = Path.size(); K-- > 0;) {
    Value *Outer = Levels[K];
    V = isa<FixedVectorType>(Outer->getType())
            ? B.CreateInsertElement(Outer, V, uint64_t(Path[K]))
            : B.CreateInsertValue(Outer, V, Path[K]);
  }
  if (V->getType() != Comp->getType()) {
    failAt(I, "result does not have the composite's type");
    return true;
  }
  set(Id, V);
  return true;
}

bool InvocationEmitter::emitMatrix(const Instruction &I) {
  uint32_t Id = I.Result.value();
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  auto Columns = [&](Value *Mat) {
    SmallVector<Value *, 4> Cols;
    auto *AT = cast<ArrayType>(Mat->getType());
    for (unsigned C = 0; C < AT->getNumElements(); ++C)
      Cols.push_back(B.CreateExtractValue(Mat, C));
    return Cols;
  };
  auto Build = [&](ArrayRef<Value *> Cols) {
    Value *R = PoisonValue::get(typeOf(I.ResultType));
    for (unsigned C = 0; C < Cols.size(); ++C)
      R = B.CreateInsertValue(R, Cols[C], C);
    return R;
  };
  // sum over k of Cols[k] * Elem(k): one column of a product.
  auto Combine = [&](ArrayRef<Value *> Cols,
                     function_ref<Value *(uint64_t)> Elem) {
    Value *Sum = nullptr;
    for (unsigned K = 0; K < Cols.size(); ++K) {
      Value *P = B.CreateFMul(Cols[K], splatTo(B, Elem(K), Cols[K]->getType()));
      Sum = Sum ? B.CreateFAdd(Sum, P) : P;
    }
    return Sum;
  };
  auto IsMatrix = [&](Value *V) {
    auto *AT = dyn_cast<ArrayType>(V->getType());
    return AT && AT->getNumElements() &&
           isa<FixedVectorType>(AT->getElementType());
  };
  switch (Info.Eval) {
  case EvalKind::Transpose: {
    Value *X = get(I.Operands[0]);
    if (!IsMatrix(X)) {
      failAt(I, "operand must be a matrix");
      return true;
    }
    SmallVector<Value *, 4> Cols = Columns(X);
    auto *RT = cast<ArrayType>(typeOf(I.ResultType));
    SmallVector<Value *, 4> Out;
    for (unsigned R = 0; R < RT->getNumElements(); ++R) {
      Value *Col = PoisonValue::get(RT->getElementType());
      for (unsigned C = 0; C < Cols.size(); ++C)
        Col = B.CreateInsertElement(
            Col, B.CreateExtractElement(Cols[C], uint64_t(R)), uint64_t(C));
      Out.push_back(Col);
    }
    set(Id, Build(Out));
    return true;
  }
  case EvalKind::Scale:
    return emitEvaluated(I, Info);
  case EvalKind::Product: {
    // Lhs times Rhs, each a matrix (an array of columns), a vector taken
    // as one column or a vector taken as one row (Lhs=, Rhs=).
    using MK = MatrixOperandKind;
    Value *X = get(I.Operands[0]), *Y = get(I.Operands[1]);
    if ((Info.Lhs == MK::Matrix && !IsMatrix(X)) ||
        (Info.Rhs == MK::Matrix && !IsMatrix(Y))) {
      failAt(I, Info.Lhs == Info.Rhs ? "operands must be matrices"
                                     : "operand must be a matrix");
      return true;
    }
    if ((Info.Lhs != MK::Matrix && !isa<FixedVectorType>(X->getType())) ||
        (Info.Rhs != MK::Matrix && !isa<FixedVectorType>(Y->getType()))) {
      failAt(I, Info.Lhs == MK::Matrix || Info.Rhs == MK::Matrix
                    ? "operand must be a vector"
                    : "operands must be vectors");
      return true;
    }
    if (Info.Lhs == MK::Row) {
      // A row times a matrix: one dot product per column.
      Value *R = PoisonValue::get(typeOf(I.ResultType));
      SmallVector<Value *, 4> Cols = Columns(Y);
      for (unsigned C = 0; C < Cols.size(); ++C)
        R = B.CreateInsertElement(R, dot(B, X, Cols[C]), uint64_t(C));
      set(Id, R);
      return true;
    }
    // Column c of the result: Lhs's columns weighted by column c of Rhs.
    SmallVector<Value *, 4> LhsCols =
        Info.Lhs == MK::Matrix ? Columns(X) : SmallVector<Value *, 4>{X};
    auto Element = [&](Value *V) {
      return [&, V](uint64_t K) { return B.CreateExtractElement(V, K); };
    };
    if (Info.Rhs == MK::Column) {
      set(Id, Combine(LhsCols, Element(Y)));
      return true;
    }
    SmallVector<Value *, 4> Out;
    if (Info.Rhs == MK::Matrix) {
      for (Value *YC : Columns(Y))
        Out.push_back(Combine(LhsCols, Element(YC)));
    } else {
      // A row: column c is its component c alone.
      unsigned N = cast<FixedVectorType>(Y->getType())->getNumElements();
      for (unsigned C = 0; C < N; ++C)
        Out.push_back(Combine(LhsCols, [&](uint64_t) {
          return B.CreateExtractElement(Y, uint64_t(C));
        }));
    }
    set(Id, Build(Out));
    return true;
  }
  default:
    return false;
  }
}

/// One GLSL.std.450 instruction being emitted: its operand values and
/// result type, and one method per group of forms (GlslFormKind). A member
/// of InvocationEmitter, so it reaches the emitter's values.
struct InvocationEmitter::GlslCall {
  InvocationEmitter &E;
  const Instruction &I;
  const GlslStd450Info &Info;
  const std::string What;
  const uint32_t Id;
  Type *RT;
  /// The value operands (not Modf's and Frexp's pointer).
  SmallVector<Value *, 3> Args;
  IRBuilder<> &B;
  MathBuilder MB;

  bool fail(const Twine &Msg) {
    E.failAt(I, What + ": " + Msg);
    return false;
  }
  bool need(size_t N) {
    if (Args.size() == N)
      return true;
    E.failAt(I, What + " takes " + Twine(N) + " operands, not " +
                    Twine(Args.size()));
    return false;
  }
  bool done(Value *V) {
    E.set(Id, V);
    return true;
  }

  bool componentWise();
  bool geometry(); ///< Length, Normalize, Cross, Reflect, FaceForward, Refract
  bool secondResult(); ///< Modf, Frexp
  bool matrix();       ///< Determinant, MatrixInverse
  bool findBit();
  bool packing(); ///< Pack, Unpack
};

bool InvocationEmitter::emitGlslStd450(const Instruction &I) {
  if (I.Operands.size() < 2 || !I.Result.value()) {
    failAt(I, "GLSL.std.450 instruction without an instruction number or "
              "result");
    return false;
  }
  const uint32_t Inst = I.Operands[1];
  const GlslStd450Info &Info = glslStd450Info(Inst);
  const char *Name = glslStd450Name(Inst);
  GlslCall C{*this,
             I,
             Info,
             "GLSL.std.450 " + (Name ? std::string(Name) : std::to_string(Inst)),
             I.Result.value(),
             typeOf(I.ResultType),
             {},
             B,
             MathBuilder(B, *LM)};
  for (size_t K = 2; K < I.Operands.size(); ++K) {
    // Modf and Frexp write their second result through a pointer.
    if (Info.Out == GlslOutKind::Pointer && K == 3)
      continue;
    if (Pointers.count(I.Operands[K])) {
      failAt(I, "unsupported: " + C.What + " with a pointer operand in the "
                "invocation back end");
      return false;
    }
    C.Args.push_back(get(I.Operands[K]));
  }
  switch (Info.Form) {
  case GlslFormKind::ComponentWise:
    return C.componentWise();
  case GlslFormKind::Length:
  case GlslFormKind::Normalize:
  case GlslFormKind::Cross:
  case GlslFormKind::Reflect:
  case GlslFormKind::FaceForward:
  case GlslFormKind::Refract:
    return C.geometry();
  case GlslFormKind::Modf:
  case GlslFormKind::Frexp:
    return C.secondResult();
  case GlslFormKind::Determinant:
  case GlslFormKind::MatrixInverse:
    return C.matrix();
  case GlslFormKind::Ldexp:
    return C.need(2) && C.done(C.MB.ldexp(C.Args[0], C.Args[1]));
  case GlslFormKind::FindBit:
    return C.findBit();
  case GlslFormKind::Pack:
  case GlslFormKind::Unpack:
    return C.packing();
  case GlslFormKind::PackDouble:
  case GlslFormKind::UnpackDouble:
    // uvec2 <-> double: the same 64 bits, the first component the low word
    // (little-endian, as LLVM's vector bitcast).
    return C.need(1) && C.done(B.CreateBitCast(C.Args[0], C.RT));
  case GlslFormKind::Interpolate:
  case GlslFormKind::None:
    break;
  }
  failAt(I, "unsupported: " + C.What + " in the invocation back end");
  return false;
}

bool InvocationEmitter::GlslCall::componentWise() {
  GlslComponentOp Op = glslComponentOp(B, MB, I.Operands[1]);
  assert(Op.Map && "a ComponentWise form without a component operation");
  bool Float = RT->getScalarType()->isFloatingPointTy();
  if (Float != Op.FloatOp || Args.empty())
    return fail(Twine("result type must be ") +
                (Op.FloatOp ? "floating-point" : "integer"));
  for (Value *X : Args)
    if (X->getType() != RT)
      return fail("operands must have the result's type");
  return done(Op.Transcendental ? MB.viaFloat(Args, Op.Map) : Op.Map(Args));
}

bool InvocationEmitter::GlslCall::geometry() {
  const GlslFormKind Form = Info.Form;
  switch (Form) {
  case GlslFormKind::Length: {
    // Length with two operands is Distance: the length of x - y.
    if (!need(Info.OperandCount))
      return false;
    Value *X = Args[0];
    // Unvalidated input: operands of one float type, a scalar result of
    // their component type (as the SIMD back end checks).
    if (!X->getType()->isFPOrFPVectorTy() ||
        (Args.size() == 2 && Args[1]->getType() != X->getType()) ||
        RT != X->getType()->getScalarType())
      return fail("operands and result have different types");
    if (Args.size() == 2)
      X = B.CreateFSub(X, Args[1]);
    // A scalar's length is exact; the vector formula would overflow.
    return done(isa<FixedVectorType>(X->getType())
                    ? MB.unary(Intrinsic::sqrt, dot(B, X, X))
                    : MB.unary(Intrinsic::fabs, X));
  }
  case GlslFormKind::Normalize: {
    if (!need(1))
      return false;
    Value *X = Args[0];
    if (!X->getType()->isFPOrFPVectorTy() || X->getType() != RT)
      return fail("operand and result have different types");
    Value *Len = isa<FixedVectorType>(X->getType())
                     ? MB.unary(Intrinsic::sqrt, dot(B, X, X))
                     : MB.unary(Intrinsic::fabs, X);
    return done(B.CreateFDiv(X, splatTo(B, Len, X->getType())));
  }
  case GlslFormKind::Cross: {
    if (!need(2))
      return false;
    Value *X = Args[0], *Y = Args[1];
    auto *VT = dyn_cast<FixedVectorType>(X->getType());
    if (!VT || VT->getNumElements() != 3 || Y->getType() != VT)
      return fail("operands must be 3-component vectors");
    // x.yzx * y.zxy - y.yzx * x.zxy
    SmallVector<int, 3> YZX{1, 2, 0}, ZXY{2, 0, 1};
    Value *L = B.CreateFMul(B.CreateShuffleVector(X, YZX),
                            B.CreateShuffleVector(Y, ZXY));
    Value *R = B.CreateFMul(B.CreateShuffleVector(Y, YZX),
                            B.CreateShuffleVector(X, ZXY));
    return done(B.CreateFSub(L, R));
  }
  case GlslFormKind::Reflect: {
    if (!need(2))
      return false;
    // I - 2 * dot(N, I) * N
    Value *In = Args[0], *N = Args[1];
    Value *D = dot(B, N, In);
    Value *D2 = B.CreateFMul(ConstantFP::get(D->getType(), 2.0), D);
    return done(
        B.CreateFSub(In, B.CreateFMul(splatTo(B, D2, N->getType()), N)));
  }
  case GlslFormKind::FaceForward: {
    if (!need(3))
      return false;
    // dot(Nref, I) < 0 ? N : -N
    Value *D = dot(B, Args[2], Args[1]);
    Value *Front = B.CreateFCmpOLT(D, ConstantFP::get(D->getType(), 0.0));
    return done(B.CreateSelect(Front, Args[0], B.CreateFNeg(Args[0])));
  }
  default: {
    // Refract
    if (!need(3))
      return false;
    // k = 1 - eta^2 * (1 - dot(N, I)^2);
    // k < 0 ? 0 : eta * I - (eta * dot(N, I) + sqrt(k)) * N
    Value *In = Args[0], *N = Args[1];
    Type *T = In->getType();
    Value *D = dot(B, N, In);
    Type *ST = D->getType();
    Value *Eta = B.CreateFPCast(Args[2], ST);
    Value *One = MB.fconst(ST, 1.0);
    Value *K = B.CreateFSub(
        One, B.CreateFMul(B.CreateFMul(Eta, Eta),
                          B.CreateFSub(One, B.CreateFMul(D, D))));
    Value *Total = B.CreateFCmpOLT(K, MB.fconst(ST, 0.0));
    Value *S = B.CreateFAdd(B.CreateFMul(Eta, D), MB.unary(Intrinsic::sqrt, K));
    Value *V = B.CreateFSub(B.CreateFMul(splatTo(B, Eta, T), In),
                            B.CreateFMul(splatTo(B, S, T), N));
    return done(B.CreateSelect(Total, Constant::getNullValue(T), V));
  }
  }
}

bool InvocationEmitter::GlslCall::secondResult() {
  if (!need(1))
    return false;
  bool IsModf = Info.Form == GlslFormKind::Modf;
  bool Struct = Info.Out == GlslOutKind::Struct;
  Value *X = Args[0];
  Type *T = X->getType();
  if (!T->isFPOrFPVectorTy())
    return fail("operand must be floating-point");
  // The second result's type: the struct's second member or the pointee.
  InvPointer P;
  Type *SecondT = nullptr;
  if (Struct) {
    auto *ST = dyn_cast<StructType>(RT);
    if (!ST || ST->getNumElements() != 2 || ST->getElementType(0) != T)
      return fail("result must be a struct of x's type and the second part");
    SecondT = ST->getElementType(1);
  } else {
    if (I.Operands.size() != 4 || !E.pointerOf(I, I.Operands[3], P))
      return false;
    SecondT = E.typeOf(P.Pointee);
    if (RT != T)
      return fail("result does not have x's type");
  }
  Value *First, *Second;
  if (IsModf) {
    std::tie(First, Second) = MB.modf(X);
  } else {
    auto [Mant, Exp] = MB.frexp(X);
    First = Mant;
    Second = SecondT->isIntOrIntVectorTy() ? B.CreateSExtOrTrunc(Exp, SecondT)
                                           : nullptr;
  }
  if (!Second || Second->getType() != SecondT)
    return fail("the second part does not have the right type");
  if (Struct) {
    Value *R = B.CreateInsertValue(PoisonValue::get(RT), First, 0);
    return done(B.CreateInsertValue(R, Second, 1));
  }
  E.store(P, Second);
  return done(First);
}

bool InvocationEmitter::GlslCall::matrix() {
  if (!need(1))
    return false;
  bool Inverse = Info.Form == GlslFormKind::MatrixInverse;
  auto *MT = dyn_cast<ArrayType>(Args[0]->getType());
  auto *CT = MT ? dyn_cast<FixedVectorType>(MT->getElementType()) : nullptr;
  unsigned N = MT ? unsigned(MT->getNumElements()) : 0;
  if (!CT || CT->getNumElements() != N || N < 2 || N > 4 ||
      !CT->getElementType()->isFloatingPointTy())
    return fail("operand must be a square floating-point matrix");
  if (!Inverse ? RT != CT->getElementType() : RT != MT)
    return fail("result type does not match the matrix");
  SmallVector<Value *, 16> Cols(N * N); // column-major
  for (unsigned C = 0; C < N; ++C) {
    Value *Col = B.CreateExtractValue(Args[0], C);
    for (unsigned R = 0; R < N; ++R)
      Cols[C * N + R] = B.CreateExtractElement(Col, uint64_t(R));
  }
  SmallVector<Value *, 16> Out = MB.determinantOrInverse(Cols, N, Inverse);
  if (!Inverse)
    return done(Out[0]);
  Value *R = PoisonValue::get(RT);
  for (unsigned C = 0; C < N; ++C) {
    Value *Col = PoisonValue::get(CT);
    for (unsigned Rw = 0; Rw < N; ++Rw)
      Col = B.CreateInsertElement(Col, Out[C * N + Rw], uint64_t(Rw));
    R = B.CreateInsertValue(R, Col, C);
  }
  return done(R);
}

bool InvocationEmitter::GlslCall::findBit() {
  if (!need(1))
    return false;
  Value *V = Args[0];
  Type *T = V->getType();
  if (!T->isIntOrIntVectorTy() || T != RT)
    return fail("operand and result must be the same integer type");
  return done(MB.findBit(V, Info.Find != GlslFindKind::Lsb,
                         Info.Find == GlslFindKind::SMsb));
}

bool InvocationEmitter::GlslCall::packing() {
  if (!need(1))
    return false;
  GlslPacking PK = *glslPacking(I.Operands[1]);
  Type *I32 = B.getInt32Ty();
  auto *FloatVec = FixedVectorType::get(B.getFloatTy(), PK.Count);
  Type *In = Args[0]->getType();
  if (PK.Pack ? (In != FloatVec || RT != I32) : (In != I32 || RT != FloatVec))
    return fail(Twine(PK.Pack ? "operand" : "result") +
                " must be a vector of " + Twine(PK.Count) +
                " 32-bit floats and " + (PK.Pack ? "result" : "operand") +
                " a 32-bit integer");
  if (PK.Pack) {
    SmallVector<Value *, 4> Comps;
    for (unsigned C = 0; C < PK.Count; ++C)
      Comps.push_back(B.CreateExtractElement(Args[0], uint64_t(C)));
    return done(MB.packComponents(Comps, I32, PK.Bits, PK.Snorm, PK.Half));
  }
  Value *R = PoisonValue::get(RT);
  SmallVector<Value *, 4> Comps = MB.unpackComponents(
      Args[0], B.getFloatTy(), PK.Count, PK.Bits, PK.Snorm, PK.Half);
  for (unsigned C = 0; C < PK.Count; ++C)
    R = B.CreateInsertElement(R, Comps[C], uint64_t(C));
  return done(R);
}

} // namespace spirv2llvm::invocation
