//===- Jit.cpp - ORC LLJIT for translated shaders -------------------------===//
#include "spirv2llvm/Jit.h"
#include "spirv2llvm/CompileCache.h"
#include "spirv2llvm/Translation.h"

#include "runtime/CacheEntry.h"
#include "runtime/WorkgroupFunction.h"

#include "target/Optimizer.h"
#include "runtime/VectorMath.h"
#include "support/Diagnostic.h"
#include "support/StatusBridge.h"

#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace spirv2llvm {

struct JitShader::Impl {
  std::unique_ptr<orc::LLJIT> J;
};

JitShader::JitShader() : P(std::make_unique<Impl>()) {}
JitShader::~JitShader() = default;

namespace {

cl::opt<bool> PrintJitIR(
    "s2l-print-jit-ir", cl::Hidden, cl::init(false),
    cl::desc("JIT: print each module as it goes to code generation "
             "(after optimization and the runtime's changes)"));

/// The key of \p InputKey for this host's JIT at \p OptLevel.
std::string hostCacheKey(const std::string &InputKey, const char *Kind,
                         unsigned OptLevel,
                         const orc::JITTargetMachineBuilder &JTMB) {
  return fullCacheKey(InputKey, Kind, OptLevel, JTMB.getTargetTriple().str(),
                      JTMB.getCPU(), JTMB.getFeatures().getString());
}

/// A JIT session holding \p Object, linked against the process (the
/// runtime's helpers and libm/libmvec).
Expected<std::unique_ptr<orc::LLJIT>>
linkObject(orc::JITTargetMachineBuilder JTMB,
           std::unique_ptr<MemoryBuffer> Object) {
  auto J = orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(JTMB))
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
    return std::move(E);
  if (Error E = (*J)->addObjectFile(std::move(Object)))
    return std::move(E);
  return std::move(*J);
}

/// Compiles \p T to an object file for the host at \p OptLevel. The
/// object file, rather than LLJIT's IR layer, so that the same bytes can
/// go to the compile cache.
Expected<std::unique_ptr<MemoryBuffer>>
compile(Translation &T, unsigned OptLevel,
        orc::JITTargetMachineBuilder &JTMB) {
  // --backend=dxil: dx.op calls are DXIL intrinsics with no CPU
  // implementation; say so instead of failing at symbol lookup.
  for (const Function &F : T.IR->functions())
    if (F.isDeclaration() && F.getName().starts_with("dx.op."))
      return makeError("the module calls DXIL operations (" + F.getName() +
                       "), which the CPU JIT cannot run: use "
                       "--backend=scalar or --backend=invocation to run it "
                       "(docs/backends.md)");
  // Very large shaders: LLVM's -O1/-O2 pipelines and code generation cost
  // more than twice the cheap pipeline with -O0 code generation there
  // (docs/performance.md, "JIT latency"), and such a shader's compile
  // time is more than its runs win.
  bool Large =
      OptLevel > 0 && largestFunctionBlocks(*T.IR) > largeShaderBlocks();
  if (Large)
    JTMB.setCodeGenOptLevel(CodeGenOptLevel::None);
  auto TM = JTMB.createTargetMachine();
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
  // Contraction before optimization, so that InstCombine keeps the flags
  // it propagates and code generation fuses.
  allowContraction(*T.IR);
  if (T.OptLevel < OptLevel) {
    if (Large)
      optimizeLargeModule(*T.IR, TM->get());
    else
      optimizeModule(*T.IR, OptLevel, TM->get());
  }
  if (OptLevel > 0)
    useVectorMathLibrary(*T.IR);
  if (PrintJitIR)
    T.IR->print(errs(), nullptr);
  orc::SimpleCompiler Compiler(**TM);
  return Compiler(*T.IR);
}

/// Finds \p Symbol's code in \p J: the work-group function of a
/// compute shader when it has one (its per-group entry is then inlined
/// into it and gone), else the entry.
Error resolveEntry(orc::LLJIT &J, StringRef Symbol, s2l_entry_fn &Entry,
                   void (*&Workgroup)(const s2l_group_args *)) {
  if (auto WG = J.lookup(workgroupFunctionName(Symbol))) {
    Workgroup = WG->toPtr<void (*)(const s2l_group_args *)>();
    return Error::success();
  } else {
    consumeError(WG.takeError());
  }
  auto Addr = J.lookup(Symbol);
  if (!Addr)
    return Addr.takeError();
  Entry = Addr->toPtr<s2l_entry_fn>();
  return Error::success();
}

} // namespace

Result<std::unique_ptr<JitShader>>
JitShader::create(Translation &&T, unsigned OptLevel, CompileCache *Cache,
                  const std::string &CacheKey) {
  return createAs(std::move(T), OptLevel, Cache, CacheKey, "jit");
}

std::unique_ptr<JitShader> JitShader::load(CompileCache &Cache,
                                           const std::string &CacheKey,
                                           unsigned OptLevel) {
  return loadAs(Cache, CacheKey, OptLevel, "jit");
}

Result<std::unique_ptr<JitShader>>
JitShader::createAs(Translation &&T, unsigned OptLevel, CompileCache *Cache,
                    const std::string &CacheKey, const char *Kind) {
  if (!T.IR)
    return Status::error("the translation holds no module (already used?)");
  auto JTMB = hostMachineBuilder(OptLevel);
  if (!JTMB)
    return toStatus(JTMB.takeError(), StatusCode::CompileFailed);
  Expected<std::unique_ptr<MemoryBuffer>> Obj = compile(T, OptLevel, *JTMB);
  if (!Obj)
    return toStatus(Obj.takeError(), StatusCode::CompileFailed);
  // Stored only once the code has linked and its entry point resolved, so
  // that the cache never hands out code that would not.
  std::string ObjectBytes, FullKey;
  bool Store = Cache && Cache->enabled();
  if (Store) {
    ObjectBytes = (*Obj)->getBuffer().str();
    FullKey = hostCacheKey(CacheKey, Kind, OptLevel, *JTMB);
  }
  auto J = linkObject(std::move(*JTMB), std::move(*Obj));
  if (!J)
    return toStatus(J.takeError(), StatusCode::CompileFailed);
  std::unique_ptr<JitShader> S(new JitShader());
  if (Error E = resolveEntry(**J, T.EntrySymbol, S->Entry, S->WorkgroupEntry))
    return toStatus(std::move(E), StatusCode::CompileFailed);
  if (Store) {
    ShaderInfo Info{T.EntrySymbol, T.EntryName, T.EntryStage, T.Layout,
                    T.Compute};
    Cache->store(FullKey, serializeShaderInfo(Info), ObjectBytes);
  }
  S->Layout = T.Layout;
  S->EntryStage = T.EntryStage;
  S->EntryName = T.EntryName;
  S->Compute = T.Compute;
  S->P->J = std::move(*J);
  T.IR.reset();
  T.Context.reset();
  return S;
}

std::unique_ptr<JitShader> JitShader::loadAs(CompileCache &Cache,
                                             const std::string &CacheKey,
                                             unsigned OptLevel,
                                             const char *Kind) {
  if (!Cache.enabled())
    return nullptr;
  auto JTMB = hostMachineBuilder(OptLevel);
  if (!JTMB) {
    consumeError(JTMB.takeError());
    return nullptr;
  }
  std::optional<CompileCache::Entry> E =
      Cache.lookup(hostCacheKey(CacheKey, Kind, OptLevel, *JTMB));
  if (!E)
    return nullptr;
  ShaderInfo Info;
  if (!deserializeShaderInfo(E->Metadata, Info))
    return nullptr;
  // The object may call libmvec (useVectorMathLibrary); a compile loads
  // it, a hit has to as well.
  if (OptLevel > 0)
    loadVectorMathLibrary();
  auto J = linkObject(std::move(*JTMB),
                      MemoryBuffer::getMemBufferCopy(E->Object, "cached"));
  if (!J) {
    consumeError(J.takeError());
    return nullptr;
  }
  std::unique_ptr<JitShader> S(new JitShader());
  if (Error E =
          resolveEntry(**J, Info.EntrySymbol, S->Entry, S->WorkgroupEntry)) {
    consumeError(std::move(E));
    return nullptr;
  }
  S->Layout = std::move(Info.Layout);
  S->EntryStage = Info.EntryStage;
  S->EntryName = std::move(Info.EntryName);
  S->Compute = std::move(Info.Compute);
  S->P->J = std::move(*J);
  S->FromCache = true;
  return S;
}

} // namespace spirv2llvm
