//===- Jit.cpp - ORC LLJIT for translated shaders -------------------------===//
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/Translation.h"

#include "target/Optimizer.h"
#include "runtime/VectorMath.h"
#include "support/Diagnostic.h"
#include "support/StatusBridge.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"

using namespace llvm;

namespace spirv2llvm {

struct JitShader::Impl {
  std::unique_ptr<orc::LLJIT> J;
};

JitShader::JitShader() : P(std::make_unique<Impl>()) {}
JitShader::~JitShader() = default;

namespace {

Expected<std::unique_ptr<orc::LLJIT>> compile(Translation &T,
                                              unsigned OptLevel) {
  // --backend=dxil: dx.op calls are DXIL intrinsics with no CPU
  // implementation; say so instead of failing at symbol lookup.
  for (const Function &F : T.IR->functions())
    if (F.isDeclaration() && F.getName().starts_with("dx.op."))
      return makeError("the module calls DXIL operations (" + F.getName() +
                       "), which the CPU JIT cannot run: use "
                       "--backend=scalar or --backend=invocation to run it "
                       "(docs/backends.md)");
  auto JTMB = hostMachineBuilder(OptLevel);
  if (!JTMB)
    return JTMB.takeError();
  auto TM = JTMB->createTargetMachine();
  if (!TM)
    return TM.takeError();
  // Stack probes (as clang's -fstack-clash-protection): a frame larger
  // than a page touches it page by page, so that a shader with a large
  // private array overflows into its stack's guard page, where the fault
  // is caught and reported (FaultGuard.h), instead of jumping over the
  // guard into other memory. Small frames are unchanged.
  for (Function &F : T.IR->functions())
    if (!F.isDeclaration())
      F.addFnAttr("probe-stack", "inline-asm");
  T.IR->setDataLayout((*TM)->createDataLayout());
  T.IR->setTargetTriple((*TM)->getTargetTriple().str());
  if (T.OptLevel < OptLevel)
    optimizeModule(*T.IR, OptLevel, TM->get());
  if (OptLevel > 0)
    useVectorMathLibrary(*T.IR);

  auto J = orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*JTMB))
               .create();
  if (!J)
    return J.takeError();
  // The runtime functions generated code calls (abi.h), by address: the
  // host executable need not export them.
  orc::MangleAndInterner Mangle((*J)->getExecutionSession(),
                                (*J)->getDataLayout());
  orc::SymbolMap Runtime;
  Runtime[Mangle("s2l_image_op")] = {
      orc::ExecutorAddr::fromPtr(&s2l_image_op), JITSymbolFlags::Exported};
  Runtime[Mangle("s2l_image_texel_pointer")] = {
      orc::ExecutorAddr::fromPtr(&s2l_image_texel_pointer),
      JITSymbolFlags::Exported};
  if (Error E = (*J)->getMainJITDylib().define(
          orc::absoluteSymbols(std::move(Runtime))))
    return E;
  if (Error E = (*J)->addIRModule(
          orc::ThreadSafeModule(std::move(T.IR), std::move(T.Context))))
    return E;
  return std::move(*J);
}

} // namespace

Result<std::unique_ptr<JitShader>> JitShader::create(Translation &&T,
                                                     unsigned OptLevel) {
  if (!T.IR)
    return Status::error("the translation holds no module (already used?)");
  Expected<std::unique_ptr<orc::LLJIT>> J = compile(T, OptLevel);
  if (!J)
    return toStatus(J.takeError(), StatusCode::CompileFailed);
  auto Addr = (*J)->lookup(T.EntrySymbol);
  if (!Addr)
    return toStatus(Addr.takeError(), StatusCode::CompileFailed);
  std::unique_ptr<JitShader> S(new JitShader());
  S->Layout = T.Layout;
  S->EntryStage = T.EntryStage;
  S->Entry = Addr->toPtr<s2l_entry_fn>();
  S->P->J = std::move(*J);
  return S;
}

} // namespace spirv2llvm
