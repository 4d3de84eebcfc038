//===- SpirvNames.h - Names of SPIR-V enumerants ----------------*- C++ -*-===//
//
// Generated at build time from SPIRV-Headers' grammar (gen_spirv_names.py).
// Each returns nullptr for a value the grammar does not know; the *Str
// helpers return "<name>" or the decimal value for diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_PARSER_SPIRVNAMES_H
#define SPIRV2LLVM_PARSER_SPIRVNAMES_H

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <string>

namespace spirv2llvm {

const char *opcodeName(spv::Op V);
const char *capabilityName(spv::Capability V);
const char *executionModelName(spv::ExecutionModel V);
const char *storageClassName(spv::StorageClass V);
const char *decorationName(spv::Decoration V);
const char *builtInName(spv::BuiltIn V);
const char *executionModeName(spv::ExecutionMode V);
const char *glslStd450Name(uint32_t V);

/// "OpIAdd", or "opcode 9999" for unknown values.
std::string opName(spv::Op V);

} // namespace spirv2llvm

#endif
