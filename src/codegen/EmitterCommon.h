//===- EmitterCommon.h - What the two emitters do alike ---------*- C++ -*-===//
//
// The SIMD and one-invocation emitters share their view of instructions
// that need no code and of extended instruction sets, and the final check
// of the module they built.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_EMITTERCOMMON_H
#define SPIRV2LLVM_CODEGEN_EMITTERCOMMON_H

#include "codegen/Codegen.h"

#include "llvm/IR/Module.h"

namespace spirv2llvm {

/// How an instruction reaches the emitter's opcode families.
enum class InstructionRoute {
  NoCode,     ///< structure already in the CFG, debug or reflection info
  GlslStd450, ///< an OpExtInst of GLSL.std.450
  Unsupported,///< an OpExtInst of another set with semantics (message set)
  Families,   ///< everything else: the emitter's opcode families
};
/// \p Message: for Unsupported, what to report (without the word prefix).
InstructionRoute routeInstruction(const Module &M, const Instruction &I,
                                  std::string &Message);

/// Verifies every function of \p LM and wraps it as the translation's
/// result for entry \p EP.
llvm::Expected<CodegenResult>
finishModule(std::unique_ptr<llvm::Module> LM, const EntryPoint &EP,
             const CodegenOptions &Opts, InterfaceLayout Layout,
             const ComputeInfo &Compute);

} // namespace spirv2llvm

#endif
