//===- GraphicsScenes.cpp - The scenes of the graphics benchmark ----------===//
//
// fill: a full-screen quad sampling a 1024x1024 RGBA8 texture bilinearly
//       into a 1920x1080 R8G8B8A8_UNORM target: fill rate.
// tris: a 250x200-cell grid of 100,000 indexed triangles of 10 pixels
//       each (cells of 4.47 pixels) with a colour per vertex, depth test
//       on, centred in 1920x1080: per-triangle cost.
// mesh: a torus of 50,000 triangles, textured and lit per pixel, back
//       faces culled, depth test on, 4x MSAA resolved, at 1024x768: a
//       demo-like frame.
//
// The depth scenes compare with LessOrEqual: the bench draws each scene
// again and again into the same attachments (lavapipe: several draws in one
// render pass), and with Less every draw after the first would fail the
// depth test everywhere. With LessOrEqual each redraw is the steady state
// of an unchanged frame: the visible fragments pass and are shaded, the
// hidden ones are rejected by the (early) depth test, on both sides alike.
//
//===----------------------------------------------------------------------===//
#include "GraphicsScenes.h"

#include "BenchUtil.h"

#include "frontend/Frontend.h"
#include "spirv2llvm/MipChain.h"

#include "llvm/Support/MemoryBuffer.h"

#include <array>
#include <cmath>
#include <cstring>
#include <random>

namespace spirv2llvm::bench {

namespace {

std::vector<uint32_t> compileShader(const std::string &Dir,
                                    const std::string &File,
                                    frontend::ShaderStage Stage) {
  std::string Path = Dir + "/" + File;
  auto Text =
      orFail(llvm::errorOrToExpected(llvm::MemoryBuffer::getFile(Path)), Path);
  frontend::GlslOptions G;
  G.Stage = Stage;
  G.FileName = File;
  return orFail(frontend::compileGlsl(Text->getBuffer(), G), Path);
}

void shaders(GraphicsPipelineDesc &D, const std::string &Dir,
             const std::string &Name) {
  D.Vertex.Spirv =
      compileShader(Dir, Name + ".vert", frontend::ShaderStage::Vertex);
  D.Fragment.emplace();
  D.Fragment->Spirv =
      compileShader(Dir, Name + ".frag", frontend::ShaderStage::Fragment);
}

template <typename T> void append(std::vector<uint8_t> &Out, const T &V) {
  size_t At = Out.size();
  Out.resize(At + sizeof(T));
  std::memcpy(&Out[At], &V, sizeof(T));
}

/// Random RGBA8 texels (fixed seed) for a Side x Side texture.
Image randomTexture(uint32_t Side, uint32_t Seed) {
  Image Img = orFail(Image::create({Format::R8G8B8A8_UNORM, S2L_VIEW_2D, Side,
                                    Side, 1, 1, 1, 1}),
                     "texture");
  std::mt19937 G(Seed);
  std::span<uint8_t> Bytes = Img.bytes();
  for (size_t I = 0; I + 4 <= Bytes.size(); I += 4) {
    uint32_t V = G() | 0xff000000u; // opaque
    std::memcpy(&Bytes[I], &V, 4);
  }
  return Img;
}

s2l_sampler bilinear(uint32_t AddressMode) {
  s2l_sampler S{};
  S.mag_filter = S.min_filter = 1; // linear
  for (uint32_t &A : S.address_mode)
    A = AddressMode;
  S.max_lod = 0; // one level
  S.max_anisotropy = 1;
  return S;
}

constexpr uint32_t Repeat = 0, ClampToEdge = 2;

uint32_t scaled(uint32_t N, double Scale, uint32_t Min) {
  return std::max(Min, uint32_t(std::lround(N * Scale)));
}

GraphicsScene fillScene(double Scale, const std::string &Dir) {
  GraphicsScene S;
  S.Name = "fill";
  S.FbWidth = scaled(1920, Scale, 8);
  S.FbHeight = scaled(1080, Scale, 8);
  uint32_t TexSide = scaled(1024, Scale, 8);
  S.What = std::to_string(S.FbWidth) + "x" + std::to_string(S.FbHeight) +
           " full-screen quad, bilinear " + std::to_string(TexSide) +
           "^2 "
           "RGBA8 texture";
  S.UnitName = "Mpixels/s";
  shaders(S.Desc, Dir, "fill");
  S.Desc.VertexBindings = {{0, 16, VertexInputRate::Vertex}};
  S.Desc.VertexAttributes = {{0, 0, Format::R32G32_SFLOAT, 0},
                             {1, 0, Format::R32G32_SFLOAT, 8}};
  S.Desc.ColorFormats = {Format::R8G8B8A8_UNORM};
  std::vector<uint8_t> &V = S.VertexBuffers.emplace_back();
  for (auto [X, Y] :
       {std::pair{-1.f, -1.f}, {1.f, -1.f}, {-1.f, 1.f}, {1.f, 1.f}}) {
    append(V, X);
    append(V, Y);
    append(V, (X + 1) / 2);
    append(V, (Y + 1) / 2);
  }
  for (uint32_t I : {0u, 1u, 2u, 2u, 1u, 3u})
    append(S.Indices, I);
  S.Cmd.Count = 6;
  S.Cmd.Indexed = true;
  append(S.PushConstants, 0.0f); // never: the discard is not taken
  S.Texture = randomTexture(TexSide, 11);
  S.Sampler = bilinear(ClampToEdge);
  S.Units = double(S.FbWidth) * S.FbHeight;
  // lavapipe filters RGBA8 in 8-bit fixed point: a few steps apart.
  S.Tolerance = 4;
  S.MaxBadFraction = 0.001;
  return S;
}

/// "fill-mip": the fill scene with texture(), an implicit level of
/// detail, of a full mip chain under a trilinear sampler that repeats:
/// the texture coordinates span the texture 4 times across the frame, so
/// the footprint is about 2 texels (level 1 to 2 in blends), and the
/// quad derivatives, log2 and two levels per sample are what is timed
/// (issue 16: implicit-LOD mip sampling inline).
GraphicsScene fillMipScene(double Scale, const std::string &Dir) {
  GraphicsScene S = fillScene(Scale, Dir);
  S.Name = "fill-mip";
  uint32_t TexSide = scaled(1024, Scale, 8);
  uint32_t Levels = 1;
  while ((TexSide >> Levels) > 0)
    ++Levels;
  S.What = std::to_string(S.FbWidth) + "x" + std::to_string(S.FbHeight) +
           " full-screen quad, trilinear " + std::to_string(TexSide) +
           "^2 RGBA8 texture of " + std::to_string(Levels) +
           " levels, implicit LOD";
  std::vector<uint8_t> &V = S.VertexBuffers[0];
  V.clear();
  for (auto [X, Y] :
       {std::pair{-1.f, -1.f}, {1.f, -1.f}, {-1.f, 1.f}, {1.f, 1.f}}) {
    append(V, X);
    append(V, Y);
    append(V, (X + 1) * 2);
    append(V, (Y + 1) * 2);
  }
  Image Img = orFail(Image::create({Format::R8G8B8A8_UNORM, S2L_VIEW_2D,
                                    TexSide, TexSide, 1, 1, Levels, 1}),
                     "texture");
  std::mt19937 G(13);
  const s2l_image_level &L0 = Img.descriptor().level[0];
  for (uint64_t I = 0; I < uint64_t(L0.width) * L0.height; ++I) {
    uint32_t T = G() | 0xff000000u; // opaque
    std::memcpy(&Img.bytes()[L0.offset + 4 * I], &T, 4);
  }
  if (Status St = generateMipLevels(Img.descriptor()); !St.ok()) {
    llvm::errs() << "fill-mip: " << St.message() << "\n";
    std::exit(2);
  }
  S.Texture = std::move(Img);
  S.Sampler = bilinear(Repeat);
  S.Sampler.mipmap_mode = 1; // linear
  S.Sampler.max_lod = 1000;
  return S;
}

GraphicsScene trisScene(double Scale, const std::string &Dir) {
  GraphicsScene S;
  S.Name = "tris";
  S.FbWidth = scaled(1920, Scale, 8);
  S.FbHeight = scaled(1080, Scale, 8);
  uint32_t Cols = scaled(250, Scale, 2), Rows = scaled(200, Scale, 2);
  const double Cell = std::sqrt(20.0); // two 10-pixel triangles per cell
  S.What = std::to_string(2 * Cols * Rows) +
           " indexed 10-pixel triangles, "
           "colour per vertex, depth test, " +
           std::to_string(S.FbWidth) + "x" + std::to_string(S.FbHeight);
  S.UnitName = "Mtriangles/s";
  shaders(S.Desc, Dir, "tris");
  S.Desc.VertexBindings = {{0, 16, VertexInputRate::Vertex}};
  S.Desc.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0},
                             {1, 0, Format::R8G8B8A8_UNORM, 12}};
  S.Desc.ColorFormats = {Format::R8G8B8A8_UNORM};
  S.Desc.DepthStencilFormat = Format::D32_SFLOAT;
  S.Desc.DepthStencil.DepthTestEnable = true;
  S.Desc.DepthStencil.DepthWriteEnable = true;
  S.Desc.DepthStencil.DepthCompare = CompareOp::LessOrEqual;
  // The grid centred in the frame; pixels to NDC.
  double X0 = (S.FbWidth - Cols * Cell) / 2,
         Y0 = (S.FbHeight - Rows * Cell) / 2;
  std::vector<uint8_t> &V = S.VertexBuffers.emplace_back();
  std::mt19937 G(23);
  for (uint32_t R = 0; R <= Rows; ++R)
    for (uint32_t C = 0; C <= Cols; ++C) {
      append(V, float(2 * (X0 + C * Cell) / S.FbWidth - 1));
      append(V, float(2 * (Y0 + R * Cell) / S.FbHeight - 1));
      append(V, float(0.2 + 0.6 * (C + R) / double(Cols + Rows))); // depth
      append(V, uint32_t(G() | 0xff000000u));
    }
  for (uint32_t R = 0; R < Rows; ++R)
    for (uint32_t C = 0; C < Cols; ++C) {
      uint32_t A = R * (Cols + 1) + C, B = A + 1, D = A + Cols + 1, E = D + 1;
      for (uint32_t I : {A, B, D, D, B, E})
        append(S.Indices, I);
    }
  S.Cmd.Count = 6 * Cols * Rows;
  S.Cmd.Indexed = true;
  S.Units = 2.0 * Cols * Rows;
  // Coverage follows the same rules; interpolated colours may round to
  // the other 8-bit step.
  S.Tolerance = 1;
  S.MaxBadFraction = 0.0001;
  return S;
}

using Mat4 = std::array<float, 16>; // column-major, as GLSL reads it

Mat4 multiply(const Mat4 &A, const Mat4 &B) {
  Mat4 R{};
  for (int C = 0; C < 4; ++C)
    for (int Row = 0; Row < 4; ++Row)
      for (int K = 0; K < 4; ++K)
        R[C * 4 + Row] += A[K * 4 + Row] * B[C * 4 + K];
  return R;
}

std::array<float, 4> transform(const Mat4 &M, float X, float Y, float Z) {
  std::array<float, 4> R{};
  float In[4] = {X, Y, Z, 1};
  for (int Row = 0; Row < 4; ++Row)
    for (int K = 0; K < 4; ++K)
      R[Row] += M[K * 4 + Row] * In[K];
  return R;
}

GraphicsScene meshScene(double Scale, const std::string &Dir) {
  GraphicsScene S;
  S.Name = "mesh";
  S.FbWidth = scaled(1024, Scale, 8);
  S.FbHeight = scaled(768, Scale, 8);
  uint32_t Around = scaled(250, Scale, 3), Tube = scaled(100, Scale, 3);
  uint32_t TexSide = scaled(512, Scale, 8);
  S.What = "torus of " + std::to_string(2 * Around * Tube) +
           " indexed triangles, textured, lit per pixel, culled, depth "
           "test, 4x MSAA + resolve, " +
           std::to_string(S.FbWidth) + "x" + std::to_string(S.FbHeight);
  S.UnitName = "Mtriangles/s";
  shaders(S.Desc, Dir, "mesh");
  S.Desc.VertexBindings = {{0, 32, VertexInputRate::Vertex}};
  S.Desc.VertexAttributes = {{0, 0, Format::R32G32B32_SFLOAT, 0},
                             {1, 0, Format::R32G32B32_SFLOAT, 12},
                             {2, 0, Format::R32G32_SFLOAT, 24}};
  S.Desc.ColorFormats = {Format::R8G8B8A8_UNORM};
  S.Desc.DepthStencilFormat = Format::D32_SFLOAT;
  S.Desc.DepthStencil.DepthTestEnable = true;
  S.Desc.DepthStencil.DepthWriteEnable = true;
  S.Desc.DepthStencil.DepthCompare = CompareOp::LessOrEqual;
  S.Desc.Multisample.Samples = 4;
  S.Desc.Rasterization.Cull = CullMode::Back;
  S.Resolve = true;

  // Model: tilted 60 degrees about x, 3 units in front of the camera.
  // Projection: 60-degree vertical field of view, depth 0 at z = -1 and 1
  // at z = -10 (Vulkan's clip space: y down, depth in [0, 1]).
  float Tilt = 1.05f, C = std::cos(Tilt), Sn = std::sin(Tilt);
  Mat4 Model = {1, 0, 0, 0, 0, C, Sn, 0, 0, -Sn, C, 0, 0, 0, -3.2f, 1};
  float Aspect = float(S.FbWidth) / float(S.FbHeight);
  float F = 1 / std::tan(0.5236f), Near = 1, Far = 10;
  Mat4 Proj = {F / Aspect,
               0,
               0,
               0,
               0,
               -F,
               0,
               0,
               0,
               0,
               Far / (Near - Far),
               -1,
               0,
               0,
               Near * Far / (Near - Far),
               0};
  Mat4 Mvp = multiply(Proj, Model);
  for (float X : Mvp)
    append(S.PushConstants, X);
  for (float X : Model)
    append(S.PushConstants, X);

  const float Major = 1.0f, Minor = 0.42f, Pi = 3.14159265f;
  std::vector<uint8_t> &V = S.VertexBuffers.emplace_back();
  for (uint32_t I = 0; I <= Around; ++I)
    for (uint32_t J = 0; J <= Tube; ++J) {
      float U = 2 * Pi * I / Around, W = 2 * Pi * J / Tube;
      float Nx = std::cos(W) * std::cos(U), Ny = std::cos(W) * std::sin(U),
            Nz = std::sin(W);
      float Px = (Major + Minor * std::cos(W)) * std::cos(U),
            Py = (Major + Minor * std::cos(W)) * std::sin(U), Pz = Minor * Nz;
      for (float X :
           {Px, Py, Pz, Nx, Ny, Nz, 4.0f * I / Around, 1.0f * J / Tube})
        append(V, X);
    }
  std::vector<uint32_t> Idx;
  for (uint32_t I = 0; I < Around; ++I)
    for (uint32_t J = 0; J < Tube; ++J) {
      uint32_t A = I * (Tube + 1) + J, B = A + Tube + 1;
      for (uint32_t K : {A, B, A + 1, A + 1, B, B + 1})
        Idx.push_back(K);
    }
  for (uint32_t K : Idx)
    append(S.Indices, K);

  // Which winding faces the camera: the framebuffer-space area (Vulkan's
  // formula, y down) of a triangle whose normal points at the camera.
  S.Desc.Rasterization.Front = FrontFace::CounterClockwise;
  auto Vertex = [&](uint32_t K, int Field) {
    float X;
    std::memcpy(&X, &V[K * 32 + Field * 4], 4);
    return X;
  };
  for (size_t T = 0; T + 3 <= Idx.size(); T += 3) {
    uint32_t K0 = Idx[T];
    auto World = transform(Model, Vertex(K0, 0), Vertex(K0, 1), Vertex(K0, 2));
    auto Normal = transform(Model, Vertex(K0, 3), Vertex(K0, 4), Vertex(K0, 5));
    // The normal went through the translation too: take it off.
    float Dot = 0;
    for (int K = 0; K < 3; ++K)
      Dot += (Normal[K] - Model[12 + K]) * -World[K];
    if (Dot < 0.5f)
      continue;
    float Fx[3], Fy[3];
    for (int K = 0; K < 3; ++K) {
      uint32_t Vi = Idx[T + K];
      auto Clip = transform(Mvp, Vertex(Vi, 0), Vertex(Vi, 1), Vertex(Vi, 2));
      Fx[K] = Clip[0] / Clip[3];
      Fy[K] = Clip[1] / Clip[3];
    }
    float Area = 0;
    for (int K = 0; K < 3; ++K)
      Area += Fx[K] * Fy[(K + 1) % 3] - Fx[(K + 1) % 3] * Fy[K];
    Area *= -0.5f; // NDC and framebuffer y both point down
    S.Desc.Rasterization.Front =
        Area > 0 ? FrontFace::CounterClockwise : FrontFace::Clockwise;
    break;
  }
  S.Cmd.Count = uint32_t(Idx.size());
  S.Cmd.Indexed = true;
  S.Texture = randomTexture(TexSide, 31);
  S.Sampler = bilinear(Repeat);
  S.Units = Idx.size() / 3.0;
  // Edge samples and lighting in float: a few steps here and there.
  S.Tolerance = 4;
  S.MaxBadFraction = 0.002;
  return S;
}

} // namespace

std::vector<GraphicsScene> graphicsScenes(double Scale,
                                          const std::string &ShaderDir) {
  std::vector<GraphicsScene> Scenes;
  Scenes.push_back(fillScene(Scale, ShaderDir));
  Scenes.push_back(fillMipScene(Scale, ShaderDir));
  Scenes.push_back(trisScene(Scale, ShaderDir));
  Scenes.push_back(meshScene(Scale, ShaderDir));
  return Scenes;
}

} // namespace spirv2llvm::bench
