//===- CacheOption.cpp - --cache-dir for run and amber --------------------===//
#include "CacheOption.h"

#include "ArgParse.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

/// SIZE[K|M|G] (KiB, MiB, GiB).
bool parseByteSize(StringRef S, uint64_t &Out) {
  uint64_t Scale = 1;
  if (!S.empty()) {
    switch (S.back()) {
    case 'K': Scale = 1ull << 10; break;
    case 'M': Scale = 1ull << 20; break;
    case 'G': Scale = 1ull << 30; break;
    default: break;
    }
  }
  if (Scale != 1)
    S = S.drop_back();
  uint64_t N;
  if (S.empty() || S.getAsInteger(10, N) || N > UINT64_MAX / Scale)
    return false;
  Out = N * Scale;
  return true;
}

} // namespace

int takeCacheFlag(ArrayRef<std::string> Args, size_t &I, CacheFlags &F,
                  std::string &Error) {
  std::string V;
  if (int R = takeOptionValue(Args, I, "--cache-dir", V)) {
    if (R < 0 || V.empty()) {
      Error = "--cache-dir needs a directory";
      return -1;
    }
    F.Dir = V;
    return 1;
  }
  if (int R = takeOptionValue(Args, I, "--cache-max-size", V)) {
    uint64_t N;
    if (R < 0 || !parseByteSize(V, N)) {
      Error = "--cache-max-size '" + V +
              "': expected a size in bytes with an optional K, M or G suffix";
      return -1;
    }
    F.MaxBytes = N;
    return 1;
  }
  return 0;
}

std::shared_ptr<CompileCache> openCache(const CacheFlags &F, raw_ostream &Err,
                                        StringRef Prefix) {
  std::string Dir = F.Dir ? *F.Dir : CompileCache::directoryFromEnvironment();
  if (Dir.empty())
    return nullptr;
  auto C = CompileCache::open(Dir,
                              F.MaxBytes.value_or(CompileCache::DefaultMaxBytes));
  if (!C->enabled())
    Err << Prefix << "warning: compile cache disabled: " << C->warning()
        << "\n";
  return C;
}

void reportCacheProblems(const CompileCache *C, raw_ostream &Err,
                         StringRef Prefix) {
  if (C && C->enabled() && !C->warning().empty())
    Err << Prefix << "warning: compile cache: " << C->warning() << "\n";
}

} // namespace spirv2llvm
