//===- spirv2llvm/Translation.h - A translated shader -----------*- C++ -*-===//
//
// What the translator hands to the runtime: an LLVM module with one entry
// function (signature in abi.h) and the interface it expects. The runtime
// (Jit.h, Compute.h) consumes it without depending on the translator, and
// emitTranslation() (spirv2llvm.h) writes it as IR, bitcode, object code or
// assembly.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TRANSLATION_H
#define SPIRV2LLVM_TRANSLATION_H

#include "spirv2llvm/Interface.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <memory>
#include <string>

namespace spirv2llvm {

struct Translation {
  std::unique_ptr<llvm::LLVMContext> Context;
  std::unique_ptr<llvm::Module> IR;
  std::string EntrySymbol;
  std::string EntryName;
  Stage EntryStage = Stage::Fragment;
  InterfaceLayout Layout;
  /// Compute entry points: workgroup size, bindings, push constants.
  ComputeInfo Compute;
  /// The LLVM optimization level the IR was translated at (0-3): object
  /// and assembly emission generate code at the same level, and the JIT
  /// does not run the IR pipeline again at that level or below.
  unsigned OptLevel = 0;
};

/// Forms in which a translation can be written (--emit).
enum class OutputKind { IRText, Bitcode, Object, Assembly };

} // namespace spirv2llvm

#endif
