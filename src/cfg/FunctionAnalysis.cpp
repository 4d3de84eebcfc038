//===- FunctionAnalysis.cpp - All CFG results of one function -------------===//
#include "cfg/FunctionAnalysis.h"

#include "support/Diagnostic.h"

using namespace llvm;

namespace spirv2llvm::cfg {

Expected<FunctionAnalysis> analyzeFunction(const Module &M,
                                           const Function &F) {
  FunctionAnalysis A;
  A.F = &F;
  Expected<Cfg> G = buildCfg(M, F);
  if (!G)
    return G.takeError();
  A.G = std::move(*G);
  A.DT = computeDominators(A.G);
  A.PDT = computePostDominators(A.G);
  A.CD = computeControlDependence(A.G, A.PDT);
  Expected<StructureTree> T = buildStructureTree(A.G, A.DT);
  if (!T)
    return makeError("function " + M.friendlyName(F.Id.value()) + ": " +
                     toString(T.takeError()));
  A.Tree = std::move(*T);
  return std::move(A);
}

Expected<ModuleAnalysis> analyzeModule(const Module &M) {
  ModuleAnalysis Result;
  Result.reserve(M.Functions.size());
  for (const Function &F : M.Functions) {
    Expected<FunctionAnalysis> A = analyzeFunction(M, F);
    if (!A)
      return A.takeError();
    Result.push_back(std::move(*A));
  }
  return std::move(Result);
}

} // namespace spirv2llvm::cfg
