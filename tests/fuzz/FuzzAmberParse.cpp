//===- FuzzAmberParse.cpp - libFuzzer target over the Amber parsers -------===//
//
// Text -> AmberScript parser and VkScript parser (parse only: nothing is
// compiled or run). Each input goes through both parsers, so the seeds
// (tests/amber/scripts, either format) exercise each one with the other's
// syntax too. Files a script names are looked up in a folder that does not
// exist, so the parse never depends on the disk.
//
// A finding is anything but a Script or an error: sanitizer reports,
// crashes, timeouts and out-of-memory (e.g. a size or repeat count that
// the parser should have refused).
//
//===----------------------------------------------------------------------===//
#include "amber/AmberParser.h"
#include "amber/VkScriptParser.h"

#include <cstddef>
#include <cstdint>

using namespace spirv2llvm::amber;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  const char *BaseDir = "/nonexistent-s2l-fuzz-dir";
  if (auto S = parseScript(Text, BaseDir); !S)
    llvm::consumeError(S.takeError());
  if (auto S = parseVkScript(Text, BaseDir); !S)
    llvm::consumeError(S.takeError());
  (void)isVkScript(Text);
  return 0;
}
