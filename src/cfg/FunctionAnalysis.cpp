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
  // Before any analysis: every one is linear or n log n in the blocks (and
  // the structure tree's construct lists are blocks x nesting depth), so
  // this bounds time and memory.
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
  // Nesting depth, before the structure tree (which lists each construct's
  // blocks: blocks x depth entries). A block is in the construct of header
  // H when H dominates it and H's merge block does not, so its depth is the
  // headers on its dominator tree path less the merge blocks there (each
  // merge block's header dominates it). One pass in reverse postorder.
  std::vector<uint32_t> Depth(A.G.size(), 0);
  std::vector<uint32_t> MergesOf(A.G.size(), 0);
  for (BlockIndex H : A.G.rpo()) {
    BlockIndex Merge = A.G.block(H).MergeBlock;
    if (A.G.block(H).Merge != MergeKind::None && Merge < A.G.size() &&
        A.G.isReachable(Merge) && A.DT.dominates(H, Merge))
      ++MergesOf[Merge];
  }
  for (BlockIndex B : A.G.rpo()) {
    BlockIndex Idom = A.DT.idom(B);
    int64_t D = (Idom == NoBlock ? 0 : int64_t(Depth[Idom])) +
                (A.G.block(B).Merge != MergeKind::None) - MergesOf[B];
    Depth[B] = uint32_t(std::max<int64_t>(D, 0));
    if (Depth[B] > limits::MaxNestingDepth)
      return makeErrorAt(
          M.Insts[F.Inst].WordOffset,
          "OpFunction: function " + M.friendlyName(F.Id.value()) +
              " nests structured constructs more than " +
              Twine(limits::MaxNestingDepth) + " deep, the limit");
  }
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
