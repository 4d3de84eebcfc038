//===- CacheKey.cpp - The translation half of a compile cache key ---------===//
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;

namespace spirv2llvm {

// A trip-wire: a field added to TranslateOptions changes what is
// translated, so it must be added to the key below (or two different
// translations would share a cache entry).
static_assert(sizeof(TranslateOptions) == 208,
              "TranslateOptions changed: update translationCacheKey()");

std::string translationCacheKey(ArrayRef<uint8_t> Bytes, StringRef FileName,
                                const TranslateOptions &Opts) {
  std::string K;
  raw_string_ostream OS(K);
  OS << "input-sha256=" << toHex(SHA256::hash(Bytes), /*LowerCase=*/true)
     << "\n";
  // InputKind::Auto goes by the extension first.
  OS << "input-kind=" << unsigned(Opts.Kind);
  if (Opts.Kind == InputKind::Auto)
    OS << " ext=" << sys::path::extension(FileName).lower();
  OS << "\nstage=" << (Opts.ShaderStage ? int(*Opts.ShaderStage) : -1)
     << "\nentry=" << Opts.EntryPoint.size() << ":" << Opts.EntryPoint
     << "\ntarget-env=" << Opts.TargetEnv
     << "\nvalidate=" << Opts.Validate
     << "\ncanonicalize=" << Opts.Canonicalize
     << "\ninline=" << Opts.Inline
     << "\nbackend=" << unsigned(Opts.Backend)
     << "\ndxil-native-vectors=" << Opts.DxilNativeVectors
     << "\nwidth=" << Opts.Width
     << "\nopt=" << Opts.OptLevel
     << "\nrobust-buffer-access=" << Opts.RobustBufferAccess
     << "\nspeculate-small-blocks=" << Opts.SpeculateSmallBlocks
     << "\ncontract=" << Opts.Contract
     << "\nspec=";
  // Values are text; the length prefix keeps "1=2,3" and "1=2" "3"
  // apart. The order given matters to the translator only for repeated
  // ids (the last one wins), so it is kept.
  for (const auto &[Id, Value] : Opts.SpecValues)
    OS << Id << ":" << Value.size() << ":" << Value << ";";
  OS << "\nspirv-opt=";
  for (const std::string &Flag : Opts.OptimizerPasses)
    OS << Flag.size() << ":" << Flag << ";";
  // #include resolves from these files only (nothing is read from disk),
  // so their paths and contents are all the key needs of them.
  OS << "\nincludes=";
  for (const auto &[Path, Text] : Opts.IncludeFiles)
    OS << Path.size() << ":" << Path << ":" << Text.size() << ":" << Text
       << ";";
  OS << "\n";
  return K;
}

} // namespace spirv2llvm
