//===- ComputeTestUtil.h - Compile compute shaders in exec tests -*- C++ -*-===//
#ifndef SPIRV2LLVM_TESTS_EXEC_COMPUTETESTUTIL_H
#define SPIRV2LLVM_TESTS_EXEC_COMPUTETESTUTIL_H

#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace spirv2llvm::exectest {

/// Translates the shader \p Source (kind from \p Name's extension) with
/// \p Opts and JIT-compiles it; on failure returns nullptr and the message
/// in \p Error.
inline std::unique_ptr<ComputeShader>
compileCompute(const std::string &Source, const TranslateOptions &Opts,
               std::string &Error, const char *Name = "test.comp") {
  auto T = translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Source.data()),
                              Source.size()),
      Name, Opts);
  if (!T) {
    Error = llvm::toString(T.takeError());
    return nullptr;
  }
  auto S = ComputeShader::create(std::move(*T));
  if (!S) {
    Error = S.status().message();
    return nullptr;
  }
  return std::move(*S);
}

/// compileCompute of GLSL \p Source at width \p W, 1 meaning the
/// one-invocation back end; a failure is a test failure (and nullptr).
inline std::unique_ptr<ComputeShader> compileAtWidth(const std::string &Source,
                                                     unsigned W) {
  TranslateOptions Opts;
  if (W == 1)
    Opts.Backend = Backend::Invocation;
  else
    Opts.Width = W;
  std::string Error;
  auto S = compileCompute(Source, Opts, Error);
  if (!S)
    ADD_FAILURE() << Error;
  return S;
}

} // namespace spirv2llvm::exectest

#endif
