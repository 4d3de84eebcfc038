//===- AmberRunner.h - Executing Amber scripts on the JIT -------*- C++ -*-===//
//
// Runs a parsed Script: compute pipelines through ComputeShader
// (Compute.h), draws through spirv2llvm's GraphicsPipeline (Graphics.h;
// the translation is AmberDraw.cpp), then checks each EXPECT in order. The outcome of a script
// is PASS, FAIL with the first failing EXPECT or error, or SKIP with the
// unsupported feature.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_AMBERRUNNER_H
#define SPIRV2LLVM_AMBER_AMBERRUNNER_H

#include "amber/AmberScript.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace spirv2llvm {
class CompileCache;
}

namespace spirv2llvm::amber {

struct RunnerOptions {
  unsigned Width = 4;   ///< lanes per SIMD group: 4, 8 or 16
  unsigned Threads = 0; ///< compute worker threads; 0: all cores
  /// --no-helper-lanes. Draws no longer read it: the rasterizer runs the
  /// helper lanes of partly covered quads unless the fragment shader
  /// writes memory (docs/graphics.md).
  bool HelperLanes = true;
  /// -v: what each command does, to this stream when set.
  llvm::raw_ostream *Log = nullptr;
  /// Where compiled shaders are kept between runs (CompileCache.h); null:
  /// compile every shader.
  CompileCache *Cache = nullptr;
};

enum class Outcome { Pass, Fail, Skip };

struct ScriptResult {
  Outcome Result = Outcome::Pass;
  std::string Message; ///< why it failed or was skipped
};

/// Parses and runs the script at \p Path (files it names resolve against
/// its folder). Never throws or aborts on bad input: that is a Fail.
ScriptResult runScriptFile(llvm::StringRef Path, const RunnerOptions &O);

/// Runs an already parsed script.
ScriptResult runScript(Script &S, const RunnerOptions &O);

} // namespace spirv2llvm::amber

#endif
