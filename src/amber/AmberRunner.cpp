//===- AmberRunner.cpp - Executing Amber scripts on the JIT ---------------===//
//
// Shaders are translated when a pipeline first runs (with the pipeline's
// entry point and specialization) and kept for later RUNs. Colour
// attachments are sized when the script starts, like Amber creates its
// pipelines before running any command.
//
//===----------------------------------------------------------------------===//
#include "amber/AmberRunner.h"

#include "amber/AmberParser.h"
#include "amber/Expect.h"
#include "amber/Graphics.h"
#include "spirv2llvm/Compute.h"
#include "support/Diagnostic.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;

namespace spirv2llvm::amber {

namespace {

/// Amber's TARGET_ENV names are spirv-val's; without one, shaders are
/// compiled and assembled for Vulkan 1.0 (SPIR-V 1.0) like Amber does.
std::string targetEnvFor(const ShaderDecl &D) {
  return D.TargetEnv.empty() ? "vulkan1.0" : D.TargetEnv;
}

class Runner {
public:
  Runner(Script &S, const RunnerOptions &O) : S(S), O(O) {}
  ScriptResult run();

private:
  Script &S;
  const RunnerOptions &O;
  std::map<std::string, std::unique_ptr<ComputeShader>> Compute;
  std::map<std::string, GraphicsShaders> Graphics;

  void log(const Twine &Msg) {
    if (O.Log)
      *O.Log << "  " << Msg << "\n";
  }
  Expected<Translation> translate(const ShaderDecl &D, const AttachDecl &A,
                                  Stage St);
  Error prepareFramebuffers();
  DispatchResources resources(PipelineDecl &P);
  std::vector<ColorTarget> colorTargets(PipelineDecl &P);
  Error runCompute(const Command &C, PipelineDecl &P);
  Error drawRect(const Command &C, PipelineDecl &P);
  void clear(PipelineDecl &P);
};

Expected<Translation> Runner::translate(const ShaderDecl &D,
                                        const AttachDecl &A, Stage St) {
  TranslateOptions T;
  T.Width = O.Width;
  T.OptLevel = 0; // the JIT optimizes
  T.ShaderStage = St;
  T.TargetEnv = targetEnvFor(D);
  T.SpecValues = A.Spec;
  if (!A.EntryPoint.empty())
    T.EntryPoint = A.EntryPoint;
  std::string FileName = D.Name;
  switch (D.Source) {
  case ShaderSource::Glsl:
    T.Kind = InputKind::Glsl;
    break;
  case ShaderSource::Hlsl:
    T.Kind = InputKind::Hlsl;
    if (T.EntryPoint.empty())
      T.EntryPoint = "main";
    break;
  case ShaderSource::SpirvAsm:
    T.Kind = InputKind::Assembly;
    break;
  case ShaderSource::SpirvBin:
    T.Kind = InputKind::Binary;
    break;
  case ShaderSource::Passthrough:
    return makeError("PASSTHROUGH has no code");
  }
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(D.Text.data()),
                          D.Text.size());
  auto Tr = translateBytes(Bytes, FileName, T);
  if (!Tr)
    return Tr.takeError();
  if (Tr->EntryStage != St)
    return makeError("shader '" + D.Name + "': entry point '" +
                     Tr->EntryName + "' is not of the attached stage");
  return Tr;
}

Error Runner::prepareFramebuffers() {
  for (PipelineDecl &P : S.Pipelines) {
    if (P.IsCompute)
      continue;
    bool HasColor = false;
    for (const BindDecl &B : P.Binds)
      HasColor |= B.Kind == BindKind::Color;
    if (!HasColor) {
      // Amber gives a graphics pipeline without colour attachment one
      // named "framebuffer".
      if (!S.findBuffer("framebuffer")) {
        BufferDecl FB;
        FB.Name = "framebuffer";
        FB.Format = cantFail(parseImageFormat("B8G8R8A8_UNORM"));
        S.Buffers.push_back(std::move(FB));
      }
      BindDecl Bd;
      Bd.Buffer = "framebuffer";
      Bd.Kind = BindKind::Color;
      P.Binds.push_back(Bd);
    }
    for (const BindDecl &B : P.Binds) {
      if (B.Kind != BindKind::Color)
        continue;
      BufferDecl &Buf = *S.findBuffer(B.Buffer);
      if (!Buf.Format.IsImage)
        return makeError(formatv("line {0}: buffer '{1}' bound as color has "
                                 "no FORMAT",
                                 P.Line, B.Buffer)
                             .str());
      if (Buf.Width && (Buf.Width != P.FbWidth || Buf.Height != P.FbHeight))
        return makeError(formatv("line {0}: color buffer '{1}' is {2}x{3}, "
                                 "the framebuffer {4}x{5}",
                                 P.Line, B.Buffer, Buf.Width, Buf.Height,
                                 P.FbWidth, P.FbHeight)
                             .str());
      Buf.Width = P.FbWidth;
      Buf.Height = P.FbHeight;
      Buf.Data.resize(uint64_t(P.FbWidth) * P.FbHeight *
                      Buf.Format.ElementSize);
    }
  }
  return Error::success();
}

DispatchResources Runner::resources(PipelineDecl &P) {
  DispatchResources R;
  for (const BindDecl &B : P.Binds) {
    BufferDecl &Buf = *S.findBuffer(B.Buffer);
    if (B.Kind == BindKind::Storage || B.Kind == BindKind::Uniform)
      R.bind(B.Set, B.Binding, Buf.Data.data(), Buf.Data.size());
    else if (B.Kind == BindKind::PushConstant)
      R.PushConstants = Buf.Data;
  }
  return R;
}

std::vector<ColorTarget> Runner::colorTargets(PipelineDecl &P) {
  std::vector<ColorTarget> T;
  for (const BindDecl &B : P.Binds)
    if (B.Kind == BindKind::Color)
      T.push_back({S.findBuffer(B.Buffer), B.Location});
  return T;
}

Error Runner::runCompute(const Command &C, PipelineDecl &P) {
  auto It = Compute.find(P.Name);
  if (It == Compute.end()) {
    const AttachDecl *A = nullptr;
    for (const AttachDecl &At : P.Attached)
      if (S.findShader(At.Shader)->Stage == ShaderStageKind::Compute)
        A = &At;
    if (!A)
      return makeError("pipeline '" + P.Name + "' has no compute shader");
    auto T = translate(*S.findShader(A->Shader), *A, Stage::Compute);
    if (!T)
      return T.takeError();
    auto CS = ComputeShader::create(std::move(*T));
    if (!CS)
      return CS.takeError();
    It = Compute.emplace(P.Name, std::move(*CS)).first;
  }
  DispatchResources R = resources(P);
  std::array<uint32_t, 3> G = {uint32_t(C.Nums[0]), uint32_t(C.Nums[1]),
                               uint32_t(C.Nums[2])};
  log(formatv("RUN {0} {1} {2} {3}", P.Name, G[0], G[1], G[2]));
  // Push constants live in R; the buffer's bytes were copied, which is
  // what Vulkan does too (vkCmdPushConstants copies).
  return It->second->dispatch(G, R, O.Threads);
}

Error Runner::drawRect(const Command &C, PipelineDecl &P) {
  auto It = Graphics.find(P.Name);
  if (It == Graphics.end()) {
    GraphicsShaders GS;
    const AttachDecl *VA = nullptr, *FA = nullptr;
    for (const AttachDecl &At : P.Attached) {
      ShaderStageKind K = S.findShader(At.Shader)->Stage;
      if (K == ShaderStageKind::Vertex)
        VA = &At;
      else if (K == ShaderStageKind::Fragment)
        FA = &At;
    }
    if (!VA || !FA)
      return makeError("graphics pipeline '" + P.Name +
                       "' needs a vertex and a fragment shader");
    const ShaderDecl &VS = *S.findShader(VA->Shader);
    if (VS.Source != ShaderSource::Passthrough) {
      auto T = translate(VS, *VA, Stage::Vertex);
      if (!T)
        return T.takeError();
      GS.VertexInfo = T->Compute;
      auto J = JitShader::create(std::move(*T));
      if (!J)
        return J.takeError();
      GS.Vertex = std::move(*J);
    }
    auto T = translate(*S.findShader(FA->Shader), *FA, Stage::Fragment);
    if (!T)
      return T.takeError();
    GS.FragmentInfo = T->Compute;
    auto J = JitShader::create(std::move(*T));
    if (!J)
      return J.takeError();
    GS.Fragment = std::move(*J);
    It = Graphics.emplace(P.Name, std::move(GS)).first;
  }
  log(formatv("DRAW_RECT {0} {1} {2} {3} {4}", P.Name, C.Nums[0], C.Nums[1],
              C.Nums[2], C.Nums[3]));
  std::vector<ColorTarget> Targets = colorTargets(P);
  return amber::drawRect(It->second, C.Nums, P.FbWidth, P.FbHeight, Targets,
                         resources(P), O.HelperLanes);
}

void Runner::clear(PipelineDecl &P) {
  for (ColorTarget &T : colorTargets(P)) {
    BufferDecl &B = *T.Buffer;
    const BufferFormat &F = B.Format;
    std::vector<uint8_t> Px(F.ElementSize);
    const char Channels[] = {'R', 'G', 'B', 'A'};
    for (unsigned C = 0; C < 4; ++C)
      if (const Component *Co = F.channel(Channels[C]))
        writeComponentDouble(*Co, Co->Kind == NumKind::Int ||
                                          Co->Kind == NumKind::UInt
                                      ? P.ClearColor[C] * 255.0
                                      : P.ClearColor[C],
                             &Px[Co->Offset]);
    for (uint64_t I = 0; I + F.ElementSize <= B.Data.size();
         I += F.ElementSize)
      std::memcpy(&B.Data[I], Px.data(), F.ElementSize);
  }
}

ScriptResult Runner::run() {
  if (S.Unsupported)
    return {Outcome::Skip, *S.Unsupported};
  if (Error E = prepareFramebuffers())
    return {Outcome::Fail, toString(std::move(E))};
  for (const Command &C : S.Commands) {
    PipelineDecl *P = C.Pipeline.empty() ? nullptr : S.findPipeline(C.Pipeline);
    Error E = Error::success();
    switch (C.K) {
    case Command::Run:
      E = runCompute(C, *P);
      break;
    case Command::DrawRect:
      E = drawRect(C, *P);
      break;
    case Command::ClearColor:
      for (unsigned I = 0; I < 4; ++I)
        P->ClearColor[I] = C.Nums[I] / 255.0;
      break;
    case Command::Clear:
      clear(*P);
      break;
    case Command::Copy: {
      BufferDecl &From = *S.findBuffer(C.Buffer), &To = *S.findBuffer(C.Other);
      To.Data = From.Data;
      To.Width = From.Width;
      To.Height = From.Height;
      break;
    }
    default:
      if (auto Msg = checkExpect(C, S))
        return {Outcome::Fail, *Msg};
      log(formatv("line {0}: {1}: ok", C.Line, C.Text));
      break;
    }
    if (E) {
      bool Skip = isUnsupported(E);
      std::string Msg = formatv("line {0}: {1}", C.Line, toString(std::move(E)));
      return {Skip ? Outcome::Skip : Outcome::Fail, Msg};
    }
  }
  return {Outcome::Pass, ""};
}

} // namespace

ScriptResult runScript(Script &S, const RunnerOptions &O) {
  Runner R(S, O);
  return R.run();
}

ScriptResult runScriptFile(StringRef Path, const RunnerOptions &O) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return {Outcome::Fail, "cannot read: " + Buf.getError().message()};
  SmallString<256> Dir(Path);
  sys::path::remove_filename(Dir);
  if (Dir.empty())
    Dir = ".";
  auto S = parseScript((*Buf)->getBuffer(), Dir);
  if (!S)
    return {Outcome::Fail, toString(S.takeError())};
  return runScript(*S, O);
}

} // namespace spirv2llvm::amber
