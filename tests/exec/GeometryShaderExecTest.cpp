//===- GeometryShaderExecTest.cpp - Geometry shaders, translator alone
//-----===//
//
// Geometry shaders JIT-compiled and run one call at a time at W = 4, 8, 16:
// each lane is one input primitive; the emitted vertices, their count per
// lane and the strip starts are read from the output block's geometry
// region (Interface.h, GeometryLayout) and compared with what the shader
// says, computed here from the inputs. Partial masks, EndPrimitive in the
// middle of a strip, more vertices than OutputVertices (dropped), and the
// refusals (another vertex stream, missing modes, the invocation back end).
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

using namespace spirv2llvm;

namespace {

llvm::Expected<Translation> translateGeom(const std::string &Src, unsigned W,
                                          Backend Bk = Backend::Simd) {
  TranslateOptions O;
  O.Width = W;
  O.Backend = Bk;
  O.ShaderStage = Stage::Geometry;
  return translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src.data()),
                              Src.size()),
      "t.geom", O);
}

std::unique_ptr<JitShader> compileGeom(const std::string &Src, unsigned W) {
  auto T = translateGeom(Src, W);
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return nullptr;
  }
  auto J = JitShader::create(std::move(*T));
  if (!J) {
    ADD_FAILURE() << J.status().message();
    return nullptr;
  }
  return std::move(*J);
}

/// Two copies of each input triangle, the second moved by (Offset, 0), as
/// two strips; the colour and the primitive ID pass through.
const char *TwoCopiesGS = R"(#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) in vec4 vcol[];
layout(location = 0) out vec4 gcol;
layout(push_constant) uniform P { float Offset; } p;
void main() {
  for (int k = 0; k < 2; ++k) {
    for (int i = 0; i < 3; ++i) {
      gl_Position = gl_in[i].gl_Position + vec4(float(k) * 10.0, 0, 0, 0);
      gcol = vcol[i] + vec4(0, 0, float(k), 0);
      gl_PrimitiveID = gl_PrimitiveIDIn * 2 + k;
      EmitVertex();
    }
    EndPrimitive();
  }
}
)";

/// The lane's input primitive ID decides how many vertices it emits
/// (a divergent loop), with a cut after every second vertex; IDs above 6
/// ask for more than OutputVertices.
const char *DivergentGS = R"(#version 450
layout(points) in;
layout(line_strip, max_vertices = 6) out;
layout(location = 0) out float gval;
void main() {
  int N = gl_PrimitiveIDIn;
  for (int v = 0; v < N; ++v) {
    gl_Position = vec4(float(v), float(gl_PrimitiveIDIn), 0, 1);
    gval = float(100 * gl_PrimitiveIDIn + v);
    EmitVertex();
    if (v % 2 == 1)
      EndPrimitive();
  }
}
)";

struct GeomRun {
  const InterfaceLayout *L = nullptr;
  std::vector<uint8_t> In, Out;
  unsigned W = 4;

  template <typename T> T *inputs(const InterfaceVariable &V, unsigned Comp) {
    return reinterpret_cast<T *>(In.data() + V.ComponentOffsets[Comp]);
  }
  uint32_t count(unsigned Lane) const {
    uint32_t X;
    std::memcpy(&X, &Out[L->Geometry.CountOffset + 4 * Lane], 4);
    return X;
  }
  bool startsStrip(unsigned Slot, unsigned Lane) const {
    uint32_t X;
    std::memcpy(&X, &Out[L->Geometry.CutOffset + 4 * (Slot * W + Lane)], 4);
    return X != 0;
  }
  /// Component \p Comp of output \p V in emitted vertex \p Slot of \p Lane.
  template <typename T>
  T emitted(const InterfaceVariable &V, unsigned Comp, unsigned Slot,
            unsigned Lane) const {
    T X;
    std::memcpy(
        &X,
        &Out[L->Geometry.VerticesOffset + Slot * L->Geometry.VertexBytes +
             V.ComponentOffsets[Comp] + sizeof(T) * Lane],
        sizeof(T));
    return X;
  }
};

const InterfaceVariable &var(const InterfaceLayout &L, const char *Name) {
  const InterfaceVariable *V = L.findByName(Name);
  EXPECT_NE(V, nullptr) << Name;
  static InterfaceVariable None;
  return V ? *V : None;
}

class GeometryShaderExecTest : public ::testing::TestWithParam<unsigned> {};

TEST_P(GeometryShaderExecTest, TwoCopiesPerTriangle) {
  const unsigned W = GetParam();
  auto J = compileGeom(TwoCopiesGS, W);
  ASSERT_TRUE(J);
  const InterfaceLayout &L = J->layout();
  ASSERT_TRUE(L.HasGeometry);
  EXPECT_EQ(L.Geometry.InputVertices, 3u);
  EXPECT_EQ(L.Geometry.MaxVertices, 6u);
  EXPECT_EQ(L.Geometry.Output, GeometryLayout::OutputKind::TriangleStrip);
  GeomRun R{&L, std::vector<uint8_t>(L.InputSize),
            std::vector<uint8_t>(L.OutputSize), W};
  const InterfaceVariable &GlIn = var(L, "gl_in");
  const InterfaceVariable &VCol = var(L, "vcol");
  const InterfaceVariable &PrimIn = var(L, "gl_PrimitiveIDIn");
  ASSERT_EQ(GlIn.Components.size() % 3, 0u);
  const unsigned PerVertex = unsigned(GlIn.Components.size() / 3);
  // gl_in's Position member is found through MemberBuiltIns.
  int PosComp = -1;
  for (auto [First, BI] : GlIn.MemberBuiltIns)
    if (BI == 0 /* Position */)
      PosComp = int(First);
  ASSERT_EQ(PosComp, 0);
  auto InPos = [&](unsigned Lane, unsigned V, unsigned C) {
    return float(Lane * 16 + V * 4 + C);
  };
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    for (unsigned V = 0; V < 3; ++V)
      for (unsigned C = 0; C < 4; ++C) {
        R.inputs<float>(GlIn, V * PerVertex + C)[Lane] = InPos(Lane, V, C);
        R.inputs<float>(VCol, V * 4 + C)[Lane] = InPos(Lane, V, C) + 0.5f;
      }
    R.inputs<int32_t>(PrimIn, 0)[Lane] = int32_t(Lane + 7);
  }
  float Offset = 10;
  s2l_group_args Args = {};
  Args.inputs = R.In.data();
  Args.outputs = R.Out.data();
  Args.push_constants = &Offset;
  // Every other lane active: inactive lanes emit nothing.
  uint32_t Mask = 0;
  for (unsigned Lane = 0; Lane < W; Lane += 2)
    Mask |= 1u << Lane;
  Args.active_mask = Mask;
  J->run(Args);
  const InterfaceVariable *PerVertexOut = nullptr;
  for (const InterfaceVariable &V : L.Outputs)
    if (!V.MemberBuiltIns.empty())
      PerVertexOut = &V;
  ASSERT_NE(PerVertexOut, nullptr);
  const InterfaceVariable &GCol = var(L, "gcol");
  const InterfaceVariable &PrimOut = var(L, "gl_PrimitiveID");
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    bool Active = Mask >> Lane & 1;
    ASSERT_EQ(R.count(Lane), Active ? 6u : 0u) << "lane " << Lane;
    if (!Active)
      continue;
    for (unsigned Slot = 0; Slot < 6; ++Slot) {
      unsigned K = Slot / 3, V = Slot % 3;
      // Vertex 3 follows an EndPrimitive: a new strip.
      EXPECT_EQ(R.startsStrip(Slot, Lane), Slot == 3)
          << "lane " << Lane << " slot " << Slot;
      for (unsigned C = 0; C < 4; ++C) {
        float WantPos = InPos(Lane, V, C) + (C == 0 ? 10.0f * K : 0);
        EXPECT_EQ(R.emitted<float>(*PerVertexOut, C, Slot, Lane), WantPos);
        float WantCol = InPos(Lane, V, C) + 0.5f + (C == 2 ? float(K) : 0);
        EXPECT_EQ(R.emitted<float>(GCol, C, Slot, Lane), WantCol);
      }
      EXPECT_EQ(R.emitted<int32_t>(PrimOut, 0, Slot, Lane),
                int32_t((Lane + 7) * 2 + K));
    }
  }
}

TEST_P(GeometryShaderExecTest, DivergentCountsCutsAndOverflow) {
  const unsigned W = GetParam();
  auto J = compileGeom(DivergentGS, W);
  ASSERT_TRUE(J);
  const InterfaceLayout &L = J->layout();
  ASSERT_TRUE(L.HasGeometry);
  EXPECT_EQ(L.Geometry.Output, GeometryLayout::OutputKind::LineStrip);
  EXPECT_EQ(L.Geometry.InputVertices, 1u);
  GeomRun R{&L, std::vector<uint8_t>(L.InputSize),
            std::vector<uint8_t>(L.OutputSize), W};
  const InterfaceVariable &PrimIn = var(L, "gl_PrimitiveIDIn");
  const InterfaceVariable &GVal = var(L, "gval");
  const unsigned Max = L.Geometry.MaxVertices;
  for (unsigned Lane = 0; Lane < W; ++Lane)
    R.inputs<int32_t>(PrimIn, 0)[Lane] = int32_t(Lane);
  s2l_group_args Args = {};
  Args.inputs = R.In.data();
  Args.outputs = R.Out.data();
  Args.active_mask = W == 32 ? ~0u : (1u << W) - 1;
  J->run(Args);
  for (unsigned Lane = 0; Lane < W; ++Lane) {
    // Lane L asks for L vertices; beyond OutputVertices they are dropped.
    unsigned Want = std::min(Lane, Max);
    ASSERT_EQ(R.count(Lane), Want) << "lane " << Lane;
    for (unsigned Slot = 0; Slot < Want; ++Slot) {
      EXPECT_EQ(R.emitted<float>(GVal, 0, Slot, Lane),
                float(100 * Lane + Slot));
      // A cut after every second vertex: slots 2, 4 start strips.
      if (Slot > 0)
        EXPECT_EQ(R.startsStrip(Slot, Lane), Slot % 2 == 0)
            << "lane " << Lane << " slot " << Slot;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, GeometryShaderExecTest,
                         ::testing::Values(4u, 8u, 16u));

TEST(GeometryShaderErrors, OtherStreamIsRefused) {
  const char *Src = R"(#version 450
layout(points) in;
layout(points, max_vertices = 1) out;
layout(stream = 1) out;
layout(location = 0) out float x;
void main() { x = 1.0; EmitStreamVertex(1); EndStreamPrimitive(1); }
)";
  auto T = translateGeom(Src, 4);
  ASSERT_FALSE(bool(T));
  std::string Msg = llvm::toString(T.takeError());
  EXPECT_NE(Msg.find("vertex stream 1"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("only stream 0"), std::string::npos) << Msg;
}

/// A geometry module with \p Modes (SPIR-V assembly lines) and one
/// OpEmitVertex, translated without the validator so that the
/// translator's own checks answer.
llvm::Expected<Translation> translateModes(const std::string &Modes) {
  std::string Src = "OpCapability Geometry\n"
                    "OpMemoryModel Logical GLSL450\n"
                    "OpEntryPoint Geometry %main \"main\"\n" +
                    Modes +
                    "%void = OpTypeVoid\n"
                    "%fn = OpTypeFunction %void\n"
                    "%main = OpFunction %void None %fn\n"
                    "%entry = OpLabel\n"
                    "OpEmitVertex\n"
                    "OpReturn\n"
                    "OpFunctionEnd\n";
  TranslateOptions O;
  O.Validate = false;
  O.Canonicalize = false;
  return translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Src.data()),
                              Src.size()),
      "t.spvasm", O);
}

TEST(GeometryShaderErrors, MissingOrBadExecutionModes) {
  const std::pair<const char *, const char *> Cases[] = {
      {"OpExecutionMode %main InputPoints\n"
       "OpExecutionMode %main OutputPoints\n",
       "no OutputVertices execution mode"},
      {"OpExecutionMode %main OutputPoints\n"
       "OpExecutionMode %main OutputVertices 4\n",
       "no input primitive execution mode"},
      {"OpExecutionMode %main InputPoints\n"
       "OpExecutionMode %main OutputVertices 4\n",
       "no output execution mode"},
      {"OpExecutionMode %main InputPoints\n"
       "OpExecutionMode %main OutputPoints\n"
       "OpExecutionMode %main OutputVertices 5000\n",
       "OutputVertices 5000 is above the limit of 1024"},
      {"OpExecutionMode %main InputPoints\n"
       "OpExecutionMode %main OutputPoints\n"
       "OpExecutionMode %main OutputVertices 4\n"
       "OpExecutionMode %main Invocations 0\n",
       "Invocations 0 is outside 1..32"},
  };
  for (auto [Modes, Want] : Cases) {
    auto T = translateModes(Modes);
    ASSERT_FALSE(bool(T)) << Modes;
    std::string Msg = llvm::toString(T.takeError());
    EXPECT_NE(Msg.find(std::string("geometry entry point \"main\": ") + Want),
              std::string::npos)
        << Msg;
  }
  // The same module with all three modes translates.
  auto T = translateModes("OpExecutionMode %main InputPoints\n"
                          "OpExecutionMode %main OutputPoints\n"
                          "OpExecutionMode %main OutputVertices 4\n");
  EXPECT_TRUE(bool(T)) << llvm::toString(T.takeError());
}

TEST(GeometryShaderErrors, InvocationBackendRefuses) {
  auto T = translateGeom(DivergentGS, 1, Backend::Invocation);
  ASSERT_FALSE(bool(T));
  std::string Msg = llvm::toString(T.takeError());
  EXPECT_NE(Msg.find("invocation back end"), std::string::npos) << Msg;
}

} // namespace
