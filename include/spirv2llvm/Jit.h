//===- spirv2llvm/Jit.h - Running translated shaders ------------*- C++ -*-===//
//
// Compiles a Translation to machine code for the host with LLVM's ORC LLJIT
// and hands out its entry point (abi.h). Compile once, run many times; the
// entry point itself is reentrant, so groups may run on several threads.
// This header compiles without LLVM's include path (errors are Status.h's).
//
//   auto T = spirv2llvm::translateFile("shader.frag", Opts);
//   auto J = spirv2llvm::JitShader::create(std::move(*T));
//   if (!J) { std::cerr << J.status().message(); ... }
//   s2l_group_args Args = {};
//   Args.active_mask = 0xf; Args.inputs = In; Args.outputs = Out;
//   uint32_t Alive = (*J)->run(Args);
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_JIT_H
#define SPIRV2LLVM_JIT_H

#include "spirv2llvm/Interface.h"
#include "spirv2llvm/Status.h"
#include "spirv2llvm/abi.h"

#include <memory>
#include <string>

namespace spirv2llvm {

class CompileCache;
class ComputeShader;

/// Translation.h; it holds LLVM types, so only code that translates (and
/// so includes spirv2llvm.h) makes one.
struct Translation;

class JitShader {
public:
  /// JIT-compiles \p T, consuming it. Its IR is optimized at \p OptLevel
  /// (0-3) first unless it was translated at that level or higher. With a
  /// \p Cache, the object code is stored in it under \p CacheKey (what
  /// translationCacheKey() in spirv2llvm.h gives for T's input and
  /// options) for load() to find; a cache that cannot be written does not
  /// make this fail (CompileCache::warning() says why).
  static Result<std::unique_ptr<JitShader>>
  create(Translation &&T, unsigned OptLevel = 2, CompileCache *Cache = nullptr,
         const std::string &CacheKey = {});
  /// The shader create() stored under \p CacheKey at \p OptLevel, loaded
  /// without translating or compiling; null on a miss (no entry, or an
  /// entry that is corrupt, stale or from another CPU or version).
  static std::unique_ptr<JitShader> load(CompileCache &Cache,
                                         const std::string &CacheKey,
                                         unsigned OptLevel = 2);
  ~JitShader();
  JitShader(const JitShader &) = delete;
  JitShader &operator=(const JitShader &) = delete;

  s2l_entry_fn entry() const { return Entry; }
  const InterfaceLayout &layout() const { return Layout; }
  unsigned width() const { return Layout.Width; }
  Stage stage() const { return EntryStage; }
  const std::string &entryName() const { return EntryName; }
  /// Bindings, push constants and workgroup size of the entry point, as
  /// the translation reflected them.
  const ComputeInfo &computeInfo() const { return Compute; }
  /// Whether the code came from a CompileCache (load()).
  bool fromCache() const { return FromCache; }
  /// Runs one group; returns the mask of lanes still alive.
  uint32_t run(const s2l_group_args &Args) const { return Entry(&Args); }

private:
  friend class ComputeShader;
  JitShader();
  /// create() and load() for \p Kind: "jit", or "compute" for
  /// ComputeShader, which changes the module before compiling.
  static Result<std::unique_ptr<JitShader>>
  createAs(Translation &&T, unsigned OptLevel, CompileCache *Cache,
           const std::string &CacheKey, const char *Kind);
  static std::unique_ptr<JitShader> loadAs(CompileCache &Cache,
                                           const std::string &CacheKey,
                                           unsigned OptLevel, const char *Kind);
  /// The JIT session that owns the code (LLVM's ORC), kept out of this
  /// header.
  struct Impl;
  std::unique_ptr<Impl> P;
  s2l_entry_fn Entry = nullptr;
  /// Compute: the work-group function (runtime/WorkgroupFunction.h), when
  /// the shader has one; Entry is then null.
  void (*WorkgroupEntry)(const s2l_group_args *Proto) = nullptr;
  InterfaceLayout Layout;
  Stage EntryStage = Stage::Fragment;
  std::string EntryName;
  /// The compute reflection the module was compiled with (ComputeShader
  /// takes it from here on a cache hit).
  ComputeInfo Compute;
  bool FromCache = false;
};

} // namespace spirv2llvm

#endif
