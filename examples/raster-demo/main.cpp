//===- main.cpp - s2l-raster-demo: a lit, textured scene in software ------===//
//
// Renders a checkered sphere inside a ring with per-pixel diffuse and
// specular lighting, depth testing and 4x multisampling, resolved into a
// single-sampled image and written as a PNG:
//
//   build/bin/s2l-raster-demo OUT.png [WIDTH HEIGHT] [--threads N]
//                             [--width 4|8|16]
//
// Everything goes through the public API: GLSL translated by the translate
// API (spirv2llvm.h) and JIT-compiled (Jit.h), a GraphicsPipeline
// (Graphics.h) made of those shaders, images of Image.h as the texture and
// attachments, and the PNG writer of PngImage.h.
//
//===----------------------------------------------------------------------===//
#include "Scene.h"

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/PngImage.h"
#include "spirv2llvm/spirv2llvm.h"

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace spirv2llvm;

namespace {

const char *const VertexSource = R"(#version 450
layout(location = 0) in vec3 Pos;
layout(location = 1) in vec3 Normal;
layout(location = 2) in vec2 Uv;
layout(set = 0, binding = 0) uniform Scene {
  mat4 Mvp, Model;
  vec4 LightDir, Eye;
} S;
layout(location = 0) out vec3 WorldPos;
layout(location = 1) out vec3 WorldNormal;
layout(location = 2) out vec2 TexCoord;
void main() {
  WorldPos = (S.Model * vec4(Pos, 1.0)).xyz;
  // Model is a rotation: its upper 3x3 transforms normals too.
  WorldNormal = mat3(S.Model) * Normal;
  TexCoord = Uv;
  gl_Position = S.Mvp * vec4(Pos, 1.0);
}
)";

const char *const FragmentSource = R"(#version 450
layout(location = 0) in vec3 WorldPos;
layout(location = 1) in vec3 WorldNormal;
layout(location = 2) in vec2 TexCoord;
layout(set = 0, binding = 0) uniform Scene {
  mat4 Mvp, Model;
  vec4 LightDir, Eye;
} S;
layout(set = 0, binding = 1) uniform sampler2D Checker;
layout(location = 0) out vec4 Color;
void main() {
  vec3 N = normalize(WorldNormal);
  vec3 L = normalize(-S.LightDir.xyz);
  vec3 V = normalize(S.Eye.xyz - WorldPos);
  vec3 H = normalize(L + V);
  // u once around: the texture repeats 4 times around, twice from pole
  // to pole (or around the ring's tube).
  vec3 Albedo = texture(Checker, TexCoord * vec2(4.0, 2.0)).rgb;
  float Diffuse = max(dot(N, L), 0.0);
  float Specular = Diffuse > 0.0 ? pow(max(dot(N, H), 0.0), 64.0) : 0.0;
  vec3 Linear = Albedo * (0.04 + 0.96 * Diffuse) + vec3(0.6) * Specular;
  // The attachment is UNORM: encode for display (gamma 2.2).
  Color = vec4(pow(clamp(Linear, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
)";

/// The std140 block both stages read at (0, 0).
struct SceneBlock {
  demo::Mat4 Mvp, Model;
  float LightDir[4], Eye[4];
};

/// Background of the picture (RGBA8).
const uint8_t Background[4] = {28, 32, 44, 255};

Result<std::unique_ptr<JitShader>> compileGlsl(const char *Source,
                                               Stage ShaderStage,
                                               const char *Name,
                                               unsigned Width) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Glsl;
  Opts.ShaderStage = ShaderStage;
  Opts.Width = Width;
  Opts.OptLevel = 2;
  llvm::ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Source),
                                std::strlen(Source));
  auto T = translateBytes(Bytes, Name, Opts);
  if (!T)
    return Status::error(llvm::toString(T.takeError()),
                         StatusCode::InvalidInput);
  return JitShader::create(std::move(*T), 2);
}

/// Every byte group of \p I's level 0 set to \p Texel (all samples).
void fill(Image &I, const void *Texel, size_t TexelBytes) {
  std::span<uint8_t> B = I.bytes();
  for (size_t K = 0; K + TexelBytes <= B.size(); K += TexelBytes)
    std::memcpy(B.data() + K, Texel, TexelBytes);
}

int fail(const std::string &What, const std::string &Message) {
  std::fprintf(stderr, "s2l-raster-demo: %s: %s\n", What.c_str(),
               Message.c_str());
  return 1;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args;
  unsigned Threads = 0;
  // SIMD width of the shaders (4, 8 or 16).
  unsigned ShaderWidth = defaultComputeWidth();
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--threads" && I + 1 < Argc)
      Threads = unsigned(std::stoul(Argv[++I]));
    else if (A == "--width" && I + 1 < Argc)
      ShaderWidth = unsigned(std::stoul(Argv[++I]));
    else
      Args.push_back(A);
  }
  if (Args.size() != 1 && Args.size() != 3) {
    std::fprintf(stderr,
                 "usage: s2l-raster-demo OUT.png [WIDTH HEIGHT] [--threads N] "
                 "[--width 4|8|16]\n");
    return 2;
  }
  uint32_t Width = 1024, Height = 768;
  if (Args.size() == 3) {
    Width = uint32_t(std::stoul(Args[1]));
    Height = uint32_t(std::stoul(Args[2]));
    if (!Width || !Height || Width > GraphicsLimits::MaxFramebufferSize ||
        Height > GraphicsLimits::MaxFramebufferSize)
      return fail("size",
                  "each side must be 1 to " +
                      std::to_string(GraphicsLimits::MaxFramebufferSize));
  }
  const uint32_t Samples = 4;
  auto Start = std::chrono::steady_clock::now();
  auto Seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Start)
        .count();
  };

  // The scene: a sphere in a ring, tilted towards the camera.
  demo::Mesh Mesh = demo::sphere(0.85f, 96, 48);
  demo::append(Mesh, demo::torus(1.45f, 0.16f, 128, 24));
  auto Texture = demo::checkerTexture(256, 8);
  if (!Texture)
    return fail("texture", Texture.status().message());

  // Shaders: GLSL through the translate API, then the JIT.
  auto Vs = compileGlsl(VertexSource, Stage::Vertex, "demo.vert", ShaderWidth);
  if (!Vs)
    return fail("vertex shader", Vs.status().message());
  auto Fs =
      compileGlsl(FragmentSource, Stage::Fragment, "demo.frag", ShaderWidth);
  if (!Fs)
    return fail("fragment shader", Fs.status().message());

  GraphicsPipelineDesc D;
  D.VertexBindings = {{0, sizeof(demo::Vertex), VertexInputRate::Vertex}};
  D.VertexAttributes = {
      {0, 0, Format::R32G32B32_SFLOAT, offsetof(demo::Vertex, Pos)},
      {1, 0, Format::R32G32B32_SFLOAT, offsetof(demo::Vertex, Normal)},
      {2, 0, Format::R32G32_SFLOAT, offsetof(demo::Vertex, Uv)}};
  D.Topology = PrimitiveTopology::TriangleList;
  D.Viewports = {{0, 0, float(Width), float(Height), 0, 1}};
  // The meshes wind counter-clockwise seen from outside.
  D.Rasterization.Cull = CullMode::Back;
  D.Rasterization.Front = FrontFace::CounterClockwise;
  D.Multisample.Samples = Samples;
  D.DepthStencil.DepthTestEnable = true;
  D.DepthStencil.DepthWriteEnable = true;
  D.DepthStencil.DepthCompare = CompareOp::Less;
  D.ColorFormats = {Format::R8G8B8A8_UNORM};
  D.DepthStencilFormat = Format::D32_SFLOAT;
  D.Width = ShaderWidth;
  auto Pipeline = GraphicsPipeline::create(D, std::move(*Vs), std::move(*Fs));
  if (!Pipeline)
    return fail("pipeline", Pipeline.status().message());
  double CompileSeconds = Seconds();

  // Attachments: 4x colour and depth, cleared; the single-sampled resolve.
  auto Color = Image::create(
      {Format::R8G8B8A8_UNORM, S2L_VIEW_2D, Width, Height, 1, 1, 1, Samples});
  auto Depth = Image::create(
      {Format::D32_SFLOAT, S2L_VIEW_2D, Width, Height, 1, 1, 1, Samples});
  auto Resolved =
      Image::create({Format::R8G8B8A8_UNORM, S2L_VIEW_2D, Width, Height});
  for (auto *I : {&Color, &Depth, &Resolved})
    if (!*I)
      return fail("attachment", I->status().message());
  fill(*Color, Background, 4);
  const float Far = 1.0f;
  fill(*Depth, &Far, 4);

  SceneBlock Block;
  std::array<float, 3> Eye = {0.0f, 1.3f, 4.4f};
  Block.Model = demo::multiply(demo::rotationZ(0.35f), demo::rotationY(0.6f));
  demo::Mat4 View = demo::lookAt(Eye, {0, 0, 0});
  demo::Mat4 Proj =
      demo::perspective(0.75f, float(Width) / float(Height), 0.5f, 20.0f);
  Block.Mvp = demo::multiply(Proj, demo::multiply(View, Block.Model));
  // From the upper left, a little in front: the terminator shows on the
  // sphere's right.
  const float Light[4] = {0.75f, -0.55f, -0.35f, 0.0f};
  std::memcpy(Block.LightDir, Light, sizeof Light);
  Block.Eye[0] = Eye[0], Block.Eye[1] = Eye[1], Block.Eye[2] = Eye[2];
  Block.Eye[3] = 1;

  s2l_sampler Trilinear{};
  Trilinear.mag_filter = Trilinear.min_filter = 1; // VK_FILTER_LINEAR
  Trilinear.mipmap_mode = 1;                       // ..._MIPMAP_MODE_LINEAR
  // address_mode 0: VK_SAMPLER_ADDRESS_MODE_REPEAT
  Trilinear.max_lod = 1000;
  Trilinear.max_anisotropy = 1;

  DrawResources R;
  R.bind(0, 0, &Block, sizeof Block);
  R.bindCombinedImageSampler(0, 1, &Texture->descriptor(), &Trilinear);
  R.VertexBuffers = {
      {Mesh.Vertices.data(), Mesh.Vertices.size() * sizeof(demo::Vertex)}};
  R.IndexData = Mesh.Indices.data();
  R.IndexSize = Mesh.Indices.size() * sizeof(uint32_t);
  R.Index = IndexType::UInt32;

  Framebuffer Fb;
  Fb.Color = {&Color->descriptor()};
  Fb.DepthStencil = &Depth->descriptor();
  Fb.Resolve = {&Resolved->descriptor()};
  DrawCommand Cmd;
  Cmd.Count = uint32_t(Mesh.Indices.size());
  Cmd.Indexed = true;
  Status S = (*Pipeline)->draw(Fb, R, Cmd, Threads);
  if (!S.ok())
    return fail("draw", S.message());
  double DrawSeconds = Seconds() - CompileSeconds;

  // The resolved image, rows top to bottom, to the PNG writer.
  const s2l_image_level &L = Resolved->descriptor().level[0];
  std::vector<uint8_t> Rgba(size_t(Width) * Height * 4);
  for (uint32_t Y = 0; Y < Height; ++Y)
    std::memcpy(&Rgba[size_t(Y) * Width * 4],
                Resolved->bytes().data() + L.offset + Y * L.row_pitch,
                size_t(Width) * 4);
  S = writePngRGBA8(Args[0], Width, Height, Rgba);
  if (!S.ok())
    return fail(Args[0], S.message());

  const DrawStats St = (*Pipeline)->stats();
  std::printf("%s: %ux%u, %ux MSAA, %llu triangles, %llu fragment quads, "
              "W=%u; shaders compiled in %.2f s, drawn in %.3f s\n",
              Args[0].c_str(), Width, Height, Samples,
              (unsigned long long)St.Primitives,
              (unsigned long long)St.FragmentQuads, ShaderWidth, CompileSeconds,
              DrawSeconds);
  return 0;
}
