//===- spirv2llvm/CompileCache.h - Persistent compile cache -----*- C++ -*-===//
//
// Machine code of JIT-compiled shaders kept in a directory, so that the
// next process that compiles the same shader with the same options on the
// same CPU loads the object file instead of translating and compiling
// (docs/compile-cache.md):
//
//   auto Cache = spirv2llvm::CompileCache::open("/tmp/s2l-cache");
//   std::string Key = spirv2llvm::translationCacheKey(Bytes, Name, Opts);
//   auto S = spirv2llvm::ComputeShader::load(*Cache, Key, 2);  // hit?
//   if (!S) {                                                  // miss
//     auto T = spirv2llvm::translateBytes(Bytes, Name, Opts);
//     auto C = spirv2llvm::ComputeShader::create(std::move(*T), 2,
//                                                Cache.get(), Key);
//   }
//
// The caller's key says what was translated (translationCacheKey() in
// spirv2llvm.h covers the input and every TranslateOptions field); the
// runtime adds the rest: opt level, shader kind, target triple, CPU name
// and features, LLVM and spirv2llvm versions. An entry file echoes that
// whole key and carries a checksum; anything that does not match (a
// truncated, corrupt, stale or foreign file) is a miss, and the recompiled
// entry replaces it. Entries are written to a temporary file and renamed,
// so concurrent writers of the same key are safe. A cache problem never
// fails a compile: an unusable directory disables the cache and says why
// in warning(). Like Jit.h, this header compiles without LLVM's include
// path.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_COMPILECACHE_H
#define SPIRV2LLVM_COMPILECACHE_H

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace spirv2llvm {

class CompileCache {
public:
  /// 256 MiB, about 2,000 entries of a typical compute shader.
  static constexpr uint64_t DefaultMaxBytes = 256ull << 20;

  /// Opens (creating it if needed) the cache in \p Dir, holding at most
  /// \p MaxBytes of entries. Never fails: when the directory cannot be
  /// created or written, the cache is disabled and warning() says why.
  static std::shared_ptr<CompileCache> open(std::string Dir,
                                            uint64_t MaxBytes = DefaultMaxBytes);
  /// SPIRV2LLVM_CACHE_DIR, or empty when it is unset or empty.
  static std::string directoryFromEnvironment();

  bool enabled() const { return Enabled; }
  const std::string &directory() const { return Dir; }
  uint64_t maxBytes() const { return MaxBytes; }
  /// The first problem met (the directory unusable, an entry that could not
  /// be written); empty if none.
  std::string warning() const;

  struct Stats {
    uint64_t Hits = 0, Misses = 0, Stores = 0;
    /// Entries that existed but were rejected (bad magic, version, key,
    /// length or checksum) and so counted as misses.
    uint64_t Rejected = 0;
    uint64_t Evicted = 0;
  };
  Stats stats() const;

  /// An entry: what the runtime needs to run the code without the
  /// translation (the serialized interface) and the object file.
  struct Entry {
    std::string Metadata;
    std::string Object;
  };
  /// The entry stored under \p FullKey (touched, so that eviction sees it
  /// as recently used), or nothing. Invalid entries are counted as
  /// rejected and removed.
  std::optional<Entry> lookup(const std::string &FullKey);
  /// Stores an entry atomically, then evicts the least recently used
  /// entries while the directory holds more than maxBytes(). Failures only
  /// set warning().
  void store(const std::string &FullKey, const std::string &Metadata,
             const std::string &Object);
  /// The path of the entry for \p FullKey (tests corrupt it).
  std::string entryPath(const std::string &FullKey) const;
  /// Removes entries, oldest first, until at most \p Bytes remain.
  void evictTo(uint64_t Bytes);

private:
  CompileCache() = default;
  void noteProblem(const std::string &Msg);

  std::string Dir;
  uint64_t MaxBytes = DefaultMaxBytes;
  bool Enabled = false;
  mutable std::mutex M;
  std::string Warning;
  Stats S;
};

} // namespace spirv2llvm

#endif
