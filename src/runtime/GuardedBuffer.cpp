//===- GuardedBuffer.cpp - Buffers between inaccessible regions -----------===//
#include "runtime/GuardedBuffer.h"

#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace spirv2llvm {

GuardedBuffer::GuardedBuffer(size_t Bytes) : Size(Bytes) {
  const size_t Page = size_t(sysconf(_SC_PAGESIZE));
  const size_t Pages = (Bytes + 64 + Page - 1) / Page * Page;
  // 32 GiB on each side: a 32-bit index times an element of up to 8
  // bytes. Smaller when the address space is limited (ulimit -v).
  for (size_t G : {size_t(32) << 30, size_t(1) << 30, size_t(1) << 20,
                   Page}) {
    size_t Total = G + Pages + G;
    void *M = mmap(nullptr, Total, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (M == MAP_FAILED)
      continue;
    auto *Base = static_cast<uint8_t *>(M);
    if (mprotect(Base + G, Pages, PROT_READ | PROT_WRITE) != 0) {
      munmap(M, Total);
      continue;
    }
    Map = Base;
    MapSize = Total;
    Guard = G;
    uintptr_t End = reinterpret_cast<uintptr_t>(Base + G + Pages);
    Data = reinterpret_cast<uint8_t *>((End - Bytes) & ~uintptr_t(63));
    return;
  }
}

GuardedBuffer::~GuardedBuffer() {
  if (Map)
    munmap(Map, MapSize);
}

GuardedBuffer::GuardedBuffer(GuardedBuffer &&O) noexcept { *this = std::move(O); }

GuardedBuffer &GuardedBuffer::operator=(GuardedBuffer &&O) noexcept {
  if (this != &O) {
    if (Map)
      munmap(Map, MapSize);
    Map = std::exchange(O.Map, nullptr);
    MapSize = std::exchange(O.MapSize, 0);
    Data = std::exchange(O.Data, nullptr);
    Size = std::exchange(O.Size, 0);
    Guard = std::exchange(O.Guard, 0);
  }
  return *this;
}

} // namespace spirv2llvm
