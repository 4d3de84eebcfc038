//===- CacheOption.h - --cache-dir for run and amber ------------*- C++ -*-===//
//
// `--cache-dir DIR` (or SPIRV2LLVM_CACHE_DIR; the option wins) and
// `--cache-max-size SIZE` of `spirv2llvm run` and `spirv2llvm amber`
// (docs/compile-cache.md).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_DRIVER_CACHEOPTION_H
#define SPIRV2LLVM_DRIVER_CACHEOPTION_H

#include "spirv2llvm/CompileCache.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace spirv2llvm {

struct CacheFlags {
  std::optional<std::string> Dir;
  std::optional<uint64_t> MaxBytes;
};

/// Takes --cache-dir or --cache-max-size at Args[I] (advancing I past its
/// value). Returns 1 if it did, 0 if Args[I] is another option, -1 with
/// \p Error set if its value is missing or malformed.
int takeCacheFlag(llvm::ArrayRef<std::string> Args, size_t &I, CacheFlags &F,
                  std::string &Error);

/// The cache the flags (or the environment) ask for, or null for none.
/// An unusable directory gives one warning on \p Err (after \p Prefix)
/// and no cache: a cache problem never fails a run.
std::shared_ptr<CompileCache> openCache(const CacheFlags &F,
                                        llvm::raw_ostream &Err,
                                        llvm::StringRef Prefix);

/// A warning on \p Err if \p C met a problem while running (an entry that
/// could not be written).
void reportCacheProblems(const CompileCache *C, llvm::raw_ostream &Err,
                         llvm::StringRef Prefix);

} // namespace spirv2llvm

#endif
