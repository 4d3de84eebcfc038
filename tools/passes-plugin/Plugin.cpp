// opt plugin: `opt-19 -load-pass-plugin=build/lib/libSpirv2llvmPasses.so
// -passes='dxil-data-scalarization,...'`. The plugin links the shared
// libLLVM that opt itself uses, never a second static copy of LLVM.
#include "spirv2llvm/Passes.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Spirv2llvmPasses", "0.1",
          [](llvm::PassBuilder &PB) { spirv2llvm::registerDxilPasses(PB); }};
}
