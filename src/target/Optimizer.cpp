//===- Optimizer.cpp - Host target machine and LLVM pipelines -------------===//
#include "target/Optimizer.h"

#include "support/Contraction.h"
#include "target/BitScan.h"
#include "target/MaskWidening.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

#include <algorithm>

using namespace llvm;

namespace spirv2llvm {

namespace {
/// Measured with the generated if/else shaders (docs/performance.md): at
/// 1,500 blocks -O2 costs 1.6x the cheap pipeline, at 6,000 blocks 2x, at
/// 15,000 blocks 2.3x; small shaders keep -O2, where it makes the code
/// several times faster for milliseconds of compile time.
cl::opt<unsigned> LargeShaderBlocks(
    "s2l-large-shader-blocks", cl::Hidden, cl::init(2000),
    cl::desc("JIT: functions with more blocks than this get the cheap "
             "pipeline and -O0 code generation instead of -O1..-O3"));
/// For measuring another host's code on this one (an AVX2 machine's on an
/// AVX-512 one: -s2l-jit-cpu=haswell): the JIT generates code for this CPU
/// and its features instead of the host's. The code must still run here,
/// so name an older CPU of the same family. The default width and the
/// compile cache's key stay the host's: give --width explicitly and leave
/// the cache off.
cl::opt<std::string> JitCpu(
    "s2l-jit-cpu", cl::Hidden, cl::init(""),
    cl::desc("JIT: generate code for this CPU (LLVM's name, e.g. haswell) "
             "and its features instead of the host's"));
} // namespace

Expected<orc::JITTargetMachineBuilder> hostMachineBuilder(unsigned OptLevel) {
  static bool Initialized = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)Initialized;
  // Detecting the host asks cpuid for the CPU name and every feature, which
  // in a virtual machine traps to the hypervisor: once per process, not
  // once per translation.
  static const std::optional<orc::JITTargetMachineBuilder> Host = [] {
    auto J = orc::JITTargetMachineBuilder::detectHost();
    if (!J) {
      consumeError(J.takeError());
      return std::optional<orc::JITTargetMachineBuilder>();
    }
    return std::optional<orc::JITTargetMachineBuilder>(std::move(*J));
  }();
  if (!Host)
    return orc::JITTargetMachineBuilder::detectHost(); // the error again
  std::optional<orc::JITTargetMachineBuilder> JTMB = *Host;
  if (!JitCpu.empty()) {
    JTMB->setCPU(JitCpu);
    JTMB->getFeatures() = SubtargetFeatures();
  }
  JTMB->setCodeGenOptLevel(OptLevel == 0   ? CodeGenOptLevel::None
                           : OptLevel == 1 ? CodeGenOptLevel::Less
                           : OptLevel == 2 ? CodeGenOptLevel::Default
                                           : CodeGenOptLevel::Aggressive);
  return std::move(*JTMB);
}

Expected<std::unique_ptr<TargetMachine>> createHostTargetMachine(unsigned OptLevel) {
  auto JTMB = hostMachineBuilder(OptLevel);
  if (!JTMB)
    return JTMB.takeError();
  return JTMB->createTargetMachine();
}

namespace {
struct HostStrings {
  std::string Triple, DataLayout;
};
const HostStrings &hostStrings() {
  static const HostStrings S = [] {
    HostStrings H;
    if (auto TM = createHostTargetMachine(0)) {
      H.Triple = (*TM)->getTargetTriple().str();
      H.DataLayout = (*TM)->createDataLayout().getStringRepresentation();
    } else {
      consumeError(TM.takeError());
    }
    return H;
  }();
  return S;
}
} // namespace

const std::string &hostTriple() { return hostStrings().Triple; }
const std::string &hostDataLayout() { return hostStrings().DataLayout; }

bool jitTargetHasFeature(StringRef Feature) {
  // A target machine is made once: it knows the features -s2l-jit-cpu's
  // CPU implies, which the host's feature map does not.
  static const std::unique_ptr<TargetMachine> TM = [] {
    auto T = createHostTargetMachine(0);
    if (!T) {
      consumeError(T.takeError());
      return std::unique_ptr<TargetMachine>();
    }
    return std::move(*T);
  }();
  return TM && TM->getMCSubtargetInfo()->checkFeatures(("+" + Feature).str());
}

unsigned hostSimdWidth() {
  static unsigned Width = [] {
    StringMap<bool> F = sys::getHostCPUFeatures();
    // 16 lanes of 32 bits fill a 512-bit register; LLVM uses zmm registers
    // for them unless a function asks for narrower ones. With AVX2 they
    // are two ymm registers per value: two independent dependency chains
    // where W = 8 has one, which the latency-bound shapes (divergent loops,
    // bit hashing, the switch) need more than the shorter masks of W = 8
    // (docs/performance.md, "Weak shapes": 1.3x to 1.9x on those, no
    // shader slower by more than the noise).
    if (F.lookup("avx512f") || F.lookup("avx2"))
      return 16u;
    return 4u;
  }();
  return Width;
}

unsigned allowContraction(Module &M) {
  unsigned N = 0;
  if (M.getModuleFlag(NoContractionMetadata))
    return 0;
  unsigned Kind = M.getContext().getMDKindID(NoContractionMetadata);
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      unsigned Op = I.getOpcode();
      if ((Op != Instruction::FAdd && Op != Instruction::FSub &&
           Op != Instruction::FMul) ||
          I.getMetadata(Kind))
        continue;
      I.setHasAllowContract(true);
      ++N;
    }
  return N;
}

void optimizeModule(Module &M, unsigned OptLevel, TargetMachine *TM,
                    bool Vectorize) {
  if (OptLevel == 0)
    return;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PipelineTuningOptions PTO;
  if (!Vectorize) {
    PTO.LoopVectorization = false;
    PTO.SLPVectorization = false;
  }
  PassBuilder PB(TM, PTO);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  OptimizationLevel Level = OptLevel == 1   ? OptimizationLevel::O1
                            : OptLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(Level);
  // Last, so that InstCombine does not fold the float forms back into
  // ctlz/cttz, nor the twins back into <W x i1>.
  if (Vectorize && TM && needsBitScanLowering(*TM))
    MPM.addPass(createModuleToFunctionPassAdaptor(BitScanPass()));
  if (Vectorize && TM && needsMaskWidening(*TM))
    MPM.addPass(createModuleToFunctionPassAdaptor(MaskWideningPass()));
  MPM.run(M, MAM);
}

cl::ValuesClass loweringModeValues(const char *AutoDesc) {
  return cl::values(
      clEnumValN(LoweringMode::Auto, "auto", AutoDesc),
      clEnumValN(LoweringMode::Always, "always", "on every target"),
      clEnumValN(LoweringMode::Never, "never", "off"));
}

bool loweringApplies(LoweringMode Mode, const TargetMachine &TM,
                     StringRef Feature) {
  if (Mode != LoweringMode::Auto)
    return Mode == LoweringMode::Always;
  return TM.getTargetTriple().isX86() &&
         !TM.getMCSubtargetInfo()->checkFeatures(Feature);
}

unsigned largestFunctionBlocks(const Module &M) {
  unsigned Max = 0;
  for (const Function &F : M)
    Max = std::max<unsigned>(Max, F.size());
  return Max;
}

unsigned largeShaderBlocks() { return LargeShaderBlocks; }

void optimizeLargeModule(Module &M, TargetMachine *TM) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  ModulePassManager MPM;
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.run(M, MAM);
}

} // namespace spirv2llvm
