//===- AmberRunner.cpp - Executing Amber scripts on the JIT ---------------===//
//
// Shaders are translated when a pipeline first runs (with the pipeline's
// entry point and specialization) and kept for later RUNs. Colour
// attachments are sized when the script starts, like Amber creates its
// pipelines before running any command.
//
//===----------------------------------------------------------------------===//
#include "amber/AmberRunner.h"

#include "amber/AmberImages.h"
#include "amber/AmberParser.h"
#include "amber/Expect.h"
#include "amber/AmberDraw.h"
#include "amber/BufferBounds.h"
#include "amber/Unsupported.h"
#include "amber/VkScriptParser.h"
#include "spirv2llvm/CompileCache.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/ImageFormat.h"
#include "spirv2llvm/spirv2llvm.h"
#include "support/Diagnostic.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;

namespace spirv2llvm::amber {

namespace {

/// Amber's TARGET_ENV names are spirv-val's; without one, shaders are
/// compiled and assembled for Vulkan 1.0 (SPIR-V 1.0) like Amber does,
/// except that a script requiring VK_KHR_spirv_1_4 gets SPIR-V 1.4: the
/// conformance suite builds those with SPIR-V 1.4 options (their entry
/// points list every global, a 1.4 rule), as the VkScript parser does.
std::string targetEnvFor(const Script &S, const ShaderDecl &D) {
  if (!D.TargetEnv.empty())
    return D.TargetEnv;
  return S.needs("VK_KHR_spirv_1_4") ? "spv1.4" : "vulkan1.0";
}

/// glslang rejects a GLSL extension it does not know ("'#extension' :
/// extension not supported: GL_EXT_x"): that is a feature this machine
/// lacks, so the script SKIPs naming it. So does a SPIR-V capability the
/// translator does not implement ("OpCapability: unsupported: capability
/// X"): a Vulkan device without the matching feature would reject the
/// module too (e.g. Int64ImageEXT, which the conformance suite enables
/// outside the script). Other errors pass unchanged.
Error missingFeatureIsUnsupported(Error E) {
  std::string Msg = toString(std::move(E));
  auto After = [&](StringRef Marker) -> std::optional<StringRef> {
    size_t At = Msg.find(Marker.str());
    if (At == std::string::npos)
      return std::nullopt;
    return StringRef(Msg).substr(At + Marker.size()).take_until([](char C) {
      return isSpace(C);
    });
  };
  if (auto Name = After("'#extension' : extension not supported: "))
    return makeUnsupported("GLSL extension " + *Name +
                           " (unknown to this glslang)");
  if (auto Name = After("OpCapability: unsupported: capability "))
    return makeUnsupported("SPIR-V capability " + *Name +
                           " (not implemented by the translator)");
  return makeError(Msg);
}

class Runner {
public:
  Runner(Script &S, const RunnerOptions &O)
      : S(S), O(O),
        Graphics(S, O, [this](const ShaderDecl &D, const AttachDecl &A,
                              Stage St) { return jit(D, A, St); }) {}
  ScriptResult run();

private:
  Script &S;
  const RunnerOptions &O;
  std::map<std::string, std::unique_ptr<ComputeShader>> Compute;
  Draws Graphics;

  void log(const Twine &Msg) {
    if (O.Log)
      *O.Log << "  " << Msg << "\n";
  }
  /// The translator's input and options for shader \p D attached as \p A.
  Error translationInput(const ShaderDecl &D, const AttachDecl &A, Stage St,
                         TranslateOptions &T, std::string &FileName);
  Expected<Translation> translate(const ShaderDecl &D, const AttachDecl &A,
                                  Stage St);
  /// The cache key of shader \p D attached as \p A; empty without a cache
  /// (or for input the translator would reject anyway).
  std::string cacheKey(const ShaderDecl &D, const AttachDecl &A, Stage St);
  /// The shader for \p D attached as \p A from the cache, else translated
  /// and compiled (and stored).
  Expected<std::unique_ptr<JitShader>> jit(const ShaderDecl &D,
                                           const AttachDecl &A, Stage St);
  Error prepareFramebuffers();
  Expected<DispatchResources> resources(PipelineDecl &P);
  /// Pipeline \p P's compute shader, translated on first use.
  Expected<ComputeShader *> computeShader(PipelineDecl &P);
  Error runCompute(const Command &C, PipelineDecl &P);
  void clear(PipelineDecl &P);
};

Error Runner::translationInput(const ShaderDecl &D, const AttachDecl &A,
                               Stage St, TranslateOptions &T,
                               std::string &FileName) {
  T.Width = O.Width;
  T.OptLevel = 0; // the JIT optimizes
  T.ValueNames = false; // nobody reads the IR: names only cost time
  T.ShaderStage = St;
  T.TargetEnv = targetEnvFor(S, D);
  T.SpecValues = A.Spec;
  T.OptimizerPasses = A.Optimizations;
  // A script that enables robustBufferAccess gets it (the device feature's
  // meaning); otherwise only where a buffer is too small.
  T.RobustBufferAccess =
      A.RobustBufferAccess || S.needs("robustBufferAccess");
  if (!A.EntryPoint.empty())
    T.EntryPoint = A.EntryPoint;
  // A virtual file's path names it, so that its quoted includes are
  // found beside it.
  FileName = D.VirtualPath.empty() ? D.Name : D.VirtualPath;
  T.IncludeFiles = S.VirtualFiles;
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
  return Error::success();
}

std::string Runner::cacheKey(const ShaderDecl &D, const AttachDecl &A,
                             Stage St) {
  if (!O.Cache || !O.Cache->enabled())
    return {};
  TranslateOptions T;
  std::string FileName;
  if (Error E = translationInput(D, A, St, T, FileName)) {
    consumeError(std::move(E));
    return {};
  }
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(D.Text.data()),
                          D.Text.size());
  return translationCacheKey(Bytes, FileName, T);
}

Expected<std::unique_ptr<JitShader>>
Runner::jit(const ShaderDecl &D, const AttachDecl &A, Stage St) {
  // Cache entries do not hold a geometry shader's layout.
  std::string Key = St == Stage::Geometry ? std::string() : cacheKey(D, A, St);
  if (!Key.empty())
    if (std::unique_ptr<JitShader> J = JitShader::load(*O.Cache, Key))
      if (J->stage() == St) {
        log("shader '" + D.Name + "' loaded from the compile cache");
        return std::move(J);
      }
  auto T = translate(D, A, St);
  if (!T)
    return T.takeError();
  auto J = JitShader::create(std::move(*T), 2, Key.empty() ? nullptr : O.Cache,
                             Key);
  if (!J)
    return makeError(J.status().message());
  return std::move(*J);
}

Expected<Translation> Runner::translate(const ShaderDecl &D,
                                        const AttachDecl &A, Stage St) {
  TranslateOptions T;
  std::string FileName;
  if (Error E = translationInput(D, A, St, T, FileName))
    return std::move(E);
  ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(D.Text.data()),
                          D.Text.size());
  auto Tr = translateBytes(Bytes, FileName, T);
  if (!Tr)
    return missingFeatureIsUnsupported(Tr.takeError());
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
      if (B.Kind != BindKind::Color && B.Kind != BindKind::DepthStencil &&
          B.Kind != BindKind::Resolve)
        continue;
      BufferDecl &Buf = *S.findBuffer(B.Buffer);
      if (!Buf.Format.IsImage)
        return makeError(formatv("line {0}: buffer '{1}' bound as color has "
                                 "no FORMAT",
                                 P.Line, B.Buffer)
                             .str());
      // An IMAGE takes the pipeline's framebuffer size, as Amber sizes
      // attachments (vk-gl-cts texture/conversion/snorm_clamp declares a
      // 32x32 image and draws into a default-sized framebuffer); a BUFFER
      // shared by pipelines of different sizes is an error.
      // A mip level (BASE_MIP_LEVEL b) of a chain is the framebuffer: level
      // 0 is then 2^b times its size.
      if (B.BaseMipLevel >= Buf.MipLevels || B.BaseMipLevel > 14)
        return makeError(formatv("line {0}: BASE_MIP_LEVEL {1} of buffer "
                                 "'{2}', which has {3} mip levels",
                                 P.Line, B.BaseMipLevel, B.Buffer,
                                 Buf.MipLevels)
                             .str());
      uint64_t Width0 = uint64_t(P.FbWidth) << B.BaseMipLevel,
               Height0 = uint64_t(P.FbHeight) << B.BaseMipLevel;
      if (Width0 > GraphicsLimits::MaxFramebufferSize ||
          Height0 > GraphicsLimits::MaxFramebufferSize)
        return makeError(formatv("line {0}: buffer '{1}': level 0 of a "
                                 "{2}x{3} framebuffer at BASE_MIP_LEVEL {4} "
                                 "would be {5}x{6} (at most {7} a side)",
                                 P.Line, B.Buffer, P.FbWidth, P.FbHeight,
                                 B.BaseMipLevel, Width0, Height0,
                                 GraphicsLimits::MaxFramebufferSize)
                             .str());
      if (Buf.Width && !Buf.ImageDim &&
          (Buf.Width != Width0 || Buf.Height != Height0))
        return makeError(formatv("line {0}: color buffer '{1}' is {2}x{3}, "
                                 "the framebuffer {4}x{5} at level {6}",
                                 P.Line, B.Buffer, Buf.Width, Buf.Height,
                                 P.FbWidth, P.FbHeight, B.BaseMipLevel)
                             .str());
      Buf.Width = uint32_t(Width0);
      Buf.Height = uint32_t(Height0);
      // A multisampled attachment holds each pixel's samples one after
      // the other (the rasterizer's layout); EXPECT cannot read it, as in
      // Amber, where only its resolve target can be read.
      Buf.Data.resize(Buf.mipChainBytes());
    }
  }
  return Error::success();
}

Expected<DispatchResources> Runner::resources(PipelineDecl &P) {
  DispatchResources R;
  for (const BindDecl &B : P.Binds) {
    if (isImageBinding(B.Kind)) // ImageBindings binds them
      continue;
    BufferDecl &Buf = *S.findBuffer(B.Buffer);
    if (B.Kind == BindKind::PushConstant) {
      R.PushConstants = Buf.Data;
      continue;
    }
    if (B.Kind != BindKind::Storage && B.Kind != BindKind::Uniform)
      continue;
    size_t Elems = std::max<size_t>(B.Array.size(), 1);
    for (size_t E = 0; E < Elems; ++E) {
      BufferDecl &EB = B.Array.empty() ? Buf : *S.findBuffer(B.Array[E]);
      uint64_t Off = E < B.Offsets.size() ? B.Offsets[E] : 0;
      uint64_t Range = E < B.Ranges.size() ? B.Ranges[E] : 0;
      if (Off > EB.Data.size() || (Range && Off + Range > EB.Data.size()))
        return makeError(formatv("DESCRIPTOR_SET {0} BINDING {1}: offset {2} "
                                 "and range {3} exceed buffer '{4}' ({5} "
                                 "bytes)",
                                 B.Set, B.Binding, Off, Range, EB.Name,
                                 EB.Data.size())
                             .str());
      uint64_t Size = Range ? Range : EB.Data.size() - Off;
      if (B.Array.empty())
        R.bind(B.Set, B.Binding, EB.Data.data() + Off, Size);
      else
        R.bindArrayElement(B.Set, B.Binding, uint32_t(E),
                           EB.Data.data() + Off, Size);
    }
  }
  return R;
}

Expected<ComputeShader *> Runner::computeShader(PipelineDecl &P) {
  auto It = Compute.find(P.Name);
  if (It != Compute.end())
    return It->second.get();
  const AttachDecl *A = nullptr;
  for (const AttachDecl &At : P.Attached)
    if (S.findShader(At.Shader)->Stage == ShaderStageKind::Compute)
      A = &At;
  if (!A)
    return makeError("pipeline '" + P.Name + "' has no compute shader");
  const ShaderDecl &D = *S.findShader(A->Shader);
  std::string Key = cacheKey(D, *A, Stage::Compute);
  std::unique_ptr<ComputeShader> CS;
  if (!Key.empty())
    CS = ComputeShader::load(*O.Cache, Key);
  if (CS) {
    log("shader '" + D.Name + "' loaded from the compile cache");
  } else {
    auto T = translate(D, *A, Stage::Compute);
    if (!T)
      return T.takeError();
    auto C = ComputeShader::create(std::move(*T), 2,
                                   Key.empty() ? nullptr : O.Cache, Key);
    if (!C)
      return makeError(C.status().message());
    CS = std::move(*C);
  }
  return (Compute[P.Name] = std::move(CS)).get();
}

Error Runner::runCompute(const Command &C, PipelineDecl &P) {
  auto CS = computeShader(P);
  if (!CS)
    return CS.takeError();
  auto R = resources(P);
  if (!R)
    return R.takeError();
  if (auto Short = undersizedBuffer((*CS)->info(), *R)) {
    // Accesses past a buffer's end: translate again with bounds checks
    // (BufferBounds.h); the robust shader serves the later RUNs too.
    log(*Short + ": translating '" + P.Name +
        "' again with robust buffer access");
    for (AttachDecl &At : P.Attached)
      At.RobustBufferAccess = true;
    Compute.erase(P.Name);
    CS = computeShader(P);
    if (!CS)
      return CS.takeError();
  }
  ComputeShader &Shader = **CS;
  std::array<uint32_t, 3> G = {uint32_t(C.Nums[0]), uint32_t(C.Nums[1]),
                               uint32_t(C.Nums[2])};
  log(formatv("RUN {0} {1} {2} {3}", P.Name, G[0], G[1], G[2]));
  // Push constants live in R; the buffer's bytes were copied, which is
  // what Vulkan does too (vkCmdPushConstants copies).
  ImageBindings Images;
  if (Error E = Images.bind(S, P, Shader.info(), *R))
    return E;
  Status D = Shader.dispatch(G, *R, O.Threads);
  if (!D.ok())
    return makeError(D.message());
  return Error::success();
}

void Runner::clear(PipelineDecl &P) {
  for (const BindDecl &Bd : P.Binds) {
    if (Bd.Kind != BindKind::DepthStencil && Bd.Kind != BindKind::Color &&
        Bd.Kind != BindKind::Resolve)
      continue;
    BufferDecl &B = *S.findBuffer(Bd.Buffer);
    const BufferFormat &F = B.Format;
    std::vector<uint8_t> Px(F.ElementSize);
    if (Bd.Kind == BindKind::DepthStencil) {
      if (const Component *D = F.channel('D'))
        writeComponentDouble(*D, P.ClearDepth, &Px[D->Offset]);
      if (const Component *St = F.channel('S'))
        writeComponentDouble(*St, P.ClearStencil, &Px[St->Offset]);
    } else if (F.Packed) {
      // The library's codec knows the bit fields (and sRGB encodes a
      // linear clear colour); integer clears scale as below.
      Format Fmt = *formatByName(F.Name);
      Float4 C;
      for (unsigned I = 0; I < 4; ++I)
        C[I] = float(P.ClearColor[I]);
      switch (formatInfo(Fmt)->view()) {
      case ViewKind::UInt:
        (void)encodeTexel(Fmt, UInt4{uint32_t(C[0] * 255), uint32_t(C[1] * 255),
                                     uint32_t(C[2] * 255), uint32_t(C[3] * 255)},
                          Px.data());
        break;
      case ViewKind::SInt:
        (void)encodeTexel(Fmt, Int4{int32_t(C[0] * 255), int32_t(C[1] * 255),
                                    int32_t(C[2] * 255), int32_t(C[3] * 255)},
                          Px.data());
        break;
      default:
        (void)encodeTexel(Fmt, C, Px.data());
      }
    } else {
      const char Channels[] = {'R', 'G', 'B', 'A'};
      for (unsigned C = 0; C < 4; ++C)
        if (const Component *Co = F.channel(Channels[C])) {
          double V = P.ClearColor[C];
          if (Co->Kind == NumKind::Int || Co->Kind == NumKind::UInt)
            V *= 255.0;
          else if (F.Srgb && C < 3) // a clear colour is linear
            V = linearToSRGB(float(V));
          writeComponentDouble(*Co, V, &Px[Co->Offset]);
        }
    }
    // The attachment's level of the buffer's mip chain.
    BufferDecl::MipLevel Lv = B.mipLevel(Bd.BaseMipLevel);
    uint64_t End = std::min<uint64_t>(B.Data.size(), Lv.Offset + Lv.bytes());
    if (B.MipLevels == 1)
      End = B.Data.size();
    for (uint64_t I = Lv.Offset; I + F.ElementSize <= End; I += F.ElementSize)
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
    case Command::DrawGrid:
    case Command::DrawArray: {
      auto R = resources(*P);
      E = R ? Graphics.draw(C, *P, *R) : R.takeError();
      break;
    }
    case Command::ClearDepth:
      P->ClearDepth = C.Nums[0];
      break;
    case Command::ClearStencil:
      P->ClearStencil = uint32_t(C.Nums[0]);
      break;
    case Command::ClearColor:
      for (unsigned I = 0; I < 4; ++I)
        P->ClearColor[I] = C.Nums[I] / 255.0;
      break;
    case Command::Clear:
      clear(*P);
      break;
    case Command::WriteBuffer: {
      BufferDecl &B = *S.findBuffer(C.Buffer);
      if (B.Data.size() < C.Offset + C.Bytes.size())
        B.Data.resize(C.Offset + C.Bytes.size());
      std::memcpy(B.Data.data() + C.Offset, C.Bytes.data(), C.Bytes.size());
      break;
    }
    case Command::ResizeBuffer:
      S.findBuffer(C.Buffer)->Data.resize(C.Offset);
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
  StringRef Text = (*Buf)->getBuffer();
  // VkScript by name, or by content (the conformance suite names its
  // VkScript files *.amber).
  bool Vk = Path.ends_with(".vkscript") || isVkScript(Text);
  auto S = Vk ? parseVkScript(Text, Dir) : parseScript(Text, Dir);
  if (!S)
    return {Outcome::Fail, toString(S.takeError())};
  return runScript(*S, O);
}

} // namespace spirv2llvm::amber
