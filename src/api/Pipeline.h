//===- Pipeline.h - The translation stages, wired ---------------*- C++ -*-===//
//
// translateBytes() runs these in order; the CLI runs them itself so it can
// print each stage's result (--print-cfg, --print-uniformity, ...).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_API_PIPELINE_H
#define SPIRV2LLVM_API_PIPELINE_H

#include "cfg/FunctionAnalysis.h"
#include "parser/Module.h"
#include "spirv2llvm/spirv2llvm.h"
#include "uniformity/Uniformity.h"


#include <spirv-tools/libspirv.h>

namespace spirv2llvm {

/// Everything known about a module before code generation.
struct AnalyzedModule {
  std::vector<uint32_t> Words;       ///< after canonicalization
  spv_target_env Env = SPV_ENV_VULKAN_1_3;
  std::unique_ptr<Module> M;
  cfg::ModuleAnalysis MA;
  const EntryPoint *EP = nullptr;
  UniformityInfo UI;
};

/// Bytes to (validated, canonicalized) SPIR-V words.
llvm::Expected<std::vector<uint32_t>> loadSpirv(llvm::ArrayRef<uint8_t> Bytes,
                                                llvm::StringRef FileName,
                                                const TranslateOptions &Opts,
                                                spv_target_env &Env);

/// Parse, pick the entry point, CFG analyses and uniformity.
llvm::Expected<AnalyzedModule> analyzeSpirv(std::vector<uint32_t> Words,
                                            spv_target_env Env,
                                            const TranslateOptions &Opts);

/// Code generation and optimization.
llvm::Expected<Translation> generateLlvm(const AnalyzedModule &AM,
                                         const TranslateOptions &Opts);

} // namespace spirv2llvm

#endif
