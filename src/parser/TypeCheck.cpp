//===- TypeCheck.cpp - Operand and result types of function code ----------===//
//
// The code generator picks LLVM operations from the SPIR-V opcode and the
// result type, so an unvalidated module whose operand types do not fit its
// opcode (an OpFRem of integers, a load through a non-pointer, a branch on
// an integer) would give IR that does not verify, or worse. This pass checks,
// for the instructions whose lowering depends on it, that operand and result
// types have the kinds, widths and component counts the opcode requires, and
// that literal indices are in range. spirv-val checks the same (and more);
// this is what stands between --no-validate input and the emitter.
//
// Types are compared by structure, not by id: unvalidated modules may
// declare the same scalar or vector type twice. Signedness is ignored, as
// it is by the emitter (SPIR-V says it by opcode).
//
//===----------------------------------------------------------------------===//
#include "parser/Parser.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"
#include "support/Limits.h"

#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

using spv::Op;

class TypeChecker {
public:
  explicit TypeChecker(const Module &M) : M(M) {}
  Error run();

private:
  Error check(const Function &F, const Instruction &I);
  Error checkShape(const Instruction &I, const Type *R);
  // One per opcode that check() sends on.
  Error checkVectorShuffle(const Instruction &I, const Type *R);
  Error checkVectorExtractDynamic(const Instruction &I, const Type *R);
  Error checkVectorInsertDynamic(const Instruction &I, const Type *R);
  Error checkBranchConditional(const Function &F, const Instruction &I);
  Error checkSwitch(const Function &F, const Instruction &I);
  Error checkPhi(const Function &F, const Instruction &I);
  Error checkReturnValue(const Function &F, const Instruction &I);
  Error checkReturn(const Function &F, const Instruction &I);
  Error checkFunctionCall(const Function &F, const Instruction &I);
  Error checkAtomic(const Instruction &I, AtomicForm Form);
  Error checkBitField(const Instruction &I, const Type *R);
  Error checkPointerOperands(const Instruction &I, const Type *R);
  Error needOperands(const Instruction &I, size_t N) const;
  /// Whether result type \p R is a scalar or vector of \p Kind (\p What
  /// names it in the message).
  Error resultIs(const Instruction &I, const Type *R, TypeKind Kind,
                 const char *What) const;
  Error checkAccessChain(const Instruction &I);
  Error checkConstruct(const Instruction &I);
  Error checkValueSize(const Instruction &I);
  // One per group of operand shapes that checkShape() sends on.
  Error checkSubgroup(const Instruction &I, OperandShape Shape);
  Error checkMatrixOp(const Instruction &I, const Type *R, OperandShape Shape);
  Error checkExtendedInt(const Instruction &I, const Type *R);
  Error checkDot(const Instruction &I, const Type *R);
  Error checkCompositeIndices(const Instruction &I, uint32_t Composite,
                              size_t FirstIndex, uint32_t Expected);

  Error errorAt(const Instruction &I, const Twine &Msg) const {
    return makeErrorAt(I.WordOffset, opName(I.Opcode) + ": " + Msg);
  }
  std::string name(uint32_t Id) const { return M.friendlyName(Id); }

  /// The type of value \p Id, or nullptr when it has none (a label, say).
  const Type *typeOfValue(uint32_t Id) const {
    TypeId T = M.typeOf(Id);
    return T ? M.findType(T.value()) : nullptr;
  }
  /// Scalar kind of a scalar or vector type (Void/Unsupported otherwise).
  static const Type *scalarOf(const Module &M, const Type *T) {
    if (!T)
      return nullptr;
    if (T->Kind == TypeKind::Vector)
      return M.findType(T->Element.value());
    if (T->Kind == TypeKind::Int || T->Kind == TypeKind::Float ||
        T->Kind == TypeKind::Bool)
      return T;
    return nullptr;
  }
  static uint32_t countOf(const Type *T) {
    return T && T->Kind == TypeKind::Vector ? T->Count : 1;
  }
  /// Whether \p T is a scalar or vector of \p Kind.
  bool isScalarOrVectorOf(const Type *T, TypeKind Kind) const {
    const Type *S = scalarOf(M, T);
    return S && S->Kind == Kind;
  }
  bool sameType(uint32_t A, uint32_t B, unsigned Depth = 0) const;
  /// "operand %x of type %t is not <What>".
  Error wrongOperand(const Instruction &I, uint32_t Id, const Twine &What) {
    TypeId T = M.typeOf(Id);
    return errorAt(I, "operand " + name(Id) + " of type " +
                          (T ? name(T.value()) : std::string("(none)")) +
                          " is not " + What);
  }
  /// Operand \p K is a scalar/vector of \p Kind with the result's component
  /// count (and width, unless \p AnyWidth).
  Error expectLike(const Instruction &I, size_t K, TypeKind Kind,
                   const Type *Result, bool AnyWidth = false);

  const Module &M;
};

bool TypeChecker::sameType(uint32_t A, uint32_t B, unsigned Depth) const {
  if (A == B)
    return true;
  const Type *TA = M.findType(A), *TB = M.findType(B);
  // Types nest at most MaxTypeDepth deep (checked when they are built);
  // the bound here only keeps a forged module from recursing without end.
  if (!TA || !TB || TA->Kind != TB->Kind || Depth > 1024)
    return false;
  switch (TA->Kind) {
  case TypeKind::Void:
  case TypeKind::Bool:
    return true;
  case TypeKind::Int:
  case TypeKind::Float:
    return TA->Width == TB->Width;
  case TypeKind::Vector:
  case TypeKind::Matrix:
  case TypeKind::Array:
    return TA->Count == TB->Count &&
           sameType(TA->Element.value(), TB->Element.value(), Depth + 1);
  case TypeKind::Struct:
    // Distinct struct ids may differ in layout decorations.
    return false;
  case TypeKind::Pointer:
    return TA->Storage == TB->Storage && TA->Element == TB->Element;
  default:
    return false;
  }
}

Error TypeChecker::expectLike(const Instruction &I, size_t K, TypeKind Kind,
                              const Type *Result, bool AnyWidth) {
  uint32_t Id = I.Operands[K];
  const Type *T = typeOfValue(Id);
  const Type *S = scalarOf(M, T);
  const char *KindName = Kind == TypeKind::Float ? "a float"
                         : Kind == TypeKind::Int ? "an integer"
                                                 : "a boolean";
  if (!S || S->Kind != Kind)
    return wrongOperand(I, Id, Twine(KindName) + " scalar or vector");
  if (Result && countOf(T) != countOf(Result))
    return wrongOperand(I, Id,
                        "of the result's component count (" +
                            Twine(countOf(Result)) + ")");
  const Type *RS = scalarOf(M, Result);
  if (!AnyWidth && RS && RS->Kind == Kind && RS->Width != S->Width)
    return wrongOperand(I, Id, "of the result's width (" +
                                   Twine(RS->Width) + " bits)");
  return Error::success();
}

Error TypeChecker::checkAccessChain(const Instruction &I) {
  // Operands: base, indices. Struct indices must be constants in range;
  // the others must be integers.
  const Type *Ptr = typeOfValue(I.Operands[0]);
  if (!Ptr || Ptr->Kind != TypeKind::Pointer)
    return wrongOperand(I, I.Operands[0], "a pointer");
  const Type *Cur = M.findType(Ptr->Element.value());
  size_t First = I.Opcode == Op::OpPtrAccessChain ? 2 : 1;
  if (First == 2 && !isScalarOrVectorOf(typeOfValue(I.Operands[1]),
                                        TypeKind::Int))
    return wrongOperand(I, I.Operands[1], "an integer");
  for (size_t K = First; K < I.Operands.size(); ++K) {
    uint32_t Index = I.Operands[K];
    const Type *IT = typeOfValue(Index);
    if (!IT || IT->Kind != TypeKind::Int)
      return wrongOperand(I, Index, "an integer scalar");
    if (!Cur)
      return errorAt(I, "index " + Twine(K - First) +
                            " goes into a type that has no parts");
    switch (Cur->Kind) {
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
    case TypeKind::RuntimeArray:
      Cur = M.findType(Cur->Element.value());
      break;
    case TypeKind::Struct: {
      const Constant *C = M.findConstant(Index);
      if (!C || C->Kind != ConstantKind::Scalar || C->IsSpec)
        return errorAt(I, "struct index " + name(Index) +
                              " is not an integer constant");
      uint64_t N = C->scalarBits();
      if (N >= Cur->Members.size())
        return errorAt(I, "struct index " + Twine(N) + " is out of range (" +
                              name(Cur->Id.value()) + " has " +
                              Twine(Cur->Members.size()) + " members)");
      Cur = M.findType(Cur->Members[N].value());
      break;
    }
    default:
      return errorAt(I, "index " + Twine(K - First) + " goes into " +
                            name(Cur->Id.value()) + ", which has no parts");
    }
  }
  const Type *R = M.findType(I.ResultType.value());
  if (!R || R->Kind != TypeKind::Pointer || !Cur ||
      !sameType(R->Element.value(), Cur->Id.value()))
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not a pointer to the indexed type" +
                          (Cur ? " " + name(Cur->Id.value()) : ""));
  return Error::success();
}

Error TypeChecker::checkCompositeIndices(const Instruction &I,
                                         uint32_t Composite, size_t FirstIndex,
                                         uint32_t Expected) {
  const Type *Cur = typeOfValue(Composite);
  if (!Cur)
    return wrongOperand(I, Composite, "a composite");
  for (size_t K = FirstIndex; K < I.Operands.size(); ++K) {
    uint32_t N = I.Operands[K];
    uint32_t Parts = 0;
    TypeId Next;
    switch (Cur->Kind) {
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      Parts = Cur->Count;
      Next = Cur->Element;
      break;
    case TypeKind::Struct:
      Parts = uint32_t(Cur->Members.size());
      Next = N < Parts ? Cur->Members[N] : TypeId();
      break;
    default:
      return errorAt(I, "index " + Twine(K - FirstIndex) + " goes into " +
                            name(Cur->Id.value()) + ", which has no parts");
    }
    if (N >= Parts)
      return errorAt(I, "index " + Twine(N) + " is out of range (" +
                            name(Cur->Id.value()) + " has " + Twine(Parts) +
                            " parts)");
    Cur = M.findType(Next.value());
    if (!Cur)
      return errorAt(I, "index " + Twine(K - FirstIndex) +
                            " reaches an undefined type");
  }
  if (!sameType(Cur->Id.value(), Expected))
    return errorAt(I, "the indexed part has type " + name(Cur->Id.value()) +
                          ", not " + name(Expected));
  return Error::success();
}

/// OpCompositeConstruct: the constituents fill the result exactly. A vector
/// takes scalars and vectors of its component type, their components
/// adding up to its count; a matrix, array or struct takes one constituent
/// per column, element or member, of that type.
Error TypeChecker::checkConstruct(const Instruction &I) {
  const Type *R = M.findType(I.ResultType.value());
  if (!R)
    return errorAt(I, "result type is not a type");
  switch (R->Kind) {
  case TypeKind::Vector: {
    uint32_t Components = 0;
    for (uint32_t Id : I.Operands) {
      const Type *T = typeOfValue(Id);
      const Type *S = scalarOf(M, T);
      if (!S || !sameType(S->Id.value(), R->Element.value()))
        return wrongOperand(I, Id,
                            "a scalar or vector of " +
                                name(R->Element.value()));
      Components += countOf(T);
    }
    if (Components != R->Count)
      return errorAt(I, "the constituents have " + Twine(Components) +
                            " components, the result " + Twine(R->Count));
    return Error::success();
  }
  case TypeKind::Matrix:
  case TypeKind::Array:
  case TypeKind::Struct: {
    size_t Want = R->Kind == TypeKind::Struct ? R->Members.size() : R->Count;
    if (I.Operands.size() != Want)
      return errorAt(I, "expected " + Twine(Want) + " constituents, got " +
                            Twine(I.Operands.size()));
    for (size_t K = 0; K < I.Operands.size(); ++K) {
      uint32_t Want = R->Kind == TypeKind::Struct ? R->Members[K].value()
                                                  : R->Element.value();
      TypeId T = M.typeOf(I.Operands[K]);
      if (!T || !sameType(T.value(), Want))
        return wrongOperand(I, I.Operands[K], "of type " + name(Want));
    }
    return Error::success();
  }
  default:
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not a composite");
  }
}

Error TypeChecker::needOperands(const Instruction &I, size_t N) const {
  if (I.Operands.size() < N)
    return errorAt(I, "expected " + Twine(N) + " operands, got " +
                          Twine(I.Operands.size()));
  return Error::success();
}

Error TypeChecker::resultIs(const Instruction &I, const Type *R, TypeKind Kind,
                            const char *What) const {
  if (!isScalarOrVectorOf(R, Kind))
    return errorAt(I, "result type " +
                          (I.ResultType ? name(I.ResultType.value())
                                        : std::string("(none)")) +
                          " is not " + What);
  return Error::success();
}

/// The opcodes with one rule for their operand and result types (the Shape
/// column of the opcode table); success for the others.
Error TypeChecker::checkShape(const Instruction &I, const Type *R) {
  auto NeedOperands = [&](size_t N) { return needOperands(I, N); };
  auto ResultIs = [&](TypeKind Kind, const char *What) {
    return resultIs(I, R, Kind, What);
  };
  // Unary or binary operation: result and operands of one kind.
  auto Arith = [&](TypeKind Kind, const char *What, size_t N,
                   bool AnyWidth = false) -> Error {
    if (Error E = NeedOperands(N))
      return E;
    if (Error E = ResultIs(Kind, What))
      return E;
    for (size_t K = 0; K < N; ++K)
      if (Error E = expectLike(I, K, Kind, R, AnyWidth))
        return E;
    return Error::success();
  };
  // Comparison: boolean result, operands of one kind and count.
  auto Compare = [&](TypeKind Kind) -> Error {
    if (Error E = NeedOperands(2))
      return E;
    if (Error E = ResultIs(TypeKind::Bool, "a boolean scalar or vector"))
      return E;
    for (size_t K = 0; K < 2; ++K)
      if (Error E = expectLike(I, K, Kind, R, /*AnyWidth=*/true))
        return E;
    const Type *S0 = scalarOf(M, typeOfValue(I.Operands[0]));
    const Type *S1 = scalarOf(M, typeOfValue(I.Operands[1]));
    if (S0->Width != S1->Width)
      return wrongOperand(I, I.Operands[1], "as wide as the first operand");
    return Error::success();
  };
  // Conversion: operand of kind From to a result of kind To, same count.
  auto Convert = [&](TypeKind From, TypeKind To, const char *What) -> Error {
    if (Error E = NeedOperands(1))
      return E;
    if (Error E = ResultIs(To, What))
      return E;
    return expectLike(I, 0, From, R, /*AnyWidth=*/true);
  };

  const OperandShape Shape = opcodeInfo(I.Opcode).Shape;
  switch (Shape) {
  case OperandShape::FloatBinary:
    return Arith(TypeKind::Float, "a float scalar or vector", 2);
  case OperandShape::FloatUnary:
    return Arith(TypeKind::Float, "a float scalar or vector", 1);
  case OperandShape::IntBinary:
    return Arith(TypeKind::Int, "an integer scalar or vector", 2);
  case OperandShape::IntUnary:
    return Arith(TypeKind::Int, "an integer scalar or vector", 1);
  case OperandShape::Shift:
    if (Error E = Arith(TypeKind::Int, "an integer scalar or vector", 2,
                        /*AnyWidth=*/true))
      return E;
    return expectLike(I, 0, TypeKind::Int, R);
  case OperandShape::IntUnaryAnyWidth:
    return Arith(TypeKind::Int, "an integer scalar or vector", 1,
                 /*AnyWidth=*/true);
  case OperandShape::BoolBinary:
    return Arith(TypeKind::Bool, "a boolean scalar or vector", 2);
  case OperandShape::BoolUnary:
    return Arith(TypeKind::Bool, "a boolean scalar or vector", 1);
  case OperandShape::IntCompare:
    return Compare(TypeKind::Int);
  case OperandShape::FloatCompare:
    return Compare(TypeKind::Float);
  case OperandShape::FloatTest:
    if (Error E = NeedOperands(1))
      return E;
    if (Error E = ResultIs(TypeKind::Bool, "a boolean scalar or vector"))
      return E;
    return expectLike(I, 0, TypeKind::Float, R, /*AnyWidth=*/true);
  case OperandShape::BoolReduce: {
    if (Error E = NeedOperands(1))
      return E;
    if (!R || R->Kind != TypeKind::Bool)
      return errorAt(I, "result type " +
                            (I.ResultType ? name(I.ResultType.value())
                                          : std::string("(none)")) +
                            " is not a boolean scalar");
    const Type *T = typeOfValue(I.Operands[0]);
    if (!isScalarOrVectorOf(T, TypeKind::Bool))
      return errorAt(I, "operand " + name(I.Operands[0]) +
                            " is not a boolean vector");
    return Error::success();
  }
  case OperandShape::Bitcast: {
    if (Error E = NeedOperands(1))
      return E;
    auto Bits = [&](const Type *T) {
      return T && (T->Kind == TypeKind::Pointer ||
                   isScalarOrVectorOf(T, TypeKind::Int) ||
                   isScalarOrVectorOf(T, TypeKind::Float));
    };
    if (!Bits(R))
      return errorAt(I, "result type " +
                            (I.ResultType ? name(I.ResultType.value())
                                          : std::string("(none)")) +
                            " is not an integer, float or pointer scalar or "
                            "vector");
    if (!Bits(typeOfValue(I.Operands[0])))
      return wrongOperand(I, I.Operands[0],
                          "an integer, float or pointer scalar or vector");
    return Error::success();
  }
  case OperandShape::FloatToInt:
    return Convert(TypeKind::Float, TypeKind::Int,
                   "an integer scalar or vector");
  case OperandShape::IntToFloat:
    return Convert(TypeKind::Int, TypeKind::Float, "a float scalar or vector");
  case OperandShape::IntToInt:
    return Convert(TypeKind::Int, TypeKind::Int, "an integer scalar or vector");
  case OperandShape::FloatToFloat:
    return Convert(TypeKind::Float, TypeKind::Float,
                   "a float scalar or vector");
  // Arithmetic group operations: the value has the result type, of the
  // kind the opcode names (spirv-val lets a mismatched value through).
  case OperandShape::GroupInt:
  case OperandShape::GroupFloat:
  case OperandShape::GroupBool: {
    if (Error E = NeedOperands(3))
      return E;
    if (Error E = Shape == OperandShape::GroupFloat
                      ? ResultIs(TypeKind::Float, "a float scalar or vector")
                  : Shape == OperandShape::GroupBool
                      ? ResultIs(TypeKind::Bool, "a boolean scalar or vector")
                      : ResultIs(TypeKind::Int, "an integer scalar or vector"))
      return E;
    if (!sameType(M.typeOf(I.Operands[2]).value(), I.ResultType.value()))
      return wrongOperand(I, I.Operands[2],
                          "of the result type " + name(I.ResultType.value()));
    return Error::success();
  }
  case OperandShape::ExtendedInt:
    return checkExtendedInt(I, R);
  case OperandShape::Dot:
    return checkDot(I, R);
  case OperandShape::MatrixTranspose:
  case OperandShape::VectorScale:
  case OperandShape::MatrixScale:
  case OperandShape::VectorTimesMatrix:
  case OperandShape::MatrixTimesVector:
  case OperandShape::MatrixTimesMatrix:
  case OperandShape::OuterProduct:
    return checkMatrixOp(I, R, Shape);
  case OperandShape::GroupPredicate:
  case OperandShape::GroupElect:
  case OperandShape::GroupValue:
  case OperandShape::GroupValueIndex:
  case OperandShape::GroupAllEqual:
  case OperandShape::BallotTest:
  case OperandShape::BallotBitExtract:
  case OperandShape::BallotBitCount:
  case OperandShape::BallotFind:
    return checkSubgroup(I, Shape);
  case OperandShape::None:
    break;
  }
  return Error::success();
}

/// Extended arithmetic: a struct of two members of one integer scalar or
/// vector type, and both operands of that type (signedness aside).
Error TypeChecker::checkExtendedInt(const Instruction &I, const Type *R) {
  if (Error E = needOperands(I, 2))
    return E;
  const Type *Member = nullptr;
  if (R && R->Kind == TypeKind::Struct && R->Members.size() == 2 &&
      sameType(R->Members[0].value(), R->Members[1].value())) {
    const Type *T = M.findType(R->Members[0].value());
    const Type *S = scalarOf(M, T);
    if (S && S->Kind == TypeKind::Int)
      Member = T;
  }
  if (!Member)
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not a struct of two members of one integer "
                          "scalar or vector type");
  for (size_t K = 0; K < 2; ++K)
    if (!sameType(M.typeOf(I.Operands[K]).value(), Member->Id.value()))
      return wrongOperand(I, I.Operands[K],
                          "of the result members' type " +
                              name(Member->Id.value()));
  return Error::success();
}

/// Dot product: float vectors of one type, the result their component.
Error TypeChecker::checkDot(const Instruction &I, const Type *R) {
  if (Error E = needOperands(I, 2))
    return E;
  if (!R || R->Kind != TypeKind::Float)
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not a float scalar");
  for (size_t K = 0; K < 2; ++K) {
    const Type *T = typeOfValue(I.Operands[K]);
    if (!T || T->Kind != TypeKind::Vector ||
        !sameType(T->Element.value(), I.ResultType.value()))
      return wrongOperand(I, I.Operands[K],
                          "a vector of " + name(I.ResultType.value()));
  }
  if (!sameType(M.typeOf(I.Operands[0]).value(),
                M.typeOf(I.Operands[1]).value()))
    return wrongOperand(I, I.Operands[1], "of the first operand's type");
  return Error::success();
}

/// A float vector's or matrix's shape: Columns is 0 for a vector, Rows its
/// component count; Component is the float scalar type.
struct FloatShape {
  bool Ok = false;
  uint32_t Columns = 0, Rows = 0, Component = 0;
};

static FloatShape floatShape(const Module &M, const Type *T) {
  FloatShape S;
  if (!T)
    return S;
  if (T->Kind == TypeKind::Matrix) {
    const Type *Col = M.findType(T->Element.value());
    if (!Col || Col->Kind != TypeKind::Vector)
      return S;
    S.Columns = T->Count;
    T = Col;
  }
  if (T->Kind != TypeKind::Vector)
    return S;
  const Type *C = M.findType(T->Element.value());
  if (!C || C->Kind != TypeKind::Float)
    return S;
  S.Ok = true;
  S.Rows = T->Count;
  S.Component = C->Id.value();
  return S;
}

/// Matrix operations and OpVectorTimesScalar: the emitter reads columns and
/// rows from the types, so every dimension must agree (spirv-val's rules).
Error TypeChecker::checkMatrixOp(const Instruction &I, const Type *R,
                                 OperandShape Shape) {
  size_t N = Shape == OperandShape::MatrixTranspose ? 1 : 2;
  if (Error E = needOperands(I, N))
    return E;
  FloatShape RS = floatShape(M, R);
  bool WantMatrixResult = Shape != OperandShape::VectorScale &&
                          Shape != OperandShape::VectorTimesMatrix &&
                          Shape != OperandShape::MatrixTimesVector;
  if (!RS.Ok || (RS.Columns != 0) != WantMatrixResult)
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          (WantMatrixResult ? " is not a float matrix"
                                            : " is not a float vector"));
  FloatShape A = floatShape(M, typeOfValue(I.Operands[0]));
  FloatShape B;
  if (N == 2)
    B = floatShape(M, typeOfValue(I.Operands[1]));
  auto Want = [&](size_t K, const Twine &What) {
    return wrongOperand(I, I.Operands[K], What);
  };
  auto SameComponent = [&](const FloatShape &S) {
    return sameType(S.Component, RS.Component);
  };
  auto IsResultScalar = [&](size_t K) {
    const Type *T = typeOfValue(I.Operands[K]);
    return T && T->Kind == TypeKind::Float && sameType(T->Id.value(),
                                                       RS.Component);
  };
  std::string Comp = name(RS.Component);
  switch (Shape) {
  case OperandShape::MatrixTranspose:
    if (!A.Ok || !A.Columns || A.Columns != RS.Rows || A.Rows != RS.Columns ||
        !SameComponent(A))
      return Want(0, "a matrix of " + Comp + " of the transposed shape");
    break;
  case OperandShape::VectorScale:
  case OperandShape::MatrixScale:
    if (!sameType(M.typeOf(I.Operands[0]).value(), I.ResultType.value()))
      return Want(0, "of the result type " + name(I.ResultType.value()));
    if (!IsResultScalar(1))
      return Want(1, "a scalar " + Comp);
    break;
  case OperandShape::VectorTimesMatrix:
    // vector(K) x matrix(Rows K, Columns = result size)
    if (!B.Ok || !B.Columns || B.Columns != RS.Rows || !SameComponent(B))
      return Want(1, "a matrix of " + Comp + " with as many columns as "
                                              "the result has components");
    if (!A.Ok || A.Columns || A.Rows != B.Rows || !SameComponent(A))
      return Want(0, "a vector of " + Comp + " the size of the matrix's "
                                              "columns");
    break;
  case OperandShape::MatrixTimesVector:
    if (!A.Ok || !A.Columns || A.Rows != RS.Rows || !SameComponent(A))
      return Want(0, "a matrix of " + Comp + " whose columns have the "
                                              "result's type");
    if (!B.Ok || B.Columns || B.Rows != A.Columns || !SameComponent(B))
      return Want(1, "a vector of " + Comp + " with one component per "
                                              "matrix column");
    break;
  case OperandShape::MatrixTimesMatrix:
    if (!A.Ok || !A.Columns || A.Rows != RS.Rows || !SameComponent(A))
      return Want(0, "a matrix of " + Comp + " whose columns have the "
                                              "result's column type");
    if (!B.Ok || !B.Columns || B.Columns != RS.Columns ||
        B.Rows != A.Columns || !SameComponent(B))
      return Want(1, "a matrix of " + Comp + " with the result's column "
                                              "count and the left "
                                              "operand's column count as rows");
    break;
  case OperandShape::OuterProduct:
    if (!A.Ok || A.Columns || A.Rows != RS.Rows || !SameComponent(A))
      return Want(0, "a vector of the result's column type");
    if (!B.Ok || B.Columns || B.Rows != RS.Columns || !SameComponent(B))
      return Want(1, "a vector of " + Comp + " with one component per "
                                              "result column");
    break;
  default:
    break;
  }
  return Error::success();
}

Error TypeChecker::check(const Function &F, const Instruction &I) {
  const Type *R = I.ResultType ? M.findType(I.ResultType.value()) : nullptr;
  // Quantizing rounds a 32-bit float through half precision: other widths
  // would make the back ends truncate a half to itself.
  if (I.Opcode == Op::OpQuantizeToF16 && R) {
    const Type *C =
        R->Kind == TypeKind::Vector ? M.findType(R->Element.value()) : R;
    if (!C || C->Kind != TypeKind::Float || C->Width != 32)
      return errorAt(I, "result type " + name(I.ResultType.value()) +
                            " is not a 32-bit float scalar or vector");
  }
  if (opcodeInfo(I.Opcode).Shape != OperandShape::None)
    return checkShape(I, R);
  if (AtomicForm Form = opcodeInfo(I.Opcode).Atomic; Form != AtomicForm::None)
    return checkAtomic(I, Form);
  switch (I.Opcode) {
  case Op::OpSelect: {
    if (Error E = needOperands(I, 3))
      return E;
    const Type *C = typeOfValue(I.Operands[0]);
    if (!isScalarOrVectorOf(C, TypeKind::Bool))
      return wrongOperand(I, I.Operands[0], "a boolean scalar or vector");
    if (C->Kind == TypeKind::Vector &&
        (!R || R->Kind != TypeKind::Vector || R->Count != C->Count))
      return wrongOperand(I, I.Operands[0],
                          "a boolean scalar or a vector of the result's size");
    for (size_t K = 1; K < 3; ++K)
      if (!sameType(M.typeOf(I.Operands[K]).value(), I.ResultType.value()))
        return wrongOperand(I, I.Operands[K],
                            "of the result type " +
                                name(I.ResultType.value()));
    return Error::success();
  }
  case Op::OpLoad: {
    if (Error E = needOperands(I, 1))
      return E;
    const Type *P = typeOfValue(I.Operands[0]);
    if (!P || P->Kind != TypeKind::Pointer)
      return wrongOperand(I, I.Operands[0], "a pointer");
    if (!sameType(P->Element.value(), I.ResultType.value()))
      return errorAt(I, "result type " + name(I.ResultType.value()) +
                            " is not the pointee type " +
                            name(P->Element.value()) + " of " +
                            name(I.Operands[0]));
    return Error::success();
  }
  case Op::OpStore: {
    if (Error E = needOperands(I, 2))
      return E;
    const Type *P = typeOfValue(I.Operands[0]);
    if (!P || P->Kind != TypeKind::Pointer)
      return wrongOperand(I, I.Operands[0], "a pointer");
    if (!sameType(P->Element.value(), M.typeOf(I.Operands[1]).value()))
      return wrongOperand(I, I.Operands[1],
                          "of the pointee type " + name(P->Element.value()) +
                              " of " + name(I.Operands[0]));
    return Error::success();
  }
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain:
  case Op::OpPtrAccessChain:
    if (Error E = needOperands(I, 1))
      return E;
    return checkAccessChain(I);
  case Op::OpCompositeExtract:
    if (Error E = needOperands(I, 1))
      return E;
    return checkCompositeIndices(I, I.Operands[0], 1, I.ResultType.value());
  case Op::OpCompositeInsert:
    if (Error E = needOperands(I, 2))
      return E;
    if (!sameType(M.typeOf(I.Operands[1]).value(), I.ResultType.value()))
      return wrongOperand(I, I.Operands[1],
                          "of the result type " + name(I.ResultType.value()));
    return checkCompositeIndices(I, I.Operands[1], 2,
                                 M.typeOf(I.Operands[0]).value());
  case Op::OpCompositeConstruct:
    return checkConstruct(I);
  case Op::OpVectorShuffle:
    return checkVectorShuffle(I, R);
  case Op::OpVectorExtractDynamic:
    return checkVectorExtractDynamic(I, R);
  case Op::OpVectorInsertDynamic:
    return checkVectorInsertDynamic(I, R);
  case Op::OpBranchConditional:
    return checkBranchConditional(F, I);
  case Op::OpSwitch:
    return checkSwitch(F, I);
  case Op::OpPhi:
    return checkPhi(F, I);
  case Op::OpReturnValue:
    return checkReturnValue(F, I);
  case Op::OpReturn:
    return checkReturn(F, I);
  case Op::OpFunctionCall:
    return checkFunctionCall(F, I);
  case Op::OpBitFieldInsert:
  case Op::OpBitFieldSExtract:
  case Op::OpBitFieldUExtract:
    return checkBitField(I, R);
  case Op::OpPtrEqual:
  case Op::OpPtrNotEqual:
  case Op::OpCopyMemory:
  case Op::OpArrayLength:
    return checkPointerOperands(I, R);
  default:
    return Error::success();
  }
}

// Base (and Insert) of the result's integer type, Offset and Count integer
// scalars (spirv-val's rule): the back ends shift the one by the others.
Error TypeChecker::checkBitField(const Instruction &I, const Type *R) {
  const unsigned Values = I.Opcode == Op::OpBitFieldInsert ? 2 : 1;
  if (Error E = needOperands(I, Values + 2))
    return E;
  if (!isScalarOrVectorOf(R, TypeKind::Int))
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not an integer scalar or vector");
  for (unsigned K = 0; K < Values; ++K)
    if (TypeId T = M.typeOf(I.Operands[K]);
        !T || !sameType(T.value(), I.ResultType.value()))
      return wrongOperand(I, I.Operands[K],
                          "of the result type " + name(I.ResultType.value()));
  for (unsigned K = Values; K < Values + 2; ++K) {
    const Type *T = typeOfValue(I.Operands[K]);
    if (!T || T->Kind != TypeKind::Int)
      return wrongOperand(I, I.Operands[K], "an integer scalar");
  }
  return Error::success();
}

// spirv-val's rules for the instructions that take pointers as values:
// pointer comparisons compare two pointers of one type into a bool, a
// memory copy copies between pointers to one type, and an array length is
// a 32-bit unsigned integer.
Error TypeChecker::checkPointerOperands(const Instruction &I, const Type *R) {
  const bool Length = I.Opcode == Op::OpArrayLength;
  if (Error E = needOperands(I, Length ? 1 : 2))
    return E;
  for (unsigned K = 0; K < (Length ? 1u : 2u); ++K) {
    const Type *P = typeOfValue(I.Operands[K]);
    if (!P || P->Kind != TypeKind::Pointer)
      return wrongOperand(I, I.Operands[K], "a pointer");
  }
  if (Length) {
    if (!R || R->Kind != TypeKind::Int || R->Width != 32 || R->Signed)
      return errorAt(I, "result type " + name(I.ResultType.value()) +
                            " is not a 32-bit unsigned integer");
    return Error::success();
  }
  const Type *A = typeOfValue(I.Operands[0]), *B = typeOfValue(I.Operands[1]);
  bool Same = I.Opcode == Op::OpCopyMemory
                  ? sameType(A->Element.value(), B->Element.value())
                  : sameType(M.typeOf(I.Operands[0]).value(),
                             M.typeOf(I.Operands[1]).value());
  if (!Same)
    return wrongOperand(I, I.Operands[1],
                        I.Opcode == Op::OpCopyMemory
                            ? "a pointer to the target's pointee type"
                            : "a pointer of the first operand's type");
  if (I.Opcode != Op::OpCopyMemory && (!R || R->Kind != TypeKind::Bool))
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not a boolean");
  return Error::success();
}

// The back ends build the atomic at the pointee's type and merge its
// result with values of the result type, so the two must agree, as must the
// value operands (spirv-val's rule).
Error TypeChecker::checkAtomic(const Instruction &I, AtomicForm Form) {
  unsigned Needed = 3;
  SmallVector<unsigned, 2> ValueOperands;
  switch (Form) {
  case AtomicForm::Store:
  case AtomicForm::Update:
    Needed = 4;
    ValueOperands = {3};
    break;
  case AtomicForm::CompareExchange:
    Needed = 6;
    ValueOperands = {4, 5};
    break;
  default:
    break;
  }
  if (Error E = needOperands(I, Needed))
    return E;
  const Type *P = typeOfValue(I.Operands[0]);
  if (!P || P->Kind != TypeKind::Pointer)
    return wrongOperand(I, I.Operands[0], "a pointer");
  uint32_t Pointee = P->Element.value();
  if (Form != AtomicForm::Store &&
      (!I.ResultType || !sameType(Pointee, I.ResultType.value())))
    return errorAt(I, "result type " +
                          (I.ResultType ? name(I.ResultType.value())
                                        : std::string("(none)")) +
                          " is not the pointee type " + name(Pointee) + " of " +
                          name(I.Operands[0]));
  for (unsigned K : ValueOperands)
    if (TypeId T = M.typeOf(I.Operands[K]); !T || !sameType(T.value(), Pointee))
      return wrongOperand(I, I.Operands[K],
                          "of the pointee type " + name(Pointee) + " of " +
                              name(I.Operands[0]));
  return Error::success();
}

Error TypeChecker::checkVectorShuffle(const Instruction &I, const Type *R) {
  if (Error E = needOperands(I, 2))
    return E;
  const Type *A = typeOfValue(I.Operands[0]);
  const Type *B = typeOfValue(I.Operands[1]);
  if (!A || A->Kind != TypeKind::Vector)
    return wrongOperand(I, I.Operands[0], "a vector");
  if (!B || B->Kind != TypeKind::Vector)
    return wrongOperand(I, I.Operands[1], "a vector");
  if (!R || R->Kind != TypeKind::Vector || R->Count != I.Operands.size() - 2)
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not a vector of " +
                          Twine(I.Operands.size() - 2) + " components");
  if (!sameType(A->Element.value(), R->Element.value()) ||
      !sameType(B->Element.value(), R->Element.value()))
    return errorAt(I, "operand component types differ from the result's");
  for (size_t K = 2; K < I.Operands.size(); ++K)
    if (I.Operands[K] != 0xffffffffu && I.Operands[K] >= A->Count + B->Count)
      return errorAt(I, "component " + Twine(I.Operands[K]) +
                            " is out of range (the operands have " +
                            Twine(A->Count + B->Count) + ")");
  return Error::success();
}

Error TypeChecker::checkVectorExtractDynamic(const Instruction &I,
                                             const Type *R) {
  if (Error E = needOperands(I, 2))
    return E;
  const Type *V = typeOfValue(I.Operands[0]);
  if (!V || V->Kind != TypeKind::Vector ||
      !sameType(V->Element.value(), I.ResultType.value()))
    return wrongOperand(I, I.Operands[0],
                        "a vector of " + name(I.ResultType.value()));
  if (!isScalarOrVectorOf(typeOfValue(I.Operands[1]), TypeKind::Int) ||
      typeOfValue(I.Operands[1])->Kind == TypeKind::Vector)
    return wrongOperand(I, I.Operands[1], "an integer scalar");
  return Error::success();
}

Error TypeChecker::checkVectorInsertDynamic(const Instruction &I,
                                            const Type *R) {
  if (Error E = needOperands(I, 3))
    return E;
  const Type *V = typeOfValue(I.Operands[0]);
  if (!V || V->Kind != TypeKind::Vector ||
      !sameType(M.typeOf(I.Operands[0]).value(), I.ResultType.value()))
    return wrongOperand(I, I.Operands[0],
                        "of the result type " + name(I.ResultType.value()));
  if (!sameType(M.typeOf(I.Operands[1]).value(), V->Element.value()))
    return wrongOperand(I, I.Operands[1],
                        "a component of " + name(I.ResultType.value()));
  const Type *IT = typeOfValue(I.Operands[2]);
  if (!IT || IT->Kind != TypeKind::Int)
    return wrongOperand(I, I.Operands[2], "an integer scalar");
  return Error::success();
}

Error TypeChecker::checkBranchConditional(const Function &F,
                                          const Instruction &I) {
  if (Error E = needOperands(I, 3))
    return E;
  const Type *C = typeOfValue(I.Operands[0]);
  if (!C || C->Kind != TypeKind::Bool)
    return wrongOperand(I, I.Operands[0], "a boolean scalar");
  return Error::success();
}

Error TypeChecker::checkSwitch(const Function &F, const Instruction &I) {
  if (Error E = needOperands(I, 2))
    return E;
  const Type *S = typeOfValue(I.Operands[0]);
  if (!S || S->Kind != TypeKind::Int)
    return wrongOperand(I, I.Operands[0], "an integer scalar");
  // Case literals take one word up to 32 bits, two above.
  size_t LitWords = S->Width > 32 ? 2 : 1;
  if ((I.Operands.size() - 2) % (LitWords + 1) != 0)
    return errorAt(I, "case list does not match the selector width (" +
                          Twine(S->Width) + " bits)");
  return Error::success();
}

Error TypeChecker::checkPhi(const Function &F, const Instruction &I) {
  for (size_t K = 0; K + 1 < I.Operands.size(); K += 2)
    if (!sameType(M.typeOf(I.Operands[K]).value(), I.ResultType.value()))
      return wrongOperand(I, I.Operands[K],
                          "of the result type " + name(I.ResultType.value()));
  if (I.Operands.size() % 2 != 0)
    return errorAt(I, "operands do not come in (value, parent) pairs");
  return Error::success();
}

Error TypeChecker::checkReturnValue(const Function &F, const Instruction &I) {
  if (Error E = needOperands(I, 1))
    return E;
  if (!sameType(M.typeOf(I.Operands[0]).value(), F.ResultType.value()))
    return wrongOperand(I, I.Operands[0],
                        "of the function's return type " +
                            name(F.ResultType.value()));
  return Error::success();
}

Error TypeChecker::checkReturn(const Function &F, const Instruction &I) {
  const Type *RT = M.findType(F.ResultType.value());
  if (!RT || RT->Kind != TypeKind::Void)
    return errorAt(I, "function " + name(F.Id.value()) + " returns " +
                          name(F.ResultType.value()) + ", not void");
  return Error::success();
}

Error TypeChecker::checkFunctionCall(const Function &F, const Instruction &I) {
  if (Error E = needOperands(I, 1))
    return E;
  const Function *Callee = M.findFunction(I.Operands[0]);
  if (!Callee)
    return errorAt(I, name(I.Operands[0]) + " is not a function");
  if (!sameType(Callee->ResultType.value(), I.ResultType.value()))
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not the return type of " + name(I.Operands[0]));
  if (Callee->Params.size() != I.Operands.size() - 1)
    return errorAt(
        I, name(I.Operands[0]) + " takes " + Twine(Callee->Params.size()) +
               " arguments, the call passes " + Twine(I.Operands.size() - 1));
  for (size_t K = 1; K < I.Operands.size(); ++K)
    if (!sameType(M.typeOf(I.Operands[K]).value(),
                  M.typeOf(Callee->Params[K - 1].value()).value()))
      return wrongOperand(I, I.Operands[K],
                          "of the type of parameter " + Twine(K - 1));
  return Error::success();
}

/// Group operations other than arithmetic (the Group* and Ballot* operand
/// shapes). The emitters read invocation ids and ballot words as integers
/// and copy the value as the result, so the types must fit (spirv-val lets
/// some mismatches through: a float invocation id for
/// OpSubgroupReadInvocationKHR, found by the validate fuzz target; a vector
/// predicate for a vote). The KHR forms have no scope operand.
Error TypeChecker::checkSubgroup(const Instruction &I, OperandShape Shape) {
  // The first operand after the scope.
  size_t First = opcodeInfo(I.Opcode).HasScope ? 1 : 0;
  const Type *R = I.ResultType ? M.findType(I.ResultType.value()) : nullptr;
  auto Need = [&](size_t N) -> Error {
    if (I.Operands.size() < First + N)
      return errorAt(I, "expected " + Twine(First + N) + " operands, got " +
                            Twine(I.Operands.size()));
    return Error::success();
  };
  auto ResultIs = [&](TypeKind Kind, const char *What) -> Error {
    if (!R || R->Kind != Kind)
      return errorAt(I, "result type " +
                            (I.ResultType ? name(I.ResultType.value())
                                          : std::string("(none)")) +
                            " is not " + What);
    return Error::success();
  };
  auto IntScalar = [&](size_t K) -> Error {
    const Type *T = typeOfValue(I.Operands[K]);
    if (!T || T->Kind != TypeKind::Int)
      return wrongOperand(I, I.Operands[K], "an integer scalar");
    return Error::success();
  };
  auto Ballot = [&](size_t K) -> Error {
    const Type *T = typeOfValue(I.Operands[K]);
    const Type *E = T && T->Kind == TypeKind::Vector
                        ? M.findType(T->Element.value())
                        : nullptr;
    if (!E || E->Kind != TypeKind::Int || T->Count != 4)
      return wrongOperand(I, I.Operands[K], "a vector of four integers");
    return Error::success();
  };
  auto ValueOfResultType = [&](size_t K) -> Error {
    if (!sameType(M.typeOf(I.Operands[K]).value(), I.ResultType.value()))
      return wrongOperand(I, I.Operands[K],
                          "of the result type " + name(I.ResultType.value()));
    return Error::success();
  };

  switch (Shape) {
  case OperandShape::GroupPredicate: {
    // Votes and ballots: the predicate is a boolean scalar.
    if (Error E = Need(1))
      return E;
    const Type *PT = typeOfValue(I.Operands[First]);
    if (!PT || PT->Kind != TypeKind::Bool)
      return wrongOperand(I, I.Operands[First], "a boolean scalar");
    return Error::success();
  }
  case OperandShape::GroupElect:
    return ResultIs(TypeKind::Bool, "a boolean scalar");
  case OperandShape::GroupValue:
    if (Error E = Need(1))
      return E;
    return ValueOfResultType(First);
  case OperandShape::GroupAllEqual: {
    if (Error E = Need(1))
      return E;
    if (Error E = ResultIs(TypeKind::Bool, "a boolean scalar"))
      return E;
    if (!scalarOf(M, typeOfValue(I.Operands[First])))
      return wrongOperand(I, I.Operands[First], "a scalar or vector");
    return Error::success();
  }
  case OperandShape::BallotTest:
    if (Error E = Need(1))
      return E;
    if (Error E = ResultIs(TypeKind::Bool, "a boolean scalar"))
      return E;
    return Ballot(First);
  case OperandShape::BallotBitExtract:
    if (Error E = Need(2))
      return E;
    if (Error E = ResultIs(TypeKind::Bool, "a boolean scalar"))
      return E;
    if (Error E = Ballot(First))
      return E;
    return IntScalar(First + 1);
  case OperandShape::BallotBitCount:
    // Scope, group operation, value.
    if (Error E = Need(2))
      return E;
    if (Error E = ResultIs(TypeKind::Int, "an integer scalar"))
      return E;
    return Ballot(First + 1);
  case OperandShape::BallotFind:
    if (Error E = Need(1))
      return E;
    if (Error E = ResultIs(TypeKind::Int, "an integer scalar"))
      return E;
    return Ballot(First);
  case OperandShape::GroupValueIndex:
    // Broadcast, shuffles, quad ops, ReadInvocationKHR: the value has the
    // result type; the invocation id, mask, delta or quad index is an
    // integer scalar.
    if (Error E = Need(2))
      return E;
    if (Error E = ValueOfResultType(First))
      return E;
    return IntScalar(First + 1);
  default:
    llvm_unreachable("checkShape sends only group shapes here");
  }
}

/// Whole values of more than limits::MaxValueScalars scalars: results,
/// stored values and copied memory (see Limits.h for why).
Error TypeChecker::checkValueSize(const Instruction &I) {
  uint32_t TypeNum = 0;
  if (I.Opcode == Op::OpStore && I.Operands.size() >= 2) {
    TypeId T = M.typeOf(I.Operands[1]);
    TypeNum = T ? T.value() : 0;
  } else if ((I.Opcode == Op::OpCopyMemory ||
              I.Opcode == Op::OpCopyMemorySized) &&
             !I.Operands.empty()) {
    const Type *P = typeOfValue(I.Operands[0]);
    TypeNum = P && P->Kind == TypeKind::Pointer ? P->Element.value() : 0;
  } else if (I.Opcode == Op::OpVariable && I.Operands.size() >= 2) {
    // An initializer is stored whole.
    const Type *P = I.ResultType ? M.findType(I.ResultType.value()) : nullptr;
    TypeNum = P && P->Kind == TypeKind::Pointer ? P->Element.value() : 0;
  } else if (I.ResultType) {
    TypeNum = I.ResultType.value();
  }
  const Type *T = TypeNum ? M.findType(TypeNum) : nullptr;
  if (!T || T->Scalars <= limits::MaxValueScalars)
    return Error::success();
  return errorAt(I, "a whole value of type " + name(TypeNum) + " has " +
                        Twine(T->Scalars) + " scalars; the limit is " +
                        Twine(limits::MaxValueScalars) +
                        " (access it by element)");
}

Error TypeChecker::run() {
  for (const Function &F : M.Functions)
    for (const Block &B : F.Blocks)
      for (uint32_t Index : B.Insts) {
        if (Error E = checkValueSize(M.Insts[Index]))
          return E;
        if (Error E = check(F, M.Insts[Index]))
          return E;
      }
  return Error::success();
}

} // namespace

Error checkTypes(const Module &M) { return TypeChecker(M).run(); }

} // namespace spirv2llvm
