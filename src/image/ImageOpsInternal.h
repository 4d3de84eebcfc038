//===- image/ImageOpsInternal.h - The pieces of s2l_image_op --------------===//
//
// s2l_image_op (ImageOps.cpp) dispatches on the operation; the work is
// split by concern:
//   ImageAccess.cpp       texel addresses, robust loads and stores, the
//                         coordinate layout of each SPIR-V Dim
//   SamplerAddressing.cpp address modes and border colours
//   SamplerCube.cpp       cube face selection, face derivatives, seamless
//                         neighbours
//   SamplerLod.cpp        level of detail and level selection
//   SamplerFilter.cpp     sample and gather
//   ImageQuery.cpp        size, levels, samples, lod queries
// Everything here runs once per lane per instruction: no heap, no strings,
// the format looked up once per call.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_IMAGE_IMAGEOPSINTERNAL_H
#define SPIRV2LLVM_IMAGE_IMAGEOPSINTERNAL_H

#include "spirv2llvm/ImageFormat.h"
#include "spirv2llvm/abi.h"

#include <cstdint>

namespace spirv2llvm::imageops {

// SPIR-V Dim.
enum : uint32_t {
  Dim1D = 0,
  Dim2D = 1,
  Dim3D = 2,
  DimCube = 3,
  DimRect = 4,
  DimBuffer = 5,
  DimSubpassData = 6
};

/// Vulkan's subTexelPrecisionBits, as lavapipe reports it: the fraction of
/// a linear filter's weight keeps 8 bits.
constexpr int SubTexelBits = 8;
/// Vulkan's maxSamplerLodBias (lavapipe: 16).
constexpr float MaxSamplerLodBias = 16.0f;
/// Vulkan's maxSamplerAnisotropy (lavapipe: 16).
constexpr float MaxSamplerAnisotropy = 16.0f;

/// A texel as the shader sees it: 4 floats, or for the integer views the
/// bits of 4 int32/uint32 carried in floats (never computed with).
using Texel = Float4;

/// The image of one call, its format looked up once, and a one-block cache
/// for compressed formats (a linear filter reads up to 8 texels, mostly of
/// the same block).
class ImageAccess {
public:
  /// False when the format is unknown (the image then reads as 0).
  bool init(const s2l_image &Img, uint32_t Kind);

  const s2l_image &image() const { return *Img; }
  const FormatInfo &info() const { return *Info; }
  /// The view texels are decoded through: the format's own, except that a
  /// UINT read of a depth/stencil format reads the stencil aspect.
  ViewKind view() const { return View; }
  bool isFloat() const { return View == ViewKind::Float; }
  bool is3D() const { return Img->view_type == S2L_VIEW_3D; }
  /// Slices of a level (3D) or layers.
  uint32_t slices(uint32_t Level) const {
    return is3D() ? Img->level[Level].depth : Img->layers;
  }

  /// The address of texel (X, Y, Z) (Z = slice or layer), sample S, of
  /// Level (for compressed formats, of its block); null when out of range.
  uint8_t *address(uint32_t Level, int32_t X, int32_t Y, int32_t Z,
                   int32_t S) const;
  /// Reads a texel; out of range gives 0 (robust access) and false.
  bool load(uint32_t Level, int32_t X, int32_t Y, int32_t Z, int32_t S,
            Texel &Out);
  /// Writes a texel whose bits are of view `Kind`'s type; dropped when out
  /// of range or the format is compressed.
  void store(uint32_t Level, int32_t X, int32_t Y, int32_t Z, int32_t S,
             const uint32_t Bits[4]);

private:
  const s2l_image *Img = nullptr;
  const FormatInfo *Info = nullptr;
  ViewKind View = ViewKind::Float;
  const uint8_t *CachedBlock = nullptr;
  Float4 Block[16];
};

/// An integer coordinate of fetch, read, write or texel pointer: X, Y and
/// Z = the 3D slice or the array layer (a cube's face, 6 * layer + face for
/// cube arrays).
struct TexelCoord {
  int32_t X = 0, Y = 0, Z = 0;
};
/// Splits C by Dim and Arrayed (the layer is the last coordinate).
TexelCoord splitTexelCoord(const int32_t C[4], uint32_t Dim, uint32_t Arrayed);

/// How many coordinates a Dim filters over (1D 1, 2D/Rect/cube face 2,
/// 3D 3).
unsigned filteredAxes(uint32_t Dim);

// --- SamplerAddressing.cpp ---

/// VkSamplerAddressMode.
enum : uint32_t {
  AddressRepeat = 0,
  AddressMirroredRepeat = 1,
  AddressClampToEdge = 2,
  AddressClampToBorder = 3,
  AddressMirrorClampToEdge = 4
};
/// The texel index I on an axis of Size texels after the address mode
/// (Vulkan "Wrapping Operation"); -1 for a border texel.
int32_t wrapIndex(int32_t I, int32_t Size, uint32_t Mode);
/// VkBorderColor BorderColor (0-5) in the view (float 0/1 or int 0/1).
Texel borderTexel(uint32_t BorderColor, ViewKind View);
/// floor(X) as an integer, clamped far beyond any image size; NaN gives 0.
int32_t floorToInt(float X);

// --- SamplerCube.cpp ---

struct CubeFace {
  uint32_t Face; // 0 +X, 1 -X, 2 +Y, 3 -Y, 4 +Z, 5 -Z
  float S, T;    // face coordinates in [0, 1]
};
/// The spec's major axis table ("Cube Map Face Selection"): z wins ties
/// with x and y, y wins ties with x (as llvmpipe does).
CubeFace selectCubeFace(const float R[3]);
/// The derivatives of the face coordinates (S, T) of direction R along
/// dR (the chain rule on s = (sc / |ma| + 1) / 2).
void cubeFaceDerivatives(const float R[3], const float DR[3], float &DS,
                         float &DT);
/// Texel (I, J) of Face (N x N) when it lies outside the face in exactly
/// one direction: the texel of the adjacent face that touches it (seamless
/// cube filtering).
void cubeNeighbour(uint32_t Face, int32_t I, int32_t J, int32_t N,
                   uint32_t &OutFace, int32_t &OutI, int32_t &OutJ);

// --- SamplerLod.cpp ---

/// The level of detail of one sample (Vulkan "Level-of-Detail Operation"
/// and "Image Level(s) Selection").
struct LodResult {
  float LambdaPrime = 0; // λ' (biased, before the min/max clamp)
  float Lambda = 0;      // λ
  bool Magnify = true;   // λ <= 0
  float DPrime = 0;      // d' = clamp(λ, 0, q)
  uint32_t Level[2] = {0, 0};
  float Delta = 0;       // weight of Level[1] (linear mipmap mode)
  uint32_t Probes = 1;   // anisotropic probes along the major axis
  bool ProbeAlongX = true;
};
/// DUx and DUy are the texel-space derivatives (level 0 scaled) along x
/// and y; Linear says whether the mipmap mode may blend (float views).
LodResult selectLod(const s2l_image_operands &Ops, const s2l_sampler &Sampler,
                    uint32_t Levels, const float DUx[3], const float DUy[3],
                    bool HaveDerivatives, bool MipLinear);

// --- SamplerFilter.cpp ---

void sampleImage(const s2l_image_operands &Ops, ImageAccess &A,
                 const s2l_sampler &Sampler, uint32_t Result[4]);
void gatherImage(const s2l_image_operands &Ops, ImageAccess &A,
                 const s2l_sampler &Sampler, uint32_t Result[4]);
/// OpImageQueryLod: {d', λ'} as floats.
void queryLod(const s2l_image_operands &Ops, ImageAccess &A,
              const s2l_sampler &Sampler, uint32_t Result[4]);

// --- ImageQuery.cpp ---

void querySize(const s2l_image_operands &Ops, const s2l_image &Img,
               uint32_t Result[4]);

} // namespace spirv2llvm::imageops

#endif
