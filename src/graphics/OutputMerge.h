//===- graphics/OutputMerge.h - Depth, stencil and colour merging -*- C++
//-*-===//
//
// The output-merge stage of the rasterizer as pure functions (Vulkan 1.3,
// "Fragment Operations" and "The Framebuffer"): the compare and stencil
// operations, depth/stencil attachment access, and ColorMerger, which
// blends, applies the logic op and the write mask and converts to one
// colour attachment's format. Nothing here knows about primitives or
// threads: the rasterizer calls these per sample (docs/graphics.md, "Output
// merge"). DepthStencil.cpp defines the depth and stencil half,
// OutputMerge.cpp ColorMerger.
//
// Limitation: texels are accessed as little-endian words (the host must be
// little-endian, which every target of the JIT is).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_GRAPHICS_OUTPUTMERGE_H
#define SPIRV2LLVM_GRAPHICS_OUTPUTMERGE_H

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/ImageFormat.h"
#include "spirv2llvm/Status.h"

#include <array>
#include <cstdint>

namespace spirv2llvm::graphics {

// --- Compare and stencil operations ----------------------------------------

/// Vulkan's compare "A op B" (for depth: A is the fragment's, B the stored
/// value). Comparisons with NaN are false except NotEqual (and Always).
bool compare(CompareOp Op, float A, float B);
bool compare(CompareOp Op, uint32_t A, uint32_t B);

/// One stencil op on an 8-bit stencil value (Vulkan "Stencil Test"): the
/// clamping ops stop at 0 and 255, the wrapping ones wrap, Invert flips
/// every bit, Replace takes Reference & 0xff.
uint8_t applyStencilOp(StencilOp Op, uint8_t Current, uint8_t Reference);

/// The stencil test of one sample: (Reference & CompareMask) op
/// (Current & CompareMask), with the reference's low 8 bits (the
/// attachment's stencil bits; lavapipe keeps an 8-bit reference too).
bool stencilTest(const StencilOpState &S, uint8_t Current);

/// The stencil value to store for one sample: S is the state of the
/// primitive's facing; FailOp applies when the stencil test failed,
/// DepthFailOp when it passed and the depth test failed, PassOp when both
/// passed (pass DepthPassed = true without a depth test). Only the bits of
/// WriteMask change: (new & mask) | (old & ~mask).
uint8_t stencilUpdate(const StencilOpState &S, uint8_t Current,
                      bool StencilPassed, bool DepthPassed);

// --- Depth/stencil attachments ----------------------------------------------

/// Whether F has a depth (stencil) aspect: the seven depth/stencil formats
/// of the table (D16_UNORM, X8_D24_UNORM_PACK32, D32_SFLOAT, S8_UINT,
/// D16_UNORM_S8_UINT, D24_UNORM_S8_UINT, D32_SFLOAT_S8_UINT).
bool hasDepth(Format F);
bool hasStencil(Format F);

/// The depth of one sample, whose bytes start at Texel (layouts as
/// ImageFormats.def documents: depth in the low bits, the stencil byte
/// after it). 0 for a format without depth.
float readDepth(Format F, const uint8_t *Texel);
/// Stores Depth, leaving the stencil bits (and D24's X8 bits) as they
/// were. UNORM formats clamp to [0,1] and round to nearest even (NaN: 0);
/// D32_SFLOAT stores the float as it is (clamping to the viewport's depth
/// range is the rasterizer's). No-op for a format without depth.
void writeDepth(Format F, float Depth, uint8_t *Texel);
/// The value the attachment would hold for Depth: readDepth after
/// writeDepth. The depth test compares this with the stored value (Vulkan
/// compares after the conversion to the attachment's format).
float quantizeDepth(Format F, float Depth);

/// The stencil byte of one sample (0 for a format without stencil); the
/// write leaves the depth bits as they were.
uint8_t readStencil(Format F, const uint8_t *Texel);
void writeStencil(Format F, uint8_t S, uint8_t *Texel);

// --- Colour attachments ------------------------------------------------------

/// What a fragment shader wrote to one colour location, in the type of its
/// output variable (float, int or uint vectors; missing components are the
/// caller's to fill, usually 0 and alpha 1).
struct ColorValue {
  enum class Kind : uint8_t { Float, SInt, UInt } K = Kind::Float;
  union {
    float F[4] = {0, 0, 0, 0};
    int32_t I[4];
    uint32_t U[4];
  };
};

/// One colour attachment's blend, logic op, write mask and format
/// conversion, decided once per pipeline so that the per-sample call is
/// cheap: create() picks a specialized function for the common cases and a
/// generic decode/blend/encode path for the rest; both give the same bits.
///
/// Rules (Vulkan 1.3 "Blending", "Logical Operations", "Color Write Mask"):
/// - blending applies to float, UNORM, SNORM and sRGB formats; integer
///   formats ignore BlendEnable. For UNORM/sRGB (SNORM) attachments the
///   source values, the blend constants and the blend factors are clamped
///   to [0,1] ([-1,1]) first; sRGB destinations are converted to linear
///   before blending and the result back to sRGB; a destination without
///   alpha has alpha 1.
/// - an enabled logic op disables blending on every attachment; it applies
///   to the encoded bits of integer, UNORM and SNORM attachments; float and
///   sRGB attachments just store the source.
/// - the write mask keeps the bits of the components it leaves out.
/// - integer outputs saturate to a narrower attachment's range (Vulkan
///   leaves that undefined; a conformance test expects saturation, as the
///   Amber rasterizer does). An output whose numeric type does not match
///   the attachment's (undefined in Vulkan) is read as the attachment's
///   type, bit for bit.
class ColorMerger {
public:
  /// A merger that writes nothing (an unused location).
  ColorMerger() = default;

  /// Fails, with a message naming \p AttachmentIndex and the problem, for a
  /// format that cannot be a colour attachment (unknown, depth/stencil,
  /// compressed, E5B9G9R9, 64-bit, USCALED/SSCALED) and for enum values
  /// outside Vulkan's core ones (only checked where used: the blend factors
  /// and ops when BlendEnable, the logic op when LogicOpEnable).
  static Result<ColorMerger> create(Format F, const ColorBlendAttachment &A,
                                    bool LogicOpEnable, LogicOp Op,
                                    unsigned AttachmentIndex);
  /// The same merger without the specialized paths (always the generic
  /// one): the tests' reference for the fast paths.
  static Result<ColorMerger> createGeneric(Format F,
                                           const ColorBlendAttachment &A,
                                           bool LogicOpEnable, LogicOp Op,
                                           unsigned AttachmentIndex);

  /// Merges Src (and Src1, the second source of dual-source blending; may
  /// be null when usesSrc1() is false) into the texel at Texel, in place.
  /// Constants: the blend constants.
  void merge(const ColorValue &Src, const ColorValue *Src1,
             const std::array<float, 4> &Constants, uint8_t *Texel) const {
    Fn(*this, Src, Src1, Constants, Texel);
  }

  /// Whether merge() reads the texel (blending that uses the destination,
  /// logic ops that read it, write masks that keep some bits): the
  /// rasterizer uses it to skip reads.
  bool readsDestination() const { return ReadsDst; }
  /// Whether a blend factor reads the second source (Src1*).
  bool usesSrc1() const { return UsesSrc1; }
  /// Whether merge() writes anything (false for a zero write mask).
  bool writes() const { return Writes; }
  /// Whether create() chose a specialized path (for tests and benchmarks).
  bool isSpecialized() const { return Specialized; }
  Format format() const { return Fmt; }

private:
  /// How the attachment's components are read and written.
  enum class NumericClassKind : uint8_t {
    Float,
    UNorm,
    SNorm,
    SRGB,
    UInt,
    SInt
  };
  friend struct ColorMergerImpl;
  using MergeFn = void (*)(const ColorMerger &, const ColorValue &,
                           const ColorValue *, const std::array<float, 4> &,
                           uint8_t *);

  static void mergeNothing(const ColorMerger &, const ColorValue &,
                           const ColorValue *, const std::array<float, 4> &,
                           uint8_t *);

  MergeFn Fn = &mergeNothing;
  const FormatInfo *Info = nullptr;
  Format Fmt = Format::UNDEFINED;
  NumericClassKind Class = NumericClassKind::Float;
  ColorBlendAttachment Blend;
  LogicOp Logic = LogicOp::Copy;
  /// Blending / the logic op as they apply to this format.
  bool BlendOn = false, LogicOn = false;
  /// The blend needs the destination's value (else it reads as 0).
  bool BlendReadsDst = false;
  bool ReadsDst = false, UsesSrc1 = false, Writes = false;
  bool Specialized = false;
  /// Some bits of the texel are kept (a partial write mask).
  bool PartialWrite = false;
  /// The written bits of the texel, as two little-endian words.
  uint64_t WriteBits[2] = {0, 0};
  /// Integer formats: each slot's range (saturation).
  int64_t IntLo[4] = {0, 0, 0, 0}, IntHi[4] = {0, 0, 0, 0};
  /// The format's components as the generic path converts them: bits
  /// [Shift, Shift + Bits) of word Word, value slot Slot (R, G, B, A).
  struct Component {
    uint8_t Word = 0, Shift = 0, Bits = 0, Slot = 0;
    NumericKind Numeric = NumericKind::UNorm;
  };
  Component Comps[4];
  /// The blend per component: the factors as a slot of the generic path's
  /// input array (ColorMergerImpl::FactorSlot) and whether it is 1 - slot.
  struct FactorRef {
    uint8_t Slot = 0;
    bool OneMinus = false;
  };
  FactorRef SrcFactor[4], DstFactor[4];
  BlendOp Ops[4] = {BlendOp::Add, BlendOp::Add, BlendOp::Add, BlendOp::Add};
  bool UsesSaturate = false;
  uint8_t NumComps = 0;
  uint8_t TexelBytes = 0;
};

} // namespace spirv2llvm::graphics

#endif
