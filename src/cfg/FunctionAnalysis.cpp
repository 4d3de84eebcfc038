//===- FunctionAnalysis.cpp - All CFG results of one function -------------===//
#include "cfg/FunctionAnalysis.h"

#include "support/Diagnostic.h"
#include "support/Limits.h"

#include <algorithm>

using namespace llvm;

namespace spirv2llvm::cfg {

Expected<FunctionAnalysis> analyzeFunction(const Module &M,
                                           const Function &F) {
  FunctionAnalysis A;
  A.F = &F;
  // Before any analysis: their cost grows faster than the block count.
  if (F.Blocks.size() > limits::MaxBlocksPerFunction)
    return makeErrorAt(M.Insts[F.Inst].WordOffset,
                       "OpFunction: function " + M.friendlyName(F.Id.value()) +
                           " has " + Twine(F.Blocks.size()) +
                           " blocks; the limit is " +
                           Twine(limits::MaxBlocksPerFunction) +
                           " blocks per function");
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
  // Nesting depth of a block: the constructs that contain it.
  std::vector<uint32_t> Depth(A.G.size(), 0);
  for (const Construct &C : A.Tree.constructs())
    for (BlockIndex B : C.Blocks)
      if (B < Depth.size() &&
          ++Depth[B] > limits::MaxNestingDepth)
        return makeErrorAt(
            M.Insts[F.Inst].WordOffset,
            "OpFunction: function " + M.friendlyName(F.Id.value()) +
                " nests structured constructs more than " +
                Twine(limits::MaxNestingDepth) + " deep, the limit");
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
