//===- Glslang.cpp - GLSL and HLSL to SPIR-V with the glslang library -----===//
//
// Compiles one shader in process, as glslangValidator -V (or -D -V for HLSL)
// would: Vulkan semantics, default resource limits, no SPIR-V optimizer and
// no debug information (the SPIR-V optimizer runs later, in
// canonicalizeSpirv, with the translator's own pass list).
//
// Limitation: HLSL that glslang only makes legal with its optimizer (opaque
// resources passed to functions or stored in local variables) comes out as
// SPIR-V that spirv-val rejects; compile such shaders with dxc or
// glslangValidator and give the translator the binary.
//
// This file includes glslang's own copy of spirv.hpp, whose namespace spv
// clashes with SPIRV-Headers' spirv.hpp11; keep the two in separate files.
//
//===----------------------------------------------------------------------===//

#include "frontend/Frontend.h"
#include "support/Diagnostic.h"

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <climits>
#include <string>

namespace spirv2llvm::frontend {

namespace {

/// The client API and SPIR-V version glslang compiles for.
struct GlslangTarget {
  glslang::EShClient Client;
  glslang::EShTargetClientVersion ClientVersion;
  glslang::EShTargetLanguageVersion SpirvVersion;
};

/// Maps a SPIRV-Tools environment to glslang's. Vulkan environments use the
/// SPIR-V version that Vulkan version requires; spvX.Y (universal) uses the
/// oldest Vulkan that accepts SPIR-V X.Y, so the module carries no client
/// requirement the universal environment would not check anyway.
std::optional<GlslangTarget> glslangTarget(spv_target_env Env) {
  using namespace glslang;
  switch (Env) {
  case SPV_ENV_VULKAN_1_0:
  case SPV_ENV_UNIVERSAL_1_0:
    return GlslangTarget{EShClientVulkan, EShTargetVulkan_1_0,
                         EShTargetSpv_1_0};
  case SPV_ENV_UNIVERSAL_1_1:
    return GlslangTarget{EShClientVulkan, EShTargetVulkan_1_1,
                         EShTargetSpv_1_1};
  case SPV_ENV_UNIVERSAL_1_2:
    return GlslangTarget{EShClientVulkan, EShTargetVulkan_1_1,
                         EShTargetSpv_1_2};
  case SPV_ENV_VULKAN_1_1:
  case SPV_ENV_UNIVERSAL_1_3:
    return GlslangTarget{EShClientVulkan, EShTargetVulkan_1_1,
                         EShTargetSpv_1_3};
  case SPV_ENV_VULKAN_1_1_SPIRV_1_4:
  case SPV_ENV_UNIVERSAL_1_4:
    return GlslangTarget{EShClientVulkan, EShTargetVulkan_1_1,
                         EShTargetSpv_1_4};
  case SPV_ENV_VULKAN_1_2:
  case SPV_ENV_UNIVERSAL_1_5:
    return GlslangTarget{EShClientVulkan, EShTargetVulkan_1_2,
                         EShTargetSpv_1_5};
  case SPV_ENV_VULKAN_1_3:
  case SPV_ENV_UNIVERSAL_1_6:
    return GlslangTarget{EShClientVulkan, EShTargetVulkan_1_3,
                         EShTargetSpv_1_6};
  case SPV_ENV_OPENGL_4_0:
  case SPV_ENV_OPENGL_4_1:
  case SPV_ENV_OPENGL_4_2:
  case SPV_ENV_OPENGL_4_3:
  case SPV_ENV_OPENGL_4_5:
    // ARB_gl_spirv consumes SPIR-V 1.0 only.
    return GlslangTarget{EShClientOpenGL, EShTargetOpenGL_450,
                         EShTargetSpv_1_0};
  default:
    return std::nullopt;
  }
}

EShLanguage glslangStage(ShaderStage Stage) {
  switch (Stage) {
  case ShaderStage::Vertex:
    return EShLangVertex;
  case ShaderStage::Fragment:
    return EShLangFragment;
  case ShaderStage::Compute:
    return EShLangCompute;
  case ShaderStage::Geometry:
    return EShLangGeometry;
  }
  llvm_unreachable("unknown shader stage");
}

/// glslang keeps process-wide tables (built-in symbol tables, the pool
/// allocator key); InitializeProcess must run once before any TShader is
/// made. A function-local static makes that thread-safe. FinalizeProcess is
/// never called: the tables live until exit.
void initializeGlslang() {
  static const bool Initialized = glslang::InitializeProcess();
  (void)Initialized;
}

/// Turns a glslang info log into the project's diagnostic form. glslang
/// writes "ERROR: shader.frag:5: 'x' : undeclared identifier" (the string
/// name is the file name, see compileGlsl) and ends with a summary line
/// "ERROR: 1 compilation errors.  No code generated."; the result keeps every
/// located line as "shader.frag:5: error: 'x' : undeclared identifier", drops
/// the summary, and prefixes the remaining unlocated lines (link errors) with
/// the file name.
std::string formatGlslangLog(llvm::StringRef Log, llvm::StringRef FileName) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Log.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string Result;
  std::string Located = (FileName + ":").str();
  for (llvm::StringRef Line : Lines) {
    Line = Line.trim();
    if (Line.empty() || Line.contains("compilation errors.  No code generated"))
      continue;
    llvm::StringRef Severity;
    if (Line.consume_front("ERROR: "))
      Severity = "error";
    else if (Line.consume_front("WARNING: "))
      Severity = "warning";
    std::string Formatted;
    if (!Severity.empty() && Line.starts_with(Located)) {
      // "shader.frag:5: msg" -> "shader.frag:5: error: msg".
      llvm::StringRef Rest = Line.drop_front(Located.size());
      auto [LineNo, Msg] = Rest.split(": ");
      Formatted =
          (Located + LineNo + ": " + Severity + ": " + Msg.rtrim('.')).str();
    } else if (!Severity.empty()) {
      Formatted = (FileName + ": " + Severity + ": " + Line.rtrim('.')).str();
    } else {
      Formatted = (FileName + ": " + Line.rtrim('.')).str();
    }
    if (!Result.empty())
      Result += '\n';
    Result += Formatted;
  }
  if (Result.empty())
    Result = (FileName + ": glslang failed without a message").str();
  return Result;
}

/// Resolves `#include` from an in-memory file list (Amber's VIRTUAL_FILE
/// store): "a.h" beside the including file first, then as written;
/// <a.h> as written. The results point into the list, which outlives the
/// parse.
class ListIncluder : public glslang::TShader::Includer {
public:
  explicit ListIncluder(
      const std::vector<std::pair<std::string, std::string>> &Files)
      : Files(Files) {}

  IncludeResult *includeLocal(const char *Header, const char *Includer,
                              size_t) override {
    llvm::StringRef Dir = llvm::sys::path::parent_path(
        Includer, llvm::sys::path::Style::posix);
    if (!Dir.empty()) {
      llvm::SmallString<128> Beside(Dir);
      llvm::sys::path::append(Beside, llvm::sys::path::Style::posix, Header);
      if (IncludeResult *R = find(Beside))
        return R;
    }
    return find(Header);
  }
  IncludeResult *includeSystem(const char *Header, const char *,
                               size_t) override {
    return find(Header);
  }
  void releaseInclude(IncludeResult *R) override { delete R; }

private:
  IncludeResult *find(llvm::StringRef Path) {
    llvm::SmallString<128> Clean(Path);
    llvm::sys::path::remove_dots(Clean, /*remove_dot_dot=*/true,
                                 llvm::sys::path::Style::posix);
    for (const auto &[Name, Text] : Files) {
      llvm::SmallString<128> N(Name);
      llvm::sys::path::remove_dots(N, true, llvm::sys::path::Style::posix);
      if (N == Clean)
        return new IncludeResult(Name, Text.data(), Text.size(), nullptr);
    }
    return nullptr; // glslang reports the include as not found
  }
  const std::vector<std::pair<std::string, std::string>> &Files;
};

} // namespace

llvm::Expected<std::vector<uint32_t>> compileGlsl(llvm::StringRef Source,
                                                  const GlslOptions &Opts) {
  std::string FileName = Opts.FileName.empty() ? "<input>" : Opts.FileName;
  std::optional<GlslangTarget> Target = glslangTarget(Opts.TargetEnv);
  if (!Target)
    return makeError(FileName + ": cannot compile for target environment '" +
                     spvTargetEnvDescription(Opts.TargetEnv) +
                     "' (expected a vulkan, spv or opengl environment)");
  bool Hlsl = Opts.Language == SourceLanguage::Hlsl;
  if (!Hlsl && !Opts.EntryPoint.empty() && Opts.EntryPoint != "main")
    // glslang honours a source entry point for HLSL only; for GLSL it would
    // end in a confusing "missing entry point" link error.
    return makeError(FileName +
                     ": error: the entry point of a GLSL shader "
                     "must be 'main', not '" +
                     Opts.EntryPoint + "'");
  if (Source.size() > static_cast<size_t>(INT_MAX))
    return makeError(FileName + ": error: source larger than 2 GiB");
  initializeGlslang();

  EShLanguage Stage = glslangStage(Opts.Stage);
  // The shader must outlive the program that links it: declare it first.
  glslang::TShader Shader(Stage);
  const char *Text = Source.data();
  int Length = static_cast<int>(Source.size());
  // Naming the string after the file makes glslang's log say
  // "shader.frag:5:" instead of "0:5:".
  const char *Name = FileName.c_str();
  Shader.setStringsWithLengthsAndNames(&Text, &Length, &Name, 1);

  // The input dialect version 100 is what glslangValidator passes for
  // KHR_vulkan_glsl and ARB_gl_spirv alike.
  Shader.setEnvInput(Hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl,
                     Stage, Target->Client, 100);
  Shader.setEnvClient(Target->Client, Target->ClientVersion);
  Shader.setEnvTarget(glslang::EShTargetSpv, Target->SpirvVersion);
  if (Hlsl) {
    Shader.setEntryPoint(Opts.EntryPoint.c_str());
    Shader.setSourceEntryPoint(Opts.EntryPoint.c_str());
    // glslang 12 gives GLSL buffer blocks the StorageBuffer storage class
    // from SPIR-V 1.3 on, but HLSL RW/structured buffers always get
    // Uniform + BufferBlock, which SPIR-V 1.4 removed: spirv-val rejects
    // glslangValidator's own output for vulkan1.2. Ask for StorageBuffer
    // where BufferBlock is no longer allowed.
    if (Target->SpirvVersion >= glslang::EShTargetSpv_1_4)
      Shader.getIntermediate()->setUseStorageBuffer();
  }

  unsigned Messages = EShMsgSpvRules;
  if (Target->Client == glslang::EShClientVulkan)
    Messages |= EShMsgVulkanRules;
  if (Hlsl)
    Messages |= EShMsgReadHlsl;
  // Default version 100 and no forward compatibility, as glslangValidator;
  // a GLSL source without #version gets glslang's own error for it.
  ListIncluder Includer(Opts.IncludeFiles);
  if (!Shader.parse(GetDefaultResources(), /*defaultVersion=*/100,
                    /*forwardCompatible=*/false,
                    static_cast<EShMessages>(Messages), Includer))
    return makeError(formatGlslangLog(Shader.getInfoLog(), FileName));

  glslang::TProgram Program;
  Program.addShader(&Shader);
  if (!Program.link(static_cast<EShMessages>(Messages)))
    return makeError(formatGlslangLog(Program.getInfoLog(), FileName));
  // For HLSL a missing entry point is only a link warning, and the module
  // gets an empty function by that name: make it the error it is.
  if (Hlsl && Program.getIntermediate(Stage)->getNumEntryPoints() < 1)
    return makeError(FileName + ": error: entry point '" + Opts.EntryPoint +
                     "' not found");

  glslang::SpvOptions SpvOpts;
  SpvOpts.generateDebugInfo = false;
  SpvOpts.stripDebugInfo = false;
  SpvOpts.disableOptimizer = true;
  SpvOpts.optimizeSize = false;
  SpvOpts.disassemble = false;
  SpvOpts.validate = false;
  std::vector<unsigned> Spirv;
  spv::SpvBuildLogger Logger;
  glslang::GlslangToSpv(*Program.getIntermediate(Stage), Spirv, &Logger,
                        &SpvOpts);
  // The logger lists features glslang could not translate ("Missing
  // functionality: ...") and errors; either means the module is incomplete.
  std::string LoggerText = Logger.getAllMessages();
  if (llvm::StringRef(LoggerText).contains("Missing functionality") ||
      llvm::StringRef(LoggerText).contains("error:"))
    return makeError(FileName + ": SPIR-V generation failed: " +
                     llvm::StringRef(LoggerText).trim());
  if (Spirv.empty())
    return makeError(FileName + ": SPIR-V generation produced no code");
  return std::vector<uint32_t>(Spirv.begin(), Spirv.end());
}

} // namespace spirv2llvm::frontend
