//===- CacheEntry.h - What a cache entry holds besides code -----*- C++ -*-===//
//
// A cache hit skips translation, so the entry carries what the runtime
// would otherwise take from the Translation: the entry symbol and name,
// the stage, the interface layout and the compute reflection. Also the
// runtime's half of the cache key (CPU, versions, opt level).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_CACHEENTRY_H
#define SPIRV2LLVM_RUNTIME_CACHEENTRY_H

#include "spirv2llvm/Interface.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace spirv2llvm {

struct ShaderInfo {
  std::string EntrySymbol;
  std::string EntryName;
  Stage EntryStage = Stage::Fragment;
  InterfaceLayout Layout;
  ComputeInfo Compute;
};

std::string serializeShaderInfo(const ShaderInfo &I);
/// False if \p Bytes is not a complete serialization.
bool deserializeShaderInfo(llvm::StringRef Bytes, ShaderInfo &I);

/// The full key of an entry: \p InputKey (what was translated, from the
/// caller), \p Kind (what the runtime did to the module before compiling)
/// and everything about this machine and build that changes the code:
/// target triple, CPU name and features, opt level, LLVM and spirv2llvm
/// versions. \p Triple, \p Cpu and \p Features are the JIT's.
std::string fullCacheKey(const std::string &InputKey, llvm::StringRef Kind,
                         unsigned OptLevel, llvm::StringRef Triple,
                         llvm::StringRef Cpu, llvm::StringRef Features);

} // namespace spirv2llvm

#endif
