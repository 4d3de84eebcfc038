//===- Parser.cpp - Build and check the Module indexes --------------------===//
//
// Walks the decoded instructions once in module order to build the indexes
// (types, constants, variables, functions and blocks, names, decorations),
// then checks every id use. Each check reports the word offset, the opcode
// and the id; nothing here trusts the input to have been validated.
//
//===----------------------------------------------------------------------===//
#include "parser/Parser.h"

#include "parser/Decoder.h"
#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"
#include "support/Limits.h"

#include <algorithm>

#include <unordered_set>

using namespace llvm;

namespace spirv2llvm {

namespace {

class ModuleBuilder {
public:
  ModuleBuilder(Module &M) : M(M) {}
  Error run();

private:
  Error defineResults();
  Error buildGlobals(const Instruction &I, uint32_t Index);
  Error buildType(const Instruction &I);
  Error buildConstant(const Instruction &I, uint32_t Index);
  Error buildFunctions();
  Error checkUses();
  Error checkEntryPoints();

  Error errorAt(const Instruction &I, const Twine &Msg) {
    return makeErrorAt(I.WordOffset, opName(I.Opcode) + ": " + Msg);
  }
  std::string name(uint32_t Id) const { return M.friendlyName(Id); }
  /// Fails unless \p Id names an already defined type.
  Error expectType(const Instruction &I, uint32_t Id, const char *What);

  Module &M;
  /// Pointer types declared by OpTypeForwardPointer: usable (as struct
  /// members, for buffer_reference lists) before their OpTypePointer.
  std::unordered_set<uint32_t> ForwardPointers;
  /// Instruction index of each of M.EntryPoints, for messages.
  std::vector<uint32_t> EntryPointInsts;
  /// Nesting depth and size in bytes (saturating) of each built type, for
  /// the limits below.
  struct TypeExtent {
    uint32_t Depth = 1;
    uint64_t Bytes = 0;
    uint64_t Scalars = 1;
  };
  std::unordered_map<uint32_t, TypeExtent> Extents;
  Error checkTypeLimits(const Instruction &I, Type &T);
};

using limits::MaxTypeBytes;
using limits::MaxTypeDepth;

bool isTypeDecl(spv::Op Op) {
  return hasOpcodeFlag(Op, OpcodeFlag::TypeDecl);
}

bool isConstantDecl(spv::Op Op) {
  return hasOpcodeFlag(Op, OpcodeFlag::ConstantDecl);
}

bool isTerminator(spv::Op Op) {
  return hasOpcodeFlag(Op, OpcodeFlag::Terminator);
}

const char *kindName(IdKind K) {
  switch (K) {
  case IdKind::Undefined: return "undefined";
  case IdKind::Type: return "a type";
  case IdKind::Constant: return "a constant";
  case IdKind::Variable: return "a variable";
  case IdKind::Function: return "a function";
  case IdKind::Label: return "a label";
  case IdKind::Value: return "a value";
  case IdKind::ExtInstImport: return "an extended instruction set";
  case IdKind::String: return "a string";
  case IdKind::DecorationGroup: return "a decoration group";
  case IdKind::Other: return "other";
  }
  return "other";
}

Error ModuleBuilder::expectType(const Instruction &I, uint32_t Id,
                                const char *What) {
  if (ForwardPointers.count(Id) && M.kindOf(Id) == IdKind::Type)
    return Error::success();
  if (!M.findType(Id))
    return errorAt(I, Twine(What) + " " + name(Id) + " is not a type" +
                          (M.kindOf(Id) == IdKind::Type
                               ? " declared before this instruction"
                               : ""));
  return Error::success();
}

Error ModuleBuilder::defineResults() {
  M.Kinds.assign(M.Bound, IdKind::Undefined);
  M.DefInst.assign(M.Bound, ~0u);
  for (uint32_t Index = 0; Index < M.Insts.size(); ++Index) {
    const Instruction &I = M.Insts[Index];
    uint32_t Id = I.Result.value();
    if (I.Opcode == spv::Op::OpTypeForwardPointer || !Id)
      continue;
    if (M.DefInst[Id] != ~0u)
      return errorAt(I, "id " + name(Id) + " is defined twice (first at word " +
                            Twine(M.Insts[M.DefInst[Id]].WordOffset) + ")");
    M.DefInst[Id] = Index;
    M.Kinds[Id] = opcodeInfo(I.Opcode).Defines;
  }
  return Error::success();
}

Error ModuleBuilder::buildType(const Instruction &I) {
  Type T;
  T.Id = TypeId(I.Result.value());
  auto Op = [&](size_t K) -> uint32_t {
    return K < I.Operands.size() ? I.Operands[K] : 0;
  };
  // The kind the opcode declares (the Type column of the opcode table).
  T.Kind = opcodeInfo(I.Opcode).DeclaredType;
  switch (T.Kind) {
  case TypeKind::Int:
    T.Width = Op(0);
    T.Signed = Op(1) != 0;
    if (T.Width != 8 && T.Width != 16 && T.Width != 32 && T.Width != 64)
      return errorAt(I, "unsupported: integer width " + Twine(T.Width));
    break;
  case TypeKind::Float:
    T.Width = Op(0);
    if (T.Width != 16 && T.Width != 32 && T.Width != 64)
      return errorAt(I, "unsupported: float width " + Twine(T.Width));
    break;
  case TypeKind::Vector:
  case TypeKind::Matrix: {
    bool IsVec = T.Kind == TypeKind::Vector;
    if (Error E = expectType(I, Op(0), IsVec ? "component type"
                                             : "column type"))
      return E;
    T.Element = TypeId(Op(0));
    T.Count = Op(1);
    const Type &Elt = M.type(T.Element);
    if (IsVec && Elt.Kind != TypeKind::Int && Elt.Kind != TypeKind::Float &&
        Elt.Kind != TypeKind::Bool)
      return errorAt(I, "vector component type " + name(Op(0)) +
                            " is not a scalar");
    if (!IsVec && (Elt.Kind != TypeKind::Vector ||
                   M.type(Elt.Element).Kind != TypeKind::Float))
      return errorAt(I, "matrix column type " + name(Op(0)) +
                            " is not a float vector");
    if (T.Count < 2 || T.Count > 16)
      return errorAt(I, "component count " + Twine(T.Count) +
                            " is out of range");
    break;
  }
  case TypeKind::Array: {
    if (Error E = expectType(I, Op(0), "element type"))
      return E;
    T.Element = TypeId(Op(0));
    T.LengthId = ValueId(Op(1));
    const Constant *Len = M.findConstant(Op(1));
    if (!Len || Len->Kind != ConstantKind::Scalar ||
        M.type(Len->Type).Kind != TypeKind::Int)
      return errorAt(I, "array length " + name(Op(1)) +
                            " is not an integer constant declared before it");
    uint64_t N = Len->scalarBits();
    if (N == 0 || N > (1u << 24))
      return errorAt(I, "array length " + Twine(N) + " is out of range");
    T.Count = uint32_t(N);
    break;
  }
  case TypeKind::RuntimeArray:
    if (Error E = expectType(I, Op(0), "element type"))
      return E;
    T.Element = TypeId(Op(0));
    break;
  case TypeKind::Struct:
    for (uint32_t Member : I.Operands) {
      // Pointers may be forward declared; anything else must exist already,
      // which also rules out recursive types.
      if (Error E = expectType(I, Member, "member type"))
        return E;
      T.Members.push_back(TypeId(Member));
    }
    break;
  case TypeKind::Pointer:
    T.Storage = static_cast<spv::StorageClass>(Op(0));
    T.Element = TypeId(Op(1));
    if (M.kindOf(Op(1)) != IdKind::Type)
      return errorAt(I, "pointee type " + name(Op(1)) + " is " +
                            kindName(M.kindOf(Op(1))) + ", not a type");
    // Declared before (or a forward pointer), and not the pointer itself:
    // code that strips pointers must not go round in circles.
    if (Op(1) == T.Id.value())
      return errorAt(I, "pointer type " + name(Op(1)) + " points to itself");
    if (Error E = expectType(I, Op(1), "pointee type"))
      return E;
    break;
  case TypeKind::Function:
    if (Error E = expectType(I, Op(0), "return type"))
      return E;
    T.Element = TypeId(Op(0));
    for (size_t K = 1; K < I.Operands.size(); ++K) {
      if (Error E = expectType(I, I.Operands[K], "parameter type"))
        return E;
      T.Members.push_back(TypeId(I.Operands[K]));
    }
    break;
  case TypeKind::Image:
    T.Element = TypeId(Op(0));
    if (I.Operands.size() < 7)
      return errorAt(I, "OpTypeImage needs 7 operands");
    if (Error E = expectType(I, Op(0), "sampled type"))
      return E;
    T.ImageDim = Op(1);
    T.ImageDepth = Op(2);
    T.ImageArrayed = Op(3);
    T.ImageMS = Op(4);
    T.ImageSampled = Op(5);
    T.ImageFormat = Op(6);
    break;
  case TypeKind::SampledImage:
    T.Element = TypeId(Op(0));
    if (!M.findType(Op(0)) || M.type(T.Element).Kind != TypeKind::Image)
      return errorAt(I, "image type " + name(Op(0)) +
                            " is not an image type declared before this "
                            "instruction");
    break;
  default: // no operands (void, bool, sampler), or no model (Unsupported)
    break;
  }
  if (Error E = checkTypeLimits(I, T))
    return E;
  M.Types[T.Id.value()] = std::move(T);
  return Error::success();
}

Error ModuleBuilder::checkTypeLimits(const Instruction &I, Type &T) {
  TypeExtent X;
  auto Part = [&](TypeId Id) {
    auto It = Extents.find(Id.value());
    return It == Extents.end() ? TypeExtent() : It->second;
  };
  auto Add = [](uint64_t A, uint64_t B) {
    return std::min(A + B, MaxTypeBytes + 1);
  };
  auto Mul = [](uint64_t A, uint64_t N) {
    return N && A > (MaxTypeBytes + 1) / N ? MaxTypeBytes + 1
                                           : std::min(A * N, MaxTypeBytes + 1);
  };
  switch (T.Kind) {
  case TypeKind::Bool:
    X.Bytes = 4;
    break;
  case TypeKind::Int:
  case TypeKind::Float:
    X.Bytes = T.Width / 8;
    break;
  case TypeKind::Vector:
  case TypeKind::Matrix:
  case TypeKind::Array:
  case TypeKind::RuntimeArray: {
    TypeExtent E = Part(T.Element);
    uint64_t N = T.Kind == TypeKind::RuntimeArray ? 1 : T.Count;
    X.Depth = E.Depth + 1;
    X.Bytes = Mul(E.Bytes, N);
    X.Scalars = Mul(E.Scalars, N);
    break;
  }
  case TypeKind::Struct:
    X.Scalars = 0;
    for (TypeId Member : T.Members) {
      TypeExtent E = Part(Member);
      X.Depth = std::max(X.Depth, E.Depth + 1);
      X.Bytes = Add(X.Bytes, E.Bytes);
      X.Scalars = Add(X.Scalars, E.Scalars);
    }
    break;
  case TypeKind::Pointer:
    // Pointees may be declared later (forward pointers): a pointer is a
    // leaf, which is also what keeps self-referencing structs finite.
    X.Bytes = 8;
    break;
  default:
    break;
  }
  if (X.Depth > MaxTypeDepth)
    return errorAt(I, "type " + name(T.Id.value()) + " nests " +
                          Twine(X.Depth) + " deep; the limit is " +
                          Twine(MaxTypeDepth));
  if (X.Bytes > MaxTypeBytes)
    return errorAt(I, "type " + name(T.Id.value()) +
                          " is larger than the limit of " +
                          Twine(MaxTypeBytes) + " bytes");
  Extents[T.Id.value()] = X;
  T.Scalars = X.Scalars;
  return Error::success();
}

Error ModuleBuilder::buildConstant(const Instruction &I, uint32_t Index) {
  Constant C;
  C.Id = I.Result;
  C.Type = I.ResultType;
  const Type *T = M.findType(I.ResultType.value());
  if (!T)
    return errorAt(I, "result type " + name(I.ResultType.value()) +
                          " is not a type declared before it");
  // The form and spec-ness the opcode declares (the Constant and
  // SpecConstant columns of the opcode table).
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  C.IsSpec = Info.SpecConstant;
  switch (Info.Constant) {
  case ConstantForm::True:
  case ConstantForm::False:
    if (T->Kind != TypeKind::Bool)
      return errorAt(I, "result type is not a boolean type");
    C.Kind = ConstantKind::Bool;
    C.BoolValue = Info.Constant == ConstantForm::True;
    break;
  case ConstantForm::Scalar: {
    if (T->Kind != TypeKind::Int && T->Kind != TypeKind::Float)
      return errorAt(I, "result type " + name(C.Type.value()) +
                            " is not a scalar numeric type");
    size_t Expected = T->Width > 32 ? 2 : 1;
    if (I.Operands.size() != Expected)
      return errorAt(I, "expected " + Twine(Expected) +
                            " literal words for a " + Twine(T->Width) +
                            "-bit constant, got " + Twine(I.Operands.size()));
    C.Kind = ConstantKind::Scalar;
    C.Words = I.Operands;
    break;
  }
  case ConstantForm::Composite: {
    C.Kind = ConstantKind::Composite;
    size_t Want = 0;
    switch (T->Kind) {
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      Want = T->Count;
      break;
    case TypeKind::Struct:
      Want = T->Members.size();
      break;
    default:
      return errorAt(I, "result type " + name(C.Type.value()) +
                            " is not a composite type");
    }
    if (I.Operands.size() != Want)
      return errorAt(I, "expected " + Twine(Want) + " constituents, got " +
                            Twine(I.Operands.size()));
    for (size_t K = 0; K < I.Operands.size(); ++K) {
      uint32_t E = I.Operands[K];
      const Constant *EC = M.findConstant(E);
      if (!EC)
        return errorAt(I, "constituent " + name(E) +
                              " is not a constant declared before it");
      // Each constituent has the element's (or member's) type: code
      // generation builds the composite from them as they are.
      TypeId Expected =
          T->Kind == TypeKind::Struct ? T->Members[K] : T->Element;
      if (EC->Type != Expected)
        return errorAt(I, "constituent " + name(E) + " has type " +
                              name(EC->Type.value()) + ", not " +
                              name(Expected.value()));
      C.Elements.push_back(ValueId(E));
    }
    break;
  }
  case ConstantForm::Null:
    C.Kind = ConstantKind::Null;
    break;
  case ConstantForm::Op:
    C.Kind = ConstantKind::Scalar;
    C.SpecOpInst = Index;
    break;
  case ConstantForm::None:
  case ConstantForm::Undef: // OpUndef is built by buildGlobals
    break;
  }
  if (auto Spec = M.decorationValue(C.Id.value(), spv::Decoration::SpecId))
    C.SpecId = *Spec;
  M.Constants[C.Id.value()] = std::move(C);
  M.ConstantOrder.push_back(I.Result);
  return Error::success();
}

Error ModuleBuilder::buildGlobals(const Instruction &I, uint32_t Index) {
  switch (I.Opcode) {
  case spv::Op::OpCapability: {
    auto Cap = static_cast<spv::Capability>(I.Operands.at(0));
    if (!isSupportedCapability(Cap)) {
      const char *N = capabilityName(Cap);
      return errorAt(I, Twine("unsupported: capability ") +
                            (N ? N : std::to_string(I.Operands[0]).c_str()));
    }
    M.Capabilities.push_back(Cap);
    return Error::success();
  }
  case spv::Op::OpExtension:
    M.Extensions.push_back(I.stringOperand(0));
    return Error::success();
  case spv::Op::OpExtInstImport: {
    std::string Set = I.stringOperand(0);
    M.ExtInstImports[I.Result.value()] = Set;
    if (Set != "GLSL.std.450" && Set.rfind("NonSemantic.", 0) != 0)
      return errorAt(I, "unsupported: extended instruction set \"" + Set +
                            "\"");
    return Error::success();
  }
  case spv::Op::OpMemoryModel:
    M.Addressing = static_cast<spv::AddressingModel>(I.Operands.at(0));
    M.Memory = static_cast<spv::MemoryModel>(I.Operands.at(1));
    if (M.Addressing != spv::AddressingModel::Logical &&
        M.Addressing != spv::AddressingModel::PhysicalStorageBuffer64)
      return errorAt(I, "unsupported: addressing model " +
                            Twine(I.Operands[0]) +
                            " (only Logical and PhysicalStorageBuffer64)");
    return Error::success();
  case spv::Op::OpEntryPoint: {
    EntryPoint E;
    E.Model = static_cast<spv::ExecutionModel>(I.Operands.at(0));
    E.Function = FunctionId(I.Operands.at(1));
    E.Name = I.stringOperand(2);
    // Interface ids follow the nul-terminated name.
    size_t NameWords = E.Name.size() / 4 + 1;
    for (size_t K = 2 + NameWords; K < I.Operands.size(); ++K)
      E.Interface.push_back(ValueId(I.Operands[K]));
    M.EntryPoints.push_back(std::move(E));
    EntryPointInsts.push_back(Index);
    return Error::success();
  }
  case spv::Op::OpExecutionMode:
  case spv::Op::OpExecutionModeId: {
    uint32_t Fn = I.Operands.at(0);
    auto Mode = static_cast<spv::ExecutionMode>(I.Operands.at(1));
    std::vector<uint32_t> Lits(I.Operands.begin() + 2, I.Operands.end());
    bool Found = false;
    for (EntryPoint &E : M.EntryPoints)
      if (E.Function.value() == Fn) {
        E.Modes.emplace_back(Mode, Lits);
        Found = true;
      }
    if (!Found)
      return errorAt(I, "execution mode for " + name(Fn) +
                            ", which is not an entry point");
    return Error::success();
  }
  case spv::Op::OpName:
    M.Names[I.Operands.at(0)] = I.stringOperand(1);
    {
      const std::string &N = M.Names[I.Operands.at(0)];
      M.HasNumericName |= !N.empty() && std::all_of(N.begin(), N.end(), [](char C) {
        return C >= '0' && C <= '9';
      });
    }
    return Error::success();
  case spv::Op::OpMemberName: {
    auto &V = M.MemberNames[I.Operands.at(0)];
    uint32_t Member = I.Operands.at(1);
    if (Member < (1u << 16)) {
      if (V.size() <= Member)
        V.resize(Member + 1);
      V[Member] = I.stringOperand(2);
    }
    return Error::success();
  }
  case spv::Op::OpDecorate:
  case spv::Op::OpDecorateId:
  case spv::Op::OpDecorateString: {
    Decoration D{static_cast<spv::Decoration>(I.Operands.at(1)),
                 {I.Operands.begin() + 2, I.Operands.end()}, -1};
    M.Decorations[I.Operands[0]].push_back(std::move(D));
    return Error::success();
  }
  case spv::Op::OpMemberDecorate:
  case spv::Op::OpMemberDecorateString: {
    Decoration D{static_cast<spv::Decoration>(I.Operands.at(2)),
                 {I.Operands.begin() + 3, I.Operands.end()},
                 int32_t(I.Operands.at(1))};
    M.Decorations[I.Operands[0]].push_back(std::move(D));
    return Error::success();
  }
  case spv::Op::OpGroupDecorate: {
    auto Group = M.Decorations[I.Operands.at(0)];
    for (size_t K = 1; K < I.Operands.size(); ++K)
      for (const Decoration &D : Group)
        M.Decorations[I.Operands[K]].push_back(D);
    return Error::success();
  }
  case spv::Op::OpGroupMemberDecorate: {
    auto Group = M.Decorations[I.Operands.at(0)];
    for (size_t K = 1; K + 1 < I.Operands.size(); K += 2)
      for (Decoration D : Group) {
        D.Member = int32_t(I.Operands[K + 1]);
        M.Decorations[I.Operands[K]].push_back(D);
      }
    return Error::success();
  }
  case spv::Op::OpVariable: {
    Variable V;
    V.Id = I.Result;
    V.PointerType = I.ResultType;
    V.Storage = static_cast<spv::StorageClass>(I.Operands.at(0));
    V.Inst = Index;
    const Type *PT = M.findType(I.ResultType.value());
    if (!PT || PT->Kind != TypeKind::Pointer)
      return errorAt(I, "result type " + name(I.ResultType.value()) +
                            " of variable " + name(V.Id.value()) +
                            " is not a pointer type");
    if (PT->Storage != V.Storage)
      return errorAt(I, "storage class of variable " + name(V.Id.value()) +
                            " does not match its pointer type");
    if (!M.findType(PT->Element.value()))
      return errorAt(I, "variable " + name(V.Id.value()) +
                            " points to undeclared type");
    V.Pointee = PT->Element;
    // Stage inputs and outputs are copied whole between the entry point's
    // interface and the shader's variables; initializers are stored whole.
    if (uint64_t N = M.findType(V.Pointee.value())->Scalars;
        N > limits::MaxValueScalars) {
      bool Interface = V.Storage == spv::StorageClass::Input ||
                       V.Storage == spv::StorageClass::Output;
      if (Interface || I.Operands.size() > 1)
        return errorAt(I, (Interface ? "stage input or output "
                                     : "initialized variable ") +
                              name(V.Id.value()) + " has " + Twine(N) +
                              " scalars; the limit is " +
                              Twine(limits::MaxValueScalars));
    }
    if (I.Operands.size() > 1) {
      V.Initializer = ValueId(I.Operands[1]);
      IdKind K = M.kindOf(I.Operands[1]);
      if (K != IdKind::Constant && K != IdKind::Variable)
        return errorAt(I, "initializer " + name(I.Operands[1]) +
                              " is not a constant or global variable");
    }
    if (V.Storage == spv::StorageClass::Function)
      return errorAt(I, "Function storage variable " + name(V.Id.value()) +
                            " outside a function");
    M.GlobalVariables.push_back(V.Id);
    M.Variables[V.Id.value()] = std::move(V);
    return Error::success();
  }
  case spv::Op::OpTypeForwardPointer:
    ForwardPointers.insert(I.Operands.at(0));
    return Error::success();
  case spv::Op::OpUndef: {
    Constant C;
    C.Kind = ConstantKind::Undef;
    C.Type = I.ResultType;
    C.Id = I.Result;
    if (!M.findType(I.ResultType.value()))
      return errorAt(I, "result type is not a type declared before it");
    M.Constants[C.Id.value()] = C;
    M.ConstantOrder.push_back(C.Id);
    M.Kinds[C.Id.value()] = IdKind::Constant;
    return Error::success();
  }
  default:
    break;
  }
  if (isTypeDecl(I.Opcode))
    return buildType(I);
  if (isConstantDecl(I.Opcode))
    return buildConstant(I, Index);
  return Error::success();
}

Error ModuleBuilder::buildFunctions() {
  Function *F = nullptr;
  Block *B = nullptr;
  for (uint32_t Index = 0; Index < M.Insts.size(); ++Index) {
    const Instruction &I = M.Insts[Index];
    if (!F) {
      if (I.Opcode == spv::Op::OpFunction) {
        M.Functions.emplace_back();
        F = &M.Functions.back();
        F->Id = FunctionId(I.Result.value());
        F->ResultType = I.ResultType;
        F->Control = I.Operands.at(0);
        F->FunctionType = TypeId(I.Operands.at(1));
        F->Inst = Index;
        const Type *FT = M.findType(I.Operands[1]);
        if (!FT || FT->Kind != TypeKind::Function)
          return errorAt(I, "function type " + name(I.Operands[1]) +
                                " is not an OpTypeFunction");
        if (FT->Element != F->ResultType)
          return errorAt(I, "result type does not match function type " +
                                name(I.Operands[1]));
        M.FunctionIndexOf[F->Id.value()] = uint32_t(M.Functions.size() - 1);
        continue;
      }
      if (Error E = buildGlobals(I, Index))
        return E;
      if (I.Opcode == spv::Op::OpFunctionParameter ||
          I.Opcode == spv::Op::OpLabel || I.Opcode == spv::Op::OpFunctionEnd ||
          isTerminator(I.Opcode))
        return errorAt(I, "instruction outside a function");
      continue;
    }
    // Inside a function.
    if (I.Opcode == spv::Op::OpFunctionEnd) {
      if (B)
        return errorAt(I, "block " + name(B->Label.value()) +
                              " has no terminator");
      if (F->Blocks.empty())
        return errorAt(I, "function " + name(F->Id.value()) +
                              " has no blocks (declarations are not supported)");
      const Type &FT = M.type(F->FunctionType);
      if (FT.Members.size() != F->Params.size())
        return errorAt(I, "function " + name(F->Id.value()) + " has " +
                              Twine(F->Params.size()) +
                              " parameters, its type has " +
                              Twine(FT.Members.size()));
      F = nullptr;
      continue;
    }
    if (I.Opcode == spv::Op::OpFunction)
      return errorAt(I, "function inside function " + name(F->Id.value()));
    if (I.Opcode == spv::Op::OpFunctionParameter) {
      if (!F->Blocks.empty())
        return errorAt(I, "parameter after the first block");
      F->Params.push_back(I.Result);
      continue;
    }
    if (I.Opcode == spv::Op::OpLabel) {
      if (B)
        return errorAt(I, "block " + name(B->Label.value()) +
                              " has no terminator");
      F->BlockIndexOf[I.Result.value()] = uint32_t(F->Blocks.size());
      F->Blocks.emplace_back();
      B = &F->Blocks.back();
      B->Label = BlockId(I.Result.value());
      continue;
    }
    if (!B) {
      if (I.Opcode == spv::Op::OpLine || I.Opcode == spv::Op::OpNoLine)
        continue;
      return errorAt(I, "instruction before the first block of function " +
                            name(F->Id.value()));
    }
    if (I.Opcode == spv::Op::OpLine || I.Opcode == spv::Op::OpNoLine)
      continue;
    // Types and constants are module-level declarations (spirv-val's
    // layout rule); one inside a function would be known by kind but not
    // declared (OpUndef is the exception SPIR-V allows).
    if (isTypeDecl(I.Opcode) ||
        (isConstantDecl(I.Opcode) && I.Opcode != spv::Op::OpUndef))
      return errorAt(I, "type or constant declaration inside function " +
                            name(F->Id.value()) +
                            " (declarations belong "
                            "before the first function)");
    if (I.Opcode == spv::Op::OpPhi && !B->Insts.empty() &&
        M.Insts[B->Insts.back()].Opcode != spv::Op::OpPhi)
      return errorAt(I, "OpPhi after a non-phi instruction in block " +
                            name(B->Label.value()));
    if (I.Opcode == spv::Op::OpVariable) {
      Variable V;
      V.Id = I.Result;
      V.PointerType = I.ResultType;
      V.Storage = static_cast<spv::StorageClass>(I.Operands.at(0));
      V.Function = F->Id;
      V.Inst = Index;
      const Type *PT = M.findType(I.ResultType.value());
      if (!PT || PT->Kind != TypeKind::Pointer)
        return errorAt(I, "result type of variable " + name(V.Id.value()) +
                              " is not a pointer type");
      if (V.Storage != spv::StorageClass::Function ||
          PT->Storage != V.Storage)
        return errorAt(I, "variable " + name(V.Id.value()) +
                              " inside a function must have Function storage");
      V.Pointee = PT->Element;
      if (I.Operands.size() > 1)
        V.Initializer = ValueId(I.Operands[1]);
      M.Variables[V.Id.value()] = std::move(V);
    }
    if (I.Opcode == spv::Op::OpSelectionMerge ||
        I.Opcode == spv::Op::OpLoopMerge) {
      const Instruction *Next =
          Index + 1 < M.Insts.size() ? &M.Insts[Index + 1] : nullptr;
      if (!Next || !isTerminator(Next->Opcode) ||
          (I.Opcode == spv::Op::OpSelectionMerge &&
           Next->Opcode != spv::Op::OpBranchConditional &&
           Next->Opcode != spv::Op::OpSwitch))
        return errorAt(I, "merge instruction in block " +
                              name(B->Label.value()) +
                              " is not followed by a branch");
      B->MergeInst = Index;
    }
    B->Insts.push_back(Index);
    if (isTerminator(I.Opcode)) {
      B->TerminatorInst = Index;
      B = nullptr;
    }
  }
  if (F)
    return errorAt(M.Insts[F->Inst], "function " + name(F->Id.value()) +
                                         " has no OpFunctionEnd (module "
                                         "truncated?)");
  return Error::success();
}

/// Whether <id> operand \p K of an instruction whose id operands follow
/// rule \p R names a block.
bool isLabelOperand(IdOperandRule R, size_t K) {
  switch (R) {
  case IdOperandRule::Labels:
    return true;
  case IdOperandRule::BranchTargets:
    return K > 0;
  case IdOperandRule::PhiPairs:
    return K % 2 == 1;
  default:
    return false;
  }
}

/// Kinds an <id> operand may have, by the opcode's IdOperandRule (the Ids
/// column of the opcode table) and operand position. Anything the rule
/// does not name must be a value (constant, variable or instruction
/// result).
bool operandKindOk(const Instruction &I, size_t K, IdKind Kind) {
  IdOperandRule R = opcodeInfo(I.Opcode).IdOperands;
  if (isLabelOperand(R, K))
    return Kind == IdKind::Label;
  if (K == 0 && R == IdOperandRule::Call)
    return Kind == IdKind::Function;
  if (K == 0 && R == IdOperandRule::ExtInst)
    return Kind == IdKind::ExtInstImport;
  if (R == IdOperandRule::ModeIds)
    return Kind == (K == 0 ? IdKind::Function : IdKind::Constant);
  return Kind == IdKind::Value || Kind == IdKind::Constant ||
         Kind == IdKind::Variable;
}

Error ModuleBuilder::checkUses() {
  for (const Function &F : M.Functions) {
    for (const Block &B : F.Blocks) {
      for (uint32_t Index : B.Insts) {
        const Instruction &I = M.Insts[Index];
        if (I.ResultType && M.kindOf(I.ResultType.value()) != IdKind::Type)
          return errorAt(I, "result type " + name(I.ResultType.value()) +
                                " is " +
                                kindName(M.kindOf(I.ResultType.value())) +
                                ", not a type");
        for (size_t K = 0; K < I.Operands.size(); ++K) {
          if (!I.OperandIsId[K])
            continue;
          uint32_t Id = I.Operands[K];
          IdKind Kind = M.kindOf(Id);
          if (Kind == IdKind::Undefined)
            return errorAt(I, "use of undefined id " + name(Id));
          // Non-semantic instructions take strings, types and labels.
          bool NonSemantic =
              I.Opcode == spv::Op::OpExtInst && K > 0 &&
              M.ExtInstImports[I.Operands[0]].rfind("NonSemantic.", 0) == 0;
          if (!NonSemantic && !operandKindOk(I, K, Kind))
            return errorAt(I, "operand " + name(Id) + " is " +
                                  kindName(Kind) + ", which is not allowed here");
          if (Kind == IdKind::Label &&
              isLabelOperand(opcodeInfo(I.Opcode).IdOperands, K) &&
              !F.BlockIndexOf.count(Id))
            return errorAt(I, "label " + name(Id) +
                                  " is not a block of function " +
                                  name(F.Id.value()));
        }
      }
    }
  }
  return Error::success();
}

Error ModuleBuilder::checkEntryPoints() {
  for (size_t K = 0; K < M.EntryPoints.size(); ++K) {
    const EntryPoint &E = M.EntryPoints[K];
    const Instruction &I = M.Insts[EntryPointInsts[K]];
    switch (E.Model) {
    case spv::ExecutionModel::Vertex:
    case spv::ExecutionModel::Fragment:
    case spv::ExecutionModel::GLCompute:
    case spv::ExecutionModel::Geometry:
      break;
    default: {
      const char *N = executionModelName(E.Model);
      return errorAt(
          I, "entry point \"" + E.Name + "\": unsupported: execution model " +
                 (N ? N : std::to_string(uint32_t(E.Model)).c_str()));
    }
    }
    if (!M.findFunction(E.Function.value()))
      return errorAt(I, "entry point \"" + E.Name + "\": " +
                            name(E.Function.value()) + " is not a function");
    for (ValueId V : E.Interface)
      if (!M.findVariable(V.value()))
        return errorAt(I, "entry point \"" + E.Name + "\": interface id " +
                              name(V.value()) + " is not a global variable");
  }
  return Error::success();
}

Error ModuleBuilder::run() {
  if (Error E = defineResults())
    return E;
  if (Error E = buildFunctions())
    return E;
  // Function-scope kinds that defineResults could not know: OpUndef inside
  // functions is an ordinary value. Global uses are checked where built.
  if (Error E = checkUses())
    return E;
  return checkEntryPoints();
}

} // namespace

bool isSupportedCapability(spv::Capability C) {
  using spv::Capability;
  switch (C) {
  case Capability::Matrix:
  case Capability::Shader:
  case Capability::Float16:
  case Capability::Float64:
  case Capability::Int64:
  case Capability::Int16:
  case Capability::Int8:
  case Capability::StorageImageExtendedFormats:
  case Capability::ImageQuery:
  case Capability::DerivativeControl:
  case Capability::SampledBuffer:
  case Capability::ImageBuffer:
  case Capability::Sampled1D:
  case Capability::Image1D:
  case Capability::SampledCubeArray:
  case Capability::InputAttachment:
  case Capability::MinLod:
  case Capability::StorageImageWriteWithoutFormat:
  case Capability::StorageImageReadWithoutFormat:
  case Capability::ClipDistance:
  case Capability::CullDistance:
  case Capability::ImageGatherExtended:
  case Capability::StorageImageMultisample:
  case Capability::UniformBufferArrayDynamicIndexing:
  case Capability::SampledImageArrayDynamicIndexing:
  case Capability::StorageBufferArrayDynamicIndexing:
  case Capability::StorageImageArrayDynamicIndexing:
  case Capability::GroupNonUniform:
  case Capability::GroupNonUniformVote:
  case Capability::GroupNonUniformArithmetic:
  case Capability::GroupNonUniformBallot:
  case Capability::GroupNonUniformShuffle:
  case Capability::GroupNonUniformShuffleRelative:
  case Capability::GroupNonUniformClustered:
  case Capability::GroupNonUniformQuad:
  case Capability::StorageBuffer16BitAccess:
  case Capability::UniformAndStorageBuffer16BitAccess:
  case Capability::StoragePushConstant16:
  case Capability::StorageInputOutput16:
  case Capability::StorageBuffer8BitAccess:
  case Capability::UniformAndStorageBuffer8BitAccess:
  case Capability::StoragePushConstant8:
  case Capability::VariablePointersStorageBuffer:
  case Capability::VariablePointers:
  case Capability::DemoteToHelperInvocation:
  case Capability::VulkanMemoryModel:
  case Capability::VulkanMemoryModelDeviceScope:
  case Capability::ShaderNonUniform:
  case Capability::RuntimeDescriptorArray:
  case Capability::UniformBufferArrayNonUniformIndexing:
  case Capability::StorageBufferArrayNonUniformIndexing:
  case Capability::PhysicalStorageBufferAddresses:
  case Capability::WorkgroupMemoryExplicitLayoutKHR:
  case Capability::WorkgroupMemoryExplicitLayout8BitAccessKHR:
  case Capability::WorkgroupMemoryExplicitLayout16BitAccessKHR:
  case Capability::SignedZeroInfNanPreserve:
  case Capability::DenormPreserve:
  case Capability::DenormFlushToZero:
  case Capability::RoundingModeRTE:
  case Capability::RoundingModeRTZ:
  case Capability::Linkage:
  case Capability::ImageMSArray:
  case Capability::SampleRateShading:
  case Capability::ImageRect:
  case Capability::Int64Atomics:
  case Capability::InterpolationFunction:
  case Capability::SampledRect:
  case Capability::SampledImageArrayNonUniformIndexing:
  case Capability::StorageImageArrayNonUniformIndexing:
  case Capability::InputAttachmentArrayDynamicIndexing:
  case Capability::InputAttachmentArrayNonUniformIndexing:
  case Capability::UniformTexelBufferArrayDynamicIndexing:
  case Capability::StorageTexelBufferArrayDynamicIndexing:
  case Capability::UniformTexelBufferArrayNonUniformIndexing:
  case Capability::StorageTexelBufferArrayNonUniformIndexing:
  case Capability::SparseResidency:
  case Capability::ImageCubeArray:
  // Capabilities whose only effect is built-in variables, decorations or
  // execution modes: such built-ins are interface variables the caller
  // fills or reads (docs/abi.md), like FragCoord.
  case Capability::TransformFeedback:
  case Capability::DrawParameters:
  case Capability::FragmentDensityEXT:
  case Capability::DeviceGroup:
  case Capability::CoreBuiltinsARM:
  case Capability::MultiView:
  case Capability::SampleMaskPostDepthCoverage:
  case Capability::SampleMaskOverrideCoverageNV:
  case Capability::FragmentShadingRateKHR:
  case Capability::StencilExportEXT:
  case Capability::ShaderSMBuiltinsNV:
  case Capability::ShaderViewportIndexLayerEXT:
  case Capability::ShaderViewportIndex:
  case Capability::MultiViewport:
  case Capability::ShaderLayer:
  case Capability::Geometry:
  // Stream 0 only; another stream is refused where it is used
  // (codegen/simd/EmitGeometry.cpp).
  case Capability::GeometryStreams:
  case Capability::FragmentFullyCoveredEXT:
  case Capability::PerViewAttributesNV:
  case Capability::FragmentBarycentricKHR:
  case Capability::ShaderClockKHR:
  case Capability::SubgroupVoteKHR:
  case Capability::SubgroupBallotKHR:
    return true;
  default:
    return false;
  }
}

Expected<std::unique_ptr<Module>>
parseModule(ArrayRef<uint32_t> Words, std::vector<std::string> FriendlyNames) {
  return parseModule(Words, std::move(FriendlyNames), nullptr);
}

Expected<std::unique_ptr<Module>>
parseModule(ArrayRef<uint32_t> Words, std::vector<std::string> FriendlyNames,
            std::function<std::vector<std::string>()> FriendlyNameSource) {
  Expected<DecodedBinary> D = decodeWords(Words);
  if (!D)
    return D.takeError();
  auto M = std::make_unique<Module>();
  M->Version = D->Version;
  M->Generator = D->Generator;
  M->Bound = D->Bound;
  M->Insts = std::move(D->Insts);
  M->FriendlyNames = std::move(FriendlyNames);
  M->FriendlyNameSource = std::move(FriendlyNameSource);
  ModuleBuilder B(*M);
  if (Error E = B.run())
    return std::move(E);
  if (Error E = checkTypes(*M))
    return std::move(E);
  return std::move(M);
}

} // namespace spirv2llvm
