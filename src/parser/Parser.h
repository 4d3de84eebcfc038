//===- Parser.h - SPIR-V words to Module ------------------------*- C++ -*-===//
//
// parseModule() decodes a binary with SPIRV-Tools' grammar-driven binary
// parser (spvBinaryParse: word counts, opcodes, operand kinds, either byte
// order), then builds the Module's indexes and checks everything later
// stages assume, so they can assert instead of checking again:
//   - every id below the bound, defined once, and every <id> operand defined
//     (forward references only where SPIR-V allows them) and of the right
//     kind for the operand positions code generation reads;
//   - capabilities and execution models the translator supports;
//   - functions made of blocks that start with OpLabel and end with a
//     terminator, with OpPhi only at the start of a block.
// It works on unvalidated input (--no-validate) and never aborts.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_PARSER_PARSER_H
#define SPIRV2LLVM_PARSER_PARSER_H

#include "parser/Module.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace spirv2llvm {

/// Parses \p Words (host byte order or byte-swapped; the magic number
/// decides). \p FriendlyNames, if not empty, gives spirv-dis names by id.
llvm::Expected<std::unique_ptr<Module>>
parseModule(llvm::ArrayRef<uint32_t> Words,
            std::vector<std::string> FriendlyNames = {});
/// As above; \p FriendlyNameSource computes the friendly names when first
/// needed (Module::FriendlyNameSource).
llvm::Expected<std::unique_ptr<Module>>
parseModule(llvm::ArrayRef<uint32_t> Words,
            std::vector<std::string> FriendlyNames,
            std::function<std::vector<std::string>()> FriendlyNameSource);

/// Checks the operand and result types of function code against what each
/// opcode needs (parseModule runs it; see TypeCheck.cpp).
llvm::Error checkTypes(const Module &M);

/// Whether the translator supports capability \p C (anything it does not
/// know how to translate is rejected by name).
bool isSupportedCapability(spv::Capability C);

} // namespace spirv2llvm

#endif
