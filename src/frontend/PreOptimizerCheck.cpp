//===- PreOptimizerCheck.cpp - What SPIRV-Tools' optimizer trusts ---------===//
//
// spirv-val 2023.1 checks that an OpSpecConstantOp names an allowed opcode,
// but not its operands: it accepts a QuantizeToF16 of a half, an IAdd of a
// float and a bool, a VectorShuffle component past the end. SPIRV-Tools'
// spec-constant folding then trusts them, and reads out of bounds or
// dereferences null (each found by the validate fuzz target; see
// tests/lit/regress/spec-*.test). So every OpSpecConstantOp is type-checked
// here as the instruction it names would be, before the optimizer runs.
//
// Likewise the id operands of OpExecutionModeId (LocalSizeId, ...), which
// spirv-val lets name any id: naming a function crashed SPIRV-Tools'
// aggressive DCE (tests/lit/regress/execution-mode-id-not-constant.test).
// They must name constants. And OpFunctionCall's arguments must not name
// a function: spirv-val takes a function's type to be its return type, so
// `OpFunctionCall %uint %f %f` (a function passed as its own uint argument)
// validates, and SPIRV-Tools' aggressive DCE then dereferenced null
// (tests/lit/regress/function-as-operand.test). spirv-val rejects a
// function as the operand of any other instruction.
//
// The module has not been parsed yet (canonicalization comes first), so
// this walks the words itself and models only what the checks need: the
// shapes of types and the types of constants declared so far.
//
//===----------------------------------------------------------------------===//
#include "frontend/PreOptimizerCheck.h"
#include "frontend/Frontend.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <spirv/unified1/spirv.hpp11>

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace spirv2llvm::frontend {

namespace {

using spv::Op;

enum class Kind { Bool, Int, Float, Vector, Matrix, Array, Struct, Other };

struct TypeInfo {
  Kind K = Kind::Other;
  uint32_t Width = 0;            // Int, Float
  uint64_t Parts = 0;            // components, columns, elements, members
  std::vector<uint32_t> Element; // one type for all parts, or per member
};

/// A scalar or vector type: its component kind, width and count.
struct Shape {
  Kind K;
  uint32_t Width;
  uint64_t Count;
};

class Checker {
public:
  Checker(llvm::ArrayRef<uint32_t> Words, spv_target_env Env)
      : Words(Words), Env(Env) {}
  llvm::Error run();

private:
  llvm::ArrayRef<uint32_t> Words;
  spv_target_env Env;
  /// spirv-dis's names, made on the first error (they take a disassembly).
  mutable std::vector<std::string> Names;
  std::unordered_map<uint32_t, TypeInfo> Types;
  std::unordered_map<uint32_t, uint32_t> TypeOf; // constant -> type id
  std::unordered_map<uint32_t, uint32_t> Scalar; // OpConstant -> low word
  // OpExecutionModeId comes before the constants, and calls may come
  // before their callees: (word offset, id), checked at the end.
  std::vector<std::pair<uint32_t, uint32_t>> ModeIds, CallArgs;
  std::unordered_set<uint32_t> Functions;

  // The instruction being checked.
  size_t Off = 0;
  uint32_t Count = 0;
  uint32_t w(size_t K) const { return Words[Off + K]; }

  void record(Op Opcode);
  void recordType(TypeKind K);
  llvm::Error checkSpecOp();
  llvm::Error checkIndices(uint32_t Id, size_t First, uint32_t Expected);

  llvm::Error fail(const llvm::Twine &Msg) const {
    // As spirv-dis prints it: "OpSpecConstantOp %float IAdd ...".
    const char *Name = opcodeName(static_cast<Op>(w(3)));
    std::string Inner = Name ? llvm::StringRef(Name).drop_front(2).str()
                             : "opcode " + std::to_string(w(3));
    return makeErrorAt(uint32_t(Off),
                       "OpSpecConstantOp: " + Inner + ": " + Msg);
  }
  /// "%name" as spirv-dis prints id \p Id.
  std::string name(uint32_t Id) const {
    // The validator has bounded the id bound (4,194,303 at most).
    if (Names.empty())
      Names = friendlyNames(Words, Words.size() > 3 ? Words[3] : 0, Env);
    std::string Result = "%";
    Result += Id < Names.size() && !Names[Id].empty() ? Names[Id]
                                                      : std::to_string(Id);
    return Result;
  }
  bool isVector(uint32_t TypeId) const {
    auto T = Types.find(TypeId);
    return T != Types.end() && T->second.K == Kind::Vector;
  }
  std::optional<Shape> shapeOf(uint32_t TypeId) const;
  bool sameType(uint32_t A, uint32_t B, unsigned Depth = 0) const;
  uint32_t partType(uint32_t TypeId, uint32_t Index) const;
};

/// What an OpSpecConstantOp opcode asks of its operands (the specop
/// column of the opcode table, parser/OpcodeProperties.txt):
///  Convert   one operand of the result's kind and count, any width
///  Quantize  QuantizeToF16: a 32-bit float operand of the result type
///  Unary     one operand of the result's kind, count and width
///  Binary    two operands of the result's kind, count and width
///  Shift     Binary, but the shift amount may have any width
///  Compare   boolean result; two integer operands of one type
///  Select, Shuffle, Extract, Insert: as the opcodes themselves
using Form = SpecConstantForm;

struct SpecOpRule {
  Form F;
  Kind K; // the result's component kind, where the form has one
};

/// The opcodes the Shader capability allows in OpSpecConstantOp. The others
/// are Kernel-only (float arithmetic, conversions, pointer casts) or belong
/// to extensions the translator does not support.
std::optional<SpecOpRule> ruleFor(Op Inner) {
  const OpcodeInfo &Info = opcodeInfo(Inner);
  if (Info.SpecForm == Form::None)
    return std::nullopt;
  Kind K = Kind::Other;
  switch (Info.SpecKind) {
  case SpecConstantKind::Bool:
    K = Kind::Bool;
    break;
  case SpecConstantKind::Int:
    K = Kind::Int;
    break;
  case SpecConstantKind::Float:
    K = Kind::Float;
    break;
  case SpecConstantKind::Other:
    break;
  }
  return SpecOpRule{Info.SpecForm, K};
}

std::optional<Shape> Checker::shapeOf(uint32_t TypeId) const {
  auto T = Types.find(TypeId);
  if (T == Types.end())
    return std::nullopt;
  const TypeInfo &Info = T->second;
  switch (Info.K) {
  case Kind::Bool:
  case Kind::Int:
  case Kind::Float:
    return Shape{Info.K, Info.Width, 1};
  case Kind::Vector: {
    auto E = Types.find(Info.Element[0]);
    if (E == Types.end() || (E->second.K != Kind::Bool &&
                             E->second.K != Kind::Int &&
                             E->second.K != Kind::Float))
      return std::nullopt;
    return Shape{E->second.K, E->second.Width, Info.Parts};
  }
  default:
    return std::nullopt;
  }
}

/// Compares by structure, not by id: unvalidated modules may declare the
/// same type twice. Signedness is ignored, as in the emitter.
bool Checker::sameType(uint32_t A, uint32_t B, unsigned Depth) const {
  if (A == B)
    return true;
  auto TA = Types.find(A), TB = Types.find(B);
  if (TA == Types.end() || TB == Types.end() || Depth > 16)
    return false;
  const TypeInfo &X = TA->second, &Y = TB->second;
  if (X.K != Y.K || X.Width != Y.Width || X.Parts != Y.Parts ||
      X.Element.size() != Y.Element.size() || X.K == Kind::Other)
    return false;
  for (size_t I = 0; I < X.Element.size(); ++I)
    if (!sameType(X.Element[I], Y.Element[I], Depth + 1))
      return false;
  return true;
}

/// The type of part \p Index of composite type \p TypeId, or 0.
uint32_t Checker::partType(uint32_t TypeId, uint32_t Index) const {
  auto T = Types.find(TypeId);
  if (T == Types.end() || T->second.Element.empty() ||
      Index >= T->second.Parts)
    return 0;
  const TypeInfo &Info = T->second;
  return Info.Element.size() == 1 ? Info.Element[0] : Info.Element[Index];
}

/// Remembers the types and constants the checks look at, by what the
/// opcode table says the opcode declares.
void Checker::record(Op Opcode) {
  const OpcodeInfo &Info = opcodeInfo(Opcode);
  if (Info.Defines == IdKind::Type)
    return recordType(Info.DeclaredType);
  if (Info.Constant != ConstantForm::None) {
    // Constants and OpUndef: their types, and the values of plain scalar
    // constants (array lengths).
    if (Info.Constant == ConstantForm::Scalar && !Info.SpecConstant &&
        Count >= 4)
      Scalar[w(2)] = w(3);
    if (Count >= 3)
      TypeOf[w(2)] = w(1);
    return;
  }
  if (Info.Defines == IdKind::Function) {
    if (Count >= 3)
      Functions.insert(w(2));
    return;
  }
  // The <id> operands checked at the end (OpExecutionModeId's constants,
  // OpFunctionCall's arguments).
  if (Info.IdOperands == IdOperandRule::ModeIds)
    for (size_t K = 3; K < Count; ++K)
      ModeIds.push_back({uint32_t(Off), w(K)});
  if (Info.IdOperands == IdOperandRule::Call)
    for (size_t K = 4; K < Count; ++K)
      CallArgs.push_back({uint32_t(Off), w(K)});
}

/// Remembers a type declaration of kind \p K (the scalars, vectors and
/// composites the spec-constant checks look into).
void Checker::recordType(TypeKind K) {
  switch (K) {
  case TypeKind::Bool:
    if (Count >= 2)
      Types[w(1)] = TypeInfo{Kind::Bool, 0, 0, {}};
    break;
  case TypeKind::Int:
  case TypeKind::Float:
    if (Count >= 3)
      Types[w(1)] =
          TypeInfo{K == TypeKind::Int ? Kind::Int : Kind::Float, w(2), 0, {}};
    break;
  case TypeKind::Vector:
  case TypeKind::Matrix:
    if (Count >= 4)
      Types[w(1)] = TypeInfo{
          K == TypeKind::Vector ? Kind::Vector : Kind::Matrix, 0, w(3),
          {w(2)}};
    break;
  case TypeKind::Array:
    if (Count >= 4 && Scalar.count(w(3)))
      Types[w(1)] = TypeInfo{Kind::Array, 0, Scalar[w(3)], {w(2)}};
    break;
  case TypeKind::Struct:
    if (Count >= 3)
      Types[w(1)] = TypeInfo{
          Kind::Struct, 0, Count - 2u,
          std::vector<uint32_t>(Words.begin() + Off + 2,
                                Words.begin() + Off + Count)};
    break;
  default:
    break;
  }
}

/// Walks the literal indices from word \p First to the end into the type of
/// constant \p Id; the part reached must have type \p Expected (0: any).
llvm::Error Checker::checkIndices(uint32_t Id, size_t First,
                                  uint32_t Expected) {
  uint32_t Type = TypeOf[Id];
  for (size_t K = First; K < Count; ++K) {
    uint32_t Part = partType(Type, w(K));
    if (!Part)
      return fail("composite index " + llvm::Twine(w(K)) +
                  " is out of range");
    Type = Part;
  }
  if (Expected && !sameType(Type, Expected))
    return fail("the indexed part's type " + name(Type) +
                " is not " + name(Expected));
  return llvm::Error::success();
}

llvm::Error Checker::checkSpecOp() {
  if (Count < 5)
    return fail("missing operands");
  auto Inner = static_cast<Op>(w(3));
  std::optional<SpecOpRule> Rule = ruleFor(Inner);
  if (!Rule)
    return makeErrorAt(uint32_t(Off),
                       "unsupported: OpSpecConstantOp with " +
                           opName(Inner) +
                           " (not one a shader's specialization may use)");
  uint32_t Result = w(1);
  // How many id operands come first; the rest are literals.
  size_t Ids = Count - 4;
  if (Rule->F == Form::Shuffle || Rule->F == Form::Insert)
    Ids = 2;
  else if (Rule->F == Form::Extract)
    Ids = 1;
  if (Count < 4 + Ids)
    return fail("missing operands");
  for (size_t K = 4; K < 4 + Ids; ++K)
    if (!TypeOf.count(w(K)))
      return fail("operand " + name(w(K)) +
                  " is not a constant declared before it");
  auto Operand = [&](size_t I) { return TypeOf[w(4 + I)]; };
  auto WantIds = [&](size_t N) -> llvm::Error {
    if (Ids != N)
      return fail("expected " + llvm::Twine(N) + " operands, got " +
                  llvm::Twine(Ids));
    return llvm::Error::success();
  };
  std::optional<Shape> R = shapeOf(Result);
  auto WrongType = [&](size_t I, const llvm::Twine &What) {
    return fail("operand " + name(w(4 + I)) + " of type " +
                name(Operand(I)) + " is not " + What);
  };
  // Operand I is a scalar or vector of kind K with the result's component
  // count, and its width unless AnyWidth.
  auto Fits = [&](size_t I, Kind K, bool AnyWidth) -> llvm::Error {
    std::optional<Shape> S = shapeOf(Operand(I));
    if (!S || S->K != K || S->Count != R->Count ||
        (!AnyWidth && S->Width != R->Width))
      return WrongType(I, "a scalar or vector fitting result type " +
                              name(Result));
    return llvm::Error::success();
  };
  auto ResultIs = [&](Kind K) -> llvm::Error {
    if (!R || R->K != K)
      return fail("result type " + name(Result) +
                  " is not a scalar or vector of the opcode's kind");
    return llvm::Error::success();
  };

  Kind K = Rule->K;
  switch (Rule->F) {
  case Form::Convert:
  case Form::Unary:
    if (auto E = WantIds(1))
      return E;
    if (auto E = ResultIs(K))
      return E;
    return Fits(0, K, /*AnyWidth=*/Rule->F == Form::Convert);
  case Form::Quantize:
    if (auto E = WantIds(1))
      return E;
    if (auto E = ResultIs(K))
      return E;
    if (R->Width != 32)
      return fail("result type " + name(Result) +
                  " is not a 32-bit float scalar or vector");
    return Fits(0, K, false);
  case Form::Binary:
  case Form::Shift:
    if (auto E = WantIds(2))
      return E;
    if (auto E = ResultIs(K))
      return E;
    if (auto E = Fits(0, K, false))
      return E;
    return Fits(1, K, /*AnyWidth=*/Rule->F == Form::Shift);
  case Form::Compare:
    if (auto E = WantIds(2))
      return E;
    if (auto E = ResultIs(K))
      return E;
    if (auto E = Fits(0, Kind::Int, true))
      return E;
    if (!sameType(Operand(0), Operand(1)))
      return WrongType(1, "the first operand's type");
    return llvm::Error::success();
  case Form::Select: {
    if (auto E = WantIds(3))
      return E;
    std::optional<Shape> C = shapeOf(Operand(0));
    if (!C || C->K != Kind::Bool ||
        (C->Count != 1 && (!R || C->Count != R->Count)))
      return WrongType(0, "a boolean condition fitting the result");
    for (size_t I : {1, 2})
      if (!sameType(Operand(I), Result))
        return WrongType(I, "the result type " + name(Result));
    return llvm::Error::success();
  }
  case Form::Shuffle: {
    std::optional<Shape> A = shapeOf(Operand(0)), B = shapeOf(Operand(1));
    if (!isVector(Result) || !isVector(Operand(0)) || !isVector(Operand(1)) ||
        !R || !A || !B || A->K != R->K || B->K != R->K ||
        A->Width != R->Width || B->Width != R->Width)
      return fail("operands and result must be vectors of one component "
                  "type");
    if (Count - 6 != R->Count)
      return fail("result type " + name(Result) + " has " +
                  llvm::Twine(R->Count) + " components, the shuffle " +
                  llvm::Twine(Count - 6));
    uint64_t N = A->Count + B->Count;
    for (size_t K = 6; K < Count; ++K)
      if (w(K) != 0xffffffffu && w(K) >= N)
        return fail("component " + llvm::Twine(w(K)) +
                    " is out of range (the operands have " + llvm::Twine(N) +
                    " components)");
    return llvm::Error::success();
  }
  case Form::Extract:
    return checkIndices(w(4), 5, Result);
  case Form::Insert:
    if (!sameType(Operand(1), Result))
      return WrongType(1, "the result type " + name(Result));
    return checkIndices(w(5), 6, Operand(0));
  case Form::None:
    break; // ruleFor returns no rule for these
  }
  llvm_unreachable("every form is handled above");
}

llvm::Error Checker::run() {
  for (Off = 5; Off < Words.size(); Off += Count) {
    Count = Words[Off] >> 16;
    auto Opcode = static_cast<Op>(Words[Off] & 0xffff);
    if (Count == 0 || Off + Count > Words.size())
      break; // the parser reports these
    // Checked before its own result is recorded: an operand naming the
    // instruction itself is not declared before it.
    if (Opcode == Op::OpSpecConstantOp)
      if (llvm::Error E = checkSpecOp())
        return E;
    record(Opcode);
  }
  for (auto [At, Id] : ModeIds)
    if (!TypeOf.count(Id))
      return makeErrorAt(At, "OpExecutionModeId: operand " +
                                 name(Id) + " is not a constant");
  // Worded as the parser words it for unvalidated input.
  for (auto [At, Id] : CallArgs)
    if (Functions.count(Id))
      return makeErrorAt(At, "OpFunctionCall: operand " + name(Id) +
                                 " is a function, which is not allowed here");
  return llvm::Error::success();
}

} // namespace

llvm::Error checkBeforeOptimizer(llvm::ArrayRef<uint32_t> Words,
                                 spv_target_env Env) {
  return Checker(Words, Env).run();
}

} // namespace spirv2llvm::frontend
