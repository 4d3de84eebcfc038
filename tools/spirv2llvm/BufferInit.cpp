//===- BufferInit.cpp - Initial contents of `run` buffers -----------------===//
//
// See BufferInit.h for the patterns. Numbers are parsed with std::from_chars
// so that the result does not depend on the C locale.
//
//===----------------------------------------------------------------------===//
#include "BufferInit.h"

#include "support/Diagnostic.h"

#include "llvm/Support/MemoryBuffer.h"

#include <bit>
#include <charconv>
#include <cstring>

using namespace llvm;

namespace spirv2llvm {

uint64_t splitmix64(uint64_t X) {
  X += 0x9E3779B97F4A7C15ull;
  X = (X ^ (X >> 30)) * 0xBF58476D1CE4E5B9ull;
  X = (X ^ (X >> 27)) * 0x94D049BB133111EBull;
  return X ^ (X >> 31);
}

uint32_t randomU32(uint64_t Seed, uint64_t I) {
  // Multiplying the seed by an odd constant spreads nearby seeds (1, 2, 3)
  // far apart, so their streams do not overlap after a shift of i.
  return uint32_t(splitmix64(Seed * 0xD1B54A32D192ED03ull + I) >> 32);
}

float randomF32(uint64_t Seed, uint64_t I) {
  return float(randomU32(Seed, I) >> 8) * 0x1p-24f;
}

namespace {

/// from_chars over all of \p S in \p Base.
template <typename T> bool parseAll(StringRef S, T &Out, int Base) {
  if (S.empty())
    return false;
  auto [Ptr, Ec] = std::from_chars(S.begin(), S.end(), Out, Base);
  return Ec == std::errc() && Ptr == S.end();
}

template <typename T> bool parseUnsigned(StringRef S, T &Out) {
  if (S.starts_with_insensitive("0x"))
    return parseAll(S.drop_front(2), Out, 16);
  return parseAll(S, Out, 10);
}

} // namespace

bool parseU32(StringRef S, uint32_t &Out) { return parseUnsigned(S, Out); }

bool parseU64(StringRef S, uint64_t &Out) { return parseUnsigned(S, Out); }

bool parseI32(StringRef S, int32_t &Out) {
  if (S.starts_with("+"))
    S = S.drop_front();
  if (S.starts_with_insensitive("0x")) {
    uint32_t U;
    if (!parseAll(S.drop_front(2), U, 16) || U > uint32_t(INT32_MAX))
      return false;
    Out = int32_t(U);
    return true;
  }
  return parseAll(S, Out, 10);
}

bool parseF32(StringRef S, float &Out) {
  if (S.starts_with("+"))
    S = S.drop_front();
  if (S.empty())
    return false;
  auto [Ptr, Ec] = std::from_chars(S.begin(), S.end(), Out);
  return Ec == std::errc() && Ptr == S.end();
}

bool parseByteSize(StringRef S, uint64_t &Out) {
  unsigned Shift = 0;
  if (S.ends_with("K"))
    Shift = 10;
  else if (S.ends_with("M"))
    Shift = 20;
  else if (S.ends_with("G"))
    Shift = 30;
  if (Shift)
    S = S.drop_back();
  uint64_t N;
  if (!parseU64(S, N) || N > (UINT64_MAX >> Shift))
    return false;
  Out = N << Shift;
  return true;
}

Expected<BufferInit> parseBufferInit(StringRef Text) {
  BufferInit Init;
  Init.Text = Text.str();
  auto [Name, Arg] = Text.split(':');
  bool HasArg = Text.contains(':');
  auto NoArg = [&](BufferInitKind K) -> Expected<BufferInit> {
    if (HasArg)
      return makeError("init kind '" + Name + "' takes no argument");
    Init.Kind = K;
    return Init;
  };
  auto NeedArg = [&](StringRef What) -> Error {
    if (!HasArg || Arg.empty())
      return makeError("init kind '" + Name + "' needs " + What + " ('" + Name +
                       ":" + What.upper() + "')");
    return Error::success();
  };
  if (Name == "zero")
    return NoArg(BufferInitKind::Zero);
  if (Name == "iota_u32")
    return NoArg(BufferInitKind::IotaU32);
  if (Name == "iota_f32")
    return NoArg(BufferInitKind::IotaF32);
  if (Name == "random_u32" || Name == "random_f32") {
    if (Error E = NeedArg("seed"))
      return E;
    if (!parseU64(Arg, Init.Seed))
      return makeError("malformed seed '" + Arg + "' in '" + Text +
                       "' (an unsigned 64-bit integer)");
    Init.Kind = Name == "random_u32" ? BufferInitKind::RandomU32
                                     : BufferInitKind::RandomF32;
    return Init;
  }
  if (Name == "fill_u32") {
    if (Error E = NeedArg("value"))
      return E;
    if (!parseU32(Arg, Init.FillWord))
      return makeError("malformed value '" + Arg + "' in '" + Text +
                       "' (an unsigned 32-bit integer)");
    Init.Kind = BufferInitKind::FillU32;
    return Init;
  }
  if (Name == "fill_f32") {
    if (Error E = NeedArg("value"))
      return E;
    float F;
    if (!parseF32(Arg, F))
      return makeError("malformed value '" + Arg + "' in '" + Text +
                       "' (a float)");
    Init.FillWord = std::bit_cast<uint32_t>(F);
    Init.Kind = BufferInitKind::FillF32;
    return Init;
  }
  if (Name == "file") {
    if (Error E = NeedArg("path"))
      return E;
    Init.Path = Arg.str();
    Init.Kind = BufferInitKind::File;
    return Init;
  }
  return makeError("unknown init kind '" + Name +
                   "' (zero, iota_u32, iota_f32, random_u32:SEED, "
                   "random_f32:SEED, fill_u32:V, fill_f32:V, file:PATH)");
}

Error fillBuffer(const BufferInit &Init, MutableArrayRef<uint8_t> Buffer) {
  if (Init.Kind == BufferInitKind::File) {
    auto File = MemoryBuffer::getFile(Init.Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
    if (!File)
      return makeError(Init.Path +
                       ": cannot read: " + File.getError().message());
    size_t N = std::min<size_t>((*File)->getBufferSize(), Buffer.size());
    std::memcpy(Buffer.data(), (*File)->getBufferStart(), N);
    std::memset(Buffer.data() + N, 0, Buffer.size() - N);
    return Error::success();
  }

  uint64_t Words = Buffer.size() / 4;
  auto WordAt = [&](uint64_t I) -> uint32_t {
    switch (Init.Kind) {
    case BufferInitKind::Zero:
      return 0;
    case BufferInitKind::IotaU32:
      return uint32_t(I);
    case BufferInitKind::IotaF32:
      return std::bit_cast<uint32_t>(float(I));
    case BufferInitKind::RandomU32:
      return randomU32(Init.Seed, I);
    case BufferInitKind::RandomF32:
      return std::bit_cast<uint32_t>(randomF32(Init.Seed, I));
    case BufferInitKind::FillU32:
    case BufferInitKind::FillF32:
      return Init.FillWord;
    case BufferInitKind::File:
      break;
    }
    llvm_unreachable("file contents are copied above");
  };
  if (Init.Kind == BufferInitKind::Zero) {
    std::memset(Buffer.data(), 0, Buffer.size());
    return Error::success();
  }
  for (uint64_t I = 0; I < Words; ++I) {
    uint32_t W = WordAt(I);
    std::memcpy(Buffer.data() + 4 * I, &W, 4);
  }
  std::memset(Buffer.data() + 4 * Words, 0, Buffer.size() - 4 * Words);
  return Error::success();
}

} // namespace spirv2llvm
