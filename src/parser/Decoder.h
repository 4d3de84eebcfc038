//===- Decoder.h - Words to a flat instruction list -------------*- C++ -*-===//
#ifndef SPIRV2LLVM_PARSER_DECODER_H
#define SPIRV2LLVM_PARSER_DECODER_H

#include "parser/Module.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace spirv2llvm {

struct DecodedBinary {
  uint32_t Version = 0, Generator = 0, Bound = 0;
  std::vector<Instruction> Insts;
  uint32_t NextWord = 5; ///< word offset of the next instruction
};

/// Decodes header and instructions; checks word counts, opcodes, operand
/// counts (SPIRV-Tools' grammar) and that every id is below the bound.
llvm::Expected<DecodedBinary> decodeWords(llvm::ArrayRef<uint32_t> Words);

} // namespace spirv2llvm

#endif
