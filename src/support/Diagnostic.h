//===- Diagnostic.h - Errors reported to the user ---------------*- C++ -*-===//
//
// Every stage reports bad input through llvm::Error values carrying a
// Diagnostic-formatted message; nothing aborts on user input. Messages are
// lower case, without a final period, and name the word offset, id and
// opcode where there is one (see docs/diagnostics.md).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_SUPPORT_DIAGNOSTIC_H
#define SPIRV2LLVM_SUPPORT_DIAGNOSTIC_H

#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

namespace spirv2llvm {

/// Makes an llvm::Error with the message \p Msg.
inline llvm::Error makeError(const llvm::Twine &Msg) {
  return llvm::make_error<llvm::StringError>(Msg,
                                             llvm::inconvertibleErrorCode());
}

/// Formats "word N: <msg>" for a problem located at word offset \p Word.
inline llvm::Error makeErrorAt(uint32_t Word, const llvm::Twine &Msg) {
  return makeError("word " + llvm::Twine(Word) + ": " + Msg);
}

} // namespace spirv2llvm

#endif
