//===- Optimizer.cpp - Host target machine and LLVM pipelines -------------===//
#include "runtime/Optimizer.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

namespace spirv2llvm {

Expected<orc::JITTargetMachineBuilder> hostMachineBuilder(unsigned OptLevel) {
  static bool Initialized = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)Initialized;
  auto JTMB = orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  JTMB->setCodeGenOptLevel(OptLevel == 0   ? CodeGenOptLevel::None
                           : OptLevel == 1 ? CodeGenOptLevel::Less
                           : OptLevel == 2 ? CodeGenOptLevel::Default
                                           : CodeGenOptLevel::Aggressive);
  return JTMB;
}

Expected<std::unique_ptr<TargetMachine>> createHostTargetMachine(unsigned OptLevel) {
  auto JTMB = hostMachineBuilder(OptLevel);
  if (!JTMB)
    return JTMB.takeError();
  return JTMB->createTargetMachine();
}

unsigned hostSimdWidth() {
  static unsigned Width = [] {
    StringMap<bool> F = sys::getHostCPUFeatures();
    // 16 lanes of 32 bits fill a 512-bit register; LLVM uses zmm registers
    // for them unless a function asks for narrower ones.
    if (F.lookup("avx512f"))
      return 16u;
    if (F.lookup("avx2"))
      return 8u;
    return 4u;
  }();
  return Width;
}

void optimizeModule(Module &M, unsigned OptLevel, TargetMachine *TM) {
  if (OptLevel == 0)
    return;
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
  OptimizationLevel Level = OptLevel == 1   ? OptimizationLevel::O1
                            : OptLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(Level);
  MPM.run(M, MAM);
}

} // namespace spirv2llvm
