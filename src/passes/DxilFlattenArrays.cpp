// dxil-flatten-arrays: multi-dimensional arrays in globals and allocas become
// one-dimensional, [N x [M x T]] -> [N*M x T] (recursively, also inside
// structs). GEPs (typed, and i8 with byte offsets), loads, stores and
// memcpy/memset are rewritten to index the flat array.
#include "passes/DxilPasses.h"
#include "passes/LayoutRewriter.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace spirv2llvm {

PreservedAnalyses DxilFlattenArraysPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  SmallVector<Value *, 16> Work;
  for (GlobalVariable &GV : M.globals())
    if (containsNestedArray(GV.getValueType()) &&
        !GV.getName().starts_with("llvm."))
      Work.push_back(&GV);
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (containsNestedArray(AI->getAllocatedType()))
          Work.push_back(AI);
  FlattenArrays Remap;
  bool Changed = false;
  for (Value *V : Work) {
    std::string Name = V->getName().str();
    RewriteResult R = rewriteObject(V, Remap);
    Changed |= R.Changed;
    if (!R.Changed)
      WithColor::warning() << "dxil-flatten-arrays: %" << Name
                           << " left unchanged: " << R.Failure << "\n";
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace spirv2llvm
