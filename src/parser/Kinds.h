//===- Kinds.h - Kinds of types and ids -------------------------*- C++ -*-===//
//
// The kinds of types, result ids and terminators the module model tells
// apart (TerminatorKind: for the CFG, cfg/Cfg.h). Apart from
// Module.h so that the opcode table (OpcodeTable.h), which says what each
// declaration declares, can name them without bringing the module's
// structs (Type, Constant...) into every emitter's scope.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_PARSER_KINDS_H
#define SPIRV2LLVM_PARSER_KINDS_H

#include <cstdint>

namespace spirv2llvm {

enum class TypeKind {
  Void, Bool, Int, Float, Vector, Matrix, Array, RuntimeArray, Struct,
  Pointer, Function, Image, Sampler, SampledImage, ForwardPointer, Unsupported
};

/// What a result id is, for kind checks on operands.
enum class IdKind : uint8_t {
  Undefined, Type, Constant, Variable, Function, Label, Value, ExtInstImport,
  String, DecorationGroup, Other
};

/// How a block's terminator leaves it.
enum class TerminatorKind : uint8_t {
  Branch, BranchConditional, Switch, Return, Kill, Unreachable
};

} // namespace spirv2llvm

#endif
