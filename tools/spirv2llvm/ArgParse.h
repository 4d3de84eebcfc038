//===- ArgParse.h - Shared command-line helpers -----------------*- C++ -*-===//
#ifndef SPIRV2LLVM_DRIVER_ARGPARSE_H
#define SPIRV2LLVM_DRIVER_ARGPARSE_H

#include "spirv2llvm/spirv2llvm.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
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

/// The --backend values.
inline std::optional<Backend> parseBackend(llvm::StringRef V) {
  if (V == "simd")
    return Backend::Simd;
  if (V == "invocation")
    return Backend::Invocation;
  if (V == "scalar")
    return Backend::Scalar;
  if (V == "dxil")
    return Backend::Dxil;
  return std::nullopt;
}

/// The on/off translation flags both the translate and the run command take
/// (--no-validate, --no-canonicalize, --no-inline, --robust-buffer-access,
/// --[no-]speculate-small-blocks); false if \p A is none of them.
inline bool parseTranslationFlag(llvm::StringRef A, TranslateOptions &T) {
  if (A == "--no-validate")
    T.Validate = false;
  else if (A == "--no-canonicalize")
    T.Canonicalize = false;
  else if (A == "--no-inline")
    T.Inline = false;
  else if (A == "--robust-buffer-access")
    T.RobustBufferAccess = true;
  else if (A == "--speculate-small-blocks")
    T.SpeculateSmallBlocks = true;
  else if (A == "--no-speculate-small-blocks")
    T.SpeculateSmallBlocks = false;
  else if (A == "--no-contract")
    T.Contract = false;
  else
    return false;
  return true;
}

/// Combinations of back-end options that make no sense (bad usage):
/// --width only means something to the SIMD back end (the others run one
/// invocation per call), --dxil-native-vectors only to the DXIL one.
inline std::optional<std::string> checkBackendOptions(const TranslateOptions &T,
                                                      bool WidthGiven) {
  if (WidthGiven && T.Backend != Backend::Simd)
    return "--width applies to --backend=simd only (the other back ends run "
           "one invocation per call)";
  if (T.DxilNativeVectors && T.Backend != Backend::Dxil)
    return "--dxil-native-vectors needs --backend=dxil";
  return std::nullopt;
}

} // namespace spirv2llvm

#endif
