//===- NoContraction.h - Marking NoContraction results ----------*- C++ -*-===//
//
// NoContractionScope marks the floating-point operations emitted for one
// SPIR-V instruction whose result is decorated NoContraction
// (support/Contraction.h explains why). It looks at what the builder
// appended to its insertion block while the scope lived: arithmetic does
// not branch, so that is all of it.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_COMMON_NOCONTRACTION_H
#define SPIRV2LLVM_CODEGEN_COMMON_NOCONTRACTION_H

#include "parser/Module.h"

#include "llvm/IR/IRBuilder.h"

namespace spirv2llvm {

class NoContractionScope {
public:
  NoContractionScope(llvm::IRBuilder<> &B, const Module &M,
                     const Instruction &I);
  ~NoContractionScope();

private:
  llvm::IRBuilder<> &B;
  llvm::BasicBlock *Block = nullptr;
  llvm::Instruction *Last = nullptr;
};

} // namespace spirv2llvm

#endif
