//===- VulkanGraphicsState.cpp - Graphics.h state as Vulkan's -------------===//
//
// The graphics runner's pipeline: every field of GraphicsPipelineDesc as
// the Vulkan structure it is (docs/graphics.md, "Reference renders on
// lavapipe"), the features that state needs, specialization constants.
//
//===----------------------------------------------------------------------===//
#include "VulkanGraphicsRun.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace spirv2llvm;
using llvm::Error;
using llvm::Expected;

namespace spirv2llvm::vk::detail {

namespace {

// --- Features ----------------------------------------------------------------

/// The features graphics state can need, by their Vulkan member names, for
/// hasFeature() and the "needs <feature>" errors.
struct GraphicsFeature {
  const char *Name;
  bool (*Get)(const RunnerState &);
};

// clang-format off
#define S2L_FEATURE(Expr, Member)                                              \
  GraphicsFeature{#Member, [](const RunnerState &R) -> bool {                 \
                    return R.Expr.Member;                                      \
                  }}

// clang-format on
const GraphicsFeature GraphicsFeatures[] = {
    S2L_FEATURE(Enabled.Core.features, depthClamp),
    S2L_FEATURE(Enabled.Core.features, depthBiasClamp),
    S2L_FEATURE(Enabled.Core.features, fillModeNonSolid),
    S2L_FEATURE(Enabled.Core.features, wideLines),
    S2L_FEATURE(Enabled.Core.features, largePoints),
    S2L_FEATURE(Enabled.Core.features, sampleRateShading),
    S2L_FEATURE(Enabled.Core.features, alphaToOne),
    S2L_FEATURE(Enabled.Core.features, depthBounds),
    S2L_FEATURE(Enabled.Core.features, logicOp),
    S2L_FEATURE(Enabled.Core.features, dualSrcBlend),
    S2L_FEATURE(Enabled.Core.features, independentBlend),
    S2L_FEATURE(Enabled.Core.features, multiViewport),
    S2L_FEATURE(Enabled.Core.features, vertexPipelineStoresAndAtomics),
    S2L_FEATURE(Enabled.Core.features, fragmentStoresAndAtomics),
    S2L_FEATURE(Enabled.Core.features, shaderStorageImageMultisample),
    S2L_FEATURE(Enabled.Core.features, shaderStorageImageWriteWithoutFormat),
    S2L_FEATURE(Enabled.VertexDivisor, vertexAttributeInstanceRateDivisor),
    S2L_FEATURE(Enabled.VertexDivisor, vertexAttributeInstanceRateZeroDivisor),
    S2L_FEATURE(Enabled.LineRasterization, rectangularLines),
    S2L_FEATURE(Enabled.LineRasterization, bresenhamLines),
    S2L_FEATURE(Enabled.LineRasterization, smoothLines),
    S2L_FEATURE(Enabled.ProvokingVertex, provokingVertexLast),
    S2L_FEATURE(Enabled.IndexTypeUint8, indexTypeUint8),
    S2L_FEATURE(Enabled.ListRestart, primitiveTopologyListRestart),
};

#undef S2L_FEATURE

bool isDualSource(BlendFactor F) {
  return F == BlendFactor::Src1Color || F == BlendFactor::OneMinusSrc1Color ||
         F == BlendFactor::Src1Alpha || F == BlendFactor::OneMinusSrc1Alpha;
}

bool sameBlend(const ColorBlendAttachment &A, const ColorBlendAttachment &B) {
  return A.BlendEnable == B.BlendEnable && A.SrcColor == B.SrcColor &&
         A.DstColor == B.DstColor && A.ColorOp == B.ColorOp &&
         A.SrcAlpha == B.SrcAlpha && A.DstAlpha == B.DstAlpha &&
         A.AlphaOp == B.AlphaOp && A.WriteMask == B.WriteMask;
}

// --- Specialization constants ------------------------------------------------

struct Specialization {
  std::vector<VkSpecializationMapEntry> Entries;
  std::vector<uint8_t> Data;
};

/// Encodes ShaderStageDesc::SpecValues ("1.5", "7", "true") as the
/// module's constants want them: the SpecId's type comes from the module
/// (OpSpecConstant* decorated with it), since the text alone cannot tell a
/// float 7 from an int 7.
Expected<Specialization>

specialize(llvm::ArrayRef<uint32_t> Words,
           const std::vector<std::pair<uint32_t, std::string>> &Values,
           llvm::StringRef Stage) {
  Specialization S;
  if (Values.empty())
    return S;
  enum : uint32_t {
    OpTypeBool = 20,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpSpecConstantTrue = 48,
    OpSpecConstantFalse = 49,
    OpSpecConstant = 50,
    OpDecorate = 71,
    DecorationSpecId = 1,
  };
  struct Type {
    bool Bool = false, Float = false, Signed = false;
    uint32_t Width = 0;
  };
  std::map<uint32_t, uint32_t> SpecIdOf;   // result id -> SpecId
  std::map<uint32_t, Type> Types;          // type id -> type
  std::map<uint32_t, uint32_t> TypeOfSpec; // SpecId -> type id
  for (size_t I = 5; I < Words.size();) {
    uint32_t Count = Words[I] >> 16, Op = Words[I] & 0xffff;
    if (Count == 0 || I + Count > Words.size())
      break; // findEntryPoint has already diagnosed malformed modules
    const uint32_t *W = &Words[I];
    if (Op == OpDecorate && Count >= 4 && W[2] == DecorationSpecId)
      SpecIdOf[W[1]] = W[3];
    else if (Op == OpTypeBool && Count >= 2)
      Types[W[1]] = Type{true, false, false, 32};
    else if (Op == OpTypeInt && Count >= 4)
      Types[W[1]] = Type{false, false, W[3] != 0, W[2]};
    else if (Op == OpTypeFloat && Count >= 3)
      Types[W[1]] = Type{false, true, false, W[2]};
    else if ((Op == OpSpecConstantTrue || Op == OpSpecConstantFalse ||
              Op == OpSpecConstant) &&
             Count >= 3 && SpecIdOf.count(W[2]))
      TypeOfSpec[SpecIdOf[W[2]]] = W[1];
    I += Count;
  }
  for (const auto &[Id, Text] : Values) {
    auto It = TypeOfSpec.find(Id);
    if (It == TypeOfSpec.end() || !Types.count(It->second))
      return makeError(llvm::formatv(
          "{0} shader: no specialization constant with SpecId {1}", Stage, Id));
    const Type &T = Types[It->second];
    std::string What = llvm::formatv("{0} shader: specialization constant {1} "
                                     "= '{2}'",
                                     Stage, Id, Text);
    uint64_t Bits = 0;
    uint32_t Size = T.Width / 8;
    char *End = nullptr;
    if (T.Bool) {
      if (Text == "true" || Text == "1")
        Bits = 1;
      else if (Text != "false" && Text != "0")
        return makeError(What + ": not a bool");
      Size = 4; // VkBool32
    } else if (T.Float) {
      double V = std::strtod(Text.c_str(), &End);
      if (End == Text.c_str() || *End)
        return makeError(What + ": not a number");
      if (T.Width == 32) {
        float F = float(V);
        uint32_t U;
        std::memcpy(&U, &F, 4);
        Bits = U;
      } else if (T.Width == 64) {
        std::memcpy(&Bits, &V, 8);
      } else {
        return makeError(What + ": only 32- and 64-bit floats are supported");
      }
    } else {
      Bits = T.Signed ? uint64_t(std::strtoll(Text.c_str(), &End, 0))
                      : std::strtoull(Text.c_str(), &End, 0);
      if (End == Text.c_str() || *End)
        return makeError(What + ": not an integer");
    }
    if (Size == 0 || Size > 8)
      return makeError(What + ": unsupported width");
    S.Entries.push_back({Id, uint32_t(S.Data.size()), Size});
    S.Data.resize(S.Data.size() + Size);
    std::memcpy(S.Data.data() + S.Data.size() - Size, &Bits, Size); // LE
  }
  return S;
}

} // namespace

bool featureEnabled(const RunnerState &R, llvm::StringRef Name) {
  return llvm::any_of(GraphicsFeatures, [&](const GraphicsFeature &F) {
    return Name == F.Name && F.Get(R);
  });
}

Error need(const RunnerState &R, const char *Feature, const llvm::Twine &For) {
  if (featureEnabled(R, Feature))
    return Error::success();
  return makeError(llvm::formatv("{0} needs the feature {1}, which {2} lacks",
                                 For.str(), Feature, R.Props.deviceName));
}

Error checkStateFeatures(const RunnerState &R, const GraphicsJob &J) {
  const GraphicsPipelineDesc &D = *J.Desc;
  const RasterizationState &Rs = D.Rasterization;
  for (const VertexBinding &B : D.VertexBindings) {
    if (B.Divisor == 1)
      continue;
    std::string What = llvm::formatv("vertex binding {0} with divisor {1}",
                                     B.Binding, B.Divisor);
    if (B.InputRate != VertexInputRate::Instance)
      return makeError(What + ": divisors apply to per-instance bindings");
    if (Error E = need(R, "vertexAttributeInstanceRateDivisor", What))
      return E;
    if (B.Divisor == 0)
      if (Error E = need(R, "vertexAttributeInstanceRateZeroDivisor", What))
        return E;
  }
  bool List = D.Topology == PrimitiveTopology::PointList ||
              D.Topology == PrimitiveTopology::LineList ||
              D.Topology == PrimitiveTopology::TriangleList;
  if (D.PrimitiveRestartEnable && List)
    if (Error E = need(R, "primitiveTopologyListRestart",
                       "primitive restart with a list topology"))
      return E;
  if (D.Viewports.size() > 1 || D.Scissors.size() > 1)
    if (Error E = need(R, "multiViewport", "more than one viewport"))
      return E;
  if (Rs.DepthClampEnable)
    if (Error E = need(R, "depthClamp", "DepthClampEnable"))
      return E;
  if (Rs.Polygon != PolygonMode::Fill)
    if (Error E = need(R, "fillModeNonSolid", "a polygon mode other than Fill"))
      return E;
  if (Rs.DepthBiasEnable && Rs.DepthBiasClamp != 0)
    if (Error E = need(R, "depthBiasClamp", "a non-zero DepthBiasClamp"))
      return E;
  if (Rs.LineWidth != 1.0f) {
    if (Error E = need(R, "wideLines", "a LineWidth other than 1"))
      return E;
    const float *Range = R.Props.limits.lineWidthRange;
    if (!(Rs.LineWidth >= Range[0] && Rs.LineWidth <= Range[1]))
      return makeError(
          llvm::formatv("LineWidth {0} is outside the device's range {1}..{2}",
                        Rs.LineWidth, Range[0], Range[1]));
  }
  if (Rs.LineMode != LineRasterization::Default) {
    const char *Feature =
        Rs.LineMode == LineRasterization::Rectangular ? "rectangularLines"
        : Rs.LineMode == LineRasterization::Bresenham ? "bresenhamLines"
        : Rs.LineMode == LineRasterization::RectangularSmooth ? "smoothLines"
                                                              : nullptr;
    if (!Feature)
      return makeError(llvm::formatv("line rasterization mode {0} is not a "
                                     "VkLineRasterizationModeEXT",
                                     uint32_t(Rs.LineMode)));
    if (Error E = need(R, Feature,
                       "a line rasterization mode (VK_EXT_line_rasterization)"))
      return E;
  }
  if (!Rs.ProvokingVertexFirst)
    if (Error E = need(R, "provokingVertexLast",
                       "the last vertex as provoking vertex "
                       "(VK_EXT_provoking_vertex)"))
      return E;
  const MultisampleState &M = D.Multisample;
  if (M.SampleShadingEnable)
    if (Error E = need(R, "sampleRateShading", "SampleShadingEnable"))
      return E;
  if (M.AlphaToOneEnable)
    if (Error E = need(R, "alphaToOne", "AlphaToOneEnable"))
      return E;
  if (D.DepthStencil.DepthBoundsTestEnable)
    if (Error E = need(R, "depthBounds", "DepthBoundsTestEnable"))
      return E;
  const ColorBlendState &B = D.Blend;
  if (B.LogicOpEnable)
    if (Error E = need(R, "logicOp", "LogicOpEnable"))
      return E;
  for (const ColorBlendAttachment &A : B.Attachments) {
    if (A.BlendEnable &&
        (isDualSource(A.SrcColor) || isDualSource(A.DstColor) ||
         isDualSource(A.SrcAlpha) || isDualSource(A.DstAlpha)))
      if (Error E = need(R, "dualSrcBlend", "a SRC1 blend factor"))
        return E;
    if (!sameBlend(A, B.Attachments.front()))
      if (Error E = need(R, "independentBlend",
                         "different blend states per attachment"))
        return E;
  }
  if (J.Index == IndexType::UInt8 &&
      llvm::any_of(J.Draws, [](const DrawCommand &C) { return C.Indexed; }))
    if (Error E = need(R, "indexTypeUint8", "8-bit indices"))
      return E;
  return Error::success();
}

Error GraphicsRun::createPipeline() {
  // Layout: the descriptor sets and one push constant range for both stages.
  PushData = J.PushConstants;
  PushData.resize(llvm::alignTo(PushData.size(), 4), 0);
  const VkShaderStageFlags Stages = shaderStages();
  VkPushConstantRange Range{Stages, 0, uint32_t(PushData.size())};
  auto LayoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  LayoutInfo.setLayoutCount = uint32_t(SetLayouts.size());
  LayoutInfo.pSetLayouts = SetLayouts.data();
  LayoutInfo.pushConstantRangeCount = PushData.empty() ? 0 : 1;
  LayoutInfo.pPushConstantRanges = &Range;
  if (Error E =
          check(vkCreatePipelineLayout(Dev, &LayoutInfo, nullptr, &Layout),
                "vkCreatePipelineLayout"))
    return E;
  atExit([this] { vkDestroyPipelineLayout(Dev, Layout, nullptr); });

  // Shader stages.
  struct StageData {
    std::string Entry;
    Specialization Spec;
    VkSpecializationInfo Info{};
    VkShaderModule Module = VK_NULL_HANDLE;
  };
  StageData Data[3];
  std::vector<VkPipelineShaderStageCreateInfo> StageInfos;
  const ShaderStageDesc *Descs[3] = {&D.Vertex,
                                     D.Geometry ? &*D.Geometry : nullptr,
                                     D.Fragment ? &*D.Fragment : nullptr};
  const char *Names[3] = {"vertex", "geometry", "fragment"};
  const uint32_t Models[3] = {ExecutionModelVertex, ExecutionModelGeometry,
                              ExecutionModelFragment};
  const char *ModelNames[3] = {"Vertex", "Geometry", "Fragment"};
  const VkShaderStageFlagBits Bits[3] = {VK_SHADER_STAGE_VERTEX_BIT,
                                         VK_SHADER_STAGE_GEOMETRY_BIT,
                                         VK_SHADER_STAGE_FRAGMENT_BIT};
  for (int S = 0; S < 3; ++S) {
    if (!Descs[S])
      continue;
    Expected<std::string> Entry = findEntryPoint(
        Descs[S]->Spirv, Models[S], Descs[S]->EntryPoint, ModelNames[S]);
    if (!Entry)
      return makeError(llvm::Twine(Names[S]) +
                       " shader: " + llvm::toString(Entry.takeError()));
    Data[S].Entry = *Entry;
    Expected<Specialization> Spec =
        specialize(Descs[S]->Spirv, Descs[S]->SpecValues, Names[S]);
    if (!Spec)
      return Spec.takeError();
    Data[S].Spec = std::move(*Spec);
    if (Error E = createShaderModule(Descs[S]->Spirv, Data[S].Module))
      return E;
    Data[S].Info.mapEntryCount = uint32_t(Data[S].Spec.Entries.size());
    Data[S].Info.pMapEntries = Data[S].Spec.Entries.data();
    Data[S].Info.dataSize = Data[S].Spec.Data.size();
    Data[S].Info.pData = Data[S].Spec.Data.data();
    auto Info = makeStruct<VkPipelineShaderStageCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
    Info.stage = Bits[S];
    Info.module = Data[S].Module;
    Info.pName = Data[S].Entry.c_str();
    Info.pSpecializationInfo =
        Data[S].Spec.Entries.empty() ? nullptr : &Data[S].Info;
    StageInfos.push_back(Info);
  }

  // Vertex input.
  std::vector<VkVertexInputBindingDescription> Bindings;
  std::vector<VkVertexInputBindingDivisorDescriptionEXT> Divisors;
  for (const VertexBinding &B : D.VertexBindings) {
    Bindings.push_back({B.Binding, B.Stride, VkVertexInputRate(B.InputRate)});
    if (B.Divisor != 1)
      Divisors.push_back({B.Binding, B.Divisor});
  }
  std::vector<VkVertexInputAttributeDescription> Attributes;
  for (const VertexAttribute &A : D.VertexAttributes)
    Attributes.push_back({A.Location, A.Binding, VkFormat(A.Fmt), A.Offset});
  auto DivisorInfo = makeStruct<VkPipelineVertexInputDivisorStateCreateInfoEXT>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT);
  DivisorInfo.vertexBindingDivisorCount = uint32_t(Divisors.size());
  DivisorInfo.pVertexBindingDivisors = Divisors.data();
  auto Input = makeStruct<VkPipelineVertexInputStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  Input.pNext = Divisors.empty() ? nullptr : &DivisorInfo;
  Input.vertexBindingDescriptionCount = uint32_t(Bindings.size());
  Input.pVertexBindingDescriptions = Bindings.data();
  Input.vertexAttributeDescriptionCount = uint32_t(Attributes.size());
  Input.pVertexAttributeDescriptions = Attributes.data();

  auto Assembly = makeStruct<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  Assembly.topology = VkPrimitiveTopology(D.Topology);
  Assembly.primitiveRestartEnable = D.PrimitiveRestartEnable;

  // Viewports and scissors: none given means the whole framebuffer; Vulkan
  // wants as many scissors as viewports.
  std::vector<VkViewport> Viewports;
  for (const Viewport &V : D.Viewports)
    Viewports.push_back({V.X, V.Y, V.Width, V.Height, V.MinDepth, V.MaxDepth});
  std::vector<VkRect2D> Scissors;
  for (const Rect2D &S : D.Scissors)
    Scissors.push_back({{S.X, S.Y}, {S.Width, S.Height}});
  size_t Count = std::max<size_t>({1, Viewports.size(), Scissors.size()});
  while (Viewports.size() < Count)
    Viewports.push_back({0, 0, float(Width), float(Height), 0, 1});
  while (Scissors.size() < Count)
    Scissors.push_back({{0, 0}, {Width, Height}});
  auto ViewportInfo = makeStruct<VkPipelineViewportStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  ViewportInfo.viewportCount = uint32_t(Count);
  ViewportInfo.pViewports = Viewports.data();
  ViewportInfo.scissorCount = uint32_t(Count);
  ViewportInfo.pScissors = Scissors.data();

  const RasterizationState &Rs = D.Rasterization;
  auto Raster = makeStruct<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  Raster.depthClampEnable = Rs.DepthClampEnable;
  Raster.rasterizerDiscardEnable = Rs.RasterizerDiscardEnable;
  Raster.polygonMode = VkPolygonMode(Rs.Polygon);
  Raster.cullMode = VkCullModeFlags(Rs.Cull);
  Raster.frontFace = VkFrontFace(Rs.Front);
  Raster.depthBiasEnable = Rs.DepthBiasEnable;
  Raster.depthBiasConstantFactor = Rs.DepthBiasConstantFactor;
  Raster.depthBiasClamp = Rs.DepthBiasClamp;
  Raster.depthBiasSlopeFactor = Rs.DepthBiasSlopeFactor;
  Raster.lineWidth = Rs.LineWidth;
  const void **Tail = &Raster.pNext;
  auto Line = makeStruct<VkPipelineRasterizationLineStateCreateInfoEXT>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT);
  Line.lineRasterizationMode = VkLineRasterizationModeEXT(Rs.LineMode);
  if (Rs.LineMode != LineRasterization::Default) {
    *Tail = &Line;
    Tail = &Line.pNext;
  }
  auto Provoking = makeStruct<
      VkPipelineRasterizationProvokingVertexStateCreateInfoEXT>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT);
  Provoking.provokingVertexMode = VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
  if (!Rs.ProvokingVertexFirst) {
    *Tail = &Provoking;
    Tail = &Provoking.pNext;
  }

  const MultisampleState &M = D.Multisample;
  VkSampleMask Mask = M.SampleMask;
  auto Multisample = makeStruct<VkPipelineMultisampleStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  Multisample.rasterizationSamples = VkSampleCountFlagBits(M.Samples);
  Multisample.sampleShadingEnable = M.SampleShadingEnable;
  Multisample.minSampleShading = M.MinSampleShading;
  Multisample.pSampleMask = &Mask;
  Multisample.alphaToCoverageEnable = M.AlphaToCoverageEnable;
  Multisample.alphaToOneEnable = M.AlphaToOneEnable;

  const DepthStencilState &Ds = D.DepthStencil;
  auto Stencil = [](const StencilOpState &S) {
    return VkStencilOpState{VkStencilOp(S.FailOp),
                            VkStencilOp(S.PassOp),
                            VkStencilOp(S.DepthFailOp),
                            VkCompareOp(S.Compare),
                            S.CompareMask,
                            S.WriteMask,
                            S.Reference};
  };
  auto DepthInfo = makeStruct<VkPipelineDepthStencilStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
  DepthInfo.depthTestEnable = Ds.DepthTestEnable;
  DepthInfo.depthWriteEnable = Ds.DepthWriteEnable;
  DepthInfo.depthCompareOp = VkCompareOp(Ds.DepthCompare);
  DepthInfo.depthBoundsTestEnable = Ds.DepthBoundsTestEnable;
  DepthInfo.stencilTestEnable = Ds.StencilTestEnable;
  DepthInfo.front = Stencil(Ds.Front);
  DepthInfo.back = Stencil(Ds.Back);
  DepthInfo.minDepthBounds = Ds.MinDepthBounds;
  DepthInfo.maxDepthBounds = Ds.MaxDepthBounds;

  std::vector<VkPipelineColorBlendAttachmentState> Blends;
  for (size_t I = 0; I < D.ColorFormats.size(); ++I) {
    ColorBlendAttachment A;
    if (I < D.Blend.Attachments.size())
      A = D.Blend.Attachments[I];
    Blends.push_back({A.BlendEnable, VkBlendFactor(A.SrcColor),
                      VkBlendFactor(A.DstColor), VkBlendOp(A.ColorOp),
                      VkBlendFactor(A.SrcAlpha), VkBlendFactor(A.DstAlpha),
                      VkBlendOp(A.AlphaOp), A.WriteMask});
  }
  auto Blend = makeStruct<VkPipelineColorBlendStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  Blend.logicOpEnable = D.Blend.LogicOpEnable;
  Blend.logicOp = VkLogicOp(D.Blend.Logic);
  Blend.attachmentCount = uint32_t(Blends.size());
  Blend.pAttachments = Blends.data();
  std::copy(D.Blend.Constants.begin(), D.Blend.Constants.end(),
            Blend.blendConstants);

  auto Info = makeStruct<VkGraphicsPipelineCreateInfo>(
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  Info.stageCount = uint32_t(StageInfos.size());
  Info.pStages = StageInfos.data();
  Info.pVertexInputState = &Input;
  Info.pInputAssemblyState = &Assembly;
  Info.pViewportState = &ViewportInfo;
  Info.pRasterizationState = &Raster;
  Info.pMultisampleState = &Multisample;
  Info.pDepthStencilState = &DepthInfo;
  Info.pColorBlendState = &Blend;
  Info.layout = Layout;
  Info.renderPass = RenderPass;
  Info.subpass = 0;
  if (Error E = check(vkCreateGraphicsPipelines(Dev, VK_NULL_HANDLE, 1, &Info,
                                                nullptr, &Pipeline),
                      "vkCreateGraphicsPipelines"))
    return E;
  atExit([this] { vkDestroyPipeline(Dev, Pipeline, nullptr); });
  return Error::success();
}

} // namespace spirv2llvm::vk::detail
