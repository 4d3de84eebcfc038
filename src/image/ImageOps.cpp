//===- image/ImageOps.cpp - s2l_image_op and s2l_image_texel_pointer ------===//
//
// The runtime entry points generated code calls for image instructions
// (abi.h, docs/abi.md "Images"): the one dispatch on the operation; the
// work is in the files ImageOpsInternal.h lists.
//
// Robustness: a null image or sampler, an unknown format and every
// coordinate, level, layer or sample out of range read 0 and drop writes.
// Sparse residency: always resident (the return value is 0).
//
//===----------------------------------------------------------------------===//
#include "image/ImageOpsInternal.h"

#include <cstring>

using namespace spirv2llvm;
using namespace spirv2llvm::imageops;

extern "C" uint32_t s2l_image_op(const s2l_image_operands *Ops,
                                 const s2l_image *Image,
                                 const s2l_sampler *Sampler,
                                 uint32_t Result[4]) {
  std::memset(Result, 0, 4 * sizeof(uint32_t));
  if (!Ops || !Image)
    return 0;
  switch (Ops->op) {
  case S2L_IMAGE_OP_QUERY_SIZE:
    querySize(*Ops, *Image, Result);
    return 0;
  case S2L_IMAGE_OP_QUERY_LEVELS:
    Result[0] = Image->levels;
    return 0;
  case S2L_IMAGE_OP_QUERY_SAMPLES:
    Result[0] = Image->samples;
    return 0;
  default:
    break;
  }
  ImageAccess A;
  if (!A.init(*Image, Ops->kind))
    return 0;
  int32_t Sample = (Ops->flags & S2L_IMAGE_HAS_SAMPLE) ? Ops->sample : 0;
  switch (Ops->op) {
  case S2L_IMAGE_OP_FETCH:
  case S2L_IMAGE_OP_READ: {
    // Fetch takes a level (Lod operand); read always reads the view's one.
    int32_t Level = Ops->op == S2L_IMAGE_OP_FETCH ? Ops->ilod : 0;
    if (Level < 0)
      return 0;
    TexelCoord C = splitTexelCoord(Ops->icoord, Ops->dim, Ops->arrayed);
    Texel T;
    A.load(uint32_t(Level), C.X, C.Y, C.Z, Sample, T);
    std::memcpy(Result, T.data(), sizeof(T));
    return 0;
  }
  case S2L_IMAGE_OP_WRITE: {
    TexelCoord C = splitTexelCoord(Ops->icoord, Ops->dim, Ops->arrayed);
    A.store(0, C.X, C.Y, C.Z, Sample, Ops->value);
    return 0;
  }
  default:
    break;
  }
  if (!Sampler)
    return 0;
  switch (Ops->op) {
  case S2L_IMAGE_OP_SAMPLE:
    sampleImage(*Ops, A, *Sampler, Result);
    break;
  case S2L_IMAGE_OP_GATHER:
    gatherImage(*Ops, A, *Sampler, Result);
    break;
  case S2L_IMAGE_OP_QUERY_LOD:
    queryLod(*Ops, A, *Sampler, Result);
    break;
  default: // An unknown operation reads zero.
    break;
  }
  return 0;
}

extern "C" void *s2l_image_texel_pointer(const s2l_image *Image,
                                         const int32_t Coord[4], uint32_t Dim,
                                         uint32_t Arrayed, int32_t Sample,
                                         void *Scratch) {
  if (!Image || !Coord)
    return Scratch;
  ImageAccess A;
  if (!A.init(*Image, S2L_IMAGE_UINT))
    return Scratch;
  // Atomics work on 32- and 64-bit single-component texels only.
  const FormatInfo &Info = A.info();
  if (Info.isCompressed() || (Info.BlockBytes != 4 && Info.BlockBytes != 8))
    return Scratch;
  TexelCoord C = splitTexelCoord(Coord, Dim, Arrayed);
  uint8_t *P = A.address(0, C.X, C.Y, C.Z, Sample);
  return P ? P : Scratch;
}
