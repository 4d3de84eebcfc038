//===- GraphicsNames.cpp - Amber's names of pipeline state ----------------===//
//
// Tables in the enums' order: an enum's value is its index, as Vulkan
// numbers them (Graphics.h).
//
//===----------------------------------------------------------------------===//
#include "amber/GraphicsNames.h"
#include "amber/AmberScript.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace spirv2llvm::amber {

namespace {

template <typename E>
std::optional<E> lookup(ArrayRef<const char *> Names, StringRef N) {
  for (size_t I = 0; I < Names.size(); ++I)
    if (N == Names[I])
      return E(I);
  return std::nullopt;
}

const char *const CompareNames[] = {
    "never",   "less",      "equal",            "less_or_equal",
    "greater", "not_equal", "greater_or_equal", "always"};

const char *const StencilNames[] = {
    "keep",   "zero",                "replace",           "increment_and_clamp",
    "decrement_and_clamp", "invert", "increment_and_wrap", "decrement_and_wrap"};

const char *const FactorNames[] = {
    "zero",
    "one",
    "src_color",
    "one_minus_src_color",
    "dst_color",
    "one_minus_dst_color",
    "src_alpha",
    "one_minus_src_alpha",
    "dst_alpha",
    "one_minus_dst_alpha",
    "constant_color",
    "one_minus_constant_color",
    "constant_alpha",
    "one_minus_constant_alpha",
    "src_alpha_saturate",
    "src1_color",
    "one_minus_src1_color",
    "src1_alpha",
    "one_minus_src1_alpha"};

const char *const BlendOpNames[] = {"add", "subtract", "reverse_subtract",
                                    "min", "max"};

const char *const LogicNames[] = {
    "clear",      "and",        "and_reverse",   "copy",
    "and_inverted", "no_op",    "xor",           "or",
    "nor",        "equivalent", "invert",        "or_reverse",
    "copy_inverted", "or_inverted", "nand",      "set"};

const char *const TopologyNames[] = {"POINT_LIST",    "LINE_LIST",
                                     "LINE_STRIP",    "TRIANGLE_LIST",
                                     "TRIANGLE_STRIP", "TRIANGLE_FAN"};

} // namespace

std::optional<spirv2llvm::CompareOp> compareOpByName(StringRef N) {
  return lookup<spirv2llvm::CompareOp>(CompareNames, N);
}

std::optional<StencilOp> stencilOpByName(StringRef N) {
  return lookup<StencilOp>(StencilNames, N);
}

std::optional<BlendFactor> blendFactorByName(StringRef N) {
  return lookup<BlendFactor>(FactorNames, N);
}

std::optional<BlendOp> blendOpByName(StringRef N) {
  if (N == "substract")
    return BlendOp::Subtract;
  if (N == "reverse_substract")
    return BlendOp::ReverseSubtract;
  return lookup<BlendOp>(BlendOpNames, N);
}

bool isAdvancedBlendOp(StringRef N) {
  static const char *const Advanced[] = {
      "zero",        "src",           "dst",            "src_over",
      "dst_over",    "src_in",        "dst_in",         "src_out",
      "dst_out",     "src_atop",      "dst_atop",       "xor",
      "multiply",    "screen",        "overlay",        "darken",
      "lighten",     "color_dodge",   "color_burn",     "hard_light",
      "soft_light",  "difference",    "exclusion",      "invert",
      "invert_rgb",  "linear_dodge",  "linear_burn",    "vivid_light",
      "linear_light", "pin_light",    "hard_mix",       "hsl_hue",
      "hsl_saturation", "hsl_color",  "hsl_luminosity", "plus",
      "plus_clamped", "plus_clamped_alpha", "plus_darker", "minus",
      "minus_clamped", "contrast",    "invert_org",     "invert_ovg",
      "red",         "green",         "blue"};
  N.consume_back("_ext");
  return is_contained(Advanced, N);
}

std::optional<CullMode> cullModeByName(StringRef N) {
  N.consume_back("_bit");
  if (N == "none")
    return CullMode::None;
  if (N == "front")
    return CullMode::Front;
  if (N == "back")
    return CullMode::Back;
  if (N == "front_and_back")
    return CullMode::FrontAndBack;
  return std::nullopt;
}

std::optional<FrontFace> frontFaceByName(StringRef N) {
  if (N == "counter_clockwise")
    return FrontFace::CounterClockwise;
  if (N == "clockwise")
    return FrontFace::Clockwise;
  return std::nullopt;
}

std::optional<PolygonMode> polygonModeByName(StringRef N) {
  if (N == "fill")
    return PolygonMode::Fill;
  if (N == "line")
    return PolygonMode::Line;
  if (N == "point")
    return PolygonMode::Point;
  return std::nullopt;
}

std::optional<LineRasterization> lineRasterizationByName(StringRef N) {
  static const char *const Names[] = {"default", "rectangular", "bresenham",
                                      "rectangular_smooth"};
  return lookup<LineRasterization>(Names, N);
}

std::optional<LogicOp> logicOpByName(StringRef N) {
  return lookup<LogicOp>(LogicNames, N);
}

std::optional<PrimitiveTopology> topologyByName(StringRef N) {
  return lookup<PrimitiveTopology>(TopologyNames, N.upper());
}

bool isUnsupportedTopology(StringRef N) {
  std::string U = N.upper();
  return U == "PATCH_LIST" || StringRef(U).ends_with("_WITH_ADJACENCY");
}

std::string topologyName(PrimitiveTopology T) {
  size_t I = size_t(T);
  return I < std::size(TopologyNames) ? TopologyNames[I] : "?";
}

namespace {

bool sameStencil(const StencilOpState &A, const StencilOpState &B) {
  return A.FailOp == B.FailOp && A.PassOp == B.PassOp &&
         A.DepthFailOp == B.DepthFailOp && A.Compare == B.Compare &&
         A.CompareMask == B.CompareMask && A.WriteMask == B.WriteMask &&
         A.Reference == B.Reference;
}

} // namespace

bool GraphicsStateDecl::operator==(const GraphicsStateDecl &O) const {
  const RasterizationState &R = Raster, &RO = O.Raster;
  const DepthStencilState &D = DepthStencil, &DO = O.DepthStencil;
  const ColorBlendAttachment &B = Blend, &BO = O.Blend;
  return R.DepthClampEnable == RO.DepthClampEnable &&
         R.RasterizerDiscardEnable == RO.RasterizerDiscardEnable &&
         R.Polygon == RO.Polygon && R.Cull == RO.Cull &&
         R.Front == RO.Front && R.DepthBiasEnable == RO.DepthBiasEnable &&
         R.DepthBiasConstantFactor == RO.DepthBiasConstantFactor &&
         R.DepthBiasClamp == RO.DepthBiasClamp &&
         R.DepthBiasSlopeFactor == RO.DepthBiasSlopeFactor &&
         R.LineWidth == RO.LineWidth && R.LineMode == RO.LineMode &&
         R.ProvokingVertexFirst == RO.ProvokingVertexFirst &&
         D.DepthTestEnable == DO.DepthTestEnable &&
         D.DepthWriteEnable == DO.DepthWriteEnable &&
         D.DepthCompare == DO.DepthCompare &&
         D.DepthBoundsTestEnable == DO.DepthBoundsTestEnable &&
         D.MinDepthBounds == DO.MinDepthBounds &&
         D.MaxDepthBounds == DO.MaxDepthBounds &&
         D.StencilTestEnable == DO.StencilTestEnable &&
         sameStencil(D.Front, DO.Front) && sameStencil(D.Back, DO.Back) &&
         B.BlendEnable == BO.BlendEnable && B.SrcColor == BO.SrcColor &&
         B.DstColor == BO.DstColor && B.ColorOp == BO.ColorOp &&
         B.SrcAlpha == BO.SrcAlpha && B.DstAlpha == BO.DstAlpha &&
         B.AlphaOp == BO.AlphaOp && B.WriteMask == BO.WriteMask &&
         BlendConstants == O.BlendConstants &&
         LogicOpEnable == O.LogicOpEnable && Logic == O.Logic &&
         PrimitiveRestart == O.PrimitiveRestart &&
         Multisample.Samples == O.Multisample.Samples &&
         Multisample.SampleShadingEnable == O.Multisample.SampleShadingEnable &&
         Multisample.MinSampleShading == O.Multisample.MinSampleShading &&
         Multisample.SampleMask == O.Multisample.SampleMask &&
         Multisample.AlphaToCoverageEnable ==
             O.Multisample.AlphaToCoverageEnable &&
         Multisample.AlphaToOneEnable == O.Multisample.AlphaToOneEnable &&
         Scissor.has_value() == O.Scissor.has_value() &&
         (!Scissor || (Scissor->X == O.Scissor->X && Scissor->Y == O.Scissor->Y &&
                       Scissor->Width == O.Scissor->Width &&
                       Scissor->Height == O.Scissor->Height));
}

} // namespace spirv2llvm::amber
