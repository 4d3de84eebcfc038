//===- StructureTreeTest.cpp - Loop nesting, constructs, diagnostics ------===//
#include "cfg/StructureTree.h"
#include "cfg/Cfg.h"
#include "cfg/CfgPrinter.h"
#include "cfg/DominatorTree.h"

#include "llvm/Support/raw_ostream.h"

#include "CfgBuilders.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <optional>
#include <string>

using namespace spirv2llvm::cfg;

namespace {

using namespace spirv2llvm::cfg::testing;

/// Builds the tree, or fails the test with the diagnostic.
StructureTree build(const Cfg &G) {
  llvm::Expected<StructureTree> T = buildStructureTree(G, computeDominators(G));
  if (!T) {
    ADD_FAILURE() << llvm::toString(T.takeError());
    return StructureTree();
  }
  return std::move(*T);
}

std::string buildError(const Cfg &G) {
  llvm::Expected<StructureTree> T = buildStructureTree(G, computeDominators(G));
  if (T)
    return "no error";
  return llvm::toString(T.takeError());
}

std::string print(const Cfg &G, const StructureTree &T, bool Full = false) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printStructureTree(G, T, OS, Full);
  return S;
}



// --- trees -------------------------------------------------------------------

TEST(StructureTreeTest, KazanMatchesDesignDocument) {
  Cfg G = kazanCfg();
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T), "- CFGStructureTree\n"
                         "    - %15\n"
                         "    - Loop\n"
                         "        - %18\n"
                         "        - %26\n"
                         "        - %30\n"
                         "        - %21\n"
                         "    - %25\n");
}

TEST(StructureTreeTest, KazanFull) {
  Cfg G = kazanCfg();
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T, /*Full=*/true),
            "- CFGStructureTree\n"
            "    - %15\n"
            "    - Loop\n"
            "        - %18\n"
            "        - %26\n"
            "        - %30\n"
            "        - %21\n"
            "    - %25\n"
            "\n"
            "- Constructs\n"
            "    - Loop %18 merge %25 continue %21: %18 %26 %30 %21\n"
            "    - Selection %26 merge %21: %26 %30\n");
}

TEST(StructureTreeTest, KazanNodes) {
  Cfg G = kazanCfg();
  StructureTree T = build(G);
  auto I = [&](uint32_t L) { return G.indexOfLabel(L); };
  const StructureNode &Root = T.node(0);
  EXPECT_EQ(Root.Kind, StructureNodeKind::Root);
  EXPECT_EQ(Root.Parent, ~0u);
  ASSERT_EQ(Root.Children.size(), 3u);
  const StructureNode &Loop = T.node(Root.Children[1]);
  EXPECT_EQ(Loop.Kind, StructureNodeKind::Loop);
  EXPECT_EQ(Loop.Block, I(18));
  EXPECT_EQ(Loop.Parent, 0u);
  ASSERT_NE(Loop.ConstructIndex, ~0u);
  const Construct &C = T.constructs()[Loop.ConstructIndex];
  EXPECT_EQ(C.Kind, ConstructKind::Loop);
  EXPECT_EQ(C.Header, I(18));
  EXPECT_EQ(C.Merge, I(25));
  EXPECT_EQ(C.Continue, I(21));
  EXPECT_EQ(labels(G, C.Blocks), (Labels{18, 26, 30, 21}));

  const StructureNode &B30 = T.node(T.nodeOfBlock(I(30)));
  EXPECT_EQ(B30.Kind, StructureNodeKind::Block);
  EXPECT_EQ(B30.Block, I(30));
  EXPECT_EQ(B30.Parent, Root.Children[1]);
  EXPECT_EQ(T.loopOf(I(30)), Root.Children[1]);
  EXPECT_EQ(T.loopOf(I(18)), Root.Children[1]); // a header is in its loop
  EXPECT_EQ(T.loopOf(I(25)), 0u);
  EXPECT_EQ(T.loopDepth(I(21)), 1u);
  EXPECT_EQ(T.loopDepth(I(15)), 0u);
  EXPECT_TRUE(T.unreachable().empty());

  ASSERT_EQ(T.constructs().size(), 2u);
  const Construct &S = T.constructs()[1];
  EXPECT_EQ(S.Kind, ConstructKind::Selection);
  EXPECT_EQ(S.Continue, NoBlock);
  EXPECT_EQ(labels(G, S.Blocks), (Labels{26, 30}));
}

TEST(StructureTreeTest, NestedLoops) {
  Cfg G = makeCfg({blk(10, {11}), loop(11, {12}, 19, 18),
                   loop(12, {13, 17}, 17, 16), blk(13, {16}), blk(16, {12}),
                   blk(17, {18}), blk(18, {11, 19}), ret(19)});
  StructureTree T = build(G);
  // Reverse postorder is 10 11 12 17 18 19 13 16.
  EXPECT_EQ(print(G, T, /*Full=*/true),
            "- CFGStructureTree\n"
            "    - %10\n"
            "    - Loop\n"
            "        - %11\n"
            "        - Loop\n"
            "            - %12\n"
            "            - %13\n"
            "            - %16\n"
            "        - %17\n"
            "        - %18\n"
            "    - %19\n"
            "\n"
            "- Constructs\n"
            "    - Loop %11 merge %19 continue %18: %11 %12 %17 %18 %13 %16\n"
            "    - Loop %12 merge %17 continue %16: %12 %13 %16\n");
  auto Depth = [&](uint32_t L) { return T.loopDepth(G.indexOfLabel(L)); };
  EXPECT_EQ(Depth(10), 0u);
  EXPECT_EQ(Depth(11), 1u);
  EXPECT_EQ(Depth(12), 2u);
  EXPECT_EQ(Depth(16), 2u);
  EXPECT_EQ(Depth(17), 1u);
  EXPECT_EQ(Depth(19), 0u);
  uint32_t Inner = T.loopOf(G.indexOfLabel(13));
  EXPECT_EQ(T.node(Inner).Block, G.indexOfLabel(12));
  EXPECT_EQ(T.node(T.node(Inner).Parent).Block, G.indexOfLabel(11));
}

TEST(StructureTreeTest, SwitchWithSharedTargetAndFallThrough) {
  // default: merge 34; cases 1 and 2 share 31, which falls through to 32.
  Cfg G = makeCfg({{30,
                    {34, 31, 31, 32},
                    MergeKind::Selection,
                    34,
                    0,
                    TerminatorKind::Switch},
                   blk(31, {32}),
                   blk(32, {34}),
                   ret(34)});
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T, /*Full=*/true),
            "- CFGStructureTree\n"
            "    - %30\n"
            "    - %31\n"
            "    - %32\n"
            "    - %34\n"
            "\n"
            "- Constructs\n"
            "    - Switch %30 merge %34: %30 %31 %32\n");
  std::string S;
  llvm::raw_string_ostream OS(S);
  printCfgMermaid(G, OS);
  EXPECT_EQ(S, "graph TD;\n"
               "30[30] --> 31(31);\n"
               "style 30 stroke-width:4px\n"
               "30 --> 32(32);\n"
               "30 --> 34(34);\n"
               "31 --> 32;\n"
               "32 --> 34;\n");
}

TEST(StructureTreeTest, LoopAfterSelectionWithLongContinueConstruct) {
  // The selection headed by 40 merges at the loop header 43; the continue
  // construct 45 47 48 has a branch of its own and one back edge.
  Cfg G = makeCfg({sel(40, {41, 42}, 43), blk(41, {43}), blk(42, {43}),
                   loop(43, {44}, 46, 45), blk(44, {45, 46}), blk(45, {47, 48}),
                   blk(47, {48}), blk(48, {43}), ret(46)});
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T, /*Full=*/true),
            "- CFGStructureTree\n"
            "    - %40\n"
            "    - %42\n"
            "    - %41\n"
            "    - Loop\n"
            "        - %43\n"
            "        - %44\n"
            "        - %45\n"
            "        - %47\n"
            "        - %48\n"
            "    - %46\n"
            "\n"
            "- Constructs\n"
            "    - Selection %40 merge %43: %40 %42 %41\n"
            "    - Loop %43 merge %46 continue %45: %43 %44 %45 %47 %48\n");
}

TEST(StructureTreeTest, ReturnInsideLoopBelongsToLoop) {
  Cfg G = makeCfg({blk(50, {51}), loop(51, {52, 54}, 54, 53), blk(52, {55, 53}),
                   ret(55), blk(53, {51}), ret(54)});
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T), "- CFGStructureTree\n"
                         "    - %50\n"
                         "    - Loop\n"
                         "        - %51\n"
                         "        - %52\n"
                         "        - %53\n"
                         "        - %55\n"
                         "    - %54\n");
  EXPECT_EQ(T.loopDepth(G.indexOfLabel(55)), 1u);
}

TEST(StructureTreeTest, InfiniteLoopAndUnreachableBlocks) {
  // The merge 13 of the infinite loop is unreachable, and so is 14.
  Cfg G = makeCfg({blk(10, {11}), loop(11, {12}, 13, 12), blk(12, {11}),
                   ret(13), blk(14, {13})});
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T, /*Full=*/true),
            "- CFGStructureTree\n"
            "    - %10\n"
            "    - Loop\n"
            "        - %11\n"
            "        - %12\n"
            "- Unreachable: %13 %14\n"
            "\n"
            "- Constructs\n"
            "    - Loop %11 merge %13 continue %12: %11 %12\n");
  EXPECT_EQ(labels(G, T.unreachable()), (Labels{13, 14}));
  EXPECT_EQ(T.nodeOfBlock(3), ~0u);
  EXPECT_EQ(T.loopOf(3), 0u);
  EXPECT_EQ(T.loopDepth(3), 0u);
}

TEST(StructureTreeTest, SelfLoopWithUnreachableContinueTarget) {
  Cfg G = makeCfg({blk(1, {2}), loop(2, {2, 3}, 3, 4), ret(3), blk(4, {2})});
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T, /*Full=*/true),
            "- CFGStructureTree\n"
            "    - %1\n"
            "    - Loop\n"
            "        - %2\n"
            "    - %3\n"
            "- Unreachable: %4\n"
            "\n"
            "- Constructs\n"
            "    - Loop %2 merge %3 continue %4: %2\n");
}

TEST(StructureTreeTest, EmptyConstructList) {
  Cfg G = makeCfg({ret(1)});
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T, /*Full=*/true),
            "- CFGStructureTree\n    - %1\n\n- Constructs\n");
}

// --- diagnostics -------------------------------------------------------------

TEST(StructureTreeErrorTest, IrreducibleLoop) {
  Cfg G =
      makeCfg({blk(60, {61, 62}), blk(61, {62}), blk(62, {61, 63}), ret(63)});
  EXPECT_EQ(buildError(G), "irreducible or unstructured loop: back edge "
                           "%62 -> %61 enters %61, which does not dominate "
                           "%62");
}

TEST(StructureTreeErrorTest, IrreducibleEvenIfTargetIsHeader) {
  // The cycle 61 62 64 is entered at 61 and at 62; the continue target 65
  // is unreachable, so only the back edge can be blamed.
  Cfg G = makeCfg({blk(60, {61, 62}), loop(61, {62, 63}, 63, 65), blk(62, {64}),
                   blk(64, {61}), ret(63), blk(65, {61})});
  EXPECT_EQ(buildError(G), "irreducible or unstructured loop: back edge "
                           "%64 -> %61 enters %61, which does not dominate "
                           "%64");
}

TEST(StructureTreeErrorTest, ContinueTargetNotDominatedByHeader) {
  Cfg G = makeCfg(
      {blk(60, {61, 62}), loop(61, {62, 63}, 63, 62), blk(62, {61}), ret(63)});
  EXPECT_EQ(buildError(G), "loop header %61 does not dominate its continue "
                           "target %62");
}

TEST(StructureTreeErrorTest, BackEdgeToBlockWithoutLoopMerge) {
  Cfg G = makeCfg({blk(70, {71}), blk(71, {72, 73}), blk(72, {71}), ret(73)});
  EXPECT_EQ(buildError(G),
            "back edge %72 -> %71 targets %71, which has no OpLoopMerge");
}

TEST(StructureTreeErrorTest, BackEdgeFromOutsideLoopConstruct) {
  // 83 is the loop's merge block, yet branches back to the header.
  Cfg G = makeCfg({blk(80, {81}), loop(81, {82, 83}, 83, 82), blk(82, {81}),
                   blk(83, {81, 84}), ret(84)});
  EXPECT_EQ(buildError(G), "back edge %83 -> %81 leaves from outside the loop "
                           "construct of %81");
}

TEST(StructureTreeErrorTest, MergeBlockNotDominatedByHeader) {
  Cfg G = makeCfg(
      {blk(90, {91, 93}), sel(91, {92, 93}, 93), blk(92, {93}), ret(93)});
  EXPECT_EQ(buildError(G),
            "selection header %91 does not dominate its merge block %93");
}

TEST(StructureTreeErrorTest, ContinueTargetOutsideLoopConstruct) {
  Cfg G = makeCfg({blk(110, {111}), loop(111, {112, 113}, 113, 114),
                   blk(112, {111}), blk(113, {114, 115}), blk(114, {111}),
                   ret(115)});
  EXPECT_EQ(buildError(G), "continue target %114 of loop %111 is outside the "
                           "loop construct");
}

TEST(StructureTreeErrorTest, HeaderIsItsOwnMerge) {
  Cfg G = makeCfg({sel(1, {2, 1}, 1), blk(2, {1})});
  EXPECT_EQ(buildError(G), "selection header %1 is its own merge block");
}

TEST(StructureTreeErrorTest, BadlyNestedLoops) {
  // The inner loop 102 breaks straight to 105, the outer loop's merge, so
  // 105 is inside the inner loop construct but outside the outer one.
  Cfg G = makeCfg({blk(100, {101}), loop(101, {102}, 105, 104),
                   loop(102, {105, 103}, 106, 103), blk(103, {102, 106}),
                   blk(106, {104}), blk(104, {101}), ret(105)});
  EXPECT_EQ(buildError(G), "loop %101 and loop %102 are not nested: merge "
                           "block %105 of %101 is inside the loop construct "
                           "of %102");
}

// --- depth -------------------------------------------------------------------


TEST(StructureTreeDepthTest, ThousandsOfNestedLoops) {
  runWithSmallStack([] {
    // Loop i: header H(i) = 3i+1 -> H(i+1) | merge M(i) = 3i+2; M(i+1) goes
    // to the continue target C(i) = 3i+3, which branches back to H(i). The
    // construct lists are quadratic in the depth, hence 2,500 and not more.
    const uint32_t N = 2500;
    auto H = [](uint32_t I) { return 3 * I + 1; };
    auto M = [](uint32_t I) { return 3 * I + 2; };
    auto C = [](uint32_t I) { return 3 * I + 3; };
    std::vector<BlockSpec> Specs{blk(100000, {H(0)})};
    for (uint32_t I = 0; I < N; ++I) {
      Specs.push_back(
          loop(H(I), {I + 1 < N ? H(I + 1) : C(I), M(I)}, M(I), C(I)));
      Specs.push_back(I == 0 ? ret(M(I)) : blk(M(I), {C(I - 1)}));
      Specs.push_back(blk(C(I), {H(I)}));
    }
    Cfg G = makeCfg(Specs);
    DominatorTree DT = computeDominators(G);
    llvm::Expected<StructureTree> T = buildStructureTree(G, DT);
    ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
    auto Depth = [&](uint32_t L) { return T->loopDepth(G.indexOfLabel(L)); };
    EXPECT_EQ(Depth(H(N - 1)), N);
    EXPECT_EQ(Depth(C(N - 1)), N);
    EXPECT_EQ(Depth(M(N - 1)), N - 1);
    EXPECT_EQ(Depth(M(0)), 0u);
    ASSERT_EQ(T->constructs().size(), N);
    EXPECT_EQ(T->constructs()[0].Blocks.size(), 3 * N - 1);
    EXPECT_EQ(T->constructs()[N - 1].Blocks.size(), 2u);

    DominatorTree PDT = computePostDominators(G);
    ControlDependence CD = computeControlDependence(G, PDT);
    // The innermost header runs again when it branches to its continue
    // target, and each time the enclosing header enters the inner loop.
    EXPECT_EQ(labels(G, CD.dependsOn(G.indexOfLabel(H(N - 1)))),
              (Labels{H(N - 2), H(N - 1)}));

    llvm::raw_null_ostream Null;
    printStructureTree(G, *T, Null, /*Full=*/true);
    printDomTreeMermaid(G, PDT, Null);
  });
}

} // namespace

namespace {

// A loop with two blocks branching back to the header (a natural loop with
// two latches): both are in the loop, and the dominator and post-dominator
// trees treat both back edges alike.
TEST(StructureTreeTest, LoopWithSeveralBackEdgeBlocks) {
  Cfg G = makeCfg({blk(10, {11}), loop(11, {12, 19}, 19, 13),
                   blk(12, {13, 14}), blk(13, {11}), blk(14, {11}),
                   ret(19)});
  EXPECT_TRUE(G.isBackEdge(G.indexOfLabel(13), G.indexOfLabel(11)));
  EXPECT_TRUE(G.isBackEdge(G.indexOfLabel(14), G.indexOfLabel(11)));
  StructureTree T = build(G);
  EXPECT_EQ(print(G, T),
            "- CFGStructureTree\n"
            "    - %10\n"
            "    - Loop\n"
            "        - %11\n"
            "        - %12\n"
            "        - %14\n" // reverse postorder: 13 finishes first
            "        - %13\n"
            "    - %19\n");
  DominatorTree DT = computeDominators(G);
  EXPECT_EQ(DT.idom(G.indexOfLabel(13)), G.indexOfLabel(12));
  EXPECT_EQ(DT.idom(G.indexOfLabel(14)), G.indexOfLabel(12));
  EXPECT_EQ(DT.idom(G.indexOfLabel(19)), G.indexOfLabel(11));
  DominatorTree PDT = computePostDominators(G);
  EXPECT_EQ(PDT.idom(G.indexOfLabel(13)), G.indexOfLabel(11));
  EXPECT_EQ(PDT.idom(G.indexOfLabel(14)), G.indexOfLabel(11));
  EXPECT_EQ(PDT.idom(G.indexOfLabel(12)), G.indexOfLabel(11));
  EXPECT_EQ(PDT.idom(G.indexOfLabel(11)), G.indexOfLabel(19));
  // 13 and 14 depend on 12's branch; 12 (and the header itself) on 11's.
  ControlDependence CD = computeControlDependence(G, PDT);
  EXPECT_EQ(labels(G, CD.dependsOn(G.indexOfLabel(13))), Labels({12}));
  EXPECT_EQ(labels(G, CD.dependsOn(G.indexOfLabel(14))), Labels({12}));
  EXPECT_EQ(labels(G, CD.dependsOn(G.indexOfLabel(12))), Labels({11}));
}

} // namespace
