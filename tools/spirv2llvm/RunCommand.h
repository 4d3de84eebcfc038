//===- RunCommand.h - `spirv2llvm run`: dispatch a compute shader -*- C++ -*-=//
//
// `spirv2llvm run SHADER [options]` translates and JIT-compiles a GLCompute
// entry point, binds buffers, images and samplers it creates and
// initializes from the command line, dispatches the shader through
// ComputeShader (Compute.h), times the dispatches and can write the buffers
// and images out afterwards. Its last line is machine-readable:
//
//   RESULT invocations=N dispatches=N median_ms=X min_ms=X max_ms=X
//          minv_per_s=X compile_ms=X            (one line)
//
// Exit status: 0 success, 1 the shader failed to translate, compile or run
// (including a fault caught in its code and a dispatch over --timeout),
// 2 bad usage (including buffers or push constants that do not match what
// the shader reads).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_DRIVER_RUNCOMMAND_H
#define SPIRV2LLVM_DRIVER_RUNCOMMAND_H

#include "BufferInit.h"
#include "RunImages.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace spirv2llvm {

/// One --buffer [SET.]BINDING[\[INDEX\]]:SIZE[:init=KIND]; INDEX makes it
/// element INDEX of a descriptor array (an array of blocks).
struct RunBuffer {
  uint32_t Set = 0, Binding = 0;
  std::optional<uint32_t> Index;
  uint64_t Size = 0;
  BufferInit Init;
  /// The option's value as given, for messages.
  std::string Spec;
};

/// One --dump [SET.]BINDING[\[INDEX\]]:PATH (a buffer or an image).
struct RunDump {
  uint32_t Set = 0, Binding = 0;
  std::optional<uint32_t> Index;
  std::string Path;
};

/// Everything the run command line says.
struct RunOptions {
  std::string Shader;
  /// Translation options; OptLevel stays 0 here because the JIT runs the
  /// pipeline at JitOptLevel (running it at both would optimize twice).
  TranslateOptions T;
  unsigned JitOptLevel = 2;
  std::vector<RunBuffer> Buffers;
  std::vector<RunImage> Images;
  std::vector<RunSampler> Samplers;
  /// Push-constant bytes in memory order, in command-line order.
  std::vector<uint8_t> PushConstants;
  std::array<uint32_t, 3> Groups = {1, 1, 1};
  /// Worker threads; 0: all cores.
  unsigned Threads = 0;
  /// --repeat N: one warm-up dispatch, then N timed ones. Unset: exactly
  /// one dispatch, timed.
  std::optional<unsigned> Repeat;
  std::vector<RunDump> Dumps;
  /// --timeout: the time limit of each dispatch (zero: none).
  std::chrono::nanoseconds Timeout{0};
  bool Quiet = false;
  bool Help = false;

  /// The buffer given for (set, binding) and array element \p Index
  /// (nullopt: not an element).
  const RunBuffer *findBuffer(uint32_t Set, uint32_t Binding,
                              std::optional<uint32_t> Index = {}) const;
  const RunImage *findImage(uint32_t Set, uint32_t Binding,
                            std::optional<uint32_t> Index = {}) const;
  const RunSampler *findSampler(uint32_t Set, uint32_t Binding,
                                std::optional<uint32_t> Index = {}) const;
  /// Whether some --buffer, --image or --sampler gives an element of
  /// (set, binding).
  bool hasElements(uint32_t Set, uint32_t Binding) const;
  /// Whether some --buffer, --image or --sampler gives (set, binding) or an
  /// element of it.
  bool mentions(uint32_t Set, uint32_t Binding) const;
};

/// Parses \p Args (after "run"). Returns the message of the first error,
/// which names the offending option and value.
std::optional<std::string> parseRunArgs(llvm::ArrayRef<std::string> Args,
                                        RunOptions &O);

/// Runs `spirv2llvm run` with \p Args (the words after "run"), printing to
/// \p Out and \p Err. Returns the exit status (see the file comment). Keeps
/// no global state, so tests call it in process.
int runCommand(llvm::ArrayRef<std::string> Args, llvm::raw_ostream &Out,
               llvm::raw_ostream &Err);

} // namespace spirv2llvm

#endif
