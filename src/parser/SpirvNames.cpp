//===- SpirvNames.cpp - Names of SPIR-V enumerants ------------------------===//
#include "parser/SpirvNames.h"

namespace spirv2llvm {

#include "SpirvNames.inc"

std::string opName(spv::Op V) {
  if (const char *N = opcodeName(V))
    return N;
  return "opcode " + std::to_string(static_cast<uint32_t>(V));
}

} // namespace spirv2llvm
