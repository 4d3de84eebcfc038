//===- FuzzImageOps.cpp - libFuzzer target over the image runtime ---------===//
//
// What generated code hands s2l_image_op and s2l_image_texel_pointer
// (abi.h) comes from the shader: coordinates, levels, offsets, gradients,
// Dref and samples are arbitrary values, NaNs and infinities included, and
// the operation, Dim and kind are whatever the instruction says. The
// image and sampler come from the embedder. This target builds both from
// the input bytes: an Image of a format of the table (sizes small enough
// to stay fast), a sampler with any state (including out-of-range enums
// and LOD values), and the operands, raw. A finding is a crash, a
// sanitizer report or a hang; the results themselves are not checked here
// (the unit and lavapipe tests do that).
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Image.h"
#include "spirv2llvm/ImageFormat.h"
#include "spirv2llvm/abi.h"

#include <cstdint>
#include <cstring>

using namespace spirv2llvm;

namespace {

/// Reads the input front to back; zeros once it runs out.
struct Reader {
  const uint8_t *Data;
  size_t Size;
  template <typename T> T take() {
    T V{};
    size_t N = Size < sizeof(T) ? Size : sizeof(T);
    std::memcpy(&V, Data, N);
    Data += N;
    Size -= N;
    return V;
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Reader R{Data, Size};
  // The image: a format of the table, a view type, small sizes.
  std::span<const FormatInfo> Formats = allFormats();
  const FormatInfo &F = Formats[R.take<uint8_t>() % Formats.size()];
  ImageDesc D;
  D.Fmt = F.Fmt;
  D.ViewType = R.take<uint8_t>() % 8;
  D.Width = 1 + R.take<uint8_t>() % 9;
  D.Height = 1 + R.take<uint8_t>() % 9;
  D.Depth = 1 + R.take<uint8_t>() % 4;
  D.Layers = 1 + R.take<uint8_t>() % 13;
  D.Levels = 1 + R.take<uint8_t>() % 4;
  D.Samples = 1u << (R.take<uint8_t>() % 3);
  auto Img = Image::create(D);
  if (!Img.ok())
    return 0; // an invalid description is refused with a message
  for (uint8_t &B : Img->bytes())
    B = R.take<uint8_t>();

  s2l_sampler S = R.take<s2l_sampler>();
  // The embedder's sampler fields are its own business except where the
  // C API checks them; keep the anisotropy bound that API enforces so a
  // probe count cannot be astronomically large.
  if (!(S.max_anisotropy >= 1.0f && S.max_anisotropy <= 16.0f))
    S.max_anisotropy = 1.0f;
  s2l_image_operands Ops = R.take<s2l_image_operands>();
  Ops.op %= 9;
  Ops.dim %= 7;
  Ops.arrayed &= 1;
  Ops.kind %= 3;
  uint32_t Result[4];
  bool NoSampler = R.take<uint8_t>() & 1;
  s2l_image_op(&Ops, &Img->descriptor(), NoSampler ? nullptr : &S, Result);
  // The texel pointer: an address inside the image, or the scratch word.
  int32_t Coord[4];
  std::memcpy(Coord, Ops.icoord, sizeof(Coord));
  uint64_t Scratch = 0;
  void *P = s2l_image_texel_pointer(&Img->descriptor(), Coord, Ops.dim,
                                    Ops.arrayed, Ops.sample, &Scratch);
  if (P) {
    // Touch it as an atomic would: in range or the scratch word.
    uint32_t V;
    std::memcpy(&V, P, sizeof(V));
    std::memcpy(P, &V, sizeof(V));
  }
  return 0;
}
