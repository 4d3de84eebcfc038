//===- AmberCommand.h - `spirv2llvm amber`: run Amber scripts ---*- C++ -*-===//
//
// `spirv2llvm amber FILE... [--width W] [--threads N] [-v]` runs each
// Amber script (src/amber) and prints one line per script:
//
//   PASS NAME
//   FAIL NAME: <first failing EXPECT or error, with its line>
//   SKIP NAME: <the unsupported command or feature>
//
// then "N passed, N failed, N skipped". Exit status 1 if any script
// failed, 2 on bad usage, 0 otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_DRIVER_AMBERCOMMAND_H
#define SPIRV2LLVM_DRIVER_AMBERCOMMAND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace spirv2llvm {

/// Runs `spirv2llvm amber` with \p Args (the words after "amber").
int amberCommand(llvm::ArrayRef<std::string> Args, llvm::raw_ostream &Out,
                 llvm::raw_ostream &Err);

} // namespace spirv2llvm

#endif
