//===- Module.h - Decoded SPIR-V module -------------------------*- C++ -*-===//
//
// The read-only result of parsing: every instruction of the input with its
// own IDs, plus indexes (types, constants, variables, functions, blocks,
// names, decorations) that later stages query. Nothing here is mutated after
// parseModule() returns, so analyses and emitters can hold references into it
// (the split SwiftShader makes between `Spirv` and `SpirvEmitter`).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_PARSER_MODULE_H
#define SPIRV2LLVM_PARSER_MODULE_H

#include "parser/Ids.h"
#include "parser/Kinds.h"

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace spirv2llvm {

/// One decoded instruction. Operands exclude the result type and result id;
/// `OperandIsId[i]` tells whether operand word i is an <id> (from the
/// SPIRV-Tools grammar), so generic passes can walk uses without a per-opcode
/// table of their own.
struct Instruction {
  spv::Op Opcode = spv::Op::OpNop;
  TypeId ResultType;
  ValueId Result;
  std::vector<uint32_t> Operands;
  std::vector<bool> OperandIsId;
  /// Word offset of the instruction's first word in the input binary.
  uint32_t WordOffset = 0;
  /// For OpExtInst: the imported set, e.g. GLSLstd450 (0 if not).
  uint32_t ExtInstSet = 0;

  ValueId idOperand(size_t I) const { return ValueId(Operands[I]); }
  /// Literal string operand starting at word \p I (nul terminated).
  std::string stringOperand(size_t I) const;
};

struct Type {
  TypeKind Kind = TypeKind::Unsupported;
  TypeId Id;
  uint32_t Width = 0;          ///< bits, for Int and Float
  bool Signed = false;         ///< for Int
  TypeId Element;              ///< Vector/Matrix/Array/RuntimeArray element, Pointer pointee, Function return
  uint32_t Count = 0;          ///< Vector/Matrix component count, Array length
  std::vector<TypeId> Members; ///< Struct members, Function parameters
  spv::StorageClass Storage = spv::StorageClass::Max; ///< Pointer
  ValueId LengthId;            ///< Array: the constant that gives its length
  /// Scalars in one whole value of the type (saturating; a pointer counts
  /// one, a runtime array as one element), for limits::MaxValueScalars.
  uint64_t Scalars = 1;
  /// OpTypeImage: Dim, Depth (0 no, 1 yes, 2 unknown), Arrayed, MS,
  /// Sampled (1 sampled, 2 storage) and ImageFormat, as SPIR-V numbers.
  uint32_t ImageDim = 0, ImageDepth = 0, ImageArrayed = 0, ImageMS = 0,
           ImageSampled = 0, ImageFormat = 0;
};

enum class ConstantKind { Scalar, Bool, Composite, Null, Undef };

struct Constant {
  ConstantKind Kind = ConstantKind::Scalar;
  TypeId Type;
  ValueId Id;
  bool IsSpec = false;
  uint32_t SpecId = ~0u;           ///< from the SpecId decoration
  std::vector<uint32_t> Words;     ///< Scalar: literal words, low first
  bool BoolValue = false;
  std::vector<ValueId> Elements;   ///< Composite
  /// OpSpecConstantOp: the instruction it computes (index into Module::Insts).
  uint32_t SpecOpInst = ~0u;

  uint64_t scalarBits() const {
    uint64_t V = Words.empty() ? 0 : Words[0];
    if (Words.size() > 1)
      V |= uint64_t(Words[1]) << 32;
    return V;
  }
};

struct Variable {
  ValueId Id;
  TypeId PointerType;
  TypeId Pointee;
  spv::StorageClass Storage = spv::StorageClass::Function;
  ValueId Initializer;   ///< optional
  FunctionId Function;   ///< set for Function-storage variables
  uint32_t Inst = ~0u;   ///< index into Module::Insts
};

struct Block {
  BlockId Label;
  /// Indices into Module::Insts of the block's instructions after OpLabel:
  /// phis, body, then the merge instruction (if any) and the terminator.
  std::vector<uint32_t> Insts;
  uint32_t MergeInst = ~0u;      ///< OpSelectionMerge / OpLoopMerge
  uint32_t TerminatorInst = ~0u;
};

struct Function {
  FunctionId Id;
  TypeId ResultType;
  TypeId FunctionType;
  uint32_t Control = 0;
  std::vector<ValueId> Params;
  std::vector<Block> Blocks;     ///< in module order; Blocks[0] is the entry
  std::unordered_map<uint32_t, uint32_t> BlockIndexOf; ///< label id -> index
  uint32_t Inst = ~0u;           ///< OpFunction
};

struct EntryPoint {
  spv::ExecutionModel Model = spv::ExecutionModel::Max;
  FunctionId Function;
  std::string Name;
  std::vector<ValueId> Interface;
  /// Execution modes: mode and literal operands.
  std::vector<std::pair<spv::ExecutionMode, std::vector<uint32_t>>> Modes;
};

struct Decoration {
  spv::Decoration Kind;
  std::vector<uint32_t> Literals;
  int32_t Member = -1;           ///< for OpMemberDecorate
};

struct Module {
  uint32_t Version = 0;
  uint32_t Generator = 0;
  uint32_t Bound = 0;
  std::vector<Instruction> Insts;

  std::vector<spv::Capability> Capabilities;
  std::vector<std::string> Extensions;
  std::unordered_map<uint32_t, std::string> ExtInstImports;
  spv::AddressingModel Addressing = spv::AddressingModel::Logical;
  spv::MemoryModel Memory = spv::MemoryModel::GLSL450;

  std::vector<EntryPoint> EntryPoints;
  std::vector<IdKind> Kinds;                       ///< indexed by id
  std::vector<uint32_t> DefInst;                   ///< id -> instruction index
  std::unordered_map<uint32_t, std::string> Names; ///< OpName
  /// Some OpName is all digits, the form of an unnamed id's friendly name
  /// (spirv-dis would then rename one of the two).
  bool HasNumericName = false;
  std::unordered_map<uint32_t, std::vector<std::string>> MemberNames;
  std::unordered_map<uint32_t, std::vector<Decoration>> Decorations;

  std::unordered_map<uint32_t, Type> Types;
  std::unordered_map<uint32_t, Constant> Constants;
  std::vector<ValueId> ConstantOrder;              ///< module order
  std::unordered_map<uint32_t, Variable> Variables;
  std::vector<ValueId> GlobalVariables;            ///< module order
  std::vector<Function> Functions;
  std::unordered_map<uint32_t, uint32_t> FunctionIndexOf; ///< id -> index

  /// spirv-dis style friendly names without '%' ("int_0", "in_") by id;
  /// may be empty or shorter than the bound. Filled from
  /// FriendlyNameSource on the first friendlyName() call when empty.
  mutable std::vector<std::string> FriendlyNames;
  /// Computes FriendlyNames when first needed: spirv-dis' name mapper
  /// costs more than parsing the module, and only diagnostics and
  /// printers use the names.
  std::function<std::vector<std::string>()> FriendlyNameSource;

  // --- queries -------------------------------------------------------------
  IdKind kindOf(uint32_t Id) const {
    return Id < Kinds.size() ? Kinds[Id] : IdKind::Undefined;
  }
  const Type &type(TypeId Id) const { return Types.at(Id.value()); }
  const Type *findType(uint32_t Id) const {
    auto It = Types.find(Id);
    return It == Types.end() ? nullptr : &It->second;
  }
  const Constant *findConstant(uint32_t Id) const {
    auto It = Constants.find(Id);
    return It == Constants.end() ? nullptr : &It->second;
  }
  const Variable *findVariable(uint32_t Id) const {
    auto It = Variables.find(Id);
    return It == Variables.end() ? nullptr : &It->second;
  }
  const Function *findFunction(uint32_t Id) const {
    auto It = FunctionIndexOf.find(Id);
    return It == FunctionIndexOf.end() ? nullptr : &Functions[It->second];
  }
  /// The defining instruction of a result id, or nullptr.
  const Instruction *def(uint32_t Id) const {
    if (Id >= DefInst.size() || DefInst[Id] == ~0u)
      return nullptr;
    return &Insts[DefInst[Id]];
  }
  /// Type of a value id (constant, variable, instruction result).
  TypeId typeOf(uint32_t Id) const {
    const Instruction *I = def(Id);
    return I ? I->ResultType : TypeId();
  }
  bool hasDecoration(uint32_t Id, spv::Decoration D) const;
  std::optional<uint32_t> decorationValue(uint32_t Id, spv::Decoration D,
                                          int32_t Member = -1) const;
  /// "%int_0", "%in_", or "%16" when the id has no friendly name.
  std::string friendlyName(uint32_t Id) const;
  /// friendlyName() without the '%', of an id that is neither a type nor a
  /// constant (labels): the number when it has no OpName, which spares
  /// computing the friendly names of the whole module.
  std::string plainName(uint32_t Id) const;
  const EntryPoint *findEntryPoint(const std::string &Name) const;
};

} // namespace spirv2llvm

#endif
