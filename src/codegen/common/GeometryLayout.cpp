//===- GeometryLayout.cpp - Execution modes and output region of a GS -----===//
//
// A geometry shader keeps the interface of the other stages (one lane is
// one invocation: one input primitive, times Invocations) and adds a region
// behind its outputs where OpEmitVertex copies them (Interface.h,
// GeometryLayout; the lowering is codegen/simd/EmitGeometry.cpp). Keeping
// the emitted vertices in the output block means the entry point's ABI does
// not change: the caller allocates OutputSize bytes as for any stage and
// reads the vertices back from there.
//
// Limitation: one vertex stream (stream 0); EmitStreamVertex to another
// stream is refused where it is emitted.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/InterfaceLayout.h"

#include "support/Diagnostic.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

/// Vulkan's geometryShader limits (maxGeometryOutputVertices,
/// maxGeometryShaderInvocations): lavapipe's 1024 and 32.
constexpr uint32_t MaxOutputVertices = 1024;
constexpr uint32_t MaxInvocations = 32;

} // namespace

Error addGeometryLayout(const Module &M, const EntryPoint &EP,
                        InterfaceLayout &L) {
  using GL = GeometryLayout;
  GL G;
  bool HasInput = false, HasOutput = false, HasMax = false;
  for (const auto &[Mode, Lits] : EP.Modes) {
    switch (Mode) {
    case spv::ExecutionMode::InputPoints:
      G.Input = GL::InputKind::Points, G.InputVertices = 1, HasInput = true;
      break;
    case spv::ExecutionMode::InputLines:
      G.Input = GL::InputKind::Lines, G.InputVertices = 2, HasInput = true;
      break;
    case spv::ExecutionMode::InputLinesAdjacency:
      G.Input = GL::InputKind::LinesAdjacency, G.InputVertices = 4;
      HasInput = true;
      break;
    case spv::ExecutionMode::Triangles:
      G.Input = GL::InputKind::Triangles, G.InputVertices = 3;
      HasInput = true;
      break;
    case spv::ExecutionMode::InputTrianglesAdjacency:
      G.Input = GL::InputKind::TrianglesAdjacency, G.InputVertices = 6;
      HasInput = true;
      break;
    case spv::ExecutionMode::OutputPoints:
      G.Output = GL::OutputKind::Points, HasOutput = true;
      break;
    case spv::ExecutionMode::OutputLineStrip:
      G.Output = GL::OutputKind::LineStrip, HasOutput = true;
      break;
    case spv::ExecutionMode::OutputTriangleStrip:
      G.Output = GL::OutputKind::TriangleStrip, HasOutput = true;
      break;
    case spv::ExecutionMode::OutputVertices:
      G.MaxVertices = Lits.empty() ? 0 : Lits[0];
      HasMax = true;
      break;
    case spv::ExecutionMode::Invocations:
      G.Invocations = Lits.empty() ? 1 : Lits[0];
      break;
    default:
      break;
    }
  }
  std::string Where = "geometry entry point \"" + EP.Name + "\": ";
  if (!HasInput)
    return makeError(Where + "no input primitive execution mode "
                             "(InputPoints, InputLines, Triangles, ...)");
  if (!HasOutput)
    return makeError(Where + "no output execution mode (OutputPoints, "
                             "OutputLineStrip or OutputTriangleStrip)");
  if (!HasMax)
    return makeError(Where + "no OutputVertices execution mode");
  if (G.MaxVertices > MaxOutputVertices)
    return makeError(Where + "OutputVertices " + Twine(G.MaxVertices) +
                     " is above the limit of " + Twine(MaxOutputVertices));
  if (G.Invocations == 0 || G.Invocations > MaxInvocations)
    return makeError(Where + "Invocations " + Twine(G.Invocations) +
                     " is outside 1.." + Twine(MaxInvocations));
  const uint32_t W = L.Width;
  // 16-byte alignment keeps every component's vector aligned as in the
  // first part.
  auto Align16 = [](uint64_t X) { return (X + 15) & ~uint64_t(15); };
  G.VertexBytes = uint32_t(Align16(L.OutputSize));
  uint64_t Off = G.VertexBytes;
  G.CountOffset = uint32_t(Off);
  Off += 4 * W;
  G.PendingCutOffset = uint32_t(Off);
  Off = Align16(Off + 4 * W);
  G.CutOffset = uint32_t(Off);
  Off = Align16(Off + uint64_t(G.MaxVertices) * 4 * W);
  G.VerticesOffset = uint32_t(Off);
  Off += uint64_t(G.MaxVertices) * G.VertexBytes;
  if (Off > (uint64_t(1) << 30))
    return makeError(Where + Twine(G.MaxVertices) + " output vertices of " +
                     Twine(G.VertexBytes) + " bytes need " + Twine(Off) +
                     " bytes per call, more than 1 GiB");
  L.OutputSize = uint32_t(Off);
  L.HasGeometry = true;
  L.Geometry = G;
  return Error::success();
}

} // namespace spirv2llvm
