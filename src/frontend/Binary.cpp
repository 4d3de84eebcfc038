//===- Binary.cpp - SPIR-V binary files as words in host order ------------===//
//
// A .spv file is a stream of 32-bit words in the byte order of whoever wrote
// it; the magic number 0x07230203 tells which (SPIR-V spec 3.1). Everything
// after this step sees host-order words only.
//
//===----------------------------------------------------------------------===//

#include "frontend/Frontend.h"
#include "support/Diagnostic.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstring>

namespace spirv2llvm::frontend {

namespace {
constexpr uint32_t SpirvMagic = 0x07230203;
} // namespace

llvm::Expected<std::vector<uint32_t>>
decodeBinary(llvm::ArrayRef<uint8_t> Bytes, llvm::StringRef FileName) {
  if (Bytes.empty())
    return makeError(FileName + ": empty file");
  if (Bytes.size() % 4 != 0)
    return makeError(FileName + ": size " + llvm::Twine(Bytes.size()) +
                     " is not a multiple of 4 bytes");

  std::vector<uint32_t> Words(Bytes.size() / 4);
  // memcpy: the bytes need not be aligned for uint32_t.
  std::memcpy(Words.data(), Bytes.data(), Bytes.size());
  if (Words[0] == SpirvMagic)
    return Words;
  if (llvm::byteswap(Words[0]) != SpirvMagic)
    // The word as read in host order, as SPIRV-Tools prints it.
    return makeError(FileName + ": word 0: bad magic number " +
                     llvm::formatv("{0:x8}", Words[0]) +
                     " (expected 0x07230203 in either byte order)");
  for (uint32_t &Word : Words)
    Word = llvm::byteswap(Word);
  return Words;
}

} // namespace spirv2llvm::frontend
