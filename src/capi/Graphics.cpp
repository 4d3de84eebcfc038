//===- Graphics.cpp - C API: graphics pipelines and draws -----------------===//
//
// Conversion of the C structs (Vulkan's field types: uint32_t enums and
// booleans) to GraphicsPipelineDesc, Framebuffer and DrawResources, and
// the checks that conversion needs: C passes any number where C++ may not
// form an enum value outside its enumerators, so every enum field is
// range-checked here before the cast, and every (pointer, count) pair
// before it is read. Everything else (supported state, matching
// interfaces, attachment formats, buffer sizes) is GraphicsPipeline's to
// check, and its messages are passed on.
//
//===----------------------------------------------------------------------===//
#include "capi/Handles.h"

#include "spirv2llvm/ImageFormat.h"

#include <cmath>
#include <functional>
#include <new>
#include <string>

using namespace spirv2llvm;
using spirv2llvm::capi::fail;
using spirv2llvm::capi::succeed;

namespace {

/// Reads C structs into C++ ones, remembering the first field that holds
/// no value of its type ("rasterization.cull_mode is 9, not a
/// VkCullModeFlags"); the values read after it are placeholders.
class Converter {
public:
  std::string Error;

  bool ok() const { return Error.empty(); }

  void problem(const std::string &Message) {
    if (Error.empty())
      Error = Message;
  }

  /// \p V as the enum E when it is at most \p Max.
  template <typename E>
  E enumField(const std::string &Field, uint32_t V, uint32_t Max,
              const char *VkType) {
    if (V <= Max)
      return E(V);
    problem(Field + " is " + std::to_string(V) + ", not a " + VkType);
    return E(0);
  }

  /// A VkFormat number the image layer knows; 0 (UNDEFINED) only when
  /// \p MayBeUndefined.
  Format format(const std::string &Field, uint32_t V, bool MayBeUndefined) {
    if ((V == 0 && MayBeUndefined) || formatInfo(Format(V)))
      return Format(V);
    problem(Field + " is " + std::to_string(V) +
            (V ? ", an unknown VkFormat" : ", VK_FORMAT_UNDEFINED"));
    return Format::UNDEFINED;
  }

  /// Whether \p Count elements may be read at \p Ptr.
  bool array(const std::string &Field, const void *Ptr, uint64_t Count) {
    if (Ptr || !Count)
      return true;
    problem(Field + " is null but its count is " + std::to_string(Count));
    return false;
  }

  ShaderStageDesc stage(const std::string &Field, const s2l_shader_stage &S) {
    ShaderStageDesc D;
    if (!S.code) {
      problem(Field + ".code is null");
      return D;
    }
    D.Spirv.assign(S.code, S.code + S.word_count);
    if (S.entry_point)
      D.EntryPoint = S.entry_point;
    if (!array(Field + ".spec_constants", S.spec_constants,
               S.spec_constant_count))
      return D;
    for (uint32_t I = 0; I < S.spec_constant_count; ++I) {
      const s2l_spec_constant &C = S.spec_constants[I];
      if (!C.value) {
        problem(Field + ".spec_constants[" + std::to_string(I) +
                "].value is null");
        continue;
      }
      D.SpecValues.emplace_back(C.spec_id, C.value);
    }
    return D;
  }

  StencilOpState stencil(const std::string &Field,
                         const s2l_stencil_op_state &S) {
    StencilOpState O;
    O.FailOp =
        enumField<StencilOp>(Field + ".fail_op", S.fail_op, 7, "VkStencilOp");
    O.PassOp =
        enumField<StencilOp>(Field + ".pass_op", S.pass_op, 7, "VkStencilOp");
    O.DepthFailOp = enumField<StencilOp>(Field + ".depth_fail_op",
                                         S.depth_fail_op, 7, "VkStencilOp");
    O.Compare = enumField<CompareOp>(Field + ".compare_op", S.compare_op, 7,
                                     "VkCompareOp");
    O.CompareMask = S.compare_mask;
    O.WriteMask = S.write_mask;
    O.Reference = S.reference;
    return O;
  }

  ColorBlendAttachment blend(const std::string &Field,
                             const s2l_color_blend_attachment &A) {
    ColorBlendAttachment B;
    B.BlendEnable = A.blend_enable != 0;
    B.SrcColor =
        enumField<BlendFactor>(Field + ".src_color_blend_factor",
                               A.src_color_blend_factor, 18, "VkBlendFactor");
    B.DstColor =
        enumField<BlendFactor>(Field + ".dst_color_blend_factor",
                               A.dst_color_blend_factor, 18, "VkBlendFactor");
    B.ColorOp = enumField<BlendOp>(Field + ".color_blend_op", A.color_blend_op,
                                   4, "VkBlendOp (0-4)");
    B.SrcAlpha =
        enumField<BlendFactor>(Field + ".src_alpha_blend_factor",
                               A.src_alpha_blend_factor, 18, "VkBlendFactor");
    B.DstAlpha =
        enumField<BlendFactor>(Field + ".dst_alpha_blend_factor",
                               A.dst_alpha_blend_factor, 18, "VkBlendFactor");
    B.AlphaOp = enumField<BlendOp>(Field + ".alpha_blend_op", A.alpha_blend_op,
                                   4, "VkBlendOp (0-4)");
    if (A.color_write_mask > ColorComponentAll)
      problem(Field + ".color_write_mask is " +
              std::to_string(A.color_write_mask) +
              ", not a VkColorComponentFlags");
    B.WriteMask = A.color_write_mask & ColorComponentAll;
    return B;
  }

  GraphicsPipelineDesc pipeline(const s2l_graphics_pipeline_desc &C);
};

GraphicsPipelineDesc Converter::pipeline(const s2l_graphics_pipeline_desc &C) {
  GraphicsPipelineDesc D;
  D.Vertex = stage("vertex", C.vertex);
  // A fragment stage without code is no fragment stage; its other fields
  // are then ignored, as Vulkan ignores a stage that is not listed.
  if (C.fragment.code)
    D.Fragment = stage("fragment", C.fragment);
  if (C.geometry.code)
    D.Geometry = stage("geometry", C.geometry);

  if (array("vertex_bindings", C.vertex_bindings, C.vertex_binding_count))
    for (uint32_t I = 0; I < C.vertex_binding_count; ++I) {
      const s2l_vertex_binding &B = C.vertex_bindings[I];
      std::string F = "vertex_bindings[" + std::to_string(I) + "]";
      D.VertexBindings.push_back(
          {B.binding, B.stride,
           enumField<VertexInputRate>(F + ".input_rate", B.input_rate, 1,
                                      "VkVertexInputRate"),
           1});
    }
  if (array("vertex_binding_divisors", C.vertex_binding_divisors,
            C.vertex_binding_divisor_count))
    for (uint32_t I = 0; I < C.vertex_binding_divisor_count; ++I) {
      const s2l_vertex_binding_divisor &V = C.vertex_binding_divisors[I];
      bool Found = false;
      for (VertexBinding &B : D.VertexBindings)
        if (B.Binding == V.binding) {
          B.Divisor = V.divisor;
          Found = true;
        }
      if (!Found)
        problem("vertex_binding_divisors[" + std::to_string(I) +
                "] is for binding " + std::to_string(V.binding) +
                ", which vertex_bindings does not describe");
    }
  if (array("vertex_attributes", C.vertex_attributes, C.vertex_attribute_count))
    for (uint32_t I = 0; I < C.vertex_attribute_count; ++I) {
      const s2l_vertex_attribute &A = C.vertex_attributes[I];
      std::string F = "vertex_attributes[" + std::to_string(I) + "]";
      D.VertexAttributes.push_back({A.location, A.binding,
                                    format(F + ".format", A.format, false),
                                    A.offset});
    }

  D.Topology = enumField<PrimitiveTopology>("topology", C.topology, 5,
                                            "VkPrimitiveTopology (0-5)");
  D.PrimitiveRestartEnable = C.primitive_restart_enable != 0;
  if (array("viewports", C.viewports, C.viewport_count))
    for (uint32_t I = 0; I < C.viewport_count; ++I) {
      const s2l_viewport &V = C.viewports[I];
      D.Viewports.push_back(
          {V.x, V.y, V.width, V.height, V.min_depth, V.max_depth});
    }
  if (array("scissors", C.scissors, C.scissor_count))
    for (uint32_t I = 0; I < C.scissor_count; ++I) {
      const s2l_rect2d &S = C.scissors[I];
      D.Scissors.push_back({S.x, S.y, S.width, S.height});
    }

  const s2l_rasterization_state &R = C.rasterization;
  RasterizationState &DR = D.Rasterization;
  DR.DepthClampEnable = R.depth_clamp_enable != 0;
  DR.DepthClampZeroOne = R.depth_clamp_zero_one != 0;
  DR.DepthRangeUnrestricted = R.depth_range_unrestricted != 0;
  DR.RasterizerDiscardEnable = R.rasterizer_discard_enable != 0;
  DR.Polygon = enumField<PolygonMode>("rasterization.polygon_mode",
                                      R.polygon_mode, 2, "VkPolygonMode (0-2)");
  DR.Cull = enumField<CullMode>("rasterization.cull_mode", R.cull_mode, 3,
                                "VkCullModeFlags");
  DR.Front = enumField<FrontFace>("rasterization.front_face", R.front_face, 1,
                                  "VkFrontFace");
  DR.DepthBiasEnable = R.depth_bias_enable != 0;
  DR.DepthBiasConstantFactor = R.depth_bias_constant_factor;
  DR.DepthBiasClamp = R.depth_bias_clamp;
  DR.DepthBiasSlopeFactor = R.depth_bias_slope_factor;
  DR.LineWidth = R.line_width == 0 ? 1.0f : R.line_width;
  DR.LineMode = enumField<LineRasterization>(
      "rasterization.line_rasterization_mode", R.line_rasterization_mode, 3,
      "VkLineRasterizationModeEXT");
  DR.ProvokingVertexFirst =
      enumField<uint32_t>("rasterization.provoking_vertex_mode",
                          R.provoking_vertex_mode, 1,
                          "VkProvokingVertexModeEXT") == 0;

  const s2l_multisample_state &M = C.multisample;
  D.Multisample.Samples = M.rasterization_samples ? M.rasterization_samples : 1;
  D.Multisample.SampleShadingEnable = M.sample_shading_enable != 0;
  D.Multisample.MinSampleShading = M.min_sample_shading;
  D.Multisample.SampleMask = M.sample_mask ? *M.sample_mask : ~0u;
  D.Multisample.AlphaToCoverageEnable = M.alpha_to_coverage_enable != 0;
  D.Multisample.AlphaToOneEnable = M.alpha_to_one_enable != 0;

  const s2l_depth_stencil_state &S = C.depth_stencil;
  DepthStencilState &DS = D.DepthStencil;
  DS.DepthTestEnable = S.depth_test_enable != 0;
  DS.DepthWriteEnable = S.depth_write_enable != 0;
  DS.DepthCompare = enumField<CompareOp>("depth_stencil.depth_compare_op",
                                         S.depth_compare_op, 7, "VkCompareOp");
  DS.DepthBoundsTestEnable = S.depth_bounds_test_enable != 0;
  DS.MinDepthBounds = S.min_depth_bounds;
  DS.MaxDepthBounds = S.max_depth_bounds;
  DS.StencilTestEnable = S.stencil_test_enable != 0;
  DS.Front = stencil("depth_stencil.front", S.front);
  DS.Back = stencil("depth_stencil.back", S.back);

  const s2l_color_blend_state &B = C.color_blend;
  D.Blend.LogicOpEnable = B.logic_op_enable != 0;
  D.Blend.Logic =
      enumField<LogicOp>("color_blend.logic_op", B.logic_op, 15, "VkLogicOp");
  if (array("color_blend.attachments", B.attachments, B.attachment_count))
    for (uint32_t I = 0; I < B.attachment_count; ++I)
      D.Blend.Attachments.push_back(
          blend("color_blend.attachments[" + std::to_string(I) + "]",
                B.attachments[I]));
  for (int K = 0; K < 4; ++K)
    D.Blend.Constants[K] = B.blend_constants[K];

  if (array("color_formats", C.color_formats, C.color_format_count))
    for (uint32_t I = 0; I < C.color_format_count; ++I)
      D.ColorFormats.push_back(
          format("color_formats[" + std::to_string(I) + "]", C.color_formats[I],
                 true));
  D.DepthStencilFormat =
      format("depth_stencil_format", C.depth_stencil_format, true);
  D.Width = C.width;
  D.Cache = C.cache ? C.cache->Cache.get() : nullptr;
  return D;
}

/// The attachments of \p F, or a message in \p Error.
bool convertFramebuffer(const s2l_framebuffer &F, Framebuffer &Out,
                        std::string &Error) {
  if ((!F.color && F.color_count) || (!F.resolve && F.resolve_count)) {
    Error = "framebuffer: a null color or resolve array with a non-zero count";
    return false;
  }
  Out.Color.assign(F.color, F.color + F.color_count);
  Out.DepthStencil = F.depth_stencil;
  Out.Resolve.assign(F.resolve, F.resolve + F.resolve_count);
  return true;
}

/// What the draw functions share: the argument checks and conversion.
s2l_result draw(s2l_context C, const char *Fn, s2l_graphics_pipeline P,
                const s2l_framebuffer *Fb, s2l_resources R,
                const std::function<Status(const Framebuffer &,
                                           const DrawResources &)> &Run) {
  std::string Where = std::string(Fn) + ": ";
  if (!P || !Fb)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                Where + "null pipeline or framebuffer");
  Framebuffer F;
  std::string Error;
  if (!convertFramebuffer(*Fb, F, Error))
    return fail(C, S2L_ERROR_INVALID_ARGUMENT, Where + Error);
  // Null resources: a draw that reads no buffer, image or vertex.
  static const DrawResources None;
  Status S = Run(F, R ? R->R : None);
  if (!S.ok())
    return fail(C, s2l_result(S.code()), Where + S.message());
  return succeed(C);
}

/// Applies \p Set to the stencil state of each face in \p FaceMask.
s2l_result setStencil(s2l_context C, const char *Fn, s2l_graphics_pipeline P,
                      uint32_t FaceMask,
                      const std::function<void(StencilOpState &)> &Set) {
  if (!P)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": null pipeline");
  if (FaceMask == 0 || FaceMask > 3)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": face mask " + std::to_string(FaceMask) +
                    " is not a VkStencilFaceFlags (1 front, 2 back, 3 both)");
  DepthStencilState &DS = P->P->state().DepthStencil;
  if (FaceMask & 1)
    Set(DS.Front);
  if (FaceMask & 2)
    Set(DS.Back);
  return succeed(C);
}

s2l_result nullPipeline(s2l_context C, const char *Fn) {
  return fail(C, S2L_ERROR_INVALID_ARGUMENT,
              std::string(Fn) + ": null pipeline");
}

} // namespace

s2l_result s2l_graphics_pipeline_create(s2l_context C,
                                        const s2l_graphics_pipeline_desc *Desc,
                                        unsigned OptLevel,
                                        s2l_graphics_pipeline *Out) {
  const std::string Where = "s2l_graphics_pipeline_create: ";
  if (Out)
    *Out = nullptr;
  if (!Desc || !Out)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                Where + "null description or output");
  if (OptLevel > 3)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                Where + "optimization level " + std::to_string(OptLevel) +
                    " is above 3");
  Converter Conv;
  GraphicsPipelineDesc D = Conv.pipeline(*Desc);
  if (!Conv.ok())
    return fail(C, S2L_ERROR_INVALID_ARGUMENT, Where + Conv.Error);
  D.OptLevel = OptLevel;
  auto P = GraphicsPipeline::create(D);
  if (!P)
    return fail(C, s2l_result(P.status().code()), Where + P.status().message());
  auto *H = new (std::nothrow) s2l_graphics_pipeline_s{std::move(*P)};
  if (!H)
    return fail(C, S2L_ERROR_EXECUTION_FAILED, Where + "out of memory");
  *Out = H;
  return succeed(C);
}

void s2l_graphics_pipeline_destroy(s2l_graphics_pipeline P) { delete P; }

unsigned s2l_graphics_pipeline_width(s2l_graphics_pipeline P) {
  return P ? P->P->width() : 0;
}

s2l_result s2l_graphics_pipeline_set_viewports(s2l_context C,
                                               s2l_graphics_pipeline P,
                                               const s2l_viewport *V,
                                               uint32_t Count) {
  const char *Fn = "s2l_graphics_pipeline_set_viewports";
  if (!P)
    return nullPipeline(C, Fn);
  if (!V && Count)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": null viewports with a count of " +
                    std::to_string(Count));
  if (Count > GraphicsLimits::MaxViewports)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": " + std::to_string(Count) +
                    " viewports (at most " +
                    std::to_string(GraphicsLimits::MaxViewports) + ")");
  std::vector<Viewport> &Vs = P->P->state().Viewports;
  Vs.clear();
  for (uint32_t I = 0; I < Count; ++I)
    Vs.push_back({V[I].x, V[I].y, V[I].width, V[I].height, V[I].min_depth,
                  V[I].max_depth});
  return succeed(C);
}

s2l_result s2l_graphics_pipeline_set_scissors(s2l_context C,
                                              s2l_graphics_pipeline P,
                                              const s2l_rect2d *S,
                                              uint32_t Count) {
  const char *Fn = "s2l_graphics_pipeline_set_scissors";
  if (!P)
    return nullPipeline(C, Fn);
  if (!S && Count)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": null scissors with a count of " +
                    std::to_string(Count));
  if (Count > GraphicsLimits::MaxViewports)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": " + std::to_string(Count) +
                    " scissors (at most " +
                    std::to_string(GraphicsLimits::MaxViewports) + ")");
  std::vector<Rect2D> &Ss = P->P->state().Scissors;
  Ss.clear();
  for (uint32_t I = 0; I < Count; ++I)
    Ss.push_back({S[I].x, S[I].y, S[I].width, S[I].height});
  return succeed(C);
}

s2l_result s2l_graphics_pipeline_set_blend_constants(s2l_context C,
                                                     s2l_graphics_pipeline P,
                                                     const float K[4]) {
  const char *Fn = "s2l_graphics_pipeline_set_blend_constants";
  if (!P)
    return nullPipeline(C, Fn);
  if (!K)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": null constants");
  for (int I = 0; I < 4; ++I)
    P->P->state().Blend.Constants[I] = K[I];
  return succeed(C);
}

s2l_result s2l_graphics_pipeline_set_stencil_reference(s2l_context C,
                                                       s2l_graphics_pipeline P,
                                                       uint32_t FaceMask,
                                                       uint32_t Reference) {
  return setStencil(C, "s2l_graphics_pipeline_set_stencil_reference", P,
                    FaceMask,
                    [&](StencilOpState &S) { S.Reference = Reference; });
}

s2l_result s2l_graphics_pipeline_set_stencil_compare_mask(
    s2l_context C, s2l_graphics_pipeline P, uint32_t FaceMask, uint32_t Mask) {
  return setStencil(C, "s2l_graphics_pipeline_set_stencil_compare_mask", P,
                    FaceMask, [&](StencilOpState &S) { S.CompareMask = Mask; });
}

s2l_result s2l_graphics_pipeline_set_stencil_write_mask(s2l_context C,
                                                        s2l_graphics_pipeline P,
                                                        uint32_t FaceMask,
                                                        uint32_t Mask) {
  return setStencil(C, "s2l_graphics_pipeline_set_stencil_write_mask", P,
                    FaceMask, [&](StencilOpState &S) { S.WriteMask = Mask; });
}

s2l_result s2l_graphics_pipeline_set_line_width(s2l_context C,
                                                s2l_graphics_pipeline P,
                                                float Width) {
  const char *Fn = "s2l_graphics_pipeline_set_line_width";
  if (!P)
    return nullPipeline(C, Fn);
  if (!(Width > 0) || std::isinf(Width))
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                std::string(Fn) + ": line width " + std::to_string(Width) +
                    " is not a positive finite number");
  P->P->state().Rasterization.LineWidth = Width;
  return succeed(C);
}

s2l_result s2l_graphics_pipeline_set_depth_bias(s2l_context C,
                                                s2l_graphics_pipeline P,
                                                float Constant, float Clamp,
                                                float Slope) {
  if (!P)
    return nullPipeline(C, "s2l_graphics_pipeline_set_depth_bias");
  RasterizationState &R = P->P->state().Rasterization;
  R.DepthBiasConstantFactor = Constant;
  R.DepthBiasClamp = Clamp;
  R.DepthBiasSlopeFactor = Slope;
  return succeed(C);
}

s2l_result s2l_graphics_pipeline_set_depth_bounds(s2l_context C,
                                                  s2l_graphics_pipeline P,
                                                  float Min, float Max) {
  if (!P)
    return nullPipeline(C, "s2l_graphics_pipeline_set_depth_bounds");
  DepthStencilState &DS = P->P->state().DepthStencil;
  DS.MinDepthBounds = Min;
  DS.MaxDepthBounds = Max;
  return succeed(C);
}

s2l_result s2l_resources_bind_vertex_buffer(s2l_resources R, uint32_t Binding,
                                            const void *Data, uint64_t Size) {
  // Beyond the limit is refused here: the vector is indexed by binding.
  if (!R || (!Data && Size) || Binding >= GraphicsLimits::MaxVertexBindings)
    return S2L_ERROR_INVALID_ARGUMENT;
  std::vector<VertexBufferView> &Vb = R->R.VertexBuffers;
  if (Vb.size() <= Binding)
    Vb.resize(Binding + 1);
  Vb[Binding] = {Data, Size};
  return S2L_SUCCESS;
}

s2l_result s2l_resources_bind_index_buffer(s2l_resources R, const void *Data,
                                           uint64_t Size, uint32_t Type) {
  if (!R || (!Data && Size) ||
      (Type != uint32_t(IndexType::UInt16) &&
       Type != uint32_t(IndexType::UInt32) &&
       Type != uint32_t(IndexType::UInt8)))
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.IndexData = Data;
  R->R.IndexSize = Size;
  R->R.Index = IndexType(Type);
  return S2L_SUCCESS;
}

s2l_result s2l_graphics_pipeline_draw(
    s2l_context C, s2l_graphics_pipeline P, const s2l_framebuffer *Fb,
    s2l_resources R, uint32_t VertexCount, uint32_t InstanceCount,
    uint32_t FirstVertex, uint32_t FirstInstance, unsigned Threads) {
  DrawCommand Cmd;
  Cmd.Count = VertexCount;
  Cmd.InstanceCount = InstanceCount;
  Cmd.First = FirstVertex;
  Cmd.FirstInstance = FirstInstance;
  return draw(C, "s2l_graphics_pipeline_draw", P, Fb, R,
              [&](const Framebuffer &F, const DrawResources &D) {
                return P->P->draw(F, D, Cmd, Threads);
              });
}

s2l_result
s2l_graphics_pipeline_draw_indexed(s2l_context C, s2l_graphics_pipeline P,
                                   const s2l_framebuffer *Fb, s2l_resources R,
                                   uint32_t IndexCount, uint32_t InstanceCount,
                                   uint32_t FirstIndex, int32_t VertexOffset,
                                   uint32_t FirstInstance, unsigned Threads) {
  DrawCommand Cmd;
  Cmd.Count = IndexCount;
  Cmd.InstanceCount = InstanceCount;
  Cmd.First = FirstIndex;
  Cmd.FirstInstance = FirstInstance;
  Cmd.VertexOffset = VertexOffset;
  Cmd.Indexed = true;
  return draw(C, "s2l_graphics_pipeline_draw_indexed", P, Fb, R,
              [&](const Framebuffer &F, const DrawResources &D) {
                return P->P->draw(F, D, Cmd, Threads);
              });
}

s2l_result s2l_graphics_pipeline_draw_indirect(
    s2l_context C, s2l_graphics_pipeline P, const s2l_framebuffer *Fb,
    s2l_resources R, const void *Indirect, uint64_t Size, uint32_t DrawCount,
    uint32_t Stride, int Indexed, unsigned Threads) {
  if (!Indirect && Size)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_graphics_pipeline_draw_indirect: null indirect buffer "
                "with a size of " +
                    std::to_string(Size));
  return draw(C, "s2l_graphics_pipeline_draw_indirect", P, Fb, R,
              [&](const Framebuffer &F, const DrawResources &D) {
                return P->P->drawIndirect(F, D, Indirect, Size, DrawCount,
                                          Stride, Indexed != 0, Threads);
              });
}

void s2l_graphics_pipeline_stats(s2l_graphics_pipeline P, s2l_draw_stats *Out) {
  if (!Out)
    return;
  *Out = {};
  if (!P)
    return;
  const DrawStats S = P->P->stats();
  Out->vertex_invocations = S.VertexInvocations;
  Out->primitives = S.Primitives;
  Out->clipped_primitives = S.ClippedPrimitives;
  Out->fragment_quads = S.FragmentQuads;
  Out->fragment_calls = S.FragmentCalls;
}
