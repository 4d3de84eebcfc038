//===- Cli.h - The spirv2llvm command line ----------------------*- C++ -*-===//
#ifndef SPIRV2LLVM_DRIVER_CLI_H
#define SPIRV2LLVM_DRIVER_CLI_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace spirv2llvm {

/// Runs the command line \p Args (without the program name), printing to
/// \p Out and \p Err. Returns the exit status: 0 success, 1 bad input, 2 bad
/// usage. Keeps no global state, so tests call it in process.
int runCli(llvm::ArrayRef<std::string> Args, llvm::raw_ostream &Out,
           llvm::raw_ostream &Err);

} // namespace spirv2llvm

#endif
