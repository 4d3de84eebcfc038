//===- Emit.h - Writing a module as IR, bitcode, object or asm --*- C++ -*-===//
#ifndef SPIRV2LLVM_TARGET_EMIT_H
#define SPIRV2LLVM_TARGET_EMIT_H

#include "spirv2llvm/Translation.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace spirv2llvm {

/// Writes \p M to \p OS as \p Kind. Object code and assembly are generated
/// for the host CPU at \p OptLevel (0-3) and need \p M to have no other
/// target triple than the host's.
llvm::Error emitModule(llvm::Module &M, OutputKind Kind, unsigned OptLevel,
                       llvm::raw_ostream &OS);

} // namespace spirv2llvm

#endif
