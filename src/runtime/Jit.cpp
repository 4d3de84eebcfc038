//===- Jit.cpp - ORC LLJIT for translated shaders -------------------------===//
#include "spirv2llvm/Jit.h"

#include "runtime/Optimizer.h"
#include "runtime/VectorMath.h"
#include "support/Diagnostic.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"

using namespace llvm;

namespace spirv2llvm {

JitShader::~JitShader() = default;

Expected<std::unique_ptr<JitShader>> JitShader::create(Translation T,
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
  optimizeModule(*T.IR, OptLevel, TM->get());
  if (OptLevel > 0)
    useVectorMathLibrary(*T.IR);

  auto J = orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*JTMB))
               .create();
  if (!J)
    return J.takeError();
  std::unique_ptr<JitShader> S(new JitShader());
  S->Layout = T.Layout;
  S->EntryStage = T.EntryStage;
  std::string Symbol = T.EntrySymbol;
  if (Error E = (*J)->addIRModule(
          orc::ThreadSafeModule(std::move(T.IR), std::move(T.Context))))
    return E;
  auto Addr = (*J)->lookup(Symbol);
  if (!Addr)
    return Addr.takeError();
  S->Entry = Addr->toPtr<s2l_entry_fn>();
  S->J = std::move(*J);
  return S;
}

} // namespace spirv2llvm
