//===- Suite.cpp - The control-flow execution suite: shared pieces --------===//
#include "Suite.h"

#include "frontend/Frontend.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

namespace spirv2llvm::cftest {

std::string configName(const std::string &Shader, const Config &C) {
  return Shader + "_W" + std::to_string(C.Width) + "_" +
         maskName(C.LaneMask) + "_" + modeName(C.Translation);
}

void PrintTo(const Config &C, std::ostream *OS) {
  *OS << "W = " << C.Width << ", " << maskName(C.LaneMask) << " mask, "
      << modeName(C.Translation);
}

std::vector<Config> allConfigs(size_t NumShaders) {
  std::vector<Config> Out;
  for (size_t S = 0; S < NumShaders; ++S)
    for (unsigned W : Widths)
      for (Mask M : Masks)
        for (Mode T : Modes)
          Out.push_back({S, W, M, T});
  return Out;
}

std::string shaderPath(const std::string &File) {
  return std::string(S2L_SOURCE_DIR) + "/shaders/controlflow/" + File;
}

llvm::Expected<std::vector<uint32_t>> spirvFor(const std::string &File) {
  static std::map<std::string, std::vector<uint32_t>> Cache;
  if (auto It = Cache.find(File); It != Cache.end())
    return It->second;
  std::string Path = shaderPath(File);
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return llvm::createStringError(Text.getError(), "cannot read " + Path);
  llvm::StringRef Name(File);
  llvm::Expected<std::vector<uint32_t>> Words =
      Name.ends_with(".spvasm")
          ? frontend::assembleSpirv((*Text)->getBuffer(), SPV_ENV_VULKAN_1_3,
                                    File)
          : [&] {
              frontend::GlslOptions Opts;
              Opts.Stage = Name.ends_with(".comp")
                               ? frontend::ShaderStage::Compute
                               : frontend::ShaderStage::Fragment;
              Opts.TargetEnv = SPV_ENV_VULKAN_1_3;
              Opts.FileName = File;
              return frontend::compileGlsl((*Text)->getBuffer(), Opts);
            }();
  if (!Words)
    return Words.takeError();
  Cache[File] = *Words;
  return std::move(*Words);
}

TranslateOptions optionsFor(const Config &C) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Binary;
  Opts.TargetEnv = "vulkan1.3";
  Opts.Width = C.Width;
  switch (C.Translation) {
  case Mode::Canon:
    break;
  case Mode::NoCanon:
    // Still validated: the suite's shaders are valid, and the translator
    // must then cope with the module as written.
    Opts.Canonicalize = false;
    break;
  case Mode::NoInline:
    Opts.Inline = false;
    break;
  }
  return Opts;
}

unsigned jitOptLevel(const Config &C) { return C.Width == 8 ? 0 : 2; }

llvm::Expected<Translation> translateFor(const std::vector<uint32_t> &Words,
                                         const std::string &File,
                                         const Config &C) {
  llvm::ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Words.data()),
                                Words.size() * 4);
  return translateBytes(Bytes, File + ".spv", optionsFor(C));
}

std::vector<std::string> shaderFiles() {
  std::vector<std::string> Files;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator
           It(std::string(S2L_SOURCE_DIR) + "/shaders/controlflow", EC),
       End;
       It != End && !EC; It.increment(EC))
    Files.push_back(llvm::sys::path::filename(It->path()).str());
  std::sort(Files.begin(), Files.end());
  return Files;
}

} // namespace spirv2llvm::cftest
