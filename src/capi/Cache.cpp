//===- Cache.cpp - C API: the compile cache -------------------------------===//
#include "capi/Handles.h"

#include "spirv2llvm/CompileCache.h"


using namespace spirv2llvm;
using spirv2llvm::capi::fail;
using spirv2llvm::capi::succeed;

s2l_result s2l_cache_open(const char *Dir, uint64_t MaxBytes, s2l_cache *Out) {
  if (!Dir || !Out)
    return S2L_ERROR_INVALID_ARGUMENT;
  *Out = new s2l_cache_s{
      CompileCache::open(Dir, MaxBytes ? MaxBytes
                                       : CompileCache::DefaultMaxBytes),
      {}};
  return S2L_SUCCESS;
}

int s2l_cache_enabled(s2l_cache C) { return C && C->Cache->enabled(); }

const char *s2l_cache_warning(s2l_cache C) {
  if (!C)
    return "";
  C->Warning = C->Cache->warning();
  return C->Warning.c_str();
}

void s2l_cache_stats(s2l_cache C, uint64_t *Hits, uint64_t *Misses,
                     uint64_t *Stores) {
  CompileCache::Stats S;
  if (C)
    S = C->Cache->stats();
  if (Hits)
    *Hits = S.Hits;
  if (Misses)
    *Misses = S.Misses;
  if (Stores)
    *Stores = S.Stores;
}

void s2l_cache_destroy(s2l_cache C) { delete C; }

s2l_result s2l_compute_shader_create_cached(s2l_context Ctx, s2l_cache C,
                                            s2l_options O, const void *Data,
                                            size_t Size, const char *Name,
                                            unsigned OptLevel,
                                            s2l_compute_shader *Out,
                                            int *FromCache) {
  if (!Out || (!Data && Size) || OptLevel > 3)
    return fail(Ctx, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_compute_shader_create_cached: null data or output, or "
                "an optimization level above 3");
  *Out = nullptr;
  if (FromCache)
    *FromCache = 0;
  TranslateOptions Opts = O ? O->Opts : TranslateOptions();
  const char *FileName = Name ? Name : "<input>";
  llvm::ArrayRef<uint8_t> Bytes(static_cast<const uint8_t *>(Data), Size);
  CompileCache *Cache = C && C->Cache->enabled() ? C->Cache.get() : nullptr;
  std::string Key;
  if (Cache) {
    Key = translationCacheKey(Bytes, FileName, Opts);
    if (std::unique_ptr<ComputeShader> S =
            ComputeShader::load(*Cache, Key, OptLevel)) {
      if (FromCache)
        *FromCache = 1;
      *Out = new s2l_compute_shader_s{std::move(S)};
      return succeed(Ctx);
    }
  }
  auto T = translateBytes(Bytes, FileName, Opts);
  if (!T)
    return fail(Ctx, S2L_ERROR_INVALID_INPUT, T.takeError());
  auto S = ComputeShader::create(std::move(*T), OptLevel, Cache, Key);
  if (!S)
    return fail(Ctx, S.status());
  *Out = new s2l_compute_shader_s{std::move(*S)};
  return succeed(Ctx);
}
