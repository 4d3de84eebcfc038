//===- GraphicsNames.h - Amber's names of pipeline state -------*- C++ -*-===//
//
// The names AmberScript and VkScript give the fixed-function state of a
// graphics pipeline, mapped to the rasterizer's enums (spirv2llvm/
// Graphics.h, which carry Vulkan's numbers). AmberScript spells them in
// lower case ("one_minus_src_alpha", "increment_and_clamp"); VkScript as
// Vulkan's enumerants, which vkscript lowers after the prefix
// (VK_BLEND_FACTOR_ONE -> "one", VK_CULL_MODE_BACK_BIT -> "back_bit").
// Every lookup gives nullopt for a name it does not know; the parsers turn
// that into an error naming the line.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_GRAPHICSNAMES_H
#define SPIRV2LLVM_AMBER_GRAPHICSNAMES_H

#include "spirv2llvm/Graphics.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace spirv2llvm::amber {

std::optional<spirv2llvm::CompareOp> compareOpByName(llvm::StringRef N);
std::optional<StencilOp> stencilOpByName(llvm::StringRef N);
std::optional<BlendFactor> blendFactorByName(llvm::StringRef N);
/// add, subtract (Amber's docs spell it "substract"; both are accepted),
/// reverse_subtract, min, max.
std::optional<BlendOp> blendOpByName(llvm::StringRef N);
/// Whether \p N is one of VK_EXT_blend_operation_advanced's operations,
/// which Amber accepts and the rasterizer does not have (a SKIP).
bool isAdvancedBlendOp(llvm::StringRef N);
/// none, front, back, front_and_back (a trailing "_bit" is ignored).
std::optional<CullMode> cullModeByName(llvm::StringRef N);
/// counter_clockwise, clockwise.
std::optional<FrontFace> frontFaceByName(llvm::StringRef N);
/// fill, line, point.
std::optional<PolygonMode> polygonModeByName(llvm::StringRef N);
/// default, rectangular, bresenham, rectangular_smooth.
std::optional<LineRasterization> lineRasterizationByName(llvm::StringRef N);
/// clear, and, and_reverse, copy, ..., set.
std::optional<LogicOp> logicOpByName(llvm::StringRef N);
/// POINT_LIST, LINE_LIST, LINE_STRIP, TRIANGLE_LIST, TRIANGLE_STRIP,
/// TRIANGLE_FAN, in any case (Amber's docs write TRIANGLE_fan).
std::optional<PrimitiveTopology> topologyByName(llvm::StringRef N);
/// The topologies with adjacency and PATCH_LIST: known to Amber, but they
/// need geometry or tessellation shaders (a SKIP).
bool isUnsupportedTopology(llvm::StringRef N);

/// The Amber name of \p Op, for messages and logs.
std::string topologyName(PrimitiveTopology T);

} // namespace spirv2llvm::amber

#endif
