//===- TargetEnv.cpp - Target environment and shader stage names ----------===//
//
// Command-line spellings of the target environment (as spirv-val takes them)
// and of the shader stage (as glslangValidator infers it from the file
// extension).
//
//===----------------------------------------------------------------------===//

#include "frontend/Frontend.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <string>

namespace spirv2llvm::frontend {

llvm::Expected<spv_target_env> parseTargetEnv(llvm::StringRef Name) {
  std::string Str = Name.str();
  // Frontend.h accepts "universalX.Y" for the universal environments, but
  // SPIRV-Tools 2023.1 only knows them as "spvX.Y".
  if (Name.starts_with("universal"))
    Str = "spv" + Name.drop_front(strlen("universal")).str();
  spv_target_env Env;
  bool Parsed = spvParseTargetEnv(Str.c_str(), &Env);
  // spvParseTargetEnv accepts any string that starts with a known name
  // ("vulkan1.0x" reads as vulkan1.0). Reject trailing characters: when the
  // library matched a known name shorter than the input, that shorter prefix
  // parses to the same environment on its own.
  for (size_t Len = 1; Parsed && Len < Str.size(); ++Len) {
    spv_target_env PrefixEnv;
    if (spvParseTargetEnv(Str.substr(0, Len).c_str(), &PrefixEnv) &&
        PrefixEnv == Env)
      Parsed = false;
  }
  if (!Parsed)
    return makeError("unknown target environment '" + Name +
                     "' (expected vulkan1.0..vulkan1.3, spv1.0..spv1.6, "
                     "opengl4.5, universal1.0..universal1.6)");
  return Env;
}

std::optional<ShaderStage> stageFromExtension(llvm::StringRef Path) {
  // Case-sensitive, as glslangValidator's own stage inference is.
  return llvm::StringSwitch<std::optional<ShaderStage>>(
             llvm::sys::path::extension(Path))
      .Case(".vert", ShaderStage::Vertex)
      .Case(".frag", ShaderStage::Fragment)
      .Case(".comp", ShaderStage::Compute)
      .Case(".geom", ShaderStage::Geometry)
      .Default(std::nullopt);
}

llvm::Expected<ShaderStage> parseStage(llvm::StringRef Name) {
  std::optional<ShaderStage> Stage =
      llvm::StringSwitch<std::optional<ShaderStage>>(Name)
          .Cases("vert", "vertex", ShaderStage::Vertex)
          .Cases("frag", "fragment", ShaderStage::Fragment)
          .Cases("comp", "compute", ShaderStage::Compute)
          .Cases("geom", "geometry", ShaderStage::Geometry)
          .Default(std::nullopt);
  if (!Stage)
    return makeError("unknown shader stage '" + Name +
                     "' (expected vert, frag, comp or geom)");
  return *Stage;
}

} // namespace spirv2llvm::frontend
