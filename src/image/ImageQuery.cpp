//===- image/ImageQuery.cpp - OpImageQuerySize(Lod) -----------------------===//
//
// Vulkan/SPIR-V image size queries: one uint per dimension of the level
// `ilod` (1D and buffers: width; 2D, Rect, SubpassData, cube: width and
// height; 3D: width, height, depth), then the layer count for arrayed
// types (cubes for cube arrays). A level out of range gives zeros (the
// query is undefined there).
//
//===----------------------------------------------------------------------===//
#include "image/ImageOpsInternal.h"

namespace spirv2llvm::imageops {

void querySize(const s2l_image_operands &Ops, const s2l_image &Img,
               uint32_t Result[4]) {
  if (Ops.ilod < 0 || uint32_t(Ops.ilod) >= Img.levels ||
      uint32_t(Ops.ilod) >= S2L_MAX_IMAGE_LEVELS)
    return;
  const s2l_image_level &L = Img.level[Ops.ilod];
  unsigned N = 0;
  Result[N++] = L.width;
  if (Ops.dim == Dim3D) {
    Result[N++] = L.height;
    Result[N++] = L.depth;
  } else if (Ops.dim != Dim1D && Ops.dim != DimBuffer) {
    Result[N++] = L.height;
  }
  if (Ops.arrayed)
    Result[N++] = Ops.dim == DimCube ? Img.layers / 6 : Img.layers;
}

} // namespace spirv2llvm::imageops
