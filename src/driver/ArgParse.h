//===- ArgParse.h - Shared command-line helpers -----------------*- C++ -*-===//
#ifndef SPIRV2LLVM_DRIVER_ARGPARSE_H
#define SPIRV2LLVM_DRIVER_ARGPARSE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace spirv2llvm {

/// Matches Args[I] against an option taking a value, spelled "--flag value"
/// or "--flag=value"; on a match stores the value in \p Out (advancing \p I
/// past a separate value) and returns 1; returns -1 when the value is
/// missing and 0 when Args[I] is another option.
inline int takeOptionValue(llvm::ArrayRef<std::string> Args, size_t &I,
                           llvm::StringRef Flag, std::string &Out) {
  llvm::StringRef A = Args[I];
  if (A == Flag) {
    if (I + 1 >= Args.size())
      return -1;
    Out = Args[++I];
    return 1;
  }
  if (A.starts_with(Flag) && A.size() > Flag.size() && A[Flag.size()] == '=') {
    Out = A.substr(Flag.size() + 1).str();
    return 1;
  }
  return 0;
}

} // namespace spirv2llvm

#endif
