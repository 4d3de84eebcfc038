//===- Pipeline.cpp - The translation stages, wired -----------------------===//
#include "api/Pipeline.h"

#include "codegen/Codegen.h"
#include "frontend/Frontend.h"
#include "parser/Parser.h"
#include "target/Emit.h"
#include "target/Optimizer.h"
#include "spirv2llvm/Passes.h"
#include "support/Contraction.h"
#include "support/Diagnostic.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

InputKind kindFromPath(StringRef Path, ArrayRef<uint8_t> Bytes) {
  StringRef Ext = sys::path::extension(Path);
  if (Ext == ".spv")
    return InputKind::Binary;
  if (Ext == ".spvasm")
    return InputKind::Assembly;
  if (Ext == ".hlsl")
    return InputKind::Hlsl;
  if (Ext == ".vert" || Ext == ".frag" || Ext == ".comp" || Ext == ".geom" ||
      Ext == ".glsl")
    return InputKind::Glsl;
  if (Bytes.size() >= 4) {
    uint32_t W = uint32_t(Bytes[0]) | uint32_t(Bytes[1]) << 8 |
                 uint32_t(Bytes[2]) << 16 | uint32_t(Bytes[3]) << 24;
    if (W == 0x07230203u || W == 0x03022307u)
      return InputKind::Binary;
  }
  return InputKind::Auto;
}

frontend::ShaderStage toFrontend(Stage S) {
  switch (S) {
  case Stage::Vertex:
    return frontend::ShaderStage::Vertex;
  case Stage::Fragment:
    return frontend::ShaderStage::Fragment;
  case Stage::Compute:
    return frontend::ShaderStage::Compute;
  case Stage::Geometry:
    return frontend::ShaderStage::Geometry;
  }
  return frontend::ShaderStage::Fragment;
}

Stage stageOf(spv::ExecutionModel Model) {
  switch (Model) {
  case spv::ExecutionModel::Vertex:
    return Stage::Vertex;
  case spv::ExecutionModel::GLCompute:
    return Stage::Compute;
  case spv::ExecutionModel::Geometry:
    return Stage::Geometry;
  default:
    return Stage::Fragment;
  }
}

void printStage(const TranslateOptions &Opts, StringRef Stage,
                ArrayRef<uint32_t> Words, spv_target_env Env) {
  if (!Opts.PrintAfterStage)
    return;
  Expected<std::string> Text = frontend::disassembleSpirv(Words, Env);
  Opts.PrintAfterStage(Stage, Text ? *Text : toString(Text.takeError()));
}

} // namespace

Expected<std::vector<uint32_t>> loadSpirv(ArrayRef<uint8_t> Bytes,
                                          StringRef FileName,
                                          const TranslateOptions &Opts,
                                          spv_target_env &Env) {
  Expected<spv_target_env> E = frontend::parseTargetEnv(Opts.TargetEnv);
  if (!E)
    return E.takeError();
  Env = *E;
  InputKind Kind = Opts.Kind == InputKind::Auto ? kindFromPath(FileName, Bytes)
                                                : Opts.Kind;
  std::vector<uint32_t> Words;
  switch (Kind) {
  case InputKind::Auto:
    return makeError(FileName + ": unknown input type: use a .spv, .spvasm, "
                                ".vert, .frag, .comp, .glsl or .hlsl file, "
                                "or a SPIR-V binary");
  case InputKind::Binary: {
    auto W = frontend::decodeBinary(Bytes, FileName);
    if (!W)
      return W.takeError();
    Words = std::move(*W);
    break;
  }
  case InputKind::Assembly: {
    StringRef Text(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
    auto W = frontend::assembleSpirv(Text, Env, FileName);
    if (!W)
      return W.takeError();
    Words = std::move(*W);
    break;
  }
  case InputKind::Glsl:
  case InputKind::Hlsl: {
    frontend::GlslOptions G;
    G.Language = Kind == InputKind::Hlsl ? frontend::SourceLanguage::Hlsl
                                         : frontend::SourceLanguage::Glsl;
    G.TargetEnv = Env;
    G.FileName = FileName.str();
    G.IncludeFiles = Opts.IncludeFiles;
    if (!Opts.EntryPoint.empty() && Kind == InputKind::Hlsl)
      G.EntryPoint = Opts.EntryPoint;
    if (Opts.ShaderStage)
      G.Stage = toFrontend(*Opts.ShaderStage);
    else if (auto S = frontend::stageFromExtension(FileName))
      G.Stage = *S;
    else
      return makeError(FileName + ": cannot tell the shader stage from the "
                                  "file name: pass --stage vert|frag|comp");
    StringRef Text(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
    auto W = frontend::compileGlsl(Text, G);
    if (!W)
      return W.takeError();
    Words = std::move(*W);
    break;
  }
  }
  printStage(Opts, "input", Words, Env);
  if (Opts.Validate) {
    if (Error Err = frontend::validateSpirv(Words, Env))
      return makeError(FileName + ": " + toString(std::move(Err)));
    if (!Opts.OptimizerPasses.empty()) {
      auto Opt = frontend::optimizeSpirv(Words, Env, Opts.OptimizerPasses);
      if (!Opt)
        return makeError(FileName + ": " + toString(Opt.takeError()));
      Words = std::move(*Opt);
      printStage(Opts, "spirv-opt", Words, Env);
    }
    // The optimizer assumes valid SPIR-V, so it only runs on validated
    // input; --no-validate means the translator sees the module as given.
    // Without canonicalization, specialization constants are still set,
    // frozen and folded, as a driver does.
    frontend::CanonicalizeOptions C;
    C.Inline = Opts.Inline;
    C.SpecValues = Opts.SpecValues;
    C.SpecializeOnly = !Opts.Canonicalize;
    auto Canon = frontend::canonicalizeSpirv(Words, Env, C);
    if (!Canon)
      return makeError(FileName + ": canonicalization failed: " +
                       toString(Canon.takeError()));
    Words = std::move(*Canon);
    printStage(Opts, Opts.Canonicalize ? "canonicalize" : "specialize",
               Words, Env);
  } else if (!Opts.OptimizerPasses.empty()) {
    return makeError(FileName + ": spirv-opt passes need validation (they "
                                "cannot be combined with --no-validate)");
  } else if (!Opts.SpecValues.empty()) {
    // Specialization runs SPIRV-Tools' passes, which need valid input.
    return makeError(FileName + ": --spec needs validation (it cannot be "
                                "combined with --no-validate)");
  }
  return Words;
}

Expected<AnalyzedModule> analyzeSpirv(std::vector<uint32_t> Words,
                                      spv_target_env Env,
                                      const TranslateOptions &Opts) {
  AnalyzedModule AM;
  AM.Env = Env;
  AM.Words = std::move(Words);
  // spirv-dis names, so that even parse errors name ids as users see them.
  // The disassembler copes with malformed input (names fall back to
  // numbers); a forged bound is left to the parser to reject.
  // Computed on first use (diagnostics, printers): the disassembly costs
  // more than the whole parse, and block names need it only for labels
  // with an OpName (Module::plainName).
  std::function<std::vector<std::string>()> Names;
  if (AM.Words.size() >= 5 && AM.Words[3] <= 0x400000u)
    Names = [Words = AM.Words, Env] {
      return frontend::friendlyNames(Words, Words[3], Env);
    };
  auto Parsed = parseModule(AM.Words, {}, std::move(Names));
  if (!Parsed)
    return Parsed.takeError();
  AM.M = std::move(*Parsed);

  const Module &M = *AM.M;
  if (M.EntryPoints.empty())
    return makeError("module has no entry point");
  if (!Opts.EntryPoint.empty()) {
    AM.EP = M.findEntryPoint(Opts.EntryPoint);
    if (!AM.EP) {
      std::string Names;
      for (const EntryPoint &E : M.EntryPoints)
        Names += (Names.empty() ? "" : ", ") + E.Name;
      return makeError("no entry point named \"" + Opts.EntryPoint +
                       "\" (the module has: " + Names + ")");
    }
  } else if (M.EntryPoints.size() > 1) {
    std::string Names;
    for (const EntryPoint &E : M.EntryPoints)
      Names += (Names.empty() ? "" : ", ") + E.Name;
    return makeError("module has " + Twine(M.EntryPoints.size()) +
                     " entry points (" + Names + "): choose one with --entry");
  } else {
    AM.EP = &M.EntryPoints[0];
  }

  auto MA = cfg::analyzeModule(M);
  if (!MA)
    return MA.takeError();
  AM.MA = std::move(*MA);
  AM.UI = computeUniformity(M, *AM.EP, AM.MA);
  return AM;
}

Expected<Translation> generateLlvm(const AnalyzedModule &AM,
                                   const TranslateOptions &Opts) {
  Translation T;
  T.Context = std::make_unique<LLVMContext>();
  T.Context->setDiscardValueNames(!Opts.ValueNames && !Opts.PrintAfterStage);
  CodegenOptions CO;
  CO.Width = Opts.Width;
  CO.RobustBufferAccess = Opts.RobustBufferAccess;
  CO.SpeculateSmallBlocks = Opts.SpeculateSmallBlocks;
  auto R = Opts.Backend == Backend::Simd
               ? emitSimdModule(*AM.M, *AM.EP, AM.MA, AM.UI, CO, *T.Context)
               : emitInvocationModule(*AM.M, *AM.EP, AM.MA, CO, *T.Context);
  if (!R)
    return R.takeError();
  T.IR = std::move(R->IR);
  if (!Opts.Contract)
    T.IR->addModuleFlag(llvm::Module::Override, NoContractionMetadata, 1);
  T.EntrySymbol = R->EntrySymbol;
  T.EntryName = AM.EP->Name;
  T.Layout = std::move(R->Layout);
  T.Compute = R->Compute;
  T.Compute.BoundsChecked = Opts.RobustBufferAccess;
  T.EntryStage = stageOf(AM.EP->Model);
  T.OptLevel = Opts.OptLevel;

  // Host triple and data layout, so the IR is ready for opt, llc and the
  // JIT. A target machine is made only when the optimizer needs one.
  if (!hostTriple().empty()) {
    T.IR->setTargetTriple(hostTriple());
    T.IR->setDataLayout(hostDataLayout());
  }
  Expected<std::unique_ptr<TargetMachine>> TM =
      std::unique_ptr<TargetMachine>();
  if (Opts.OptLevel > 0)
    TM = createHostTargetMachine(Opts.OptLevel);
  if (!TM)
    consumeError(TM.takeError());
  if (Opts.PrintAfterStage) {
    std::string S;
    raw_string_ostream OS(S);
    T.IR->print(OS, nullptr);
    Opts.PrintAfterStage("codegen", OS.str());
  }
  // --backend=scalar|dxil: the DXIL-shaped passes (src/passes) on the
  // invocation back end's module.
  if (Opts.Backend == Backend::Scalar || Opts.Backend == Backend::Dxil) {
    runDxilPipeline(*T.IR, Opts.Backend == Backend::Scalar
                               ? DxilPipeline::Scalar
                           : Opts.DxilNativeVectors
                               ? DxilPipeline::DxilNativeVectors
                               : DxilPipeline::Dxil);
    if (Opts.PrintAfterStage) {
      std::string S;
      raw_string_ostream OS(S);
      T.IR->print(OS, nullptr);
      Opts.PrintAfterStage(Opts.Backend == Backend::Scalar ? "scalar-passes"
                                                           : "dxil-passes",
                           OS.str());
    }
  }
  // -O1..3 after the scalar/DXIL passes must not vectorize again.
  optimizeModule(*T.IR, Opts.OptLevel, TM ? TM->get() : nullptr,
                 /*Vectorize=*/Opts.Backend != Backend::Scalar &&
                     Opts.Backend != Backend::Dxil);
  if (Opts.PrintAfterStage && Opts.OptLevel > 0) {
    std::string S;
    raw_string_ostream OS(S);
    T.IR->print(OS, nullptr);
    Opts.PrintAfterStage(("O" + Twine(Opts.OptLevel)).str(), OS.str());
  }
  return T;
}

/// loadSpirv + analyzeSpirv, with analysis errors prefixed by \p FileName.
static Expected<AnalyzedModule> loadAndAnalyze(ArrayRef<uint8_t> Bytes,
                                               StringRef FileName,
                                               const TranslateOptions &Opts) {
  spv_target_env Env;
  auto Words = loadSpirv(Bytes, FileName, Opts, Env);
  if (!Words)
    return Words.takeError();
  auto AM = analyzeSpirv(std::move(*Words), Env, Opts);
  if (!AM)
    return makeError(FileName + ": " + toString(AM.takeError()));
  return AM;
}

Expected<Translation> translateBytes(ArrayRef<uint8_t> Bytes,
                                     StringRef FileName,
                                     const TranslateOptions &Opts) {
  auto AM = loadAndAnalyze(Bytes, FileName, Opts);
  if (!AM)
    return AM.takeError();
  auto T = generateLlvm(*AM, Opts);
  if (!T)
    return makeError(FileName + ": " + toString(T.takeError()));
  return T;
}

Expected<Translation> translateFile(StringRef Path,
                                    const TranslateOptions &Opts) {
  auto Buf = MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false);
  if (!Buf)
    return makeError(Path + ": cannot read: " + Buf.getError().message());
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
      (*Buf)->getBufferSize());
  return translateBytes(Bytes, Path, Opts);
}

Error emitTranslation(Translation &T, OutputKind Kind, raw_ostream &OS) {
  return emitModule(*T.IR, Kind, T.OptLevel, OS);
}

Expected<Reflection> reflectBytes(ArrayRef<uint8_t> Bytes, StringRef FileName,
                                  const TranslateOptions &Opts) {
  auto AM = loadAndAnalyze(Bytes, FileName, Opts);
  if (!AM)
    return AM.takeError();
  unsigned Width = Opts.Backend == Backend::Simd ? Opts.Width : 1;
  auto E = reflectEntryPoint(*AM->M, *AM->EP, Width);
  if (!E)
    return makeError(FileName + ": " + toString(E.takeError()));
  Reflection R;
  R.EntryName = AM->EP->Name;
  R.EntryStage = stageOf(AM->EP->Model);
  R.Layout = std::move(E->Layout);
  R.Compute = std::move(E->Compute);
  R.Compute.BoundsChecked = Opts.RobustBufferAccess;
  for (const EntryPoint &EP : AM->M->EntryPoints)
    R.EntryPoints.emplace_back(EP.Name, stageOf(EP.Model));
  return R;
}

const char *version() { return SPIRV2LLVM_VERSION; }

} // namespace spirv2llvm
