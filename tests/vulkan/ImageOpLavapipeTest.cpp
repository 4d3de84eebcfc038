//===- ImageOpLavapipeTest.cpp - s2l_image_op against lavapipe ------------===//
//
// The runtime's image instructions (s2l_image_op, abi.h) called directly
// from C++ against lavapipe running the equivalent GLSL: every case is one
// image (with its sampler) and a list of inputs; invocation K of a compute
// shader evaluates one GLSL expression on input K into an output buffer (or
// stores into the image), and the test makes the s2l_image_op call(s) that
// expression is, on the same bytes (VkImageSpec's packed layout is the
// s2l_image layout) and the same s2l_sampler.
//
// Comparison:
//  - bit for bit where Vulkan fixes the result: texelFetch and imageLoad of
//    integer and 32-bit float formats, imageStore, nearest filtering,
//    gather, depth compare with nearest filtering, size and level queries,
//    texel buffers, and the zero of out-of-range accesses (the runner's
//    device has robustImageAccess2/robustBufferAccess2 for these tests);
//  - UNORM conversions within 1e-6 (lavapipe multiplies by 1/(2^b - 1));
//  - linear filtering within Vulkan's filtering precision: filter weights
//    have subTexelPrecisionBits of fraction and the level-of-detail
//    fraction of linear mipmapping has mipmapPrecisionBits (lavapipe: 8 and
//    4; it quantizes weights to 1/256 and the lod fraction to 1/16, which
//    the spec allows). With texel values in [0, 1), a lerp of two texels is
//    then off by at most 2^-sub, a bilinear filter by 2 * 2^-sub, a
//    trilinear one by 2 * 2^-sub + 2^-mip (plus float rounding, 1e-5). A
//    wrong address mode, weight or level is off by a good fraction of the
//    texel differences (random in [0, 1)), far more than that.
// Inputs that sit on a decision boundary Vulkan leaves to rounding (a
// nearest coordinate at a texel edge, a level of detail at x.5 for nearest
// mipmapping) are avoided: the coordinates are generated at least 0.1
// texel away from such edges.
//
//===----------------------------------------------------------------------===//
#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"
#include "spirv2llvm/ImageFormat.h"
#include "spirv2llvm/abi.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

using Vec4 = std::array<float, 4>;
using IVec4 = std::array<int32_t, 4>;

// VkFormat numbers used here.
enum : uint32_t {
  R8G8B8A8_UNORM = 37,
  R16G16B16A16_SINT = 96,
  R16G16B16A16_SFLOAT = 97,
  R32_UINT = 98,
  R32_SFLOAT = 100,
  R32G32B32A32_UINT = 107,
  R32G32B32A32_SFLOAT = 109,
  D16_UNORM = 124,
  D32_SFLOAT = 126,
};

// SPIR-V Dim.
enum : uint32_t { Dim1D = 0, Dim2D = 1, Dim3D = 2, DimCube = 3, DimBuffer = 5 };

/// The reference side of one input: fills Out (16 bytes) by calling
/// s2l_image_op (a few calls for a query of several things).
using Reference =
    std::function<void(const Vec4 &F, const IVec4 &I, s2l_image &Img,
                       const s2l_sampler *S, uint32_t Out[4])>;

struct OpCase {
  std::string Name;
  VkImageSpec Image; ///< set 0 binding 0
  /// GLSL declaration of binding 0 ("uniform sampler2D Tex;").
  std::string Decl;
  std::string ResultType = "vec4";
  /// The statement invocation K runs, with F = FIn[K], I = IIn[K]:
  /// "R[K] = texelFetch(Tex, I.xy, I.w);" or an imageStore.
  std::string Stmt;
  std::vector<Vec4> F;
  std::vector<IVec4> I;
  Reference Ref;
  /// 0: bit for bit; otherwise the largest absolute difference of floats.
  double Tolerance = 0;
  /// The shader writes the image: compare the images instead of R.
  bool Writes = false;
  /// Components of R that are compared.
  unsigned Components = 4;
  /// A known difference (reported, with the spec's verdict): when set, a
  /// mismatch skips the case with this text, and its absence fails the
  /// case so that the note goes away when the cause is fixed.
  std::string KnownMismatch;
  /// Inputs where lavapipe is known to be wrong (LavapipeWrong(K) true):
  /// s2l_image_op is compared there with Spec, the spec's result
  /// computed independently, instead.
  std::function<bool(const IVec4 &I)> LavapipeWrong;
  Reference Spec;
};

// --- Reference helpers ------------------------------------------------------

s2l_image_operands baseOps(uint32_t Op, uint32_t Dim, bool Arrayed,
                           uint32_t Kind) {
  s2l_image_operands O{};
  O.op = Op;
  O.dim = Dim;
  O.arrayed = Arrayed;
  O.kind = Kind;
  return O;
}

Reference fetchRef(uint32_t Dim, bool Arrayed, uint32_t Kind, unsigned Coords,
                   bool HasLod = true) {
  return [=](const Vec4 &, const IVec4 &I, s2l_image &Img, const s2l_sampler *,
             uint32_t Out[4]) {
    s2l_image_operands O = baseOps(
        HasLod ? S2L_IMAGE_OP_FETCH : S2L_IMAGE_OP_READ, Dim, Arrayed, Kind);
    for (unsigned C = 0; C < Coords; ++C)
      O.icoord[C] = I[C];
    if (HasLod) {
      O.flags = S2L_IMAGE_HAS_LOD;
      O.ilod = I[3];
    }
    s2l_image_op(&O, &Img, nullptr, Out);
  };
}

Reference writeRef(uint32_t Dim, bool Arrayed, uint32_t Kind, unsigned Coords) {
  return [=](const Vec4 &F, const IVec4 &I, s2l_image &Img, const s2l_sampler *,
             uint32_t Out[4]) {
    s2l_image_operands O = baseOps(S2L_IMAGE_OP_WRITE, Dim, Arrayed, Kind);
    for (unsigned C = 0; C < Coords; ++C)
      O.icoord[C] = I[C];
    std::memcpy(O.value, F.data(), 16);
    if (Kind != S2L_IMAGE_FLOAT) // the integer values ride in I's 4th lane
      for (int C = 0; C < 4; ++C)
        // In uint32: GLSL's int arithmetic wraps, C++'s int would overflow.
        O.value[C] = uint32_t(I[3]) * uint32_t(C + 1) + uint32_t(C);
    s2l_image_op(&O, &Img, nullptr, Out);
  };
}

/// textureLod(Tex, F.<coords>, F.w) (shadow: dref in F[Coords]).
Reference sampleLodRef(uint32_t Dim, bool Arrayed, unsigned Coords,
                       bool Shadow = false, uint32_t Kind = S2L_IMAGE_FLOAT) {
  return [=](const Vec4 &F, const IVec4 &, s2l_image &Img, const s2l_sampler *S,
             uint32_t Out[4]) {
    s2l_image_operands O = baseOps(S2L_IMAGE_OP_SAMPLE, Dim, Arrayed, Kind);
    for (unsigned C = 0; C < Coords; ++C)
      O.coord[C] = F[C];
    O.flags = S2L_IMAGE_HAS_LOD;
    O.lod = F[3];
    if (Shadow) {
      O.flags |= S2L_IMAGE_HAS_DREF;
      O.dref = F[Coords];
    }
    s2l_image_op(&O, &Img, S, Out);
    if (Shadow) // vec4(textureLod(...), 0, 0, 0)
      Out[1] = Out[2] = Out[3] = 0;
  };
}

// --- Inputs -----------------------------------------------------------------

/// A normalized coordinate over \p Size texels in [Lo, Hi) whose texel-space
/// value is at least 0.1 away from the edges of nearest filtering (integers)
/// or, with \p Half, of linear filtering and gather (integers + 0.5).
float safeCoord(std::mt19937 &Rng, uint32_t Size, float Lo, float Hi,
                bool Half = false) {
  std::uniform_real_distribution<float> D(Lo * Size, Hi * Size);
  std::uniform_real_distribution<float> Frac(0.1f, 0.9f);
  float T = std::floor(D(Rng)) + Frac(Rng) + (Half ? 0.5f : 0.0f);
  return T / float(Size);
}

/// Texel values: floats k/1024 in [0, 1) (exact in half and float); other
/// formats random bytes (not SFLOAT16 NaNs: halves get k/1024 too).
std::vector<uint8_t> texelData(uint32_t Format, size_t Bytes,
                               std::mt19937 &Rng) {
  std::vector<uint8_t> B(Bytes);
  std::uniform_int_distribution<int> K(0, 1023);
  if (Format == R32G32B32A32_SFLOAT || Format == R32_SFLOAT ||
      Format == D32_SFLOAT) {
    for (size_t At = 0; At + 4 <= Bytes; At += 4) {
      float V = float(K(Rng)) / 1024.0f;
      std::memcpy(&B[At], &V, 4);
    }
  } else if (Format == R16G16B16A16_SFLOAT) {
    for (size_t At = 0; At + 2 <= Bytes; At += 2) {
      uint16_t H = floatToHalf(float(K(Rng)) / 1024.0f);
      std::memcpy(&B[At], &H, 2);
    }
  } else {
    for (uint8_t &X : B)
      X = uint8_t(Rng());
  }
  return B;
}

VkImageSpec makeImage(VkImageKind Kind, uint32_t Format, uint32_t View,
                      uint32_t W, uint32_t H, uint32_t D, uint32_t Layers,
                      uint32_t Levels, std::mt19937 &Rng) {
  VkImageSpec S;
  S.Kind = Kind;
  S.Format = Format;
  S.ViewType = View;
  S.Width = W;
  S.Height = H;
  S.Depth = D;
  S.Layers = Layers;
  S.Levels = Levels;
  uint64_t Bytes = 0;
  llvm::Expected<s2l_image> L = packedImageLayout(S, &Bytes);
  if (!L) {
    ADD_FAILURE() << llvm::toString(L.takeError());
    return S;
  }
  S.Data = texelData(Format, Bytes, Rng);
  return S;
}

s2l_sampler makeSampler(uint32_t Filter, uint32_t MipMode, uint32_t Address,
                        uint32_t Border = 0, float MaxLod = 16) {
  s2l_sampler S{};
  S.mag_filter = S.min_filter = Filter;
  S.mipmap_mode = MipMode;
  S.address_mode[0] = S.address_mode[1] = S.address_mode[2] = Address;
  S.border_color = Border;
  S.max_lod = MaxLod;
  S.max_anisotropy = 1;
  return S;
}

/// Every in-range texel coordinate once plus \p Extra out-of-range ones,
/// shuffled: for fetches and for stores (which must not write one texel
/// twice). Components: x, y, z or layer; the level is set by the caller.
std::vector<IVec4> texelCoords(uint32_t W, uint32_t H, uint32_t D,
                               unsigned Extra, std::mt19937 &Rng) {
  std::vector<IVec4> C;
  for (uint32_t Z = 0; Z < D; ++Z)
    for (uint32_t Y = 0; Y < H; ++Y)
      for (uint32_t X = 0; X < W; ++X)
        C.push_back({int32_t(X), int32_t(Y), int32_t(Z), 0});
  std::uniform_int_distribution<int> Pick(0, 5);
  for (unsigned K = 0; K < Extra; ++K) {
    IVec4 V = {int32_t(Rng() % W), int32_t(Rng() % H), int32_t(Rng() % D), 0};
    int Which = Pick(Rng);
    int Axis = Which % 3;
    uint32_t Sizes[3] = {W, H, D};
    V[Axis] =
        Which < 3 ? -1 - int32_t(Rng() % 3) : int32_t(Sizes[Axis] + Rng() % 3);
    C.push_back(V);
  }
  std::shuffle(C.begin(), C.end(), Rng);
  return C;
}

std::vector<Vec4> zeros(size_t N) { return std::vector<Vec4>(N, Vec4{}); }
std::vector<IVec4> izeros(size_t N) { return std::vector<IVec4>(N, IVec4{}); }

const char *const FloatBorders[] = {"float transparent black", "",
                                    "float opaque black", "",
                                    "float opaque white"};

// --- The cases --------------------------------------------------------------

// Two differences this comparison found are fixed in s2l_image_op and
// now compared like the rest: out-of-range texels of formats without
// alpha read (0, 0, 0, 1) (Vulkan 1.3, "Texel Replacement" with
// robustImageAccess2: the zero texel goes through "Conversion to RGBA"),
// and a ConstOffsets gather takes texel i0j0 of the footprint at P +
// offset k for component k (GLSL 4.60, textureGatherOffsets).

std::vector<OpCase> fetchCases(std::mt19937 &Rng) {
  std::vector<OpCase> Cases;
  auto WithLevels = [&](std::vector<IVec4> C, uint32_t Levels) {
    // Levels in [-1, Levels]: -1 and Levels are out of range.
    for (IVec4 &V : C)
      V[3] = int32_t(Rng() % (Levels + 2)) - 1;
    return C;
  };
  {
    OpCase C;
    C.Name = "fetch_1d_levels";
    C.Image = makeImage(VkImageKind::SampledImage, R32G32B32A32_UINT,
                        S2L_VIEW_1D, 8, 1, 1, 1, 4, Rng);
    C.Decl = "uniform utexture1D Tex;";
    C.ResultType = "uvec4";
    C.Stmt = "R[K] = texelFetch(Tex, I.x, I.w);";
    C.I = WithLevels(texelCoords(8, 1, 1, 12, Rng), 4);
    C.Ref = fetchRef(Dim1D, false, S2L_IMAGE_UINT, 1);
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "fetch_1d_array";
    C.Image = makeImage(VkImageKind::SampledImage, R32G32B32A32_UINT,
                        S2L_VIEW_1D_ARRAY, 6, 1, 1, 3, 2, Rng);
    C.Decl = "uniform utexture1DArray Tex;";
    C.ResultType = "uvec4";
    C.Stmt = "R[K] = texelFetch(Tex, I.xy, I.w);";
    // y is the layer here.
    std::vector<IVec4> Co = texelCoords(6, 3, 1, 10, Rng);
    C.I = WithLevels(Co, 2);
    C.Ref = fetchRef(Dim1D, true, S2L_IMAGE_UINT, 2);
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "fetch_2d_levels";
    C.Image = makeImage(VkImageKind::SampledImage, R32G32B32A32_SFLOAT,
                        S2L_VIEW_2D, 7, 5, 1, 1, 3, Rng);
    C.Decl = "uniform texture2D Tex;";
    C.Stmt = "R[K] = texelFetch(Tex, I.xy, I.w);";
    C.I = WithLevels(texelCoords(7, 5, 1, 16, Rng), 3);
    C.Ref = fetchRef(Dim2D, false, S2L_IMAGE_FLOAT, 2);
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "fetch_2d_array_sint16";
    C.Image = makeImage(VkImageKind::SampledImage, R16G16B16A16_SINT,
                        S2L_VIEW_2D_ARRAY, 4, 3, 1, 3, 2, Rng);
    C.Decl = "uniform itexture2DArray Tex;";
    C.ResultType = "ivec4";
    C.Stmt = "R[K] = texelFetch(Tex, I.xyz, I.w);";
    C.I = WithLevels(texelCoords(4, 3, 3, 16, Rng), 2);
    C.Ref = fetchRef(Dim2D, true, S2L_IMAGE_SINT, 3);
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "fetch_3d_half";
    C.Image = makeImage(VkImageKind::SampledImage, R16G16B16A16_SFLOAT,
                        S2L_VIEW_3D, 4, 4, 4, 1, 3, Rng);
    C.Decl = "uniform texture3D Tex;";
    C.Stmt = "R[K] = texelFetch(Tex, I.xyz, I.w);";
    C.I = WithLevels(texelCoords(4, 4, 4, 16, Rng), 3);
    C.Ref = fetchRef(Dim3D, false, S2L_IMAGE_FLOAT, 3);
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "fetch_2d_unorm8";
    C.Image = makeImage(VkImageKind::SampledImage, R8G8B8A8_UNORM, S2L_VIEW_2D,
                        5, 4, 1, 1, 1, Rng);
    C.Decl = "uniform texture2D Tex;";
    C.Stmt = "R[K] = texelFetch(Tex, I.xy, I.w);";
    C.I = texelCoords(5, 4, 1, 8, Rng);
    C.Ref = fetchRef(Dim2D, false, S2L_IMAGE_FLOAT, 2);
    C.Tolerance = 1e-6;
    Cases.push_back(C);
  }
  {
    // One component: out-of-range texels show whether alpha is inserted
    // after the zero of robust access.
    OpCase C;
    C.Name = "fetch_2d_r32f_out_of_range";
    C.Image = makeImage(VkImageKind::SampledImage, R32_SFLOAT, S2L_VIEW_2D, 3,
                        3, 1, 1, 1, Rng);
    C.Decl = "uniform texture2D Tex;";
    C.Stmt = "R[K] = texelFetch(Tex, I.xy, I.w);";
    C.I = texelCoords(3, 3, 1, 8, Rng);
    C.Ref = fetchRef(Dim2D, false, S2L_IMAGE_FLOAT, 2);
    Cases.push_back(C);
    // In range, compared without excuses.
    C.Name = "fetch_2d_r32f_in_range";
    C.I = texelCoords(3, 3, 1, 0, Rng);
    C.KnownMismatch.clear();
    Cases.push_back(C);
  }
  return Cases;
}

std::vector<OpCase> storageCases(std::mt19937 &Rng) {
  std::vector<OpCase> Cases;
  {
    OpCase C;
    C.Name = "image_load_2d_rgba32f";
    C.Image = makeImage(VkImageKind::StorageImage, R32G32B32A32_SFLOAT,
                        S2L_VIEW_2D, 5, 3, 1, 1, 1, Rng);
    C.Decl = "layout(rgba32f) readonly uniform image2D Img;";
    C.Stmt = "R[K] = imageLoad(Img, I.xy);";
    C.I = texelCoords(5, 3, 1, 10, Rng);
    C.Ref = fetchRef(Dim2D, false, S2L_IMAGE_FLOAT, 2, /*HasLod=*/false);
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "image_load_2d_array_rgba8";
    C.Image = makeImage(VkImageKind::StorageImage, R8G8B8A8_UNORM,
                        S2L_VIEW_2D_ARRAY, 3, 3, 1, 2, 1, Rng);
    C.Decl = "layout(rgba8) readonly uniform image2DArray Img;";
    C.Stmt = "R[K] = imageLoad(Img, I.xyz);";
    C.I = texelCoords(3, 3, 2, 10, Rng);
    C.Ref = fetchRef(Dim2D, true, S2L_IMAGE_FLOAT, 3, false);
    C.Tolerance = 1e-6;
    Cases.push_back(C);
  }
  auto StoreValues = [&](size_t N, float Lo, float Hi) {
    std::uniform_real_distribution<float> D(Lo, Hi);
    std::vector<Vec4> F(N);
    for (Vec4 &V : F)
      V = {D(Rng), D(Rng), D(Rng), D(Rng)};
    return F;
  };
  {
    OpCase C;
    C.Name = "image_store_2d_rgba32f";
    C.Image = makeImage(VkImageKind::StorageImage, R32G32B32A32_SFLOAT,
                        S2L_VIEW_2D, 5, 4, 1, 1, 1, Rng);
    C.Decl = "layout(rgba32f) writeonly uniform image2D Img;";
    C.Stmt = "imageStore(Img, I.xy, F);";
    C.I = texelCoords(5, 4, 1, 10, Rng);
    C.F = StoreValues(C.I.size(), -100, 100);
    C.Ref = writeRef(Dim2D, false, S2L_IMAGE_FLOAT, 2);
    C.Writes = true;
    Cases.push_back(C);
  }
  {
    // Values beyond [0, 1] check the clamp; random ones the rounding.
    OpCase C;
    C.Name = "image_store_3d_rgba8";
    C.Image = makeImage(VkImageKind::StorageImage, R8G8B8A8_UNORM, S2L_VIEW_3D,
                        3, 3, 3, 1, 1, Rng);
    C.Decl = "layout(rgba8) writeonly uniform image3D Img;";
    C.Stmt = "imageStore(Img, I.xyz, F);";
    C.I = texelCoords(3, 3, 3, 10, Rng);
    C.F = StoreValues(C.I.size(), -0.25f, 1.25f);
    C.Ref = writeRef(Dim3D, false, S2L_IMAGE_FLOAT, 3);
    C.Writes = true;
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "image_store_2d_array_rgba32ui";
    C.Image = makeImage(VkImageKind::StorageImage, R32G32B32A32_UINT,
                        S2L_VIEW_2D_ARRAY, 3, 2, 1, 3, 1, Rng);
    C.Decl = "layout(rgba32ui) writeonly uniform uimage2DArray Img;";
    C.Stmt = "imageStore(Img, I.xyz, uvec4(I.w) * uvec4(1, 2, 3, 4) + "
             "uvec4(0, 1, 2, 3));";
    C.I = texelCoords(3, 2, 3, 8, Rng);
    for (IVec4 &V : C.I)
      V[3] = int32_t(Rng());
    C.Ref = writeRef(Dim2D, true, S2L_IMAGE_UINT, 3);
    C.Writes = true;
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "storage_texel_buffer_load";
    C.Image = makeImage(VkImageKind::StorageTexelBuffer, R32_UINT,
                        S2L_VIEW_BUFFER, 16, 1, 1, 1, 1, Rng);
    C.Decl = "layout(r32ui) readonly uniform uimageBuffer Img;";
    C.ResultType = "uvec4";
    C.Stmt = "R[K] = imageLoad(Img, I.x);";
    C.I = texelCoords(16, 1, 1, 6, Rng);
    C.Ref = fetchRef(DimBuffer, false, S2L_IMAGE_UINT, 1, false);
    Cases.push_back(C);
    C.Name = "storage_texel_buffer_load_in_range";
    C.I = texelCoords(16, 1, 1, 0, Rng);
    C.KnownMismatch.clear();
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "storage_texel_buffer_store";
    C.Image = makeImage(VkImageKind::StorageTexelBuffer, R32G32B32A32_SFLOAT,
                        S2L_VIEW_BUFFER, 12, 1, 1, 1, 1, Rng);
    C.Decl = "layout(rgba32f) writeonly uniform imageBuffer Img;";
    C.Stmt = "imageStore(Img, I.x, F);";
    C.I = texelCoords(12, 1, 1, 6, Rng);
    C.F = StoreValues(C.I.size(), -4, 4);
    C.Ref = writeRef(DimBuffer, false, S2L_IMAGE_FLOAT, 1);
    C.Writes = true;
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "uniform_texel_buffer_fetch";
    C.Image = makeImage(VkImageKind::UniformTexelBuffer, R16G16B16A16_SFLOAT,
                        S2L_VIEW_BUFFER, 10, 1, 1, 1, 1, Rng);
    C.Decl = "uniform textureBuffer Tex;";
    C.Stmt = "R[K] = texelFetch(Tex, I.x);";
    C.I = texelCoords(10, 1, 1, 6, Rng);
    C.Ref = fetchRef(DimBuffer, false, S2L_IMAGE_FLOAT, 1, false);
    Cases.push_back(C);
  }
  return Cases;
}

/// textureLod on a 2D RGBA32F image (non-power-of-two, one level) with
/// every address mode, nearest and linear, and every float border colour.
std::vector<OpCase> addressCases(std::mt19937 &Rng, double Bilinear) {
  std::vector<OpCase> Cases;
  const char *Modes[] = {"repeat", "mirrored_repeat", "clamp_to_edge",
                         "clamp_to_border", "mirror_clamp_to_edge"};
  for (uint32_t Filter = 0; Filter < 2; ++Filter)
    for (uint32_t Mode = 0; Mode < 5; ++Mode)
      for (uint32_t Border : {0u, 2u, 4u}) {
        if (Mode != 3 && Border != 0)
          continue;
        OpCase C;
        C.Name = std::string(Filter ? "linear_" : "nearest_") + Modes[Mode];
        if (Mode == 3)
          C.Name += "_" + std::string(FloatBorders[Border]).substr(6);
        for (char &Ch : C.Name)
          if (Ch == ' ')
            Ch = '_';
        C.Image =
            makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                      S2L_VIEW_2D, 5, 3, 1, 1, 1, Rng);
        C.Image.Sampler = makeSampler(Filter, 0, Mode, Border);
        C.Decl = "uniform sampler2D Tex;";
        C.Stmt = "R[K] = textureLod(Tex, F.xy, F.w);";
        for (int K = 0; K < 64; ++K)
          C.F.push_back({safeCoord(Rng, 5, -1.5f, 2.5f, Filter),
                         safeCoord(Rng, 3, -1.5f, 2.5f, Filter), 0, 0});
        C.I = izeros(C.F.size());
        C.Ref = sampleLodRef(Dim2D, false, 2);
        C.Tolerance = Filter ? Bilinear : 0;
        Cases.push_back(C);
      }
  {
    // UNORM8, the common texture: llvmpipe filters it in 8-bit fixed
    // point and rounds the result to 8 bits, which adds up to half a step
    // (0.5/255) to the bilinear bound.
    OpCase C;
    C.Name = "linear_repeat_rgba8_unorm";
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R8G8B8A8_UNORM,
                        S2L_VIEW_2D, 7, 5, 1, 1, 1, Rng);
    C.Image.Sampler = makeSampler(1, 0, 0);
    C.Decl = "uniform sampler2D Tex;";
    C.Stmt = "R[K] = textureLod(Tex, F.xy, F.w);";
    for (int K = 0; K < 64; ++K)
      C.F.push_back({safeCoord(Rng, 7, -1, 2, true),
                     safeCoord(Rng, 5, -1, 2, true), 0, 0});
    C.I = izeros(C.F.size());
    C.Ref = sampleLodRef(Dim2D, false, 2);
    C.Tolerance = Bilinear + 0.5 / 255;
    Cases.push_back(C);
  }
  // Integer border colours on an integer format (nearest only: integer
  // formats are not filterable).
  for (uint32_t Border : {1u, 3u, 5u}) {
    OpCase C;
    C.Name = "nearest_clamp_to_border_int_" + std::to_string(Border);
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_UINT,
                        S2L_VIEW_2D, 4, 4, 1, 1, 1, Rng);
    C.Image.Sampler = makeSampler(0, 0, 3, Border);
    C.Decl = "uniform usampler2D Tex;";
    C.ResultType = "uvec4";
    C.Stmt = "R[K] = textureLod(Tex, F.xy, F.w);";
    for (int K = 0; K < 48; ++K)
      C.F.push_back({safeCoord(Rng, 4, -1, 2), safeCoord(Rng, 4, -1, 2), 0, 0});
    C.I = izeros(C.F.size());
    C.Ref = sampleLodRef(Dim2D, false, 2, false, S2L_IMAGE_UINT);
    Cases.push_back(C);
  }
  // Unnormalized coordinates (clamp to edge, level 0).
  for (uint32_t Filter = 0; Filter < 2; ++Filter) {
    OpCase C;
    C.Name = std::string("unnormalized_") + (Filter ? "linear" : "nearest");
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                        S2L_VIEW_2D, 6, 4, 1, 1, 1, Rng);
    C.Image.Sampler = makeSampler(Filter, 0, 2, 0, 0);
    C.Image.Sampler.unnormalized_coordinates = 1;
    C.Decl = "uniform sampler2D Tex;";
    C.Stmt = "R[K] = textureLod(Tex, F.xy, 0.0);";
    for (int K = 0; K < 48; ++K)
      C.F.push_back({6 * safeCoord(Rng, 6, -0.5f, 1.5f, Filter),
                     4 * safeCoord(Rng, 4, -0.5f, 1.5f, Filter), 0, 0});
    C.I = izeros(C.F.size());
    C.Ref = sampleLodRef(Dim2D, false, 2);
    C.Tolerance = Filter ? Bilinear : 0;
    Cases.push_back(C);
  }
  return Cases;
}

/// Mipmapped 2D and 3D images: textureLod with fractional levels of detail
/// (nearest and linear mipmapping) and textureGrad.
std::vector<OpCase> mipCases(std::mt19937 &Rng, double Bilinear,
                             double Trilinear) {
  std::vector<OpCase> Cases;
  for (uint32_t Filter = 0; Filter < 2; ++Filter)
    for (uint32_t Mip = 0; Mip < 2; ++Mip) {
      OpCase C;
      C.Name = std::string("lod_") + (Filter ? "linear" : "nearest") + "_mip_" +
               (Mip ? "linear" : "nearest");
      C.Image =
          makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                    S2L_VIEW_2D, 16, 8, 1, 1, 5, Rng);
      C.Image.Sampler = makeSampler(Filter, Mip, 0);
      C.Decl = "uniform sampler2D Tex;";
      C.Stmt = "R[K] = textureLod(Tex, F.xy, F.w);";
      std::uniform_real_distribution<float> Lod(-0.5f, 5.0f);
      std::uniform_real_distribution<float> Frac(0.1f, 0.9f);
      for (int K = 0; K < 96; ++K) {
        // Nearest mipmapping switches level at x.5: keep 0.1 from it.
        float L = Mip ? Lod(Rng) : std::floor(Lod(Rng)) + 0.5f + Frac(Rng);
        C.F.push_back({safeCoord(Rng, 16, -0.5f, 1.5f, Filter),
                       safeCoord(Rng, 8, -0.5f, 1.5f, Filter), 0, L});
      }
      C.I = izeros(C.F.size());
      C.Ref = sampleLodRef(Dim2D, false, 2);
      C.Tolerance = !Filter && !Mip ? 0 : Mip ? Trilinear : Bilinear;
      Cases.push_back(C);
    }
  {
    // Axis-aligned gradients: every approximation of rho Vulkan allows
    // gives the same level of detail for them.
    OpCase C;
    C.Name = "grad_trilinear";
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                        S2L_VIEW_2D, 16, 16, 1, 1, 5, Rng);
    C.Image.Sampler = makeSampler(1, 1, 1);
    C.Decl = "uniform sampler2D Tex;";
    C.Stmt = "R[K] = textureGrad(Tex, F.xy, vec2(F.z, 0.0), vec2(0.0, F.w));";
    std::uniform_real_distribution<float> G(-0.5f, 4.5f);
    for (int K = 0; K < 64; ++K) {
      float Gx = std::exp2(G(Rng)) / 16, Gy = std::exp2(G(Rng)) / 16;
      C.F.push_back({safeCoord(Rng, 16, 0, 1, true),
                     safeCoord(Rng, 16, 0, 1, true), K & 1 ? Gx : -Gx, Gy});
    }
    C.I = izeros(C.F.size());
    C.Ref = [](const Vec4 &F, const IVec4 &, s2l_image &Img,
               const s2l_sampler *S, uint32_t Out[4]) {
      s2l_image_operands O =
          baseOps(S2L_IMAGE_OP_SAMPLE, Dim2D, false, S2L_IMAGE_FLOAT);
      O.flags = S2L_IMAGE_HAS_GRAD;
      O.coord[0] = F[0];
      O.coord[1] = F[1];
      O.grad_x[0] = F[2];
      O.grad_y[1] = F[3];
      s2l_image_op(&O, &Img, S, Out);
    };
    C.Tolerance = Trilinear;
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "lod_3d_trilinear";
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                        S2L_VIEW_3D, 8, 8, 4, 1, 4, Rng);
    C.Image.Sampler = makeSampler(1, 1, 2);
    C.Decl = "uniform sampler3D Tex;";
    C.Stmt = "R[K] = textureLod(Tex, F.xyz, F.w);";
    std::uniform_real_distribution<float> Lod(0.0f, 3.0f);
    for (int K = 0; K < 64; ++K)
      C.F.push_back({safeCoord(Rng, 8, 0, 1, true),
                     safeCoord(Rng, 8, 0, 1, true),
                     safeCoord(Rng, 4, 0, 1, true), Lod(Rng)});
    C.I = izeros(C.F.size());
    C.Ref = sampleLodRef(Dim3D, false, 3);
    // Three lerps per level instead of two.
    C.Tolerance = Trilinear + (Bilinear / 2);
    Cases.push_back(C);
  }
  {
    // The sampler's bias and level clamps (minLod, maxLod) on top of an
    // explicit lod, and a constant texel offset.
    OpCase C;
    C.Name = "lod_offset_bias_and_clamps";
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                        S2L_VIEW_2D, 16, 16, 1, 1, 5, Rng);
    C.Image.Sampler = makeSampler(0, 0, 0);
    C.Image.Sampler.mip_lod_bias = 1.0f;
    C.Image.Sampler.min_lod = 1.0f;
    C.Image.Sampler.max_lod = 3.0f;
    C.Decl = "uniform sampler2D Tex;";
    C.Stmt = "R[K] = textureLodOffset(Tex, F.xy, F.w, ivec2(-3, 2));";
    std::uniform_real_distribution<float> Lod(-3.0f, 5.0f);
    std::uniform_real_distribution<float> Frac(0.1f, 0.9f);
    for (int K = 0; K < 64; ++K)
      C.F.push_back({safeCoord(Rng, 16, -1, 2), safeCoord(Rng, 16, -1, 2), 0,
                     std::floor(Lod(Rng)) + 0.5f + Frac(Rng)});
    C.I = izeros(C.F.size());
    C.Ref = [](const Vec4 &F, const IVec4 &, s2l_image &Img,
               const s2l_sampler *S, uint32_t Out[4]) {
      s2l_image_operands O =
          baseOps(S2L_IMAGE_OP_SAMPLE, Dim2D, false, S2L_IMAGE_FLOAT);
      O.flags = S2L_IMAGE_HAS_LOD | S2L_IMAGE_HAS_OFFSET;
      O.coord[0] = F[0];
      O.coord[1] = F[1];
      O.lod = F[3];
      O.offset[0] = -3;
      O.offset[1] = 2;
      s2l_image_op(&O, &Img, S, Out);
    };
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "lod_1d_array_linear";
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R16G16B16A16_SFLOAT,
                        S2L_VIEW_1D_ARRAY, 8, 1, 1, 3, 1, Rng);
    C.Image.Sampler = makeSampler(1, 0, 1);
    C.Decl = "uniform sampler1DArray Tex;";
    C.Stmt = "R[K] = textureLod(Tex, F.xy, F.w);";
    for (int K = 0; K < 48; ++K)
      C.F.push_back({safeCoord(Rng, 8, -1, 2), float(K % 3) + 0.2f, 0, 0});
    C.I = izeros(C.F.size());
    C.Ref = sampleLodRef(Dim1D, true, 2);
    // One lerp; halves of k/1024 are exact.
    C.Tolerance = Bilinear / 2;
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "lod_2d_array_linear";
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                        S2L_VIEW_2D_ARRAY, 4, 4, 1, 3, 1, Rng);
    C.Image.Sampler = makeSampler(1, 0, 0);
    C.Decl = "uniform sampler2DArray Tex;";
    C.Stmt = "R[K] = textureLod(Tex, F.xyz, F.w);";
    std::uniform_real_distribution<float> Layer(-1.2f, 3.2f);
    for (int K = 0; K < 48; ++K) {
      // The layer is round(z) (ties are allowed either way): not near .5.
      float L = std::floor(Layer(Rng)) + 0.5f +
                (K & 1 ? 0.3f : -0.3f) * float(K % 3 + 1) / 3.0f;
      C.F.push_back({safeCoord(Rng, 4, 0, 1), safeCoord(Rng, 4, 0, 1), L, 0});
    }
    C.I = izeros(C.F.size());
    C.Ref = sampleLodRef(Dim2D, true, 3);
    C.Tolerance = Bilinear;
    Cases.push_back(C);
  }
  return Cases;
}

/// A direction that lands on face \p Face at (S, T) (Vulkan's cube map face
/// selection table, inverted), scaled by \p Scale.
std::array<float, 3> cubeDirection(int Face, float S, float T, float Scale) {
  float Sc = 2 * S - 1, Tc = 2 * T - 1;
  std::array<float, 3> D;
  switch (Face) {
  case 0:
    D = {1, -Tc, -Sc};
    break;
  case 1:
    D = {-1, -Tc, Sc};
    break;
  case 2:
    D = {Sc, 1, Tc};
    break;
  case 3:
    D = {Sc, -1, -Tc};
    break;
  case 4:
    D = {Sc, -Tc, 1};
    break;
  default:
    D = {-Sc, -Tc, -1};
    break;
  }
  for (float &X : D)
    X *= Scale;
  return D;
}

std::vector<OpCase> cubeCases(std::mt19937 &Rng, double Bilinear) {
  std::vector<OpCase> Cases;
  for (uint32_t Filter = 0; Filter < 2; ++Filter)
    for (bool Array : {false, true}) {
      OpCase C;
      C.Name = std::string("cube") + (Array ? "_array_" : "_") +
               (Filter ? "linear" : "nearest");
      C.Image =
          makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                    Array ? S2L_VIEW_CUBE_ARRAY : S2L_VIEW_CUBE, 4, 4, 1,
                    Array ? 12 : 6, 1, Rng);
      C.Image.Sampler = makeSampler(Filter, 0, 2);
      C.Decl =
          Array ? "uniform samplerCubeArray Tex;" : "uniform samplerCube Tex;";
      C.Stmt = Array ? "R[K] = textureLod(Tex, vec4(F.xyz, float(I.x)), F.w);"
                     : "R[K] = textureLod(Tex, F.xyz, F.w);";
      std::uniform_real_distribution<float> Scale(0.5f, 3.0f);
      for (int K = 0; K < 96; ++K) {
        // Linear: across edges too (seamless filtering reads the
        // neighbouring face), but not at the corners, where Vulkan lets
        // the implementation pick the third texel.
        float S = Filter
                      ? std::uniform_real_distribution<float>(0.13f, 0.87f)(Rng)
                      : safeCoord(Rng, 4, 0, 1);
        float T = safeCoord(Rng, 4, 0, 1, Filter);
        std::array<float, 3> D = cubeDirection(K % 6, S, T, Scale(Rng));
        C.F.push_back({D[0], D[1], D[2], 0});
        C.I.push_back({K % 2, 0, 0, 0});
      }
      C.Ref = [Array](const Vec4 &F, const IVec4 &I, s2l_image &Img,
                      const s2l_sampler *S, uint32_t Out[4]) {
        s2l_image_operands O =
            baseOps(S2L_IMAGE_OP_SAMPLE, DimCube, Array, S2L_IMAGE_FLOAT);
        O.flags = S2L_IMAGE_HAS_LOD;
        O.coord[0] = F[0];
        O.coord[1] = F[1];
        O.coord[2] = F[2];
        O.coord[3] = float(I[0]);
        O.lod = F[3];
        s2l_image_op(&O, &Img, S, Out);
      };
      C.Tolerance = Filter ? Bilinear : 0;
      Cases.push_back(C);
    }
  return Cases;
}

std::vector<OpCase> gatherCases(std::mt19937 &Rng) {
  std::vector<OpCase> Cases;
  for (uint32_t Mode : {0u, 3u}) {
    for (bool Offset : {false, true}) {
      OpCase C;
      C.Name = std::string("gather_") + (Mode ? "clamp_to_border" : "repeat") +
               (Offset ? "_offset" : "");
      C.Image = makeImage(VkImageKind::CombinedImageSampler,
                          R32G32B32A32_SFLOAT, S2L_VIEW_2D, 5, 4, 1, 1, 1, Rng);
      C.Image.Sampler = makeSampler(1, 0, Mode, 4);
      C.Decl = "uniform sampler2D Tex;";
      const char *Call = Offset ? "textureGatherOffset(Tex, F.xy, ivec2(1, -2)"
                                : "textureGather(Tex, F.xy";
      C.Stmt = std::string("switch (I.x) {\n") + "  case 0: R[K] = " + Call +
               ", 0); break;\n" + "  case 1: R[K] = " + Call +
               ", 1); break;\n" + "  case 2: R[K] = " + Call +
               ", 2); break;\n" + "  default: R[K] = " + Call +
               ", 3); break;\n}";
      for (int K = 0; K < 64; ++K) {
        C.F.push_back({safeCoord(Rng, 5, -0.5f, 1.5f, true),
                       safeCoord(Rng, 4, -0.5f, 1.5f, true), 0, 0});
        C.I.push_back({K % 4, 0, 0, 0});
      }
      C.Ref = [Offset](const Vec4 &F, const IVec4 &I, s2l_image &Img,
                       const s2l_sampler *S, uint32_t Out[4]) {
        s2l_image_operands O =
            baseOps(S2L_IMAGE_OP_GATHER, Dim2D, false, S2L_IMAGE_FLOAT);
        O.coord[0] = F[0];
        O.coord[1] = F[1];
        O.component = uint32_t(I[0]);
        if (Offset) {
          O.flags = S2L_IMAGE_HAS_OFFSET;
          O.offset[0] = 1;
          O.offset[1] = -2;
        }
        s2l_image_op(&O, &Img, S, Out);
      };
      Cases.push_back(C);
    }
  }
  {
    // ConstOffsets: each of the four texels moved by its own offset.
    OpCase C;
    C.Name = "gather_const_offsets";
    C.Image = makeImage(VkImageKind::CombinedImageSampler, R32G32B32A32_SFLOAT,
                        S2L_VIEW_2D, 6, 5, 1, 1, 1, Rng);
    C.Image.Sampler = makeSampler(1, 0, 0);
    C.Decl = "uniform sampler2D Tex;\n"
             "const ivec2 Offs[4] = ivec2[](ivec2(0, 0), ivec2(1, -1), "
             "ivec2(-2, 3), ivec2(4, -3));";
    C.Stmt = "R[K] = textureGatherOffsets(Tex, F.xy, Offs, 2);";
    for (int K = 0; K < 48; ++K)
      C.F.push_back({safeCoord(Rng, 6, -0.5f, 1.5f, true),
                     safeCoord(Rng, 5, -0.5f, 1.5f, true), 0, 0});
    C.I = izeros(C.F.size());
    C.Ref = [](const Vec4 &F, const IVec4 &, s2l_image &Img,
               const s2l_sampler *S, uint32_t Out[4]) {
      s2l_image_operands O =
          baseOps(S2L_IMAGE_OP_GATHER, Dim2D, false, S2L_IMAGE_FLOAT);
      O.flags = S2L_IMAGE_HAS_OFFSETS;
      O.coord[0] = F[0];
      O.coord[1] = F[1];
      O.component = 2;
      const int32_t Offs[4][2] = {{0, 0}, {1, -1}, {-2, 3}, {4, -3}};
      std::memcpy(O.gather_offsets, Offs, sizeof(Offs));
      s2l_image_op(&O, &Img, S, Out);
    };
    Cases.push_back(C);
    // What GLSL specifies, built from four single-Offset gathers (which
    // the cases above check): component k is texel i0j0 (the gather's 4th)
    // of the footprint at P + Offs[k]. lavapipe must match this exactly.
    C.Name = "gather_const_offsets_as_glsl_specifies";
    C.KnownMismatch.clear();
    C.Ref = [](const Vec4 &F, const IVec4 &, s2l_image &Img,
               const s2l_sampler *S, uint32_t Out[4]) {
      const int32_t Offs[4][2] = {{0, 0}, {1, -1}, {-2, 3}, {4, -3}};
      for (int K = 0; K < 4; ++K) {
        s2l_image_operands O =
            baseOps(S2L_IMAGE_OP_GATHER, Dim2D, false, S2L_IMAGE_FLOAT);
        O.flags = S2L_IMAGE_HAS_OFFSET;
        O.coord[0] = F[0];
        O.coord[1] = F[1];
        O.component = 2;
        O.offset[0] = Offs[K][0];
        O.offset[1] = Offs[K][1];
        uint32_t Four[4];
        s2l_image_op(&O, &Img, S, Four);
        Out[K] = Four[3];
      }
    };
    Cases.push_back(C);
  }
  return Cases;
}

std::vector<OpCase> shadowCases(std::mt19937 &Rng, double Bilinear) {
  std::vector<OpCase> Cases;
  const char *Ops[] = {"never",
                       "less",
                       "equal",
                       "less_or_equal",
                       "greater",
                       "not_equal",
                       "greater_or_equal",
                       "always"};
  for (uint32_t Filter = 0; Filter < 2; ++Filter)
    for (uint32_t Op = 0; Op < 8; ++Op) {
      if (Filter && Op != 1 && Op != 6)
        continue;
      OpCase C;
      C.Name =
          std::string("shadow_") + (Filter ? "linear_" : "nearest_") + Ops[Op];
      // lavapipe filters D16 linearly, not D32 (the runner says so).
      uint32_t Fmt = Filter ? D16_UNORM : D32_SFLOAT;
      C.Image = makeImage(VkImageKind::CombinedImageSampler, Fmt, S2L_VIEW_2D,
                          4, 4, 1, 1, 1, Rng);
      C.Image.Sampler = makeSampler(Filter, 0, 2);
      C.Image.Sampler.compare_enable = 1;
      C.Image.Sampler.compare_op = Op;
      C.Decl = "uniform sampler2DShadow Tex;";
      C.Stmt = "R[K] = vec4(textureLod(Tex, F.xyz, F.w), 0.0, 0.0, 0.0);";
      std::vector<float> Texels(16);
      size_t Bytes = C.Image.Data.size() / 16;
      for (size_t T = 0; T < 16; ++T) {
        Float4 V;
        if (!decodeTexel(Format(Fmt), &C.Image.Data[T * Bytes], V).ok())
          ADD_FAILURE() << "cannot decode a depth texel";
        Texels[T] = V[0];
      }
      for (int K = 0; K < 64; ++K) {
        // Half the references equal a texel (for the equal ops), half are
        // random.
        float Ref = K & 1 ? Texels[Rng() % 16]
                          : float(Rng() % 1024) / 1024.0f + 1.0f / 2048;
        C.F.push_back({safeCoord(Rng, 4, 0, 1, Filter),
                       safeCoord(Rng, 4, 0, 1, Filter), Ref, 0});
      }
      C.I = izeros(C.F.size());
      C.Ref = sampleLodRef(Dim2D, false, 2, /*Shadow=*/true);
      C.Tolerance = Filter ? Bilinear : 0;
      C.Components = 1;
      Cases.push_back(C);
    }
  {
    OpCase C;
    C.Name = "shadow_gather_less";
    C.Image = makeImage(VkImageKind::CombinedImageSampler, D32_SFLOAT,
                        S2L_VIEW_2D, 4, 4, 1, 1, 1, Rng);
    C.Image.Sampler = makeSampler(0, 0, 2);
    C.Image.Sampler.compare_enable = 1;
    C.Image.Sampler.compare_op = 1;
    C.Decl = "uniform sampler2DShadow Tex;";
    C.Stmt = "R[K] = textureGather(Tex, F.xy, F.z);";
    for (int K = 0; K < 48; ++K)
      C.F.push_back({safeCoord(Rng, 4, 0, 1, true),
                     safeCoord(Rng, 4, 0, 1, true),
                     float(Rng() % 1024) / 1024.0f + 1.0f / 2048, 0});
    C.I = izeros(C.F.size());
    C.Ref = [](const Vec4 &F, const IVec4 &, s2l_image &Img,
               const s2l_sampler *S, uint32_t Out[4]) {
      s2l_image_operands O =
          baseOps(S2L_IMAGE_OP_GATHER, Dim2D, false, S2L_IMAGE_FLOAT);
      O.flags = S2L_IMAGE_HAS_DREF;
      O.coord[0] = F[0];
      O.coord[1] = F[1];
      O.dref = F[2];
      s2l_image_op(&O, &Img, S, Out);
    };
    Cases.push_back(C);
  }
  return Cases;
}

/// textureSize at every level and textureQueryLevels, per view type:
/// R[K] = (size..., levels) with unused components 0.
std::vector<OpCase> queryCases(std::mt19937 &Rng) {
  struct Q {
    const char *Name, *Decl, *Size;
    uint32_t View, W, H, D, Layers, Levels, Dim;
    bool Arrayed;
    unsigned SizeComponents;
  };
  const Q Queries[] = {
      {"1d", "texture1D", "ivec4(textureSize(Tex, I.x), 0, 0, 0", S2L_VIEW_1D,
       16, 1, 1, 1, 5, Dim1D, false, 1},
      {"1d_array", "texture1DArray", "ivec4(textureSize(Tex, I.x), 0, 0",
       S2L_VIEW_1D_ARRAY, 9, 1, 1, 3, 2, Dim1D, true, 2},
      {"2d", "texture2D", "ivec4(textureSize(Tex, I.x), 0, 0", S2L_VIEW_2D, 13,
       6, 1, 1, 4, Dim2D, false, 2},
      {"2d_array", "texture2DArray", "ivec4(textureSize(Tex, I.x), 0",
       S2L_VIEW_2D_ARRAY, 8, 4, 1, 5, 3, Dim2D, true, 3},
      {"3d", "texture3D", "ivec4(textureSize(Tex, I.x), 0", S2L_VIEW_3D, 8, 4,
       2, 1, 4, Dim3D, false, 3},
      {"cube", "textureCube", "ivec4(textureSize(Tex, I.x), 0, 0",
       S2L_VIEW_CUBE, 8, 8, 1, 6, 4, DimCube, false, 2},
      {"cube_array", "textureCubeArray", "ivec4(textureSize(Tex, I.x), 0",
       S2L_VIEW_CUBE_ARRAY, 4, 4, 1, 12, 3, DimCube, true, 3},
  };
  std::vector<OpCase> Cases;
  for (const Q &Qu : Queries) {
    OpCase C;
    C.Name = std::string("query_") + Qu.Name;
    C.Image = makeImage(VkImageKind::SampledImage, R32_SFLOAT, Qu.View, Qu.W,
                        Qu.H, Qu.D, Qu.Layers, Qu.Levels, Rng);
    C.Decl = std::string("uniform ") + Qu.Decl + " Tex;";
    if (std::string(Qu.Name) == "2d") {
      // A combined image sampler too (OpImage then OpImageQuerySizeLod).
      C.Image.Kind = VkImageKind::CombinedImageSampler;
      C.Image.Sampler = makeSampler(0, 0, 0);
      C.Decl = "uniform sampler2D Tex;";
    }
    C.ResultType = "ivec4";
    // The last component is always the level count.
    std::string Size = Qu.Size;
    C.Stmt = "R[K] = " + Size + ");\nR[K].w = textureQueryLevels(Tex);";
    for (uint32_t L = 0; L < Qu.Levels; ++L)
      C.I.push_back({int32_t(L), 0, 0, 0});
    C.F = zeros(C.I.size());
    unsigned N = Qu.SizeComponents;
    // Mesa 22.3's lavapipe answers textureSize(Tex, lod) with level 0's
    // size at every lod (Vulkan: OpImageQuerySizeLod gives the size of
    // level lod, max(1, size >> lod) per dimension, layers unchanged).
    // Compared with lavapipe at lod 0 and with that formula elsewhere.
    C.LavapipeWrong = [](const IVec4 &I) { return I[0] != 0; };
    C.Spec = [Qu, N](const Vec4 &, const IVec4 &I, s2l_image &Img,
                     const s2l_sampler *, uint32_t Out[4]) {
      uint32_t Full[3] = {Qu.W, Qu.H, Qu.D};
      unsigned Dims = Qu.Dim == Dim1D ? 1 : Qu.Dim == Dim3D ? 3 : 2;
      for (unsigned K = 0; K < 3; ++K)
        Out[K] = K < Dims ? std::max(1u, Full[K] >> I[0]) : 0;
      if (Qu.Arrayed)
        Out[Dims] = Qu.Dim == DimCube ? Qu.Layers / 6 : Qu.Layers;
      Out[3] = Qu.Levels;
    };
    C.Ref = [Qu, N](const Vec4 &, const IVec4 &I, s2l_image &Img,
                    const s2l_sampler *, uint32_t Out[4]) {
      s2l_image_operands O =
          baseOps(S2L_IMAGE_OP_QUERY_SIZE, Qu.Dim, Qu.Arrayed, S2L_IMAGE_FLOAT);
      O.flags = S2L_IMAGE_HAS_LOD;
      O.ilod = I[0];
      uint32_t Size[4], Levels[4];
      s2l_image_op(&O, &Img, nullptr, Size);
      O.op = S2L_IMAGE_OP_QUERY_LEVELS;
      s2l_image_op(&O, &Img, nullptr, Levels);
      for (unsigned K = 0; K < 3; ++K)
        Out[K] = K < N ? Size[K] : 0;
      Out[3] = Levels[0];
    };
    Cases.push_back(C);
  }
  {
    OpCase C;
    C.Name = "query_texel_buffer_and_storage_size";
    C.Image = makeImage(VkImageKind::UniformTexelBuffer, R32_UINT,
                        S2L_VIEW_BUFFER, 37, 1, 1, 1, 1, Rng);
    C.Decl = "uniform utextureBuffer Tex;";
    C.ResultType = "ivec4";
    C.Stmt = "R[K] = ivec4(textureSize(Tex), 0, 0, 0);";
    C.I = izeros(1);
    C.F = zeros(1);
    C.Ref = [](const Vec4 &, const IVec4 &, s2l_image &Img, const s2l_sampler *,
               uint32_t Out[4]) {
      s2l_image_operands O =
          baseOps(S2L_IMAGE_OP_QUERY_SIZE, DimBuffer, false, S2L_IMAGE_UINT);
      uint32_t Size[4];
      s2l_image_op(&O, &Img, nullptr, Size);
      Out[0] = Size[0];
      Out[1] = Out[2] = Out[3] = 0;
    };
    Cases.push_back(C);
  }
  return Cases;
}

// --- Running ----------------------------------------------------------------

VulkanComputeRunner *runner() {
  static std::unique_ptr<VulkanComputeRunner> R = [] {
    VkRunnerOptions O;
    O.RobustAccess = true;
    auto Created = VulkanComputeRunner::create(O);
    if (!Created) {
      llvm::consumeError(Created.takeError());
      return std::unique_ptr<VulkanComputeRunner>();
    }
    return std::move(*Created);
  }();
  return R.get();
}

/// Bound on a correct linear filter's distance from lavapipe's for texel
/// values in [0, 1) (file comment).
double bilinearTolerance() {
  return 2 * std::ldexp(1.0, -int(runner()->subTexelPrecisionBits())) + 1e-5;
}
double trilinearTolerance() {
  return bilinearTolerance() +
         std::ldexp(1.0, -int(runner()->mipmapPrecisionBits()));
}

const std::vector<OpCase> &cases() {
  static const std::vector<OpCase> C = [] {
    std::vector<OpCase> All;
    if (!runner())
      return All;
    std::mt19937 Rng(16);
    double Bi = bilinearTolerance(), Tri = trilinearTolerance();
    for (auto &&Group :
         {fetchCases(Rng), storageCases(Rng), addressCases(Rng, Bi),
          mipCases(Rng, Bi, Tri), cubeCases(Rng, Bi), gatherCases(Rng),
          shadowCases(Rng, Bi), queryCases(Rng)})
      All.insert(All.end(), Group.begin(), Group.end());
    // Inputs a case does not use are zero.
    for (OpCase &C : All) {
      C.F.resize(std::max(C.F.size(), C.I.size()), Vec4{});
      C.I.resize(C.F.size(), IVec4{});
    }
    return All;
  }();
  return C;
}

std::string shaderSource(const OpCase &C) {
  return "#version 450\n"
         "#extension GL_EXT_samplerless_texture_functions : require\n"
         "layout(local_size_x = 64) in;\n"
         "layout(set = 0, binding = 0) " +
         C.Decl +
         "\n"
         "layout(set = 0, binding = 1, std430) readonly buffer InF { vec4 "
         "Fs[]; };\n"
         "layout(set = 0, binding = 2, std430) readonly buffer InI { ivec4 "
         "Is[]; };\n"
         "layout(set = 0, binding = 3, std430) buffer Out { " +
         C.ResultType +
         " R[]; };\n"
         "layout(push_constant) uniform P { int N; };\n"
         "void main() {\n"
         "  int K = int(gl_GlobalInvocationID.x);\n"
         "  if (K >= N) return;\n"
         "  vec4 F = Fs[K];\n"
         "  ivec4 I = Is[K];\n" +
         C.Stmt + "\n}\n";
}

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &V) {
  std::vector<uint8_t> B(V.size() * sizeof(T));
  std::memcpy(B.data(), V.data(), B.size());
  return B;
}

std::string describeInput(const OpCase &C, size_t K) {
  const Vec4 &F = C.F[K];
  const IVec4 &I = C.I[K];
  return "input " + std::to_string(K) + ": F = (" + std::to_string(F[0]) +
         ", " + std::to_string(F[1]) + ", " + std::to_string(F[2]) + ", " +
         std::to_string(F[3]) + "), I = (" + std::to_string(I[0]) + ", " +
         std::to_string(I[1]) + ", " + std::to_string(I[2]) + ", " +
         std::to_string(I[3]) + ")";
}

class ImageOpLavapipe : public testing::TestWithParam<size_t> {};

TEST_P(ImageOpLavapipe, SameAsLavapipe) {
  ASSERT_TRUE(runner()) << "cannot create the vulkan runner";
  const OpCase &C = cases()[GetParam()];
  ASSERT_EQ(C.F.size(), C.I.size());
  size_t N = C.F.size();

  frontend::GlslOptions Opts;
  Opts.Stage = frontend::ShaderStage::Compute;
  Opts.TargetEnv = SPV_ENV_VULKAN_1_2;
  Opts.FileName = C.Name + ".comp";
  std::string Source = shaderSource(C);
  auto Words = frontend::compileGlsl(Source, Opts);
  ASSERT_TRUE(bool(Words)) << llvm::toString(Words.takeError()) << "\n"
                           << Source;

  VkDispatch D;
  D.Spirv = *Words;
  D.Images.push_back(C.Image);
  D.Buffers.push_back({0, 1, false, bytesOf(C.F)});
  D.Buffers.push_back({0, 2, false, bytesOf(C.I)});
  // 0xcd: a result the shader did not write shows.
  D.Buffers.push_back({0, 3, false, std::vector<uint8_t>(N * 16, 0xcd)});
  int32_t Count = int32_t(N);
  D.PushConstants.resize(4);
  std::memcpy(D.PushConstants.data(), &Count, 4);
  D.GroupsX = uint32_t((N + 63) / 64);
  std::string Error = llvm::toString(runner()->run(D));
  // The runner checks the format features lavapipe reports; what it lacks
  // is not compared (the message names it).
  if (Error.find("does not support") != std::string::npos)
    GTEST_SKIP() << Error;
  ASSERT_EQ(Error, "") << Source;

  // The same operations through s2l_image_op, in invocation order (writes
  // hit distinct texels, so the order does not matter).
  std::vector<uint8_t> Texels = C.Image.Data;
  llvm::Expected<s2l_image> Layout = packedImageLayout(C.Image);
  ASSERT_TRUE(bool(Layout)) << llvm::toString(Layout.takeError());
  s2l_image Img = *Layout;
  Img.data = Texels.data();
  const s2l_sampler *Sampler = C.Image.Kind == VkImageKind::CombinedImageSampler
                                   ? &C.Image.Sampler
                                   : nullptr;
  std::vector<uint32_t> Want(N * 4, 0);
  for (size_t K = 0; K < N; ++K)
    C.Ref(C.F[K], C.I[K], Img, Sampler, &Want[K * 4]);

  if (C.Writes) {
    const std::vector<uint8_t> &Got = D.Images[0].Data;
    ASSERT_EQ(Got.size(), Texels.size());
    EXPECT_NE(Texels, C.Image.Data) << "s2l_image_op wrote nothing";
    size_t Bad = 0;
    for (size_t B = 0; B < Got.size(); ++B)
      if (Got[B] != Texels[B] && Bad++ < 10)
        ADD_FAILURE() << C.Name << ": image byte " << B << ": lavapipe "
                      << int(Got[B]) << ", s2l_image_op " << int(Texels[B]);
    EXPECT_EQ(Bad, 0u);
    return;
  }

  std::vector<uint32_t> Got(N * 4);
  std::memcpy(Got.data(), D.Buffers[2].Data.data(), N * 16);
  if (C.LavapipeWrong) {
    size_t Wrong = 0, StillWrong = 0;
    for (size_t K = 0; K < N; ++K) {
      if (!C.LavapipeWrong(C.I[K]))
        continue;
      uint32_t Spec[4];
      C.Spec(C.F[K], C.I[K], Img, Sampler, Spec);
      ++Wrong;
      StillWrong += std::memcmp(Spec, &Got[K * 4], 16) != 0;
      std::memcpy(&Got[K * 4], Spec, 16);
    }
    EXPECT_TRUE(Wrong == 0 || StillWrong > 0)
        << "lavapipe now agrees with the spec where it did not: compare "
           "with it again (drop LavapipeWrong from "
        << C.Name << ")";
  }
  bool Float = C.ResultType == "vec4";
  size_t Bad = 0;
  std::string Messages;
  double Worst = 0;
  for (size_t K = 0; K < N; ++K)
    for (unsigned Comp = 0; Comp < C.Components; ++Comp) {
      uint32_t G = Got[K * 4 + Comp], W = Want[K * 4 + Comp];
      bool Same = G == W;
      if (!Same && Float && C.Tolerance > 0) {
        double Diff = std::fabs(double(std::bit_cast<float>(G)) -
                                double(std::bit_cast<float>(W)));
        Worst = std::max(Worst, Diff);
        Same = Diff <= C.Tolerance;
      }
      if (!Same && Bad++ < 10) {
        std::string Values =
            Float
                ? std::to_string(std::bit_cast<float>(G)) + ", s2l_image_op " +
                      std::to_string(std::bit_cast<float>(W))
                : std::to_string(int64_t(int32_t(G))) + ", s2l_image_op " +
                      std::to_string(int64_t(int32_t(W)));
        Messages += C.Name + ", " + describeInput(C, K) + ", component " +
                    std::to_string(Comp) + ": lavapipe " + Values + "\n";
      }
    }
  if (!C.KnownMismatch.empty()) {
    if (Bad == 0)
      FAIL() << "the known mismatch (" << C.KnownMismatch
             << ") no longer happens: remove KnownMismatch from " << C.Name;
    GTEST_SKIP() << "known mismatch: " << C.KnownMismatch << "; " << Bad
                 << " components differ, e.g.\n"
                 << Messages;
  }
  EXPECT_EQ(Bad, 0u) << "of " << N * C.Components << " components:\n"
                     << Messages;
  if (C.Tolerance > 0)
    RecordProperty("worst_difference", std::to_string(Worst));
}

std::string caseName(const testing::TestParamInfo<size_t> &Info) {
  return cases()[Info.param].Name;
}

std::vector<size_t> caseIndices() {
  std::vector<size_t> I(cases().size());
  for (size_t K = 0; K < I.size(); ++K)
    I[K] = K;
  return I;
}

// No cases without lavapipe; the test then fails in the suite below.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ImageOpLavapipe);
INSTANTIATE_TEST_SUITE_P(Ops, ImageOpLavapipe, testing::ValuesIn(caseIndices()),
                         caseName);

TEST(ImageOpLavapipeSetup, LavapipeIsThere) {
  ASSERT_TRUE(runner()) << "cannot create the vulkan runner with robust access";
  EXPECT_TRUE(runner()->hasFeature("robustImageAccess2"))
      << "out-of-range cases expect robustImageAccess2's zeros";
  EXPECT_FALSE(cases().empty());
}

} // namespace
