// dxil-data-scalarization (seed dxil-data-scalarization.md): vectors in
// global, static and groupshared (addrspace(3)) data become arrays,
// vecM -> [M x T] and [N x vecM] -> [N x [M x T]] (dxil-flatten-arrays then
// makes the latter one-dimensional). Every use is rewritten, including i8
// GEPs with byte offsets into the old, padded vector layout.
#include "passes/DxilPasses.h"
#include "passes/LayoutRewriter.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace spirv2llvm {

PreservedAnalyses DxilDataScalarizationPass::run(Module &M,
                                                 ModuleAnalysisManager &) {
  SmallVector<GlobalVariable *, 16> Work;
  for (GlobalVariable &GV : M.globals())
    if (containsVector(GV.getValueType()) && !GV.getName().starts_with("llvm."))
      Work.push_back(&GV);
  VectorsToArrays Remap;
  bool Changed = false;
  for (GlobalVariable *GV : Work) {
    std::string Name = GV->getName().str();
    RewriteResult R = rewriteObject(GV, Remap);
    Changed |= R.Changed;
    if (!R.Changed)
      WithColor::warning() << "dxil-data-scalarization: @" << Name
                           << " left unchanged: " << R.Failure << "\n";
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace spirv2llvm
