//===- NoGlslang.cpp - GLSL/HLSL input when built without glslang ---------===//
//
// Built instead of Glslang.cpp with -DSPIRV2LLVM_WITH_GLSLANG=OFF: the
// library then takes SPIR-V (binary or assembly) only, and says so when
// given a source file.
//
//===----------------------------------------------------------------------===//
#include "frontend/Frontend.h"
#include "support/Diagnostic.h"

namespace spirv2llvm::frontend {

llvm::Expected<std::vector<uint32_t>> compileGlsl(llvm::StringRef Source,
                                                  const GlslOptions &Opts) {
  return makeError(Opts.FileName + ": unsupported: " +
                   (Opts.Language == SourceLanguage::Hlsl ? "HLSL" : "GLSL") +
                   " input (this spirv2llvm was built without glslang, "
                   "-DSPIRV2LLVM_WITH_GLSLANG=OFF); give it SPIR-V "
                   "(.spv or .spvasm)");
}

} // namespace spirv2llvm::frontend
