//===- spirv2llvm/spirv2llvm.h - Public C++ API -----------------*- C++ -*-===//
//
// Translate a shader (SPIR-V binary or assembly, GLSL or HLSL) to LLVM IR,
// and JIT-compile the result to call it (see Jit.h). Errors come back as
// llvm::Error with a message that says what and where.
//
//   spirv2llvm::TranslateOptions Opts;
//   Opts.Width = 8;
//   auto T = spirv2llvm::translateFile("shader.frag", Opts);
//   if (!T) { llvm::errs() << llvm::toString(T.takeError()); ... }
//   T->IR->print(llvm::outs(), nullptr);
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_SPIRV2LLVM_H
#define SPIRV2LLVM_SPIRV2LLVM_H

#include "spirv2llvm/Interface.h"
#include "spirv2llvm/Translation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spirv2llvm {

enum class InputKind { Auto, Binary, Assembly, Glsl, Hlsl };

/// Code generator (docs/backends.md).
enum class Backend {
  /// W invocations per call in LLVM vectors (the default).
  Simd,
  /// One invocation per call; SPIR-V vectors are LLVM vectors, matrices
  /// arrays of column vectors, Workgroup variables addrspace(3) globals.
  Invocation,
  /// Invocation + the dxil-scalarizer pass: no vector operations left.
  Scalar,
  /// Scalar + dxil-data-scalarization, dxil-flatten-arrays, dxil-op-lower.
  Dxil,
};

struct TranslateOptions {
  /// How to read the input; Auto goes by the file extension (.spv,
  /// .spvasm, .vert/.frag/.comp/.glsl, .hlsl) and then by the magic number.
  InputKind Kind = InputKind::Auto;
  /// Shader stage for GLSL/HLSL sources whose extension does not say.
  std::optional<Stage> ShaderStage;
  /// Entry point to translate; empty: the module's only entry point.
  std::string EntryPoint;
  /// SPIRV-Tools target environment, as spirv-val spells it.
  std::string TargetEnv = "vulkan1.3";
  /// Run the SPIRV-Tools validator first.
  bool Validate = true;
  /// Run the SPIRV-Tools canonicalization passes (needs validation).
  bool Canonicalize = true;
  /// Inline all calls during canonicalization.
  bool Inline = true;
  /// Code generator.
  spirv2llvm::Backend Backend = spirv2llvm::Backend::Simd;
  /// With Backend::Dxil: DXIL 1.9 native vectors (dxil-native-vectors).
  bool DxilNativeVectors = false;
  /// Lanes per call: 4, 8 or 16 (SIMD back end; the others run one
  /// invocation per call).
  unsigned Width = 4;
  /// LLVM optimization level 0-3 (0: SSA form, no optimization).
  unsigned OptLevel = 0;
  /// Out-of-bounds buffer loads return zero and stores and atomics are
  /// dropped (Vulkan's robustBufferAccess); without it they are undefined.
  bool RobustBufferAccess = false;
  /// Run short divergent blocks of pure arithmetic unguarded instead of
  /// behind an any-lane branch (off: --no-speculate-small-blocks). On by
  /// default: the bench's branchy switch runs 2x faster with it
  /// (docs/performance.md).
  bool SpeculateSmallBlocks = true;
  /// Let the JIT fuse a * b + c into one FMA where SPIR-V allows it (no
  /// NoContraction decoration), which is faster and more accurate (off:
  /// --no-contract, every multiply and add rounded on its own, as
  /// lavapipe of Debian 12 does; support/Contraction.h).
  bool Contract = true;
  /// Name the IR's values after the SPIR-V names ("%x.splat"), which
  /// reading or printing the IR needs. Off for a module that only goes to
  /// the JIT (`run`): value names are then discarded
  /// (LLVMContext::setDiscardValueNames, as clang does in release builds),
  /// which makes the whole translation about 1.2x faster (the glslang
  /// corpus, docs/performance.md) and does not change the code.
  /// --print-after-all keeps them.
  bool ValueNames = true;
  /// Specialization constant values: SpecId -> value text.
  std::vector<std::pair<uint32_t, std::string>> SpecValues;
  /// spirv-opt passes by their command-line flags
  /// ("--graphics-robust-access"), run in order on the validated module
  /// before specialization (Amber's SHADER_OPTIMIZATION). Needs validation.
  std::vector<std::string> OptimizerPasses;
  /// GLSL/HLSL: files an `#include` may name, (path, text). A quoted
  /// include is looked for beside the including file first (FileName is
  /// the top-level file's path), then by its path as written; nothing is
  /// read from disk. Empty: `#include` is an error.
  std::vector<std::pair<std::string, std::string>> IncludeFiles;
  /// Called with (stage name, text) after each stage when set
  /// (--print-after-all).
  std::function<void(llvm::StringRef, llvm::StringRef)> PrintAfterStage;
};

/// Translates \p Bytes; \p FileName is used for messages and, with
/// InputKind::Auto, to pick the input kind.
llvm::Expected<Translation> translateBytes(llvm::ArrayRef<uint8_t> Bytes,
                                           llvm::StringRef FileName,
                                           const TranslateOptions &Opts);

/// Reads and translates \p Path.
llvm::Expected<Translation> translateFile(llvm::StringRef Path,
                                          const TranslateOptions &Opts);

/// Writes \p T as \p Kind to \p OS: IR text, bitcode, or object code or
/// assembly for the host CPU (generated at T.OptLevel).
llvm::Error emitTranslation(Translation &T, OutputKind Kind,
                            llvm::raw_ostream &OS);

/// What an entry point binds and passes, found without generating code.
struct Reflection {
  std::string EntryName;
  Stage EntryStage = Stage::Fragment;
  /// Inputs and outputs as the generated code would lay them out at
  /// TranslateOptions::Width (1 for the one-invocation back ends).
  InterfaceLayout Layout;
  /// Workgroup size, buffer bindings, push-constant and workgroup-memory
  /// sizes (bindings and push constants for every stage).
  ComputeInfo Compute;
  /// Every entry point of the module, as (name, stage).
  std::vector<std::pair<std::string, Stage>> EntryPoints;
};

/// Loads, validates and analyzes \p Bytes as translateBytes() does, then
/// reflects the chosen entry point instead of generating code.
llvm::Expected<Reflection> reflectBytes(llvm::ArrayRef<uint8_t> Bytes,
                                        llvm::StringRef FileName,
                                        const TranslateOptions &Opts);

/// What the compile cache (CompileCache.h) needs to know about a
/// translation of \p Bytes with \p Opts: a digest of the input and every
/// option that changes the translation (\p FileName counts only for its
/// extension, with InputKind::Auto). The runtime adds the opt level, CPU
/// and versions. PrintAfterStage is not part of it: a caller that wants
/// the dumps must translate.
std::string translationCacheKey(llvm::ArrayRef<uint8_t> Bytes,
                                llvm::StringRef FileName,
                                const TranslateOptions &Opts);

/// Version string of the library ("0.1.0").
const char *version();

} // namespace spirv2llvm

#endif
