//===- DominatorTree.h - Dominator and post-dominator trees -----*- C++ -*-===//
//
// Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm" (2001):
// iterate idom over reverse postorder until nothing changes. Post-dominators
// run the same algorithm on the reverse graph with a virtual exit node
// (index Cfg::size()) that every Return/Kill/Unreachable block, and every
// block that cannot reach one (infinite loops), branches to.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CFG_DOMINATORTREE_H
#define SPIRV2LLVM_CFG_DOMINATORTREE_H

#include "cfg/Cfg.h"

#include <vector>

namespace spirv2llvm::cfg {

class DominatorTree {
public:
  /// Root of the tree: the entry block, or the virtual exit for
  /// post-dominators.
  BlockIndex root() const { return Root; }
  bool isPostDominatorTree() const { return IsPost; }
  /// Immediate (post-)dominator; NoBlock for the root and for unreachable
  /// blocks.
  BlockIndex idom(BlockIndex B) const { return Idom[B]; }
  /// Children in reverse postorder of the CFG (post-dominator tree: of the
  /// reverse graph).
  const std::vector<BlockIndex> &children(BlockIndex B) const {
    return Children[B];
  }
  /// True if \p A (post-)dominates \p B (reflexive). O(1), using DFS numbers
  /// of the tree.
  bool dominates(BlockIndex A, BlockIndex B) const;
  bool properlyDominates(BlockIndex A, BlockIndex B) const {
    return A != B && dominates(A, B);
  }
  /// Number of nodes, including the virtual exit for post-dominators.
  size_t size() const { return Idom.size(); }

  friend DominatorTree computeDominators(const Cfg &G);
  friend DominatorTree computePostDominators(const Cfg &G);

private:
  BlockIndex Root = 0;
  bool IsPost = false;
  std::vector<BlockIndex> Idom;
  std::vector<std::vector<BlockIndex>> Children;
  std::vector<uint32_t> DfsIn, DfsOut;
};

DominatorTree computeDominators(const Cfg &G);
DominatorTree computePostDominators(const Cfg &G);

/// Immediate dominators of an explicit graph (node i's successors are
/// \p Succs[i], its predecessors \p Preds[i]) from \p Root, by the same
/// algorithm. The root and the nodes it cannot reach get NoBlock. For
/// analyses over graphs other than a function's CFG (uniformity's
/// one-iteration post-dominators of a loop).
std::vector<BlockIndex>
computeImmediateDominators(const std::vector<std::vector<BlockIndex>> &Succs,
                           const std::vector<std::vector<BlockIndex>> &Preds,
                           BlockIndex Root);

/// Control dependence from the post-dominator tree (Ferrante, Ottenstein and
/// Warren 1987): B is control dependent on X when X has a successor S such
/// that B post-dominates S but does not strictly post-dominate X.
class ControlDependence {
public:
  /// Blocks whose terminator \p B is (directly) control dependent on.
  const std::vector<BlockIndex> &dependsOn(BlockIndex B) const {
    return DependsOn[B];
  }
  /// Blocks directly control dependent on the terminator of \p X.
  const std::vector<BlockIndex> &dependents(BlockIndex X) const {
    return Dependents[X];
  }
  friend ControlDependence computeControlDependence(const Cfg &G,
                                                    const DominatorTree &PDT);

private:
  std::vector<std::vector<BlockIndex>> DependsOn, Dependents;
};

ControlDependence computeControlDependence(const Cfg &G,
                                           const DominatorTree &PDT);

} // namespace spirv2llvm::cfg

#endif
