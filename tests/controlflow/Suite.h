//===- Suite.h - The control-flow execution suite: shared parts -*- C++ -*-===//
//
// Every shader in shaders/controlflow runs in every configuration:
//
//   width   W = 4, 8, 16
//   mask    full: every lane of every SIMD group active;
//           partial: some lanes off (compute: 37 invocations per workgroup,
//           so the last group of each workgroup is partial at every W;
//           fragment: entry masks with lanes off, and one group with none)
//   mode    canon: the default translation (SPIRV-Tools canonicalization,
//           calls inlined); nocanon: --no-canonicalize (validated, then
//           translated as written: Function variables, early returns, calls
//           handled by the translator); noinline: --no-inline
//           (canonicalization without inlining: calls stay calls)
//
// and its results are compared with a reference: lavapipe for compute
// shaders (ComputeSuite.cpp), a scalar C++ reference for fragment shaders
// (FragmentSuite.cpp). docs/control-flow-tests.md lists what each shader
// covers.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_TESTS_CONTROLFLOW_SUITE_H
#define SPIRV2LLVM_TESTS_CONTROLFLOW_SUITE_H

#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace spirv2llvm::cftest {

enum class Mask { Full, Partial };
enum class Mode { Canon, NoCanon, NoInline };

inline const char *maskName(Mask M) {
  return M == Mask::Full ? "full" : "partial";
}
inline const char *modeName(Mode M) {
  switch (M) {
  case Mode::Canon:
    return "canon";
  case Mode::NoCanon:
    return "nocanon";
  case Mode::NoInline:
    return "noinline";
  }
  return "?";
}

constexpr unsigned Widths[] = {4, 8, 16};
constexpr Mask Masks[] = {Mask::Full, Mask::Partial};
constexpr Mode Modes[] = {Mode::Canon, Mode::NoCanon, Mode::NoInline};

/// One configuration of a shader: the gtest parameter of both suites.
struct Config {
  size_t Shader; ///< index in the suite's table
  unsigned Width;
  Mask LaneMask;
  Mode Translation;
};

/// "<shader>_W<width>_<mask>_<mode>": the test's name, so that a failing
/// ctest case says all four.
std::string configName(const std::string &Shader, const Config &C);

/// gtest prints parameters with this (the test name has the shader).
void PrintTo(const Config &C, std::ostream *OS);

/// Every configuration of \p NumShaders shaders.
std::vector<Config> allConfigs(size_t NumShaders);

/// Absolute path of \p File in shaders/controlflow.
std::string shaderPath(const std::string &File);

/// The SPIR-V words of shaders/controlflow/\p File, compiled once per
/// process: GLSL (.comp, .frag) with glslang, assembly (.spvasm) with
/// SPIRV-Tools, both for Vulkan 1.3.
llvm::Expected<std::vector<uint32_t>> spirvFor(const std::string &File);

/// Translation options of \p C (the same for both stages); \p OptLevel is
/// the LLVM level the JIT then uses: O0 at W = 8 (the translator's code as
/// emitted), O2 at W = 4 and 16.
TranslateOptions optionsFor(const Config &C);
unsigned jitOptLevel(const Config &C);

/// Translates \p Words (named \p File in messages) for \p C.
llvm::Expected<Translation> translateFor(const std::vector<uint32_t> &Words,
                                         const std::string &File,
                                         const Config &C);

/// Files in shaders/controlflow (for the check that every shader is in a
/// table), and the files of each suite's table.
std::vector<std::string> shaderFiles();
std::vector<std::string> computeShaderFiles();
std::vector<std::string> fragmentShaderFiles();

/// Runs every compute shader on lavapipe (both masks) and writes the Out
/// buffers to DIR/<shader>.<mask>.bin (or the error to .err). Returns the
/// process exit status.
int writeLavapipeReferences(const std::string &Dir);

} // namespace spirv2llvm::cftest

#endif
