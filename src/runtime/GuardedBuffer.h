//===- GuardedBuffer.h - Buffers between inaccessible regions ---*- C++ -*-===//
//
// `spirv2llvm run` allocates each buffer between two large reserved,
// inaccessible (PROT_NONE) regions, the way WebAssembly runtimes reserve
// guard regions around linear memory: a shader indexing past its buffer
// without --robust-buffer-access then faults instead of silently writing
// over the process's other memory, and the fault (FaultGuard.h) is
// reported against that buffer. The buffer's end sits at most 64 bytes
// below the region after it (its start stays 64-byte aligned for vector
// loads), so overruns of more than 64 bytes and any 32-bit index are
// caught; the regions cost address space only.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_RUNTIME_GUARDEDBUFFER_H
#define SPIRV2LLVM_RUNTIME_GUARDEDBUFFER_H

#include <cstddef>
#include <cstdint>

namespace spirv2llvm {

class GuardedBuffer {
public:
  GuardedBuffer() = default;
  /// Maps \p Size bytes (zeroed) between guard regions. data() is null if
  /// even the plain allocation failed.
  explicit GuardedBuffer(size_t Size);
  ~GuardedBuffer();
  GuardedBuffer(GuardedBuffer &&O) noexcept;
  GuardedBuffer &operator=(GuardedBuffer &&O) noexcept;
  GuardedBuffer(const GuardedBuffer &) = delete;
  GuardedBuffer &operator=(const GuardedBuffer &) = delete;

  uint8_t *data() const { return Data; }
  size_t size() const { return Size; }
  /// Bytes of inaccessible memory reserved on each side (less than the
  /// goal when the address space is limited).
  size_t guardSize() const { return Guard; }

private:
  uint8_t *Map = nullptr;
  size_t MapSize = 0;
  uint8_t *Data = nullptr;
  size_t Size = 0;
  size_t Guard = 0;
};

} // namespace spirv2llvm

#endif
