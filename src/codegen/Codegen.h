//===- Codegen.h - SPIR-V module to LLVM IR ---------------------*- C++ -*-===//
//
// The back ends' common entry: translate one entry point of a parsed and
// analyzed module into an llvm::Module, and describe the interface layout
// the generated entry point expects (include/spirv2llvm/abi.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_CODEGEN_H
#define SPIRV2LLVM_CODEGEN_CODEGEN_H

#include "cfg/FunctionAnalysis.h"
#include "codegen/InterfaceLayout.h"
#include "parser/Module.h"
#include "uniformity/Uniformity.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace spirv2llvm {

struct CodegenOptions {
  /// Lanes per group: 4, 8 or 16.
  unsigned Width = 4;
  /// Prefix of the generated entry function's name: "s2l_" + entry name.
  std::string SymbolPrefix = "s2l_";
  /// Bounds-check buffer accesses (Vulkan robustBufferAccess).
  bool RobustBufferAccess = false;
  /// Run short divergent blocks of pure arithmetic without the any-lane
  /// branch around them (masks make that safe): cheaper than a branch that
  /// divergent data makes unpredictable. TranslateOptions sets it (on by
  /// default).
  bool SpeculateSmallBlocks = true;
};

struct CodegenResult {
  std::unique_ptr<llvm::Module> IR;
  /// Name of the generated entry function.
  std::string EntrySymbol;
  InterfaceLayout Layout;
  ComputeInfo Compute;
};

/// SIMD back end: W invocations per call, uniform values scalar, varying
/// values <W x T>, divergent control flow as masked code. The result is in
/// SSA form (slots promoted with mem2reg) but otherwise unoptimized.
llvm::Expected<CodegenResult>
emitSimdModule(const Module &M, const EntryPoint &EP,
               const cfg::ModuleAnalysis &MA, const UniformityInfo &UI,
               const CodegenOptions &Opts, llvm::LLVMContext &Ctx);

/// One-invocation back end (InvocationEmitter.h): one call runs one
/// invocation, SPIR-V vectors are LLVM vectors, matrices arrays of column
/// vectors, Workgroup variables addrspace(3) globals, control flow plain
/// branches. Opts.Width is ignored (the interface layout has width 1).
llvm::Expected<CodegenResult>
emitInvocationModule(const Module &M, const EntryPoint &EP,
                     const cfg::ModuleAnalysis &MA, const CodegenOptions &Opts,
                     llvm::LLVMContext &Ctx);

/// What the back ends would report as CodegenResult::Layout and ::Compute,
/// without generating code (reflection): the interface at \p Width lanes
/// (1 for the one-invocation back ends) and the bindings, push constants,
/// workgroup size and memory of any stage.
struct EntryReflection {
  InterfaceLayout Layout;
  ComputeInfo Compute;
};
llvm::Expected<EntryReflection> reflectEntryPoint(const Module &M,
                                                 const EntryPoint &EP,
                                                 unsigned Width);

} // namespace spirv2llvm

#endif
