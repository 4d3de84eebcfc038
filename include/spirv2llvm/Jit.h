//===- spirv2llvm/Jit.h - Running translated shaders ------------*- C++ -*-===//
//
// Compiles a Translation to machine code for the host with LLVM's ORC LLJIT
// and hands out its entry point (abi.h). Compile once, run many times; the
// entry point itself is reentrant, so groups may run on several threads.
//
//   auto T = spirv2llvm::translateFile("shader.frag", Opts);
//   auto J = spirv2llvm::JitShader::create(std::move(*T));
//   s2l_group_args Args = {};
//   Args.active_mask = 0xf; Args.inputs = In; Args.outputs = Out;
//   uint32_t Alive = (*J)->run(Args);
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_JIT_H
#define SPIRV2LLVM_JIT_H

#include "spirv2llvm/abi.h"
#include "spirv2llvm/spirv2llvm.h"

#include <memory>

namespace llvm::orc {
class LLJIT;
}

namespace spirv2llvm {

class JitShader {
public:
  /// JIT-compiles \p T (its IR is optimized at \p OptLevel first if it was
  /// translated at -O0).
  static llvm::Expected<std::unique_ptr<JitShader>>
  create(Translation T, unsigned OptLevel = 2);
  ~JitShader();

  s2l_entry_fn entry() const { return Entry; }
  const InterfaceLayout &layout() const { return Layout; }
  unsigned width() const { return Layout.Width; }
  Stage stage() const { return EntryStage; }
  /// Runs one group; returns the mask of lanes still alive.
  uint32_t run(const s2l_group_args &Args) const { return Entry(&Args); }

private:
  JitShader() = default;
  std::unique_ptr<llvm::orc::LLJIT> J;
  s2l_entry_fn Entry = nullptr;
  InterfaceLayout Layout;
  Stage EntryStage = Stage::Fragment;
};

} // namespace spirv2llvm

#endif
