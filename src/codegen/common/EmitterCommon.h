//===- EmitterCommon.h - What the two emitters do alike ---------*- C++ -*-===//
//
// The SIMD and one-invocation emitters share their view of extended
// instruction sets and the final check of the module they built.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_EMITTERCOMMON_H
#define SPIRV2LLVM_CODEGEN_EMITTERCOMMON_H

#include "codegen/Codegen.h"

#include "llvm/IR/Module.h"

namespace spirv2llvm {

/// Where an OpExtInst goes, by its instruction set. (Every other opcode
/// goes by its family in the opcode table, parser/OpcodeTable.h.)
enum class ExtInstRoute {
  NoCode,     ///< debug or reflection information (NonSemantic.*)
  GlslStd450, ///< an OpExtInst of GLSL.std.450
  Unsupported,///< an OpExtInst of another set with semantics (message set)
};
/// \p Message: for Unsupported, what to report (without the word prefix).
ExtInstRoute routeExtInst(const Module &M, const Instruction &I,
                          std::string &Message);

/// Verifies every function of \p LM and wraps it as the translation's
/// result for entry \p EP.
llvm::Expected<CodegenResult>
finishModule(std::unique_ptr<llvm::Module> LM, const EntryPoint &EP,
             const CodegenOptions &Opts, InterfaceLayout Layout,
             const ComputeInfo &Compute);

} // namespace spirv2llvm

#endif
