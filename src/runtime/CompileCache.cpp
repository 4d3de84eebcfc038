//===- CompileCache.cpp - Entries of the persistent compile cache ---------===//
//
// One file per key, named by the SHA-256 of the full key:
//
//   offset  size
//        0     8  magic "S2LCACH\0"
//        8     4  format version (EntryFormatVersion)
//       12     4  key length K
//       16     8  metadata length M
//       24     8  object length O
//       32     8  XXH3-64 of the K + M + O bytes that follow
//       40     K  the full key (echoed: a hash collision or a foreign file
//                 cannot be mistaken for the entry)
//   40 + K     M  metadata (the serialized interface, CacheEntry.h)
//   ...        O  the object file
//
// The file must be exactly 40 + K + M + O bytes long. XXH3 rather than a
// cryptographic hash: it checks megabytes of object code in well under a
// millisecond, and it only has to catch accidents (truncation, flipped
// bytes); the file name is SHA-256, where collisions would matter.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <vector>

using namespace llvm;

namespace spirv2llvm {

namespace {

constexpr char Magic[8] = {'S', '2', 'L', 'C', 'A', 'C', 'H', '\0'};
/// Bump when the layout of the file or of the metadata changes.
constexpr uint32_t EntryFormatVersion = 4; // 2: ComponentLocations,
                                           // MemberBuiltIns, fragment flags;
                                           // 3: output Index;
                                           // 4: BoundsChecked
constexpr size_t HeaderSize = 40;
constexpr StringLiteral EntrySuffix = ".s2lc";
constexpr StringLiteral TempPrefix = ".tmp-";

uint64_t checksum(StringRef Key, StringRef Meta, StringRef Obj) {
  // Three separately hashed parts combined: the parts are not contiguous
  // in memory when storing.
  uint64_t H = xxh3_64bits(Key);
  H = H * 0x9E3779B97F4A7C15ull ^ xxh3_64bits(Meta);
  H = H * 0x9E3779B97F4A7C15ull ^ xxh3_64bits(Obj);
  return H;
}

} // namespace

std::shared_ptr<CompileCache> CompileCache::open(std::string Dir,
                                                 uint64_t MaxBytes) {
  std::shared_ptr<CompileCache> C(new CompileCache());
  C->Dir = std::move(Dir);
  C->MaxBytes = MaxBytes;
  if (C->Dir.empty()) {
    C->Warning = "no cache directory given";
    return C;
  }
  if (std::error_code EC = sys::fs::create_directories(C->Dir)) {
    C->Warning = C->Dir + ": cannot create the cache directory: " +
                 EC.message();
    return C;
  }
  if (!sys::fs::is_directory(C->Dir)) {
    C->Warning = C->Dir + ": not a directory";
    return C;
  }
  if (std::error_code EC =
          sys::fs::access(C->Dir, sys::fs::AccessMode::Write)) {
    C->Warning = C->Dir + ": cannot write the cache directory: " +
                 EC.message();
    return C;
  }
  C->Enabled = true;
  return C;
}

std::string CompileCache::directoryFromEnvironment() {
  const char *D = std::getenv("SPIRV2LLVM_CACHE_DIR");
  return D ? std::string(D) : std::string();
}

std::string CompileCache::warning() const {
  std::lock_guard<std::mutex> L(M);
  return Warning;
}

CompileCache::Stats CompileCache::stats() const {
  std::lock_guard<std::mutex> L(M);
  return S;
}

void CompileCache::noteProblem(const std::string &Msg) {
  std::lock_guard<std::mutex> L(M);
  if (Warning.empty())
    Warning = Msg;
}

std::string CompileCache::entryPath(const std::string &FullKey) const {
  std::array<uint8_t, 32> H = SHA256::hash(arrayRefFromStringRef(FullKey));
  SmallString<128> P(Dir);
  sys::path::append(P, toHex(H, /*LowerCase=*/true) + EntrySuffix);
  return std::string(P);
}

std::optional<CompileCache::Entry>
CompileCache::lookup(const std::string &FullKey) {
  if (!Enabled)
    return std::nullopt;
  std::string Path = entryPath(FullKey);
  auto Miss = [&](bool Rejected) -> std::optional<Entry> {
    std::lock_guard<std::mutex> L(M);
    ++S.Misses;
    if (Rejected)
      ++S.Rejected;
    return std::nullopt;
  };
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return Miss(false);
  StringRef B = (*Buf)->getBuffer();
  auto Reject = [&]() {
    // Left in place it would be read and rejected again on every run until
    // a compile replaces it; removing it costs nothing if another process
    // already has.
    sys::fs::remove(Path);
    return Miss(true);
  };
  if (B.size() < HeaderSize || std::memcmp(B.data(), Magic, 8) != 0)
    return Reject();
  using namespace support;
  const char *P = B.data();
  uint32_t Version = endian::read32le(P + 8);
  uint64_t KeyLen = endian::read32le(P + 12);
  uint64_t MetaLen = endian::read64le(P + 16);
  uint64_t ObjLen = endian::read64le(P + 24);
  uint64_t Sum = endian::read64le(P + 32);
  uint64_t Rest = B.size() - HeaderSize;
  if (Version != EntryFormatVersion || KeyLen > Rest || MetaLen > Rest ||
      ObjLen > Rest || KeyLen + MetaLen + ObjLen != Rest)
    return Reject();
  StringRef Key = B.substr(HeaderSize, KeyLen);
  StringRef Meta = B.substr(HeaderSize + KeyLen, MetaLen);
  StringRef Obj = B.substr(HeaderSize + KeyLen + MetaLen, ObjLen);
  if (Key != FullKey || checksum(Key, Meta, Obj) != Sum)
    return Reject();
  // Touch: eviction removes the least recently used entries by mtime.
  ::utimensat(AT_FDCWD, Path.c_str(), nullptr, 0);
  {
    std::lock_guard<std::mutex> L(M);
    ++S.Hits;
  }
  return Entry{Meta.str(), Obj.str()};
}

void CompileCache::store(const std::string &FullKey,
                         const std::string &Metadata,
                         const std::string &Object) {
  if (!Enabled)
    return;
  char Header[HeaderSize];
  using namespace support;
  std::memcpy(Header, Magic, 8);
  endian::write32le(Header + 8, EntryFormatVersion);
  endian::write32le(Header + 12, uint32_t(FullKey.size()));
  endian::write64le(Header + 16, Metadata.size());
  endian::write64le(Header + 24, Object.size());
  endian::write64le(Header + 32, checksum(FullKey, Metadata, Object));

  // A temporary file in the same directory, renamed over the entry:
  // readers see the old file or the whole new one, and concurrent writers
  // of one key each rename a complete file (the last one wins).
  int FD;
  SmallString<128> Tmp;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Dir + "/" + TempPrefix + "%%%%%%%%%%%%%%%%", FD, Tmp)) {
    noteProblem(Dir + ": cannot write a cache entry: " + EC.message());
    return;
  }
  std::error_code EC;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS.write(Header, HeaderSize);
    OS << FullKey << Metadata << Object;
    OS.close();
    if (OS.has_error()) {
      EC = OS.error();
      OS.clear_error();
    }
  }
  if (!EC)
    EC = sys::fs::rename(Tmp, entryPath(FullKey));
  if (EC) {
    sys::fs::remove(Tmp);
    noteProblem(Dir + ": cannot write a cache entry: " + EC.message());
    return;
  }
  {
    std::lock_guard<std::mutex> L(M);
    ++S.Stores;
  }
  evictTo(MaxBytes);
}

void CompileCache::evictTo(uint64_t Bytes) {
  if (!Enabled)
    return;
  struct File {
    std::string Path;
    uint64_t Size;
    sys::TimePoint<> MTime;
  };
  std::vector<File> Files;
  uint64_t Total = 0;
  auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC)) {
    StringRef Name = sys::path::filename(I->path());
    bool IsEntry = Name.ends_with(EntrySuffix);
    bool IsTemp = Name.starts_with(TempPrefix);
    if (!IsEntry && !IsTemp)
      continue;
    sys::fs::file_status St;
    if (sys::fs::status(I->path(), St))
      continue;
    // A temporary file an hour old belongs to a writer that died.
    if (IsTemp) {
      if (Now - St.getLastModificationTime() > std::chrono::hours(1))
        sys::fs::remove(I->path());
      continue;
    }
    Files.push_back({I->path(), St.getSize(), St.getLastModificationTime()});
    Total += St.getSize();
  }
  if (Total <= Bytes)
    return;
  std::sort(Files.begin(), Files.end(), [](const File &A, const File &B) {
    return A.MTime < B.MTime;
  });
  uint64_t Removed = 0;
  for (const File &F : Files) {
    if (Total <= Bytes)
      break;
    // Another process may have removed it already; the bytes are gone
    // either way.
    sys::fs::remove(F.Path);
    Total -= F.Size;
    ++Removed;
  }
  std::lock_guard<std::mutex> L(M);
  S.Evicted += Removed;
}

} // namespace spirv2llvm
