//===- GraphicsDifferentialTest.cpp - GraphicsPipeline vs lavapipe --------===//
//
// Scenes rendered by spirv2llvm::GraphicsPipeline and by lavapipe
// (VulkanGraphicsRunner) from the same GraphicsJob, compared texel by
// texel (GraphicsDifferential.h). Both follow Vulkan's rasterization rules
// at 8 bits of subpixel precision, so coverage must agree exactly; colours
// may differ by the tolerance of each scene (interpolation and blending
// rounding). Skips when there is no lavapipe device.
//
//===----------------------------------------------------------------------===//
#include "GraphicsDifferential.h"

#include "frontend/Frontend.h"

#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <ostream>
#include <random>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

std::vector<uint32_t> compile(llvm::StringRef Source, frontend::ShaderStage S) {
  frontend::GlslOptions Opts;
  Opts.Stage = S;
  Opts.TargetEnv = SPV_ENV_VULKAN_1_2;
  Opts.FileName =
      S == frontend::ShaderStage::Vertex ? "scene.vert" : "scene.frag";
  llvm::Expected<std::vector<uint32_t>> Words =
      frontend::compileGlsl(Source, Opts);
  if (!Words) {
    ADD_FAILURE() << llvm::toString(Words.takeError());
    return {};
  }
  return std::move(*Words);
}

/// Positions in framebuffer pixels, a colour per vertex (smooth or flat).
const char *Vert = R"(#version 450
layout(location = 0) in vec3 Pos;
layout(location = 1) in vec4 Color;
layout(location = 0) out vec4 VColor;
layout(location = 1) flat out vec4 VFlat;
layout(location = 2) out vec2 VUv;
layout(push_constant) uniform P { vec2 Size; };
void main() {
  gl_Position = vec4(Pos.xy / Size * 2.0 - 1.0, Pos.z, 1.0);
  VColor = Color;
  VFlat = Color;
  VUv = Pos.xy / Size;
}
)";

const char *SmoothFrag = R"(#version 450
layout(location = 0) in vec4 VColor;
layout(location = 0) out vec4 Out;
void main() { Out = VColor; }
)";

const char *FlatFrag = R"(#version 450
layout(location = 1) flat in vec4 VFlat;
layout(location = 0) out vec4 Out;
void main() { Out = VFlat; }
)";

const char *SubpassFrag = R"(#version 450
layout(input_attachment_index = 1, set = 0, binding = 3) uniform subpassInput Prev;
layout(location = 0) out vec4 Out;
void main() { Out = subpassLoad(Prev).bgra; }
)";

const char *TextureFrag = R"(#version 450
layout(location = 2) in vec2 VUv;
layout(location = 0) out vec4 Out;
layout(set = 0, binding = 0) uniform sampler2D Tex;
void main() { Out = texture(Tex, VUv); }
)";

/// Vert with a point size, for point lists.
const char *PointVert = R"(#version 450
layout(location = 0) in vec3 Pos;
layout(location = 1) in vec4 Color;
layout(location = 0) out vec4 VColor;
layout(push_constant) uniform P { vec2 Size; };
void main() {
  gl_Position = vec4(Pos.xy / Size * 2.0 - 1.0, Pos.z, 1.0);
  gl_PointSize = 3.0;
  VColor = Color;
}
)";

/// Three attachments of different formats.
const char *MrtFrag = R"(#version 450
layout(location = 0) in vec4 VColor;
layout(location = 0) out vec4 Out0;
layout(location = 1) out vec4 Out1;
layout(location = 2) out vec2 Out2;
void main() {
  Out0 = VColor;
  Out1 = VColor * vec4(2.0, -1.0, 0.5, 4.0) + gl_FragCoord.xyxy;
  Out2 = VColor.zw;
}
)";

/// Integer output for the logic op (R8G8B8A8_UINT).
const char *UintFrag = R"(#version 450
layout(location = 0) in vec4 VColor;
layout(location = 0) out uvec4 Out;
void main() { Out = uvec4(VColor * 255.0 + 0.5); }
)";

/// Dual-source blending: a second output at index 1.
const char *DualFrag = R"(#version 450
layout(location = 0) in vec4 VColor;
layout(location = 0, index = 0) out vec4 Out0;
layout(location = 0, index = 1) out vec4 Out1;
void main() {
  Out0 = VColor;
  Out1 = vec4(1.0) - VColor.wzyx;
}
)";

/// Vert with a viewport index in the colour's alpha (0, 0.5, 1: viewports
/// 0, 1, 2), written through GL_ARB_shader_viewport_layer_array.
const char *ViewportVert = R"(#version 450
#extension GL_ARB_shader_viewport_layer_array : require
layout(location = 0) in vec3 Pos;
layout(location = 1) in vec4 Color;
layout(location = 0) out vec4 VColor;
layout(push_constant) uniform P { vec2 Size; };
void main() {
  gl_Position = vec4(Pos.xy / Size * 2.0 - 1.0, Pos.z, 1.0);
  gl_ViewportIndex = int(Color.a * 2.0 + 0.5);
  VColor = Color;
}
)";

/// A geometry shader: each triangle, a copy 16 pixels to the right with its
/// colours rotated (two strips, EndPrimitive between), and a strip of four
/// vertices (the triangle and a fourth vertex 8 pixels down-right) whose
/// odd triangle has Vulkan's strip order; a flat output shows the
/// provoking vertex, PrimitiveId (written here, read by GeomFrag) the
/// order of emission.
const char *CopyGeom = R"(#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 10) out;
layout(location = 0) in vec4 VColor[];
layout(location = 0) out vec4 GColor;
layout(location = 1) flat out vec4 GFlat;
layout(push_constant) uniform P { vec2 Size; };
void main() {
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < 3; ++i) {
      gl_Position = gl_in[i].gl_Position + vec4(float(k) * 32.0 / Size.x, 0, 0, 0);
      GColor = VColor[(i + k) % 3];
      GFlat = VColor[i].bgra;
      gl_PrimitiveID = gl_PrimitiveIDIn * 3 + k;
      EmitVertex();
    }
    EndPrimitive();
  }
  for (int i = 0; i < 4; ++i) {
    vec4 P = gl_in[i % 3].gl_Position;
    if (i == 3)
      P = gl_in[0].gl_Position + vec4(16.0 / Size.x, 16.0 / Size.y, 0, 0);
    gl_Position = P;
    GColor = VColor[i % 3].gbra;
    GFlat = vec4(float(i) / 3.0, VColor[i % 3].r, 0.5, 1.0);
    gl_PrimitiveID = gl_PrimitiveIDIn * 3 + 2;
    EmitVertex();
  }
}
)";

/// GeomFrag: the smooth and flat colours and the PrimitiveId.
const char *GeomFrag = R"(#version 450
layout(location = 0) in vec4 GColor;
layout(location = 1) flat in vec4 GFlat;
layout(location = 0) out vec4 Out;
void main() {
  Out = vec4(GColor.rg * 0.5 + GFlat.rg * 0.5,
             float(gl_PrimitiveID % 16) / 15.0, GColor.a * 0.5 + GFlat.a * 0.5);
}
)";

/// Per-instance offset and colour (bindings 1 and 2).
const char *InstanceVert = R"(#version 450
layout(location = 0) in vec3 Pos;
layout(location = 1) in vec4 Color;
layout(location = 2) in vec2 Offset;
layout(location = 0) out vec4 VColor;
layout(push_constant) uniform P { vec2 Size; };
void main() {
  gl_Position = vec4((Pos.xy + Offset) / Size * 2.0 - 1.0, Pos.z, 1.0);
  VColor = Color;
}
)";

struct Vertex {
  float X, Y, Z;
  float R, G, B, A;
};

/// One scene: the pipeline, its images and geometry; Build fills the job.
struct Scene {
  const char *Name;
  std::function<void(Scene &)> Build;
  /// Colours in LSBs (Tol.Lsb, from Add), floats relative (Tol.Float).
  Tolerance Tol;
  /// A difference from lavapipe that spirv2llvm is known to have in every
  /// variant (a finding not fixed yet): the scene skips with it and the
  /// differences while they remain, and fails once they are gone.
  const char *KnownDifference = nullptr;
  /// Vertex buffers of bindings 1, 2, ... (binding 0 holds Vertices).
  std::vector<std::vector<uint8_t>> ExtraVertexBuffers;
  /// Vertices per primitive, for the one-draw-per-primitive variant.
  uint32_t PrimitiveVertices = 3;

  GraphicsPipelineDesc Desc;
  std::vector<std::unique_ptr<Image>> Images;
  std::vector<Vertex> Vertices;
  GraphicsJob Job;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> Buffers;

  Image *image(Format F, uint32_t W, uint32_t H, uint32_t Samples = 1) {
    Result<Image> I = Image::create({F, S2L_VIEW_2D, W, H, 1, 1, 1, Samples});
    EXPECT_TRUE(I.ok()) << I.status().message();
    Images.push_back(std::make_unique<Image>(std::move(*I)));
    return Images.back().get();
  }
  void pipeline(const char *Frag, const char *VertSource = Vert) {
    Desc.Vertex.Spirv = compile(VertSource, frontend::ShaderStage::Vertex);
    Desc.Fragment = ShaderStageDesc{};
    Desc.Fragment->Spirv = compile(Frag, frontend::ShaderStage::Fragment);
    Desc.VertexBindings = {{0, sizeof(Vertex), VertexInputRate::Vertex, 1}};
    Desc.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0},
                             {1, 0, Format::R32G32B32A32_SFLOAT, 12}};
    Desc.ColorFormats = {Format::R8G8B8A8_UNORM};
  }
  void tri(std::array<float, 3> A, std::array<float, 3> B,
           std::array<float, 3> C, std::array<float, 4> CA,
           std::array<float, 4> CB, std::array<float, 4> CC) {
    Vertices.push_back({A[0], A[1], A[2], CA[0], CA[1], CA[2], CA[3]});
    Vertices.push_back({B[0], B[1], B[2], CB[0], CB[1], CB[2], CB[3]});
    Vertices.push_back({C[0], C[1], C[2], CC[0], CC[1], CC[2], CC[3]});
  }
  void vert(std::array<float, 3> P, std::array<float, 4> C) {
    Vertices.push_back({P[0], P[1], P[2], C[0], C[1], C[2], C[3]});
  }
  void rect(float X0, float Y0, float X1, float Y1, float Z,
            std::array<float, 4> C) {
    tri({X0, Y0, Z}, {X1, Y0, Z}, {X1, Y1, Z}, C, C, C);
    tri({X0, Y0, Z}, {X1, Y1, Z}, {X0, Y1, Z}, C, C, C);
  }
  /// Finishes the job: vertices, push constants (the first colour
  /// attachment's size), and, unless Build made draws, one draw of every
  /// vertex or (\p DrawPerTriangle) one draw per triangle.
  void finish(bool DrawPerTriangle) {
    Job.Desc = &Desc;
    std::vector<uint8_t> Bytes(Vertices.size() * sizeof(Vertex));
    std::memcpy(Bytes.data(), Vertices.data(), Bytes.size());
    Job.VertexBuffers = {Bytes};
    for (const std::vector<uint8_t> &B : ExtraVertexBuffers)
      Job.VertexBuffers.push_back(B);
    const ImageDesc &D = (Job.Color.empty() || !Job.Color[0])
                             ? Job.DepthStencil->desc()
                             : Job.Color[0]->desc();
    float Size[2] = {float(D.Width), float(D.Height)};
    Job.PushConstants.resize(8);
    std::memcpy(Job.PushConstants.data(), Size, 8);
    if (!Job.Draws.empty())
      return;
    if (!DrawPerTriangle)
      Job.Draws = {DrawCommand{uint32_t(Vertices.size())}};
    else
      for (uint32_t K = 0; K + PrimitiveVertices <= Vertices.size();
           K += PrimitiveVertices)
        Job.Draws.push_back(DrawCommand{PrimitiveVertices, 1, K});
  }
};

/// Pseudo-random triangles with pseudo-random colours over the whole
/// framebuffer: many edges through arbitrary subpixel positions.
void randomTriangles(Scene &S, uint32_t W, uint32_t H, unsigned Count,
                     unsigned Seed) {
  std::mt19937 Rng(Seed);
  auto Coord = [&](uint32_t Max) {
    // On the 1/256 subpixel grid, so both rasterizers see the same edges.
    return float(Rng() % (Max * 256 + 1)) / 256.0f;
  };
  auto Col = [&]() -> std::array<float, 4> {
    return {float(Rng() % 256) / 255, float(Rng() % 256) / 255,
            float(Rng() % 256) / 255, 1};
  };
  // Named steps: the order of a call's arguments is unspecified.
  for (unsigned K = 0; K < Count; ++K) {
    std::array<float, 3> P[3];
    for (auto &V : P)
      V = {Coord(W), 0, 0.5f};
    for (auto &V : P)
      V[1] = Coord(H);
    std::array<float, 4> C[3] = {Col(), Col(), Col()};
    S.tri(P[0], P[1], P[2], C[0], C[1], C[2]);
  }
}

/// Pseudo-random segments (two vertices each, one colour per segment) on
/// the subpixel grid.
void randomLines(Scene &S, uint32_t W, uint32_t H, unsigned Count,
                 unsigned Seed) {
  std::mt19937 Rng(Seed);
  for (unsigned K = 0; K < Count; ++K) {
    float P[4];
    for (int I = 0; I < 4; ++I)
      P[I] = float(Rng() % ((I % 2 ? H : W) * 256 + 1)) / 256.0f;
    std::array<float, 4> C;
    for (float &V : C)
      V = float(Rng() % 256) / 255;
    C[3] = 1;
    S.vert({P[0], P[1], 0.5f}, C);
    S.vert({P[2], P[3], 0.5f}, C);
  }
}

std::vector<Scene> scenes() {
  std::vector<Scene> Out;
  auto Add = [&](const char *Name, double Lsb,
                 std::function<void(Scene &)> Build) {
    Scene &S = Out.emplace_back();
    S.Name = Name;
    S.Build = std::move(Build);
    S.Tol.Lsb = Lsb;
  };
  Add("full_quad_constant", 1, [](Scene &S) {
    S.pipeline(FlatFrag);
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 33, 17)};
    S.rect(0, 0, 33, 17, 0.5f, {0.25f, 0.5f, 0.75f, 1});
  });
  Add("random_flat_triangles", 0, [](Scene &S) {
    S.pipeline(FlatFrag);
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 64, 32)};
    randomTriangles(S, 64, 32, 40, 1);
  });
  Add("flat_provoking_both_windings", 0, [](Scene &S) {
    // One counter-clockwise and one clockwise triangle, each vertex its
    // own colour: a flat output is the first vertex's.
    S.pipeline(FlatFrag);
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 16)};
    S.tri({0, 0, 0.5f}, {0, 16, 0.5f}, {16, 0, 0.5f}, {1, 0, 0, 1},
          {0, 1, 0, 1}, {0, 0, 1, 1});
    S.tri({16, 0, 0.5f}, {32, 0, 0.5f}, {16, 16, 0.5f}, {1, 1, 0, 1},
          {0, 1, 1, 1}, {1, 0, 1, 1});
  });
  Add("four_flat_triangles", 0, [](Scene &S) {
    // The first four of random_flat_triangles: each alone, and the first
    // three together, render alike; the fourth must end on top where it
    // covers the others.
    S.pipeline(FlatFrag);
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 64, 32)};
    randomTriangles(S, 64, 32, 4, 1);
  });
  Add("random_smooth_triangles", 1, [](Scene &S) {
    S.pipeline(SmoothFrag);
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 64, 32)};
    randomTriangles(S, 64, 32, 40, 2);
  });
  Add("depth_less_overlap", 0, [](Scene &S) {
    S.pipeline(FlatFrag);
    S.Desc.DepthStencilFormat = Format::D32_SFLOAT;
    S.Desc.DepthStencil.DepthTestEnable = true;
    S.Desc.DepthStencil.DepthWriteEnable = true;
    Image *Depth = S.image(Format::D32_SFLOAT, 32, 32);
    for (uint32_t Y = 0; Y < 32; ++Y)
      for (uint32_t X = 0; X < 32; ++X)
        (void)Depth->writeTexel(0, X, Y, 0, 0, Float4{1, 0, 0, 0});
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.Job.DepthStencil = Depth;
    // Sloped triangles crossing each other.
    S.tri({0, 0, 0.1f}, {32, 0, 0.9f}, {0, 32, 0.5f}, {1, 0, 0, 1},
          {1, 0, 0, 1}, {1, 0, 0, 1});
    S.tri({32, 32, 0.1f}, {0, 32, 0.9f}, {32, 0, 0.3f}, {0, 1, 0, 1},
          {0, 1, 0, 1}, {0, 1, 0, 1});
  });
  Add("alpha_blend_over_loaded", 2, [](Scene &S) {
    S.pipeline(SmoothFrag);
    ColorBlendAttachment B;
    B.BlendEnable = true;
    B.SrcColor = BlendFactor::SrcAlpha;
    B.DstColor = BlendFactor::OneMinusSrcAlpha;
    B.SrcAlpha = BlendFactor::One;
    B.DstAlpha = BlendFactor::OneMinusSrcAlpha;
    S.Desc.Blend.Attachments = {B};
    Image *C = S.image(Format::R8G8B8A8_UNORM, 24, 24);
    for (size_t K = 0; K < C->bytes().size(); ++K)
      C->bytes()[K] = uint8_t(K * 31);
    S.Job.Color = {C};
    S.rect(2, 2, 20, 20, 0.5f, {1, 0.5f, 0, 0.5f});
    S.tri({0, 24, 0.5f}, {24, 24, 0.5f}, {12, 0, 0.5f}, {0, 0, 1, 0.25f},
          {0, 1, 0, 0.75f}, {1, 1, 1, 0.5f});
  });
  Add("msaa4_resolve", 1, [](Scene &S) {
    S.pipeline(FlatFrag);
    S.Desc.Multisample.Samples = 4;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 16, 4)};
    S.Job.Resolve = {S.image(Format::R8G8B8A8_UNORM, 32, 16)};
    randomTriangles(S, 32, 16, 12, 3);
  });
  Add("cull_back_and_scissor", 0, [](Scene &S) {
    S.pipeline(FlatFrag);
    S.Desc.Rasterization.Cull = CullMode::Back;
    S.Desc.Scissors = {{3, 5, 20, 14}};
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    randomTriangles(S, 32, 32, 30, 4);
  });
  Add("stencil_increment_clamp", 0, [](Scene &S) {
    S.pipeline(FlatFrag);
    S.Desc.DepthStencilFormat = Format::D24_UNORM_S8_UINT;
    S.Desc.DepthStencil.StencilTestEnable = true;
    S.Desc.DepthStencil.Front.Compare = CompareOp::Always;
    S.Desc.DepthStencil.Front.PassOp = StencilOp::IncrementAndClamp;
    S.Desc.DepthStencil.Back = S.Desc.DepthStencil.Front;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.Job.DepthStencil = S.image(Format::D24_UNORM_S8_UINT, 32, 32);
    randomTriangles(S, 32, 32, 20, 5);
  });
  Add("texture_bilinear", 2, [](Scene &S) {
    S.pipeline(TextureFrag);
    Image *Tex = S.image(Format::R8G8B8A8_UNORM, 8, 8);
    for (size_t K = 0; K < Tex->bytes().size(); ++K)
      Tex->bytes()[K] = uint8_t(K * 57 + 11);
    s2l_sampler Samp{};
    Samp.mag_filter = Samp.min_filter = 1; // linear
    Samp.max_anisotropy = 1;
    S.Job.Images = {{0, 0, 0, VkImageKind::CombinedImageSampler, Tex, Samp}};
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 24, 24)};
    S.rect(0, 0, 24, 24, 0.5f, {1, 1, 1, 1});
  });
  Add("input_attachment", 0, [](Scene &S) {
    // An input attachment filled before the render pass, read at each
    // fragment's pixel (attachment number 1, bound at binding 3):
    // swizzled copies of its texels, exact, where triangles cover.
    S.pipeline(SubpassFrag);
    Image *In = S.image(Format::R8G8B8A8_UNORM, 32, 32);
    for (size_t K = 0; K < In->bytes().size(); ++K)
      In->bytes()[K] = uint8_t(K * 37 + 5);
    S.Job.InputAttachments = {{0, 3, 1, In}};
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    randomTriangles(S, 32, 32, 12, 9);
  });
  Add("lines_rectangular", 1, [](Scene &S) {
    // Default lines (rectangular: strict lines) one pixel wide.
    S.pipeline(SmoothFrag);
    S.Desc.Topology = PrimitiveTopology::LineList;
    S.PrimitiveVertices = 2;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    randomLines(S, 32, 32, 24, 6);
  });
  Add("lines_bresenham", 1, [](Scene &S) {
    S.pipeline(SmoothFrag);
    S.Desc.Topology = PrimitiveTopology::LineList;
    S.Desc.Rasterization.LineMode = LineRasterization::Bresenham;
    S.PrimitiveVertices = 2;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    randomLines(S, 32, 32, 24, 7);
  });
  Add("lines_wide", 1, [](Scene &S) {
    S.pipeline(SmoothFrag);
    S.Desc.Topology = PrimitiveTopology::LineList;
    S.Desc.Rasterization.LineWidth = 3;
    S.PrimitiveVertices = 2;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    randomLines(S, 32, 32, 12, 8);
  });
  Add("points_size_3", 1, [](Scene &S) {
    S.pipeline(SmoothFrag, PointVert);
    S.Desc.Topology = PrimitiveTopology::PointList;
    S.PrimitiveVertices = 1;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    std::mt19937 Rng(9);
    for (int K = 0; K < 30; ++K)
      S.vert({float(Rng() % (32 * 256)) / 256, float(Rng() % (32 * 256)) / 256,
              0.5f},
             {float(Rng() % 256) / 255, float(Rng() % 256) / 255, 0.25f, 1});
  });
  Add("polygon_mode_line", 1, [](Scene &S) {
    S.pipeline(SmoothFrag);
    S.Desc.Rasterization.Polygon = PolygonMode::Line;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.tri({2.5f, 3.25f, 0.5f}, {29.75f, 8.5f, 0.5f}, {11, 30.125f, 0.5f},
          {1, 0, 0, 1}, {1, 0, 0, 1}, {1, 0, 0, 1});
  });
  Add("three_attachments", 1, [](Scene &S) {
    // UNORM8, float32 and UNORM16 outputs of one shader.
    S.pipeline(MrtFrag);
    S.Desc.ColorFormats = {Format::R8G8B8A8_UNORM, Format::R32G32B32A32_SFLOAT,
                           Format::R16G16_UNORM};
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32),
                   S.image(Format::R32G32B32A32_SFLOAT, 32, 32),
                   S.image(Format::R16G16_UNORM, 32, 32)};
    S.tri({0, 0, 0.5f}, {32, 4, 0.5f}, {6, 32, 0.5f}, {1, 0, 0, 1},
          {0, 1, 0, 0.5f}, {0, 0, 1, 0.25f});
  });
  Add("depth_d16_smooth", 1, [](Scene &S) {
    S.pipeline(SmoothFrag);
    S.Desc.DepthStencilFormat = Format::D16_UNORM;
    S.Desc.DepthStencil.DepthTestEnable = true;
    S.Desc.DepthStencil.DepthWriteEnable = true;
    Image *Depth = S.image(Format::D16_UNORM, 32, 32);
    for (uint32_t Y = 0; Y < 32; ++Y)
      for (uint32_t X = 0; X < 32; ++X)
        (void)Depth->writeTexel(0, X, Y, 0, 0, Float4{1, 0, 0, 0});
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.Job.DepthStencil = Depth;
    S.tri({0, 0, 0.2f}, {32, 0, 0.8f}, {0, 32, 0.6f}, {1, 0, 0, 1},
          {1, 0, 0, 1}, {1, 0, 0, 1});
    S.tri({32, 32, 0.2f}, {0, 32, 0.7f}, {32, 0, 0.4f}, {0, 0, 1, 1},
          {0, 0, 1, 1}, {0, 0, 1, 1});
  });
  Add("stencil_two_sided", 0, [](Scene &S) {
    // Front faces increment and wrap, back faces invert; two windings.
    S.pipeline(SmoothFrag);
    S.Desc.DepthStencilFormat = Format::S8_UINT;
    S.Desc.DepthStencil.StencilTestEnable = true;
    S.Desc.DepthStencil.Front.PassOp = StencilOp::IncrementAndWrap;
    S.Desc.DepthStencil.Back.PassOp = StencilOp::Invert;
    S.Desc.DepthStencil.Back.WriteMask = 0x0f;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    Image *St = S.image(Format::S8_UINT, 32, 32);
    for (size_t K = 0; K < St->bytes().size(); ++K)
      St->bytes()[K] = uint8_t(K * 7);
    S.Job.DepthStencil = St;
    S.tri({0, 0, 0.5f}, {0, 32, 0.5f}, {32, 0, 0.5f}, {1, 1, 1, 1},
          {1, 1, 1, 1}, {1, 1, 1, 1});
    S.tri({4, 4, 0.5f}, {30, 6, 0.5f}, {8, 30, 0.5f}, {1, 1, 1, 1},
          {1, 1, 1, 1}, {1, 1, 1, 1});
  });
  Add("msaa4_sample_mask", 1, [](Scene &S) {
    S.pipeline(SmoothFrag);
    S.Desc.Multisample.Samples = 4;
    S.Desc.Multisample.SampleMask = 0xa;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 16, 16, 4)};
    S.tri({1.25f, 0.5f, 0.5f}, {15, 3.75f, 0.5f}, {4.5f, 15.5f, 0.5f},
          {1, 0.5f, 0, 1}, {0, 1, 0.5f, 1}, {0.5f, 0, 1, 1});
  });
  Add("logic_op_xor_uint", 0, [](Scene &S) {
    S.pipeline(UintFrag);
    S.Desc.ColorFormats = {Format::R8G8B8A8_UINT};
    S.Desc.Blend.LogicOpEnable = true;
    S.Desc.Blend.Logic = LogicOp::Xor;
    Image *C = S.image(Format::R8G8B8A8_UINT, 16, 16);
    for (size_t K = 0; K < C->bytes().size(); ++K)
      C->bytes()[K] = uint8_t(K * 13);
    S.Job.Color = {C};
    S.rect(2, 2, 14, 14, 0.5f, {0.2f, 0.4f, 0.6f, 0.8f});
  });
  Add("provoking_last", 0, [](Scene &S) {
    S.pipeline(FlatFrag);
    S.Desc.Rasterization.ProvokingVertexFirst = false;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 16, 16)};
    S.tri({0, 0, 0.5f}, {0, 16, 0.5f}, {16, 0, 0.5f}, {1, 0, 0, 1},
          {0, 1, 0, 1}, {0, 0, 1, 1});
  });
  Add("strip_with_restart", 1, [](Scene &S) {
    S.pipeline(SmoothFrag);
    S.Desc.Topology = PrimitiveTopology::TriangleStrip;
    S.Desc.PrimitiveRestartEnable = true;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 16)};
    for (int K = 0; K < 8; ++K)
      S.vert({float(K * 2), float(K % 2 ? 14 : 1), 0.5f},
             {float(K) / 8, 0.5f, 1 - float(K) / 8, 1});
    const uint16_t Indices[] = {0, 1, 2, 3, 0xffff, 4, 5, 6, 7};
    S.Job.IndexData.resize(sizeof(Indices));
    std::memcpy(S.Job.IndexData.data(), Indices, sizeof(Indices));
    S.Job.Index = IndexType::UInt16;
    DrawCommand C{9};
    C.Indexed = true;
    S.Job.Draws = {C};
  });
  Add("viewport_offset_scissor", 1, [](Scene &S) {
    S.pipeline(SmoothFrag);
    S.Desc.Viewports = {{8, 4, 16, 16, 0.25f, 0.75f}};
    S.Desc.Scissors = {{10, 0, 12, 30}};
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.tri({-8, -8, 0.5f}, {40, 2, 0.5f}, {3, 40, 0.5f}, {1, 0, 0, 1},
          {0, 1, 0, 1}, {0, 0, 1, 1});
  });
  Add("geometry_copies_and_strips", 1, [](Scene &S) {
    S.pipeline(GeomFrag);
    S.Desc.Geometry = ShaderStageDesc{};
    S.Desc.Geometry->Spirv = compile(CopyGeom, frontend::ShaderStage::Geometry);
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 64, 32)};
    randomTriangles(S, 64, 32, 10, 21);
  });
  Add("geometry_provoking_last", 1, [](Scene &S) {
    S.pipeline(GeomFrag);
    S.Desc.Geometry = ShaderStageDesc{};
    S.Desc.Geometry->Spirv = compile(CopyGeom, frontend::ShaderStage::Geometry);
    S.Desc.Rasterization.ProvokingVertexFirst = false;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 64, 32)};
    randomTriangles(S, 64, 32, 10, 22);
  });
  Add("multi_viewport_index", 1, [](Scene &S) {
    // Three viewports (offsets, sizes, depth ranges), each with its own
    // scissor, and a depth test: each triangle's first (provoking) vertex
    // picks one; the vertices of a triangle name different ones.
    S.pipeline(SmoothFrag, ViewportVert);
    S.Desc.Viewports = {{0, 0, 16, 16, 0, 1},
                        {16, 8, 16, 16, 0.2f, 0.6f},
                        {4, 16, 16, 16, 0.5f, 1}};
    S.Desc.Scissors = {{0, 0, 32, 32}, {18, 0, 14, 20}, {0, 20, 32, 12}};
    S.Desc.DepthStencilFormat = Format::D32_SFLOAT;
    S.Desc.DepthStencil.DepthTestEnable = true;
    S.Desc.DepthStencil.DepthWriteEnable = true;
    Image *Depth = S.image(Format::D32_SFLOAT, 32, 32);
    for (uint32_t Y = 0; Y < 32; ++Y)
      for (uint32_t X = 0; X < 32; ++X)
        (void)Depth->writeTexel(0, X, Y, 0, 0, Float4{1, 0, 0, 0});
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.Job.DepthStencil = Depth;
    randomTriangles(S, 32, 32, 24, 10);
    for (size_t K = 0; K < S.Vertices.size(); ++K) {
      // The viewports halve the scene: on a 1/128 grid here, vertices
      // land on the 1/256 subpixel grid (no rounding ties to disagree on).
      S.Vertices[K].X = std::round(S.Vertices[K].X * 128) / 128;
      S.Vertices[K].Y = std::round(S.Vertices[K].Y * 128) / 128;
      // Flat triangles at five depths: sloped ones differ from lavapipe
      // in the last bits of interpolated depth, which can flip a test.
      S.Vertices[K].Z = 0.25f + 0.5f * float(K / 3 % 5) / 4;
      S.Vertices[K].A = float((K / 3 + K % 3) % 3) / 2;
    }
  });
  Add("dual_source_blend", 1, [](Scene &S) {
    S.pipeline(DualFrag);
    ColorBlendAttachment B;
    B.BlendEnable = true;
    B.SrcColor = BlendFactor::One;
    B.DstColor = BlendFactor::Src1Color;
    B.SrcAlpha = BlendFactor::One;
    B.DstAlpha = BlendFactor::OneMinusSrc1Alpha;
    S.Desc.Blend.Attachments = {B};
    Image *C = S.image(Format::R8G8B8A8_UNORM, 16, 16);
    for (size_t K = 0; K < C->bytes().size(); ++K)
      C->bytes()[K] = uint8_t(K * 29);
    S.Job.Color = {C};
    S.rect(0, 0, 16, 16, 0.5f, {0.25f, 0.5f, 0.75f, 0.5f});
  });
  // Each SRC1 factor as the source colour factor, with the next one as
  // the destination colour factor and the others for alpha, over a
  // loaded destination and smooth colours.
  static const std::pair<const char *, BlendFactor> Src1Factors[] = {
      {"dual_source_src1_color", BlendFactor::Src1Color},
      {"dual_source_one_minus_src1_color", BlendFactor::OneMinusSrc1Color},
      {"dual_source_src1_alpha", BlendFactor::Src1Alpha},
      {"dual_source_one_minus_src1_alpha", BlendFactor::OneMinusSrc1Alpha}};
  for (int K = 0; K < 4; ++K)
    Add(Src1Factors[K].first, 2, [K](Scene &S) {
      S.pipeline(DualFrag);
      ColorBlendAttachment B;
      B.BlendEnable = true;
      B.SrcColor = Src1Factors[K].second;
      B.DstColor = Src1Factors[(K + 1) % 4].second;
      B.SrcAlpha = Src1Factors[(K + 2) % 4].second;
      B.DstAlpha = Src1Factors[(K + 3) % 4].second;
      S.Desc.Blend.Attachments = {B};
      Image *C = S.image(Format::R8G8B8A8_UNORM, 16, 16);
      for (size_t I = 0; I < C->bytes().size(); ++I)
        C->bytes()[I] = uint8_t(I * 37 + K * 11);
      S.Job.Color = {C};
      S.tri({0, 0, 0.5f}, {16, 0, 0.5f}, {0, 16, 0.5f}, {1, 0.25f, 0, 0.5f},
            {0, 1, 0.5f, 0.25f}, {0.5f, 0, 1, 1});
      S.tri({16, 0, 0.5f}, {16, 16, 0.5f}, {0, 16, 0.5f},
            {0.75f, 0.5f, 0.25f, 0}, {0.2f, 0.4f, 0.6f, 0.8f}, {1, 1, 1, 1});
    });
  Add("instanced_divisor_uint8_indices", 1, [](Scene &S) {
    // 6 instances of an indexed triangle pair (8-bit indices, vertex
    // offset 1); offsets per instance, colours every second instance.
    S.pipeline(SmoothFrag, InstanceVert);
    S.Desc.VertexBindings.push_back({1, 8, VertexInputRate::Instance, 1});
    S.Desc.VertexBindings.push_back({2, 16, VertexInputRate::Instance, 2});
    S.Desc.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0},
                               {1, 2, Format::R32G32B32A32_SFLOAT, 0},
                               {2, 1, Format::R32G32_SFLOAT, 0}};
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.vert({0, 0, 0}, {}); // skipped by the vertex offset
    S.vert({0, 0, 0.5f}, {});
    S.vert({9.5f, 0.25f, 0.5f}, {});
    S.vert({9.75f, 9.5f, 0.5f}, {});
    S.vert({0.5f, 9.25f, 0.5f}, {});
    const uint8_t Indices[] = {0, 1, 2, 0, 2, 3};
    S.Job.IndexData.assign(Indices, Indices + sizeof(Indices));
    S.Job.Index = IndexType::UInt8;
    std::vector<float> Offsets, Colors;
    for (int K = 0; K < 6; ++K) {
      Offsets.push_back(float(K % 3) * 10.5f + 0.25f);
      Offsets.push_back(float(K / 3) * 12.0f + 3.0f);
    }
    for (int K = 0; K < 3; ++K)
      for (float V :
           {0.25f * float(K + 1), 0.5f, 1.0f - 0.25f * float(K), 1.0f})
        Colors.push_back(V);
    auto Bytes = [](const std::vector<float> &F) {
      std::vector<uint8_t> B(F.size() * 4);
      std::memcpy(B.data(), F.data(), B.size());
      return B;
    };
    S.ExtraVertexBuffers = {Bytes(Offsets), Bytes(Colors)};
    DrawCommand C{6, 6};
    C.Indexed = true;
    C.VertexOffset = 1;
    S.Job.Draws = {C};
  });
  Add("depth_bias_slope_clamp", 0, [](Scene &S) {
    // Sloped triangles with a constant and a slope bias on D32, one with
    // a bias clamp, then a flat quad at 0.5 tested LESS against them.
    S.pipeline(SmoothFrag);
    S.Desc.DepthStencilFormat = Format::D32_SFLOAT;
    S.Desc.DepthStencil.DepthTestEnable = true;
    S.Desc.DepthStencil.DepthWriteEnable = true;
    S.Desc.DepthStencil.DepthCompare = CompareOp::LessOrEqual;
    S.Desc.Rasterization.DepthBiasEnable = true;
    S.Desc.Rasterization.DepthBiasConstantFactor = 64;
    S.Desc.Rasterization.DepthBiasSlopeFactor = 1.5f;
    S.Desc.Rasterization.DepthBiasClamp = 0.05f;
    Image *Depth = S.image(Format::D32_SFLOAT, 32, 32);
    for (uint32_t Y = 0; Y < 32; ++Y)
      for (uint32_t X = 0; X < 32; ++X)
        (void)Depth->writeTexel(0, X, Y, 0, 0, Float4{1, 0, 0, 0});
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.Job.DepthStencil = Depth;
    S.tri({0, 0, 0.3f}, {32, 0, 0.7f}, {0, 32, 0.45f}, {1, 0, 0, 1},
          {1, 0, 0, 1}, {1, 0, 0, 1});
    S.tri({32, 32, 0.1f}, {0, 32, 0.9f}, {32, 0, 0.6f}, {0, 1, 0, 1},
          {0, 1, 0, 1}, {0, 1, 0, 1});
  });
  Add("depth_clamp_beyond_far", 0, [](Scene &S) {
    // With depth clamp, a triangle reaching z = 1.5 is not clipped at the
    // far plane: its depth clamps to the viewport's 0.9.
    S.pipeline(SmoothFrag);
    S.Desc.Rasterization.DepthClampEnable = true;
    S.Desc.Viewports = {{0, 0, 32, 32, 0.1f, 0.9f}};
    S.Desc.DepthStencilFormat = Format::D32_SFLOAT;
    S.Desc.DepthStencil.DepthTestEnable = true;
    S.Desc.DepthStencil.DepthWriteEnable = true;
    S.Desc.DepthStencil.DepthCompare = CompareOp::Always;
    S.Job.Color = {S.image(Format::R8G8B8A8_UNORM, 32, 32)};
    S.Job.DepthStencil = S.image(Format::D32_SFLOAT, 32, 32);
    S.tri({0, 0, -0.5f}, {32, 0, 1.5f}, {0, 32, 0.5f}, {0, 0, 1, 1},
          {0, 0, 1, 1}, {0, 0, 1, 1});
  });
  for (Scene &S : Out)
    if (llvm::StringRef(S.Name) == "lines_bresenham")
      S.KnownDifference =
          "Bresenham lines: spirv2llvm draws a line's last pixel and leaves "
          "out its first, where the diamond-exit rule (which lavapipe "
          "follows) does the opposite: the segment (5.48, 3.69)-(19.88, "
          "19.38) starts inside pixel (5, 3)'s diamond and leaves it, so "
          "(5, 3) is drawn; (11.53, 17.73)-(24.32, 3.32) ends inside pixel "
          "(24, 3)'s diamond, so (24, 3) is not";
  return Out;
}

struct Case {
  std::string Scene;
  bool DrawPerTriangle;
  unsigned Width; ///< GraphicsPipelineDesc::Width: W/4 quads per call
};

void PrintTo(const Case &C, std::ostream *OS) {
  *OS << C.Scene << (C.DrawPerTriangle ? " per triangle" : " one draw")
      << " W=" << C.Width;
}

class GraphicsDifferentialTest : public testing::TestWithParam<Case> {
protected:
  static void SetUpTestSuite() {
    auto R = VulkanGraphicsRunner::create();
    if (R)
      Runner = std::move(*R);
    else
      CreateError = llvm::toString(R.takeError());
  }
  static void TearDownTestSuite() { Runner.reset(); }
  void SetUp() override {
    if (!Runner && llvm::StringRef(CreateError).contains("no lavapipe device"))
      GTEST_SKIP() << CreateError;
    ASSERT_TRUE(Runner) << "cannot create the graphics runner: " << CreateError;
  }
  static inline std::unique_ptr<VulkanGraphicsRunner> Runner;
  static inline std::string CreateError;
};

TEST_P(GraphicsDifferentialTest, MatchesLavapipe) {
  std::vector<Scene> All = scenes();
  Scene *S = nullptr;
  for (Scene &C : All)
    if (GetParam().Scene == C.Name)
      S = &C;
  ASSERT_TRUE(S);
  S->Build(*S);
  S->Desc.Width = GetParam().Width;
  S->finish(GetParam().DrawPerTriangle);
  ClonedJob Mine = cloneJob(S->Job);
  std::vector<uint8_t> Before(S->Job.Color[0]->bytes().begin(),
                              S->Job.Color[0]->bytes().end());
  ASSERT_FALSE(Runner->run(S->Job));
  // A scene that draws nothing would match whatever spirv2llvm does.
  ASSERT_FALSE(std::equal(Before.begin(), Before.end(),
                          S->Job.Color[0]->bytes().begin()))
      << "scene " << S->Name << " leaves its first colour attachment as it was";
  Status Drawn = drawWithGraphicsPipeline(Mine.Job);
  // State spirv2llvm refuses with "not supported" skips, naming it (no
  // scene has such state now); any other failure fails.
  if (!Drawn.ok() &&
      llvm::StringRef(Drawn.message()).contains("is not supported"))
    GTEST_SKIP() << "spirv2llvm: " << Drawn.message();
  ASSERT_TRUE(Drawn.ok()) << Drawn.message();
  std::string Diff = compareJobs(S->Job, Mine.Job, S->Tol);
  if (S->KnownDifference) {
    ASSERT_NE(Diff, "") << "scene " << S->Name
                        << " matches lavapipe now: drop its KnownDifference";
    GTEST_SKIP() << "known difference: " << S->KnownDifference << "\n" << Diff;
  }
  EXPECT_EQ(Diff, "") << "scene " << S->Name << " (lavapipe vs spirv2llvm):\n"
                      << Diff;
}

std::vector<Case> cases() {
  std::vector<Case> Cases;
  for (const Scene &S : scenes())
    for (bool PerTriangle : {false, true})
      for (unsigned Width : {4u, 8u, 16u})
        Cases.push_back({S.Name, PerTriangle, Width});
  return Cases;
}

INSTANTIATE_TEST_SUITE_P(Scenes, GraphicsDifferentialTest,
                         testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<Case> &I) {
                           return I.param.Scene +
                                  (I.param.DrawPerTriangle ? "_per_triangle"
                                                           : "_one_draw") +
                                  "_w" + std::to_string(I.param.Width);
                         });

} // namespace
