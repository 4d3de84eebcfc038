//===- DominatorTreeTest.cpp - Dominators, post-dominators, control deps --===//
#include "cfg/DominatorTree.h"
#include "cfg/Cfg.h"
#include "cfg/CfgPrinter.h"

#include "llvm/Support/raw_ostream.h"

#include "CfgBuilders.h"

#include <gtest/gtest.h>

#include <string>

using namespace spirv2llvm::cfg;

namespace {

using namespace spirv2llvm::cfg::testing;


/// Labels of \p Bs; the virtual exit of a post-dominator tree is 0.

/// Label of the immediate (post-)dominator of the block labelled \p L:
/// 0 for the virtual exit, ~0u for none.
uint32_t idomLabel(const Cfg &G, const DominatorTree &T, uint32_t L) {
  BlockIndex I = T.idom(G.indexOfLabel(L));
  if (I == NoBlock)
    return ~0u;
  return I < G.size() ? G.block(I).Label : 0;
}

std::string printTree(const Cfg &G, const DominatorTree &T) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printDomTreeMermaid(G, T, OS);
  return S;
}

// --- dominators --------------------------------------------------------------

TEST(DominatorTreeTest, KazanIdoms) {
  Cfg G = kazanCfg();
  DominatorTree DT = computeDominators(G);
  EXPECT_FALSE(DT.isPostDominatorTree());
  EXPECT_EQ(DT.root(), 0u);
  EXPECT_EQ(DT.size(), 6u);
  EXPECT_EQ(idomLabel(G, DT, 15), ~0u);
  EXPECT_EQ(idomLabel(G, DT, 18), 15u);
  EXPECT_EQ(idomLabel(G, DT, 25), 18u);
  EXPECT_EQ(idomLabel(G, DT, 26), 18u);
  EXPECT_EQ(idomLabel(G, DT, 30), 26u);
  EXPECT_EQ(idomLabel(G, DT, 21), 26u);
}

TEST(DominatorTreeTest, KazanChildrenInReversePostorder) {
  Cfg G = kazanCfg();
  DominatorTree DT = computeDominators(G);
  auto Children = [&](uint32_t L) {
    return labels(G, DT.children(G.indexOfLabel(L)));
  };
  EXPECT_EQ(Children(15), (Labels{18}));
  EXPECT_EQ(Children(18), (Labels{25, 26})); // not successor order 26, 25
  EXPECT_EQ(Children(26), (Labels{30, 21}));
  EXPECT_EQ(Children(21), Labels{});
}

TEST(DominatorTreeTest, KazanDominates) {
  Cfg G = kazanCfg();
  DominatorTree DT = computeDominators(G);
  auto Dom = [&](uint32_t A, uint32_t B) {
    return DT.dominates(G.indexOfLabel(A), G.indexOfLabel(B));
  };
  EXPECT_TRUE(Dom(15, 21));
  EXPECT_TRUE(Dom(18, 25));
  EXPECT_TRUE(Dom(26, 21));
  EXPECT_TRUE(Dom(21, 21));
  EXPECT_FALSE(Dom(30, 21));
  EXPECT_FALSE(Dom(21, 18));
  EXPECT_FALSE(Dom(26, 25));
  EXPECT_FALSE(Dom(25, 26));
  EXPECT_FALSE(DT.properlyDominates(1, 1));
  EXPECT_TRUE(DT.properlyDominates(1, 4));
}

TEST(DominatorTreeTest, KazanMermaidMatchesDesignDocument) {
  Cfg G = kazanCfg();
  EXPECT_EQ(printTree(G, computeDominators(G)), "graph TD;\n"
                                                "15[15] --> 18(18);\n"
                                                "style 15 stroke-width:4px\n"
                                                "18 --> 25(25);\n"
                                                "18 --> 26(26);\n"
                                                "26 --> 30(30);\n"
                                                "26 --> 21(21);\n");
}

TEST(DominatorTreeTest, NestedLoops) {
  //  10 -> 11 (outer header) -> 12 (inner header) -> 13 -> 16 -> 12
  //  12 -> 17 (inner merge) -> 18 (outer continue) -> 11 | 19
  Cfg G = makeCfg({blk(10, {11}), loop(11, {12}, 19, 18),
                   loop(12, {13, 17}, 17, 16), blk(13, {16}), blk(16, {12}),
                   blk(17, {18}), blk(18, {11, 19}), ret(19)});
  DominatorTree DT = computeDominators(G);
  EXPECT_EQ(idomLabel(G, DT, 11), 10u);
  EXPECT_EQ(idomLabel(G, DT, 12), 11u);
  EXPECT_EQ(idomLabel(G, DT, 13), 12u);
  EXPECT_EQ(idomLabel(G, DT, 16), 13u);
  EXPECT_EQ(idomLabel(G, DT, 17), 12u);
  EXPECT_EQ(idomLabel(G, DT, 18), 17u);
  EXPECT_EQ(idomLabel(G, DT, 19), 18u);
  // RPO is 10 11 12 17 18 19 13 16, so 17 comes before 13.
  EXPECT_EQ(labels(G, DT.children(G.indexOfLabel(12))), (Labels{17, 13}));
}

TEST(DominatorTreeTest, IrreducibleGraphStillConverges) {
  // 1 and 2 form a cycle with two entries: neither dominates the other.
  Cfg G = makeCfg({blk(0, {1, 2}), blk(1, {2, 3}), blk(2, {1}), ret(3)});
  DominatorTree DT = computeDominators(G);
  EXPECT_EQ(idomLabel(G, DT, 1), 0u);
  EXPECT_EQ(idomLabel(G, DT, 2), 0u);
  EXPECT_EQ(idomLabel(G, DT, 3), 1u);
  EXPECT_FALSE(DT.dominates(1, 2));
  EXPECT_FALSE(DT.dominates(2, 1));
}

TEST(DominatorTreeTest, UnreachableBlocksAreOutsideTheTree) {
  // 13 is unreachable and branches into 12; it must not change idom(12).
  Cfg G = makeCfg({blk(10, {11}), blk(11, {12}), ret(12), blk(13, {12})});
  DominatorTree DT = computeDominators(G);
  EXPECT_EQ(idomLabel(G, DT, 12), 11u);
  EXPECT_EQ(DT.idom(3), NoBlock);
  EXPECT_TRUE(DT.children(3).empty());
  EXPECT_FALSE(DT.dominates(0, 3));
  EXPECT_FALSE(DT.dominates(3, 2));
  EXPECT_TRUE(DT.dominates(3, 3));
  EXPECT_EQ(printTree(G, DT), "graph TD;\n"
                              "10[10] --> 11(11);\n"
                              "style 10 stroke-width:4px\n"
                              "11 --> 12(12);\n");

  DominatorTree PDT = computePostDominators(G);
  EXPECT_EQ(PDT.idom(3), NoBlock);
  EXPECT_EQ(idomLabel(G, PDT, 11), 12u);
}

TEST(DominatorTreeTest, SingleBlock) {
  Cfg G = makeCfg({ret(5)});
  DominatorTree DT = computeDominators(G);
  EXPECT_EQ(DT.idom(0), NoBlock);
  EXPECT_EQ(printTree(G, DT), "graph TD;\n"
                              "5[5];\n"
                              "style 5 stroke-width:4px\n");
  DominatorTree PDT = computePostDominators(G);
  EXPECT_EQ(PDT.size(), 2u);
  EXPECT_EQ(PDT.root(), 1u);
  EXPECT_EQ(PDT.idom(0), 1u);
}

// --- post-dominators ---------------------------------------------------------

TEST(PostDominatorTreeTest, KazanIpdoms) {
  Cfg G = kazanCfg();
  DominatorTree PDT = computePostDominators(G);
  EXPECT_TRUE(PDT.isPostDominatorTree());
  EXPECT_EQ(PDT.size(), 7u);
  EXPECT_EQ(PDT.root(), 6u);
  EXPECT_EQ(PDT.idom(6), NoBlock);
  EXPECT_EQ(idomLabel(G, PDT, 25), 0u); // the virtual exit
  EXPECT_EQ(idomLabel(G, PDT, 18), 25u);
  EXPECT_EQ(idomLabel(G, PDT, 15), 18u);
  EXPECT_EQ(idomLabel(G, PDT, 21), 18u);
  EXPECT_EQ(idomLabel(G, PDT, 26), 21u);
  EXPECT_EQ(idomLabel(G, PDT, 30), 21u);
  EXPECT_TRUE(PDT.dominates(6, 0));
  EXPECT_TRUE(PDT.dominates(G.indexOfLabel(21), G.indexOfLabel(30)));
  EXPECT_FALSE(PDT.dominates(G.indexOfLabel(30), G.indexOfLabel(26)));
}

TEST(PostDominatorTreeTest, KazanChildrenInReverseGraphOrder) {
  // Reverse graph RPO from the exit: exit 25 18 21 30 26 15.
  Cfg G = kazanCfg();
  DominatorTree PDT = computePostDominators(G);
  EXPECT_EQ(labels(G, PDT.children(PDT.root())), (Labels{25}));
  EXPECT_EQ(labels(G, PDT.children(G.indexOfLabel(18))), (Labels{21, 15}));
  EXPECT_EQ(labels(G, PDT.children(G.indexOfLabel(21))), (Labels{30, 26}));
  EXPECT_EQ(printTree(G, PDT), "graph TD;\n"
                               "exit[exit] --> 25(25);\n"
                               "style exit stroke-width:4px\n"
                               "18 --> 21(21);\n"
                               "18 --> 15(15);\n"
                               "21 --> 30(30);\n"
                               "21 --> 26(26);\n"
                               "25 --> 18(18);\n");
}

TEST(PostDominatorTreeTest, SeveralExits) {
  // 10 -> 11 (kill) | 12 -> 13 (return) | 14 (unreachable)
  Cfg G = makeCfg(
      {blk(10, {11, 12}), ret(11), blk(12, {13, 14}), ret(13), ret(14)}, {14});
  DominatorTree PDT = computePostDominators(G);
  EXPECT_EQ(idomLabel(G, PDT, 10), 0u);
  EXPECT_EQ(idomLabel(G, PDT, 12), 0u);
  EXPECT_EQ(idomLabel(G, PDT, 13), 0u);
  EXPECT_EQ(idomLabel(G, PDT, 14), 0u);
}

TEST(PostDominatorTreeTest, InfiniteLoopWithUnreachableMerge) {
  // Loop 11 never exits; its merge 13 is unreachable. Every reachable block
  // still gets a post-dominator: the virtual exit.
  Cfg G =
      makeCfg({blk(10, {11}), loop(11, {12}, 13, 12), blk(12, {11}), ret(13)});
  DominatorTree PDT = computePostDominators(G);
  EXPECT_EQ(idomLabel(G, PDT, 10), 0u);
  EXPECT_EQ(idomLabel(G, PDT, 11), 0u);
  EXPECT_EQ(idomLabel(G, PDT, 12), 0u);
  EXPECT_EQ(PDT.idom(3), NoBlock);
  // Reverse graph RPO: exit 11 12 10.
  EXPECT_EQ(labels(G, PDT.children(PDT.root())), (Labels{11, 12, 10}));
}

TEST(PostDominatorTreeTest, InfiniteLoopOnOneSide) {
  // 20 branches to 21, a self loop that never exits, or to 23 (return).
  Cfg G = makeCfg({{20, {21, 23}, MergeKind::Selection, 23},
                   loop(21, {21}, 22, 21),
                   {22, {}},
                   ret(23)},
                  {22});
  DominatorTree PDT = computePostDominators(G);
  EXPECT_EQ(idomLabel(G, PDT, 20), 0u);
  EXPECT_EQ(idomLabel(G, PDT, 21), 0u);
  EXPECT_EQ(idomLabel(G, PDT, 23), 0u);

  ControlDependence CD = computeControlDependence(G, PDT);
  EXPECT_EQ(labels(G, CD.dependents(0)), (Labels{23, 21})); // RPO 20 23 21
  EXPECT_EQ(labels(G, CD.dependsOn(1)), (Labels{20, 21}));
  EXPECT_EQ(labels(G, CD.dependsOn(3)), (Labels{20}));
}

// --- control dependence ------------------------------------------------------

TEST(ControlDependenceTest, Kazan) {
  Cfg G = kazanCfg();
  DominatorTree PDT = computePostDominators(G);
  ControlDependence CD = computeControlDependence(G, PDT);
  auto DependsOn = [&](uint32_t L) {
    return labels(G, CD.dependsOn(G.indexOfLabel(L)));
  };
  auto Dependents = [&](uint32_t L) {
    return labels(G, CD.dependents(G.indexOfLabel(L)));
  };
  EXPECT_EQ(DependsOn(15), Labels{});
  EXPECT_EQ(DependsOn(18), (Labels{18}));
  EXPECT_EQ(DependsOn(26), (Labels{18}));
  EXPECT_EQ(DependsOn(30), (Labels{26}));
  EXPECT_EQ(DependsOn(21), (Labels{18}));
  EXPECT_EQ(DependsOn(25), Labels{});
  EXPECT_EQ(Dependents(18), (Labels{18, 26, 21})); // reverse postorder
  EXPECT_EQ(Dependents(26), (Labels{30}));
  EXPECT_EQ(Dependents(15), Labels{});
  EXPECT_EQ(Dependents(30), Labels{});
}

TEST(ControlDependenceTest, BlockDependingOnTwoBranches) {
  // 4 runs when 1 goes to 2, or when 1 goes to 3 and 3 goes to 4.
  Cfg G = makeCfg({blk(0, {1}), blk(1, {2, 3}), blk(2, {4}), blk(3, {4, 5}),
                   blk(4, {5}), ret(5)});
  DominatorTree PDT = computePostDominators(G);
  ControlDependence CD = computeControlDependence(G, PDT);
  EXPECT_EQ(labels(G, CD.dependsOn(4)), (Labels{1, 3}));
  EXPECT_EQ(labels(G, CD.dependsOn(2)), (Labels{1}));
  EXPECT_EQ(labels(G, CD.dependsOn(3)), (Labels{1}));
  // RPO is 0 1 3 2 4 5.
  EXPECT_EQ(labels(G, CD.dependents(1)), (Labels{3, 2, 4}));
  EXPECT_EQ(labels(G, CD.dependents(3)), (Labels{4}));
}

// The explicit-graph entry point (uniformity's per-loop post-dominators):
// a diamond 0 -> {1, 2} -> 3 with a node 4 the root cannot reach.
TEST(DominatorTreeTest, ExplicitGraphIdoms) {
  std::vector<std::vector<BlockIndex>> Succs = {{1, 2}, {3}, {3}, {}, {3}};
  std::vector<std::vector<BlockIndex>> Preds = {{}, {0}, {0}, {1, 2, 4}, {}};
  std::vector<BlockIndex> Idom = computeImmediateDominators(Succs, Preds, 0);
  EXPECT_EQ(Idom, (std::vector<BlockIndex>{NoBlock, 0, 0, 0, NoBlock}));
  // Rooted at 3 over the reverse edges: post-dominators.
  std::vector<BlockIndex> Ipdom = computeImmediateDominators(Preds, Succs, 3);
  EXPECT_EQ(Ipdom, (std::vector<BlockIndex>{3, 3, 3, NoBlock, 3}));
}

} // namespace
