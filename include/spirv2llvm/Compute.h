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
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace spirv2llvm {

/// The width compute shaders run at best on this machine: 16 with
/// AVX-512 or AVX2, 4 otherwise (docs/performance.md has the
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
  /// Images, samplers and texel buffers (abi.h, docs/abi.md "Images"):
  /// a storage or sampled image, input attachment or texel buffer, a
  /// sampler, or both for a combined image sampler. Only the pointers are
  /// kept: what they point to must outlive the dispatch.
  void bindImage(uint32_t Set, uint32_t Binding, const s2l_image *Image);
  void bindSampler(uint32_t Set, uint32_t Binding, const s2l_sampler *Sampler);
  void bindCombinedImageSampler(uint32_t Set, uint32_t Binding,
                                const s2l_image *Image,
                                const s2l_sampler *Sampler);
  /// Element \p Index of an array of images, samplers or combined image
  /// samplers (unbound elements read zero).
  void bindImageArrayElement(uint32_t Set, uint32_t Binding, uint32_t Index,
                             const s2l_image *Image);
  void bindSamplerArrayElement(uint32_t Set, uint32_t Binding, uint32_t Index,
                               const s2l_sampler *Sampler);
  void bindCombinedImageSamplerArrayElement(uint32_t Set, uint32_t Binding,
                                            uint32_t Index,
                                            const s2l_image *Image,
                                            const s2l_sampler *Sampler);
  std::vector<uint8_t> PushConstants;
  /// The watchdog: when not null, another thread may store a non-zero value
  /// to stop the dispatch. Running invocations leave their loops at the next
  /// back edge, no further workgroup starts, and dispatch() returns an error
  /// saying it was cancelled (buffer contents are then unspecified). The
  /// runtime's watchdog thread looks at the flag every millisecond (see
  /// docs/robustness.md); for a time limit, set Timeout instead.
  const std::atomic<uint32_t> *Cancel = nullptr;
  /// Time limit of the dispatch (zero: none). When it passes, the dispatch
  /// stops as if cancelled and dispatch() returns an error saying it timed
  /// out.
  std::chrono::nanoseconds Timeout{0};
  /// A memory fault (or a trapping instruction) in the shader's code makes
  /// dispatch() return an error naming the access and the nearest bound
  /// buffer, instead of killing the process; the other workers stop as if
  /// cancelled. Installs a process-wide SIGSEGV/SIGBUS/SIGFPE/SIGILL
  /// handler on first use that passes every other fault on to the handler
  /// installed before it (docs/robustness.md). Memory the shader wrote
  /// before the fault is not restored.
  bool CatchFaults = true;

  /// descriptor table as abi.h wants it: Sets[set][binding] (single
  /// blocks; dispatch adds the arrays' entries).
  std::vector<std::vector<s2l_descriptor>> Sets;
  /// Elements of descriptor arrays, by (set, binding).
  std::map<std::pair<uint32_t, uint32_t>, std::vector<s2l_descriptor>> Arrays;
  /// The pairs combined image sampler descriptors point to (shared, so
  /// that a copy of the resources stays valid).
  std::vector<std::shared_ptr<const s2l_combined_image_sampler>> Combined;
};

class ComputeShader {
public:
  /// JIT-compiles a translated GLCompute entry point; with a \p Cache,
  /// stores the code under \p CacheKey as JitShader::create() does.
  static Result<std::unique_ptr<ComputeShader>>
  create(Translation &&T, unsigned OptLevel = 2, CompileCache *Cache = nullptr,
         const std::string &CacheKey = {});
  /// The compute shader create() stored under \p CacheKey, without
  /// translating or compiling; null on a miss (CompileCache.h).
  static std::unique_ptr<ComputeShader> load(CompileCache &Cache,
                                             const std::string &CacheKey,
                                             unsigned OptLevel = 2);
  ~ComputeShader();
  ComputeShader(const ComputeShader &) = delete;
  ComputeShader &operator=(const ComputeShader &) = delete;

  const ComputeInfo &info() const { return Info; }
  unsigned width() const { return Jit->width(); }
  const std::string &entryName() const { return Jit->entryName(); }
  /// Whether the code came from a CompileCache.
  bool fromCache() const { return Jit->fromCache(); }

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
