//===- VkScriptParser.cpp - VkScript text to a Script ---------------------===//
#include "amber/VkScriptParser.h"

using namespace llvm;

namespace spirv2llvm::amber {

bool isVkScript(StringRef Text) {
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    return Line.starts_with("[");
  }
  return false;
}

Expected<Script> parseVkScript(StringRef, StringRef) {
  Script S;
  S.Unsupported = "VkScript is not supported yet";
  return S;
}

} // namespace spirv2llvm::amber
