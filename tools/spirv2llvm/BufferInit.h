//===- BufferInit.h - Initial contents of `run` buffers ---------*- C++ -*-===//
//
// The `init=KIND` part of `spirv2llvm run --buffer` and the number syntax
// the run command shares between its options. The patterns are defined word
// by word so that a test or another tool can recompute any word without
// running the generator: word i (the 32-bit word at byte offset 4*i) is
//
//   zero          0
//   iota_u32      i
//   iota_f32      float(i)
//   random_u32:S  upper 32 bits of splitmix64(S * 0xD1B54A32D192ED03 + i)
//   random_f32:S  float(random_u32 >> 8) * 2^-24, uniform in [0, 1)
//   fill_u32:V    V
//   fill_f32:V    V as a float
//   file:PATH     the file's bytes; a shorter file leaves the rest zero,
//                 a longer one is cut at the buffer's size
//
// all in wrapping 64-bit arithmetic, stored in host byte order. A trailing
// partial word is zero.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_DRIVER_BUFFERINIT_H
#define SPIRV2LLVM_DRIVER_BUFFERINIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace spirv2llvm {

enum class BufferInitKind {
  Zero,
  IotaU32,
  IotaF32,
  RandomU32,
  RandomF32,
  FillU32,
  FillF32,
  File,
};

/// A parsed KIND.
struct BufferInit {
  BufferInitKind Kind = BufferInitKind::Zero;
  /// random_u32 / random_f32 seed.
  uint64_t Seed = 0;
  /// fill_u32 / fill_f32: the word to store (a float's bit pattern).
  uint32_t FillWord = 0;
  /// file: the path to read.
  std::string Path;
  /// The KIND text as given, for summaries.
  std::string Text = "zero";
};

/// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014; the finalizer Vigna's xoshiro seeding uses).
uint64_t splitmix64(uint64_t X);

/// Word \p I of a random_u32 buffer with seed \p Seed.
uint32_t randomU32(uint64_t Seed, uint64_t I);

/// Word \p I of a random_f32 buffer with seed \p Seed: 24 random bits
/// scaled to [0, 1), so every value is exact in a float.
float randomF32(uint64_t Seed, uint64_t I);

/// Parses a 32-bit unsigned integer: decimal, or hexadecimal after 0x.
/// Leading zeros are decimal (not octal, unlike strtoul with base 0).
bool parseU32(llvm::StringRef S, uint32_t &Out);
/// Parses a 64-bit unsigned integer, same syntax as parseU32.
bool parseU64(llvm::StringRef S, uint64_t &Out);
/// Parses a signed 32-bit decimal integer with an optional sign.
bool parseI32(llvm::StringRef S, int32_t &Out);
/// Parses a float ("1.5", "-2", "1e-3", "inf", "nan"); the whole string
/// must be used.
bool parseF32(llvm::StringRef S, float &Out);

/// Parses a byte count with an optional K, M or G suffix (KiB, MiB, GiB).
/// Fails on overflow, an unknown suffix or an empty number.
bool parseByteSize(llvm::StringRef S, uint64_t &Out);

/// Parses KIND (the text after "init="); the error names the bad part.
llvm::Expected<BufferInit> parseBufferInit(llvm::StringRef Kind);

/// Fills \p Buffer as \p Init says. Fails only when a file cannot be read.
llvm::Error fillBuffer(const BufferInit &Init,
                       llvm::MutableArrayRef<uint8_t> Buffer);

} // namespace spirv2llvm

#endif
