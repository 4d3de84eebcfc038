//===- Unsupported.h - Errors that make a script SKIP -----------*- C++ -*-===//
//
// A feature the runner (or the JIT, or the rasterizer) does not have is a
// SKIP naming it, not a FAIL: such errors carry their own error class.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_UNSUPPORTED_H
#define SPIRV2LLVM_AMBER_UNSUPPORTED_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace spirv2llvm::amber {

/// Marks errors that mean "feature not supported" (a SKIP, not a FAIL).
llvm::Error makeUnsupported(const llvm::Twine &Msg);
bool isUnsupported(const llvm::Error &E);

} // namespace spirv2llvm::amber

#endif
