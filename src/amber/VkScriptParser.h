//===- VkScriptParser.h - VkScript text to a Script -------------*- C++ -*-===//
//
// VkScript is Amber's other input format (a clone of VkRunner's, described
// in google/amber docs/vk_script.md): sections in brackets ([require],
// [compute shader], [vertex data], [test], ...) and lower-case test
// commands. It is parsed into the same Script model as AmberScript, so
// AmberRunner runs both.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_VKSCRIPTPARSER_H
#define SPIRV2LLVM_AMBER_VKSCRIPTPARSER_H

#include "amber/AmberScript.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace spirv2llvm::amber {

/// Whether \p Text is VkScript rather than AmberScript: its first line
/// that is not blank or a comment opens a section ("[require]", ...).
bool isVkScript(llvm::StringRef Text);

/// Parses a VkScript. Syntax errors come back as "line N: ..."; features
/// the runner lacks set Script::Unsupported. Files named by the script
/// resolve against \p BaseDir.
llvm::Expected<Script> parseVkScript(llvm::StringRef Text,
                                     llvm::StringRef BaseDir);

} // namespace spirv2llvm::amber

#endif
