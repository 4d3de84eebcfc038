//===- FragmentReferences.h - Fragment shader references -------*- C++ -*-===//
#ifndef SPIRV2LLVM_TESTS_CONTROLFLOW_FRAGMENTREFERENCES_H
#define SPIRV2LLVM_TESTS_CONTROLFLOW_FRAGMENTREFERENCES_H

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace spirv2llvm::cftest {

/// The outputs (r, or r.xyzw) of one invocation, or nullopt if the
/// invocation was killed, terminated or demoted.
using FragResult = std::optional<std::array<int32_t, 4>>;

/// For shaders with derivatives: the results of one 2x2 quad (lane 4q + i
/// is pixel (i & 1, i >> 1)) from its four inputs and which lanes the
/// caller ran (the others still run as helper invocations).
using QuadReferenceFn = void (*)(const float X[4], const bool Active[4],
                                 FragResult Out[4]);

struct FragmentShaderCase {
  const char *Name;
  const char *File; ///< in shaders/controlflow
  /// The same code in C++, for the input x of one invocation.
  FragResult (*Reference)(float X);
  /// Instead of Reference, for shaders whose lanes see their quad.
  QuadReferenceFn QuadReference = nullptr;
};

const std::vector<FragmentShaderCase> &fragmentShaders();

} // namespace spirv2llvm::cftest

#endif
