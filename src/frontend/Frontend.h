//===- Frontend.h - Getting SPIR-V words from any input ---------*- C++ -*-===//
//
// Thin wrappers over the real tools: glslang (GLSL/HLSL to SPIR-V, in
// process), the SPIRV-Tools assembler, validator, optimizer and
// disassembler. Each returns llvm::Error with a message in the project's
// diagnostic style (lower case, says where) instead of printing.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_FRONTEND_FRONTEND_H
#define SPIRV2LLVM_FRONTEND_FRONTEND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spirv2llvm::frontend {

enum class SourceLanguage { Glsl, Hlsl };
enum class ShaderStage { Vertex, Fragment, Compute, Geometry };

/// Parses a --target-env name as spirv-val spells it: vulkan1.0 .. vulkan1.3,
/// spv1.0 .. spv1.6, opengl4.5, universal1.0 .. universal1.6 (and the other
/// names spvParseTargetEnv accepts). Fails naming the accepted set.
llvm::Expected<spv_target_env> parseTargetEnv(llvm::StringRef Name);

/// Stage from a file extension (.vert .frag .comp .geom); nullopt for others
/// (.glsl, .hlsl need --stage).
std::optional<ShaderStage> stageFromExtension(llvm::StringRef Path);
llvm::Expected<ShaderStage> parseStage(llvm::StringRef Name); // vert|frag|comp (and long names)

struct GlslOptions {
  SourceLanguage Language = SourceLanguage::Glsl;
  ShaderStage Stage = ShaderStage::Fragment;
  std::string EntryPoint = "main";  ///< HLSL entry point / source entry
  spv_target_env TargetEnv = SPV_ENV_VULKAN_1_2;
  /// Name used in messages ("shader.frag"); also where quoted includes
  /// are looked for first.
  std::string FileName;
  /// Files `#include` may name: (path, text) (TranslateOptions).
  std::vector<std::pair<std::string, std::string>> IncludeFiles;
};

/// Compiles GLSL/HLSL \p Source with the glslang library (Vulkan semantics,
/// default resource limits). Compile errors come back as the glslang log,
/// prefixed with the file name.
llvm::Expected<std::vector<uint32_t>> compileGlsl(llvm::StringRef Source,
                                                  const GlslOptions &Opts);

/// Assembles SPIR-V assembly text with SPIRV-Tools, preserving numeric ids
/// (%15 stays id 15) so dumps use the input's own ids.
llvm::Expected<std::vector<uint32_t>>
assembleSpirv(llvm::StringRef Text, spv_target_env Env,
              llvm::StringRef FileName = "<input>");

/// Reads a binary module from bytes: either byte order (the magic number
/// decides), words returned in host order. Fails on an empty input, a size
/// that is not a multiple of 4, or a wrong magic number.
llvm::Expected<std::vector<uint32_t>> decodeBinary(llvm::ArrayRef<uint8_t> Bytes,
                                                   llvm::StringRef FileName);

/// Runs the SPIRV-Tools validator. The message names the first problem and,
/// where the validator gives one, the offending instruction.
llvm::Error validateSpirv(llvm::ArrayRef<uint32_t> Words, spv_target_env Env);

struct CanonicalizeOptions {
  bool Inline = true;
  /// Specialization constant values (SpecId -> value string as spirv-opt's
  /// --set-spec-const-default-value takes it).
  std::vector<std::pair<uint32_t, std::string>> SpecValues;
  /// Only specialize (set, freeze and fold specialization constants), for
  /// --no-canonicalize: what a driver does at pipeline creation, without
  /// the passes that reshape functions.
  bool SpecializeOnly = false;
};

/// SPIRV-Tools optimizer passes that make the translator's job uniform:
/// set and freeze specialization constants, inline all calls, eliminate dead
/// functions, merge returns, local variables to SSA (ssa-rewrite and the
/// single-store/single-block eliminations), dead code. Input must be valid.
/// Keeps ids and OpName of everything that survives.
llvm::Expected<std::vector<uint32_t>>
canonicalizeSpirv(llvm::ArrayRef<uint32_t> Words, spv_target_env Env,
                  const CanonicalizeOptions &Opts);

/// Runs the spirv-opt passes named by their command-line flags (\p Flags,
/// e.g. "--graphics-robust-access"), in order, on a valid module and
/// validates the result: what Amber's SHADER_OPTIMIZATION does before it
/// hands a shader to the driver. An unknown flag is an error naming it.
llvm::Expected<std::vector<uint32_t>>
optimizeSpirv(llvm::ArrayRef<uint32_t> Words, spv_target_env Env,
              llvm::ArrayRef<std::string> Flags);

/// Disassembles to spirv-dis's default text (friendly names, no header
/// comment option changes), for --print-after-all.
llvm::Expected<std::string> disassembleSpirv(llvm::ArrayRef<uint32_t> Words,
                                             spv_target_env Env);

/// The friendly name spirv-dis gives every result id (without '%'):
/// OpName'd ids by name, types as "int", "_ptr_Input_float", constants as
/// "int_0", others by number. Index = id; ids without a result are "".
/// Uses the disassembler itself; on failure falls back to plain numbers.
std::vector<std::string> friendlyNames(llvm::ArrayRef<uint32_t> Words,
                                       uint32_t Bound, spv_target_env Env);

} // namespace spirv2llvm::frontend

#endif
