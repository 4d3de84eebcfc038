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
        if (Name == "dxil-scalarize-signatures") {
          MPM.addPass(DxilScalarizeSignaturesPass());
          return true;
        }
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

// Data first (as the seeds order it): dxil-data-scalarization rewrites the
// globals' whole-vector accesses itself, and dxil-scalarizer then never
// sees a vector-typed global, whose accesses it would have to turn into byte
// offsets that the data pass can no longer always decode. The signature
// pass comes after the function pass so that it can also drop the vector
// intrinsic declarations the scalarizer left unused.
const char *dxilPipelineText(DxilPipeline P) {
  switch (P) {
  case DxilPipeline::Scalar:
    return "dxil-data-scalarization,function(dxil-scalarizer),"
           "dxil-scalarize-signatures";
  case DxilPipeline::Dxil:
    return "dxil-data-scalarization,function(dxil-scalarizer),"
           "dxil-scalarize-signatures,dxil-flatten-arrays,dxil-op-lower";
  case DxilPipeline::DxilData:
    return "dxil-data-scalarization,function(dxil-scalarizer),"
           "dxil-scalarize-signatures,dxil-flatten-arrays";
  case DxilPipeline::DxilNativeVectors:
    return "dxil-native-vectors,dxil-flatten-arrays,dxil-op-lower<vectors>";
  }
  llvm_unreachable("unknown pipeline");
}

void runDxilPipeline(Module &M, DxilPipeline P) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  registerDxilPasses(PB);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  ModulePassManager MPM;
  cantFail(PB.parsePassPipeline(MPM, dxilPipelineText(P)));
  MPM.run(M, MAM);
}

} // namespace spirv2llvm
