//===- spirv2llvm/Compute.h - Running compute shaders -----------*- C++ -*-===//
//
// Compile a GLCompute entry point once, dispatch it many times:
//
//   auto T = spirv2llvm::translateFile("sum.comp", Opts);
//   auto S = spirv2llvm::ComputeShader::create(std::move(*T));
//   std::vector<uint32_t> Data(1024);
//   spirv2llvm::DispatchResources R;
//   R.bind(0, 0, Data.data(), Data.size() * 4);
//   spirv2llvm::Status D = (*S)->dispatch({16, 1, 1}, R);   // all cores
//   if (!D.ok()) std::cerr << D.message() << "\n";
//
// Workgroups are spread over a pool of threads; the SIMD groups of one
// workgroup run on one thread, as fibers when the shader has barriers
// (docs/compute.md explains the mechanism). Like Jit.h, this header
// compiles without LLVM's include path.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_COMPUTE_H
#define SPIRV2LLVM_COMPUTE_H

#include "spirv2llvm/Jit.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace spirv2llvm {

/// The width compute shaders run at best on this machine: 16 with
/// AVX-512, 8 with AVX2, 4 otherwise (docs/performance.md has the
/// measurements). `spirv2llvm run` uses it unless --width says otherwise;
/// TranslateOptions::Width itself stays 4 so that emitted IR does not
/// depend on the machine.
unsigned defaultComputeWidth();

/// Buffers and push constants for one dispatch.
struct DispatchResources {
  /// Binds \p Size bytes at \p Data to (set, binding).
  void bind(uint32_t Set, uint32_t Binding, void *Data, uint64_t Size);
  /// Binds element \p Index of the descriptor array (an array of blocks)
  /// at (set, binding). Elements not bound are empty: reads through them
  /// give zero, writes are dropped.
  void bindArrayElement(uint32_t Set, uint32_t Binding, uint32_t Index,
                        void *Data, uint64_t Size);
  std::vector<uint8_t> PushConstants;
  /// The watchdog: when not null, another thread may store a non-zero value
  /// to stop the dispatch. Running invocations leave their loops at the next
  /// back edge, no further workgroup starts, and dispatch() returns an error
  /// saying it was cancelled (buffer contents are then unspecified). A
  /// deadline is a host thread that stores 1 when it expires (see
  /// docs/robustness.md).
  const std::atomic<uint32_t> *Cancel = nullptr;

  /// descriptor table as abi.h wants it: Sets[set][binding] (single
  /// blocks; dispatch adds the arrays' entries).
  std::vector<std::vector<s2l_descriptor>> Sets;
  /// Elements of descriptor arrays, by (set, binding).
  std::map<std::pair<uint32_t, uint32_t>, std::vector<s2l_descriptor>> Arrays;
};

class ComputeShader {
public:
  /// JIT-compiles a translated GLCompute entry point.
  static Result<std::unique_ptr<ComputeShader>>
  create(Translation &&T, unsigned OptLevel = 2);
  ~ComputeShader();
  ComputeShader(const ComputeShader &) = delete;
  ComputeShader &operator=(const ComputeShader &) = delete;

  const ComputeInfo &info() const { return Info; }
  unsigned width() const { return Jit->width(); }

  /// Runs X*Y*Z workgroups on \p Threads threads (0: all cores). Fails if
  /// a binding the shader uses is missing or smaller than its type, or
  /// there are fewer push-constant bytes than the shader reads.
  Status dispatch(std::array<uint32_t, 3> Groups, const DispatchResources &R,
                  unsigned Threads = 0);

private:
  ComputeShader() = default;
  std::unique_ptr<JitShader> Jit;
  ComputeInfo Info;
};

} // namespace spirv2llvm

#endif
