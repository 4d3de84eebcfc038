//===- GraphicsTestUtil.h - Helpers of the rasterizer tests -----*- C++ -*-===//
#ifndef SPIRV2LLVM_TESTS_EXEC_GRAPHICSTESTUTIL_H
#define SPIRV2LLVM_TESTS_EXEC_GRAPHICSTESTUTIL_H

#include "spirv2llvm/Graphics.h"
#include "spirv2llvm/Image.h"

#include "frontend/Frontend.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

namespace spirv2llvm::testutil {

/// SPIR-V words of a GLSL vertex or fragment shader.
inline std::vector<uint32_t> glsl(const std::string &Src,
                                  frontend::ShaderStage St) {
  frontend::GlslOptions O;
  O.Stage = St;
  O.FileName = St == frontend::ShaderStage::Vertex ? "t.vert" : "t.frag";
  auto W = frontend::compileGlsl(Src, O);
  if (!W) {
    ADD_FAILURE() << llvm::toString(W.takeError());
    return {};
  }
  return *W;
}

/// A fragment shader writing its interpolated colour, and the vertex both
/// test files feed it: a position (pixels or NDC) and an RGBA colour.
inline const char *ColorFS = R"(#version 450
layout(location = 0) in vec4 vcolor;
layout(location = 0) out vec4 o;
void main() { o = vcolor; }
)";

struct ColorVertex {
  float X, Y;
  float R, G, B, A;
};

inline Image image(Format F, uint32_t W, uint32_t H, uint32_t Samples = 1) {
  auto I = Image::create({F, S2L_VIEW_2D, W, H, 1, 1, 1, Samples});
  EXPECT_TRUE(bool(I)) << I.status().message();
  return std::move(*I);
}

inline Float4 pixel(const Image &I, uint32_t X, uint32_t Y,
                    uint32_t Sample = 0) {
  Float4 V{};
  EXPECT_TRUE(I.readTexel(0, X, Y, 0, Sample, V).ok());
  return V;
}

} // namespace spirv2llvm::testutil

#endif
