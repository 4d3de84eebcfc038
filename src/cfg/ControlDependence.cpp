//===- ControlDependence.cpp - Control dependence from post-dominators ----===//
//
// Ferrante, Ottenstein and Warren (1987): for every CFG edge X -> S, the
// blocks on the post-dominator tree path from S up to, but excluding,
// ipdom(X) are control dependent on X. Only the CFG's own edges count, not
// the edges to the virtual exit, and blocks unreachable from the entry have
// no dependences.
//
// Both lists of every block are sorted by the CFG's reverse postorder, so
// that results (and anything printed from them) are deterministic.
//
//===----------------------------------------------------------------------===//
#include "cfg/DominatorTree.h"

#include <algorithm>
#include <cassert>

namespace spirv2llvm::cfg {

ControlDependence computeControlDependence(const Cfg &G,
                                           const DominatorTree &PDT) {
  assert(PDT.isPostDominatorTree() && PDT.size() == G.size() + 1 &&
         "control dependence needs the post-dominator tree of this CFG");
  ControlDependence CD;
  CD.DependsOn.assign(G.size(), {});
  CD.Dependents.assign(G.size(), {});

  // Two successors of X can share a post-dominator path; Seen (stamped with
  // X) keeps each dependent once.
  std::vector<BlockIndex> Seen(G.size(), NoBlock);
  for (BlockIndex X : G.rpo()) {
    const BlockIndex Stop = PDT.idom(X);
    for (BlockIndex S : G.block(X).Succs) {
      for (BlockIndex Y = S; Y != Stop && Y < G.size(); Y = PDT.idom(Y)) {
        if (Seen[Y] == X)
          break; // the rest of this path was walked from another successor
        Seen[Y] = X;
        CD.Dependents[X].push_back(Y);
        CD.DependsOn[Y].push_back(X);
      }
    }
    std::sort(CD.Dependents[X].begin(), CD.Dependents[X].end(),
              [&](BlockIndex A, BlockIndex B) {
                return G.rpoIndex(A) < G.rpoIndex(B);
              });
  }
  // DependsOn lists were filled in reverse postorder of X already.
  return CD;
}

} // namespace spirv2llvm::cfg
