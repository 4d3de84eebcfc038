// Registration of the DXIL passes by name, and the fixed pipelines that
// spirv2llvm's --backend=scalar / dxil / --dxil-native-vectors run.
#include "spirv2llvm/Passes.h"

#include "passes/DxilPasses.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;

namespace spirv2llvm {

void registerDxilPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "dxil-scalarizer") {
          FPM.addPass(DxilScalarizerPass());
          return true;
        }
        return false;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "dxil-data-scalarization") {
          MPM.addPass(DxilDataScalarizationPass());
          return true;
        }
        if (Name == "dxil-flatten-arrays") {
          MPM.addPass(DxilFlattenArraysPass());
          return true;
        }
        if (Name == "dxil-op-lower" || Name == "dxil-op-lower<vectors>") {
          MPM.addPass(DxilOpLowerPass(Name.ends_with("<vectors>")));
          return true;
        }
        if (Name == "dxil-native-vectors") {
          MPM.addPass(DxilNativeVectorsPass());
          return true;
        }
        return false;
      });
}

void runDxilPipeline(Module &M, DxilPipeline P) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  switch (P) {
  case DxilPipeline::Scalar:
    MPM.addPass(createModuleToFunctionPassAdaptor(DxilScalarizerPass()));
    break;
  case DxilPipeline::Dxil:
    MPM.addPass(createModuleToFunctionPassAdaptor(DxilScalarizerPass()));
    MPM.addPass(DxilDataScalarizationPass());
    MPM.addPass(DxilFlattenArraysPass());
    MPM.addPass(DxilOpLowerPass(/*AllowVectors=*/false));
    break;
  case DxilPipeline::DxilNativeVectors:
    MPM.addPass(DxilNativeVectorsPass());
    MPM.addPass(DxilFlattenArraysPass());
    MPM.addPass(DxilOpLowerPass(/*AllowVectors=*/true));
    break;
  }
  MPM.run(M, MAM);
}

} // namespace spirv2llvm
