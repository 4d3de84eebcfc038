//===- AmberParser.h - AmberScript text to a Script -------------*- C++ -*-===//
//
// Parses the AmberScript subset of docs/amber.md. Syntax errors come back
// as an llvm::Error "line N: ..."; commands Amber defines but this runner
// does not implement stop the parse and set Script::Unsupported instead.
// Files a script names (SHADER ... FILE) are read relative to \p BaseDir.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_AMBERPARSER_H
#define SPIRV2LLVM_AMBER_AMBERPARSER_H

#include "amber/AmberScript.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace spirv2llvm::amber {

llvm::Expected<Script> parseScript(llvm::StringRef Text,
                                   llvm::StringRef BaseDir);

} // namespace spirv2llvm::amber

#endif
