//===- Cli.cpp - The spirv2llvm command line ------------------------------===//
//
// Parses arguments into CliOptions by hand (no global cl::opt state, so the
// CLI can run in-process from tests), runs the pipeline, prints dumps and
// the result. Exit status: 0 success, 1 bad input, 2 bad usage.
//
//===----------------------------------------------------------------------===//
#include "Cli.h"

#include "cfg/CfgPrinter.h"
#include "codegen/Codegen.h"
#include "AmberCommand.h"
#include "ArgParse.h"
#include "api/Pipeline.h"
#include "RunCommand.h"
#include "frontend/Frontend.h"
#include "uniformity/LaneShape.h"
#include "support/Diagnostic.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <charconv>

using namespace llvm;

namespace spirv2llvm {

namespace {

const char *const HelpText = R"(usage: spirv2llvm [options] INPUT
       spirv2llvm run SHADER [options]   (runs a compute shader; see run --help)
       spirv2llvm amber FILE... [options] (runs Amber scripts; see amber --help)

Translates a shader to LLVM IR that runs W invocations per call (or one,
with a non-simd --backend).
INPUT is a SPIR-V binary (.spv, either byte order), SPIR-V assembly
(.spvasm), GLSL (.vert .frag .comp .glsl) or HLSL (.hlsl); - reads stdin.

Output:
  -o FILE                 write the result to FILE (default: stdout)
  --emit=ll|bc|obj|asm    LLVM IR text (default), bitcode, object, assembly
  -O0 .. -O3              LLVM optimization level (default -O0: SSA form)
  --width=4|8|16          invocations per call (default 4; simd back end only)
  --backend=simd|invocation|scalar|dxil
                          code generator (default simd; docs/backends.md):
                          invocation: one invocation per call, vectors as
                          LLVM vectors, groupshared in addrspace(3);
                          scalar: invocation + dxil-scalarizer;
                          dxil: scalar + data scalarization, flattened
                          arrays and dx.op calls
  --dxil-native-vectors   with --backend=dxil: DXIL 1.9 native vectors

Input:
  --entry NAME            entry point to translate (default: the only one)
  --stage vert|frag|comp  stage of a .glsl/.hlsl source
  --lang glsl|hlsl        source language (default: from the extension)
  --target-env ENV        vulkan1.0..vulkan1.3, spv1.0..spv1.6, opengl4.5,
                          universal1.0..universal1.6 (default vulkan1.3)
  --no-validate           skip the SPIRV-Tools validator (and so the
                          canonicalization, which needs valid input)
  --no-canonicalize       skip the SPIRV-Tools canonicalization passes
  --no-inline             keep calls (canonicalization does not inline)
  --no-speculate-small-blocks  keep the any-lane branch around every
                          divergent block (default: short arithmetic blocks
                          run unguarded, docs/performance.md)
  --no-contract           the JIT rounds every multiply and add on its own
                          (default: a * b + c may fuse into an FMA where
                          SPIR-V allows, i.e. without NoContraction)
  --robust-buffer-access  bounds-check buffer accesses (out of bounds: loads
                          read 0, stores and atomics are dropped)
  --spec ID=VALUE         set specialization constant SpecId ID

Dumps (to stdout; the IR is not printed unless -o or --emit is given):
  --print-cfg[=mermaid|dot]   control flow graph of each function
  --print-domtree             dominator tree (Mermaid)
  --print-structure[=full]    structure tree (=full: also the constructs)
  --print-uniformity          uniformity of values, variables and blocks,
                              and the lane shapes (affine strides) at --width
  --print-interface           input/output layout of the entry point
  --print-after-all           the module after every stage (to stderr)

  --help, --version
)";

struct CliOptions {
  std::string Input;
  std::string Output;
  std::string Emit = "ll";
  bool EmitGiven = false;
  TranslateOptions T;
  std::optional<std::string> PrintCfg;
  bool PrintDomTree = false;
  std::optional<std::string> PrintStructure;
  bool PrintUniformity = false;
  bool PrintInterface = false;
  bool PrintAfterAll = false;
  bool Help = false, Version = false;
  bool WidthGiven = false;

  bool anyDump() const {
    return PrintCfg || PrintDomTree || PrintStructure || PrintUniformity ||
           PrintInterface;
  }
};

/// Parses \p Args (without argv[0]); on error returns the message.
std::optional<std::string> parseArgs(ArrayRef<std::string> Args,
                                     CliOptions &O) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    // "--flag=value" or "--flag value" for options that take a value.
    auto Value = [&](StringRef Flag, std::string &Out) {
      return takeOptionValue(Args, I, Flag, Out);
    };
    std::string V;
    int R;
    if (A == "--help" || A == "-h") {
      O.Help = true;
    } else if (A == "--version") {
      O.Version = true;
    } else if ((R = Value("-o", V))) {
      if (R < 0)
        return "-o needs a file name";
      O.Output = V;
    } else if ((R = Value("--emit", V))) {
      if (R < 0 || (V != "ll" && V != "bc" && V != "obj" && V != "asm"))
        return "--emit takes ll, bc, obj or asm";
      O.Emit = V;
      O.EmitGiven = true;
    } else if (A.size() == 3 && A.starts_with("-O") && A[2] >= '0' &&
               A[2] <= '3') {
      O.T.OptLevel = unsigned(A[2] - '0');
    } else if ((R = Value("--width", V))) {
      if (R < 0 || (V != "4" && V != "8" && V != "16"))
        return "--width takes 4, 8 or 16";
      O.T.Width = unsigned(std::stoul(V));
      O.WidthGiven = true;
    } else if ((R = Value("--backend", V))) {
      std::optional<Backend> Bk = parseBackend(V);
      if (R < 0 || !Bk)
        return "--backend takes simd, invocation, scalar or dxil";
      O.T.Backend = *Bk;
    } else if (A == "--dxil-native-vectors") {
      O.T.DxilNativeVectors = true;
    } else if ((R = Value("--entry", V))) {
      if (R < 0 || V.empty())
        return "--entry needs a name";
      O.T.EntryPoint = V;
    } else if ((R = Value("--stage", V))) {
      if (V == "vert" || V == "vertex")
        O.T.ShaderStage = Stage::Vertex;
      else if (V == "frag" || V == "fragment")
        O.T.ShaderStage = Stage::Fragment;
      else if (V == "comp" || V == "compute")
        O.T.ShaderStage = Stage::Compute;
      else
        return "--stage takes vert, frag or comp";
    } else if ((R = Value("--lang", V))) {
      if (V == "glsl")
        O.T.Kind = InputKind::Glsl;
      else if (V == "hlsl")
        O.T.Kind = InputKind::Hlsl;
      else
        return "--lang takes glsl or hlsl";
    } else if ((R = Value("--target-env", V))) {
      if (R < 0)
        return "--target-env needs a name";
      // A bad name is bad usage (exit 2), not bad input: check it here.
      if (Expected<spv_target_env> Env = frontend::parseTargetEnv(V); !Env)
        return toString(Env.takeError());
      O.T.TargetEnv = V;
    } else if (parseTranslationFlag(A, O.T)) {
      // --no-validate, --no-canonicalize, ... (ArgParse.h)
    } else if ((R = Value("--spec", V))) {
      size_t Eq = V.find('=');
      uint32_t Id = 0;
      if (R < 0 || Eq == std::string::npos || Eq == 0 || Eq + 1 == V.size() ||
          std::from_chars(V.data(), V.data() + Eq, Id).ptr != V.data() + Eq)
        return "--spec takes ID=VALUE, for example --spec 3=16";
      O.T.SpecValues.emplace_back(Id, V.substr(Eq + 1));
    } else if (A == "--print-cfg" || A.starts_with("--print-cfg=")) {
      O.PrintCfg = A == "--print-cfg" ? "mermaid" : A.substr(12).str();
      if (*O.PrintCfg != "mermaid" && *O.PrintCfg != "dot")
        return "--print-cfg takes mermaid or dot";
    } else if (A == "--print-domtree") {
      O.PrintDomTree = true;
    } else if (A == "--print-structure" || A == "--print-structure=full") {
      O.PrintStructure = A == "--print-structure" ? "" : "full";
    } else if (A == "--print-uniformity") {
      O.PrintUniformity = true;
    } else if (A == "--print-interface") {
      O.PrintInterface = true;
    } else if (A == "--print-after-all") {
      O.PrintAfterAll = true;
    } else if (A == "-" || !A.starts_with("-")) {
      if (!O.Input.empty())
        return "more than one input file ('" + O.Input + "' and '" + A.str() +
               "')";
      O.Input = A.str();
    } else {
      return "unknown option '" + A.str() + "'";
    }
  }
  if (!O.Help && !O.Version && O.Input.empty())
    return "no input file";
  if (std::optional<std::string> E =
          checkBackendOptions(O.T, O.WidthGiven))
    return E;
  return std::nullopt;
}

/// Writes the translated module in the requested form.
Error writeOutput(const CliOptions &O, Translation &T, raw_ostream &Out) {
  std::unique_ptr<ToolOutputFile> File;
  raw_ostream *OS = &Out;
  bool Binary = O.Emit == "bc" || O.Emit == "obj";
  if (!O.Output.empty() && O.Output != "-") {
    std::error_code EC;
    File = std::make_unique<ToolOutputFile>(
        O.Output, EC, Binary ? sys::fs::OF_None : sys::fs::OF_Text);
    if (EC)
      return makeError(O.Output + ": cannot write: " + EC.message());
    OS = &File->os();
  }
  OutputKind Kind = O.Emit == "ll"   ? OutputKind::IRText
                    : O.Emit == "bc" ? OutputKind::Bitcode
                    : O.Emit == "obj" ? OutputKind::Object
                                      : OutputKind::Assembly;
  if (Error E = emitTranslation(T, Kind, *OS))
    return E;
  if (File)
    File->keep();
  return Error::success();
}

} // namespace

int runCli(ArrayRef<std::string> Args, raw_ostream &Out, raw_ostream &Err) {
  if (!Args.empty() && Args[0] == "run")
    return runCommand(Args.drop_front(), Out, Err);
  if (!Args.empty() && Args[0] == "amber")
    return amberCommand(Args.drop_front(), Out, Err);
  CliOptions O;
  if (auto Msg = parseArgs(Args, O)) {
    Err << "spirv2llvm: error: " << *Msg
        << "\n(run 'spirv2llvm --help' for usage)\n";
    return 2;
  }
  if (O.Help) {
    Out << HelpText;
    return 0;
  }
  if (O.Version) {
    Out << "spirv2llvm " << version() << " (LLVM " << LLVM_VERSION_STRING
        << ")\n";
    return 0;
  }
  if (O.PrintAfterAll)
    O.T.PrintAfterStage = [&](StringRef Stage, StringRef Text) {
      Err << "; *** after " << Stage << " ***\n" << Text;
      if (!Text.ends_with("\n"))
        Err << "\n";
    };

  auto Fail = [&](Error E) {
    std::string Msg = toString(std::move(E));
    Err << "spirv2llvm: error: " << Msg << "\n";
    return 1;
  };
  auto Buf = MemoryBuffer::getFileOrSTDIN(O.Input, /*IsText=*/false);
  if (!Buf)
    return Fail(makeError(O.Input + ": cannot read: " +
                          Buf.getError().message()));
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
      (*Buf)->getBufferSize());
  std::string Name = O.Input == "-" ? "<stdin>" : O.Input;

  spv_target_env Env;
  auto Words = loadSpirv(Bytes, Name, O.T, Env);
  if (!Words)
    return Fail(Words.takeError());
  auto AM = analyzeSpirv(std::move(*Words), Env, O.T);
  if (!AM)
    return Fail(makeError(Name + ": " + toString(AM.takeError())));

  const Module &M = *AM->M;
  bool Several = false;
  for (uint32_t Fn = 0, N = 0; Fn < M.Functions.size(); ++Fn)
    Several |= AM->UI.isAnalyzed(Fn) && ++N > 1;
  auto ForEachFunction = [&](auto Print) {
    for (uint32_t Fn = 0; Fn < M.Functions.size(); ++Fn) {
      if (!AM->UI.isAnalyzed(Fn))
        continue;
      if (Several)
        Out << "%% function " << M.friendlyName(M.Functions[Fn].Id.value())
            << "\n";
      Print(AM->MA[Fn]);
    }
  };
  if (O.PrintCfg)
    ForEachFunction([&](const cfg::FunctionAnalysis &A) {
      if (*O.PrintCfg == "dot")
        cfg::printCfgDot(A.G, Out);
      else
        cfg::printCfgMermaid(A.G, Out);
    });
  if (O.PrintDomTree)
    ForEachFunction([&](const cfg::FunctionAnalysis &A) {
      cfg::printDomTreeMermaid(A.G, A.DT, Out);
    });
  if (O.PrintStructure)
    ForEachFunction([&](const cfg::FunctionAnalysis &A) {
      cfg::printStructureTree(A.G, A.Tree, Out, *O.PrintStructure == "full");
    });
  if (O.PrintUniformity) {
    // Lane shapes depend on the SIMD width (--width).
    LaneShapeInfo Lanes = computeLaneShapes(M, *AM->EP, AM->MA, AM->UI,
                                            LaneShapeOptions{O.T.Width});
    printUniformity(M, AM->MA, AM->UI, Out, &Lanes);
  }

  bool WantOutput = !O.anyDump() || O.EmitGiven || !O.Output.empty();
  if (!WantOutput && !O.PrintInterface)
    return 0;
  auto T = generateLlvm(*AM, O.T);
  if (!T)
    return Fail(makeError(Name + ": " + toString(T.takeError())));
  if (O.PrintInterface)
    T->Layout.print(Out);
  if (!WantOutput)
    return 0;
  if (Error E = writeOutput(O, *T, Out))
    return Fail(std::move(E));
  return 0;
}

} // namespace spirv2llvm
