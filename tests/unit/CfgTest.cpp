//===- CfgTest.cpp - Cfg construction, buildCfg and CFG printers ----------===//
//
// Graphs are built by hand (labels as in the design document's example) or
// from a hand-built Module, so these tests do not depend on the parser.
//
//===----------------------------------------------------------------------===//
#include "cfg/Cfg.h"
#include "cfg/CfgPrinter.h"
#include "cfg/DominatorTree.h"
#include "cfg/StructureTree.h"

#include "llvm/Support/raw_ostream.h"

#include "CfgBuilders.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <optional>
#include <string>

using namespace spirv2llvm;
using namespace spirv2llvm::cfg;

namespace {

// --- hand-built graphs ------------------------------------------------------

using namespace spirv2llvm::cfg::testing;


std::string mermaid(const Cfg &G) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printCfgMermaid(G, OS);
  return S;
}

std::string dot(const Cfg &G) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printCfgDot(G, OS);
  return S;
}


// --- Cfg ---------------------------------------------------------------------

TEST(CfgTest, KazanReversePostorderVisitsTrueTargetFirst) {
  Cfg G = kazanCfg();
  EXPECT_EQ(labels(G, G.rpo()), (Labels{15, 18, 25, 26, 30, 21}));
  EXPECT_EQ(G.rpoIndex(G.indexOfLabel(25)), 2u);
  EXPECT_EQ(G.rpoIndex(G.indexOfLabel(21)), 5u);
}

TEST(CfgTest, KazanPredecessorsInBlockOrder) {
  Cfg G = kazanCfg();
  EXPECT_EQ(labels(G, G.block(G.indexOfLabel(18)).Preds), (Labels{15, 21}));
  EXPECT_EQ(labels(G, G.block(G.indexOfLabel(21)).Preds), (Labels{26, 30}));
  EXPECT_EQ(labels(G, G.block(G.indexOfLabel(25)).Preds), (Labels{18}));
  EXPECT_TRUE(G.block(0).Preds.empty());
}

TEST(CfgTest, BackEdges) {
  Cfg G = kazanCfg();
  auto I = [&](uint32_t L) { return G.indexOfLabel(L); };
  EXPECT_TRUE(G.isBackEdge(I(21), I(18)));
  EXPECT_FALSE(G.isBackEdge(I(18), I(26)));
  EXPECT_FALSE(G.isBackEdge(I(26), I(21)));
  EXPECT_FALSE(G.isBackEdge(I(18), I(25)));
  // A self loop is a back edge.
  Cfg Self = makeCfg({blk(1, {2}), loop(2, {2, 3}, 3, 2), ret(3)});
  EXPECT_TRUE(Self.isBackEdge(1, 1));
}

TEST(CfgTest, IndexOfLabel) {
  Cfg G = kazanCfg();
  EXPECT_EQ(G.indexOfLabel(15), 0u);
  EXPECT_EQ(G.indexOfLabel(30), 3u);
  EXPECT_EQ(G.indexOfLabel(99), NoBlock);
}

TEST(CfgTest, DuplicateSuccessorsAreRemoved) {
  Cfg G = makeCfg(
      {{1, {3, 2, 3, 2}, MergeKind::Selection, 3, 0, TerminatorKind::Switch},
       blk(2, {3}),
       ret(3)});
  EXPECT_EQ(labels(G, G.block(0).Succs), (Labels{3, 2}));
  EXPECT_EQ(labels(G, G.block(2).Preds), (Labels{1, 2}));
  // Successor order drives the DFS: 3 is finished first.
  EXPECT_EQ(labels(G, G.rpo()), (Labels{1, 2, 3}));
}

TEST(CfgTest, UnreachableBlocks) {
  Cfg G = makeCfg({blk(10, {11}), ret(11), blk(12, {11}), blk(13, {12})});
  EXPECT_TRUE(G.isReachable(0));
  EXPECT_TRUE(G.isReachable(1));
  EXPECT_FALSE(G.isReachable(2));
  EXPECT_FALSE(G.isReachable(3));
  EXPECT_EQ(G.rpoIndex(2), NoBlock);
  EXPECT_EQ(labels(G, G.rpo()), (Labels{10, 11}));
  // Edges from unreachable blocks still count as predecessors.
  EXPECT_EQ(labels(G, G.block(1).Preds), (Labels{10, 12}));
}

TEST(CfgTest, EmptyGraph) {
  Cfg G{std::vector<CfgBlock>{}};
  EXPECT_EQ(G.size(), 0u);
  EXPECT_TRUE(G.rpo().empty());
  EXPECT_EQ(mermaid(G), "graph TD;\n");
}

// --- printers ----------------------------------------------------------------

TEST(CfgPrinterTest, KazanMermaidMatchesDesignDocument) {
  EXPECT_EQ(mermaid(kazanCfg()), "graph TD;\n"
                                 "15[15] --> 18(18);\n"
                                 "style 15 stroke-width:4px\n"
                                 "18 --> 25(25);\n"
                                 "18 --> 26(26);\n"
                                 "21 --> 18;\n"
                                 "26 --> 30(30);\n"
                                 "26 --> 21(21);\n"
                                 "30 --> 21;\n");
}

TEST(CfgPrinterTest, KazanDot) {
  EXPECT_EQ(dot(kazanCfg()), "digraph cfg {\n"
                             "  \"15\" [style=bold];\n"
                             "  \"15\" -> \"18\";\n"
                             "  \"18\" -> \"25\";\n"
                             "  \"18\" -> \"26\";\n"
                             "  \"21\" -> \"18\";\n"
                             "  \"26\" -> \"30\";\n"
                             "  \"26\" -> \"21\";\n"
                             "  \"30\" -> \"21\";\n"
                             "}\n");
}

TEST(CfgPrinterTest, DotGraphNameIsQuotedWhenNeeded) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printCfgDot(makeCfg({ret(7)}), OS, "main fn");
  EXPECT_EQ(S, "digraph \"main fn\" {\n  \"7\" [style=bold];\n}\n");
}

TEST(CfgPrinterTest, SourcesSortedByNumericLabelNotName) {
  // Label 9 sorts before label 10 although "10" < "9" as strings. The
  // entry need not have the smallest label; the style line still follows
  // the first line. Targets of %100 are in reverse postorder (10 before 9).
  Cfg G = makeCfg({blk(100, {9, 10}), blk(10, {11}), blk(9, {11}), ret(11)});
  EXPECT_EQ(labels(G, G.rpo()), (Labels{100, 10, 9, 11}));
  EXPECT_EQ(mermaid(G), "graph TD;\n"
                        "9 --> 11(11);\n"
                        "style 100 stroke-width:4px\n"
                        "10 --> 11;\n"
                        "100[100] --> 10(10);\n"
                        "100 --> 9(9);\n");
}

TEST(CfgPrinterTest, UnreachableAndIsolatedBlocks) {
  // 13 is unreachable with an edge into the graph, 14 has no edges at all.
  Cfg G =
      makeCfg({blk(10, {11, 12}), ret(11), ret(12), blk(13, {11}), ret(14)});
  // RPO is 10 12 11: the DFS finishes 11 first, so 12 is printed first.
  EXPECT_EQ(labels(G, G.rpo()), (Labels{10, 12, 11}));
  EXPECT_EQ(mermaid(G), "graph TD;\n"
                        "10[10] --> 12(12);\n"
                        "style 10 stroke-width:4px\n"
                        "10 --> 11(11);\n"
                        "13(13) --> 11;\n"
                        "14(14);\n");
  EXPECT_EQ(dot(G), "digraph cfg {\n"
                    "  \"10\" [style=bold];\n"
                    "  \"10\" -> \"12\";\n"
                    "  \"10\" -> \"11\";\n"
                    "  \"13\" -> \"11\";\n"
                    "  \"14\";\n"
                    "}\n");
}

TEST(CfgPrinterTest, SingleBlockFunctionShowsItsEntry) {
  EXPECT_EQ(mermaid(makeCfg({ret(7)})), "graph TD;\n"
                                        "7[7];\n"
                                        "style 7 stroke-width:4px\n");
}

// --- buildCfg ----------------------------------------------------------------

/// A function assembled by hand: only labels, merges and terminators.
struct ModuleBuilder {
  Module M;
  Function F;
  uint32_t Word = 100;

  ModuleBuilder() {
    F.Id = FunctionId(4);
    M.FriendlyNames.resize(5);
    M.FriendlyNames[4] = "main";
  }
  uint32_t inst(spv::Op Op, std::vector<uint32_t> Operands) {
    Instruction I;
    I.Opcode = Op;
    I.Operands = std::move(Operands);
    I.WordOffset = Word;
    Word += uint32_t(I.Operands.size()) + 1;
    M.Insts.push_back(std::move(I));
    return uint32_t(M.Insts.size() - 1);
  }
  void block(uint32_t Label, std::optional<uint32_t> Merge, uint32_t Term) {
    Block B;
    B.Label = BlockId(Label);
    if (Merge) {
      B.MergeInst = *Merge;
      B.Insts.push_back(*Merge);
    }
    B.TerminatorInst = Term;
    B.Insts.push_back(Term);
    F.BlockIndexOf[Label] = uint32_t(F.Blocks.size());
    F.Blocks.push_back(std::move(B));
  }
  /// Gives value \p Id a scalar integer type of \p Width bits.
  void intValue(uint32_t Id, uint32_t Width) {
    const uint32_t TypeIdValue = 1000 + Width;
    Type T;
    T.Kind = TypeKind::Int;
    T.Id = TypeId(TypeIdValue);
    T.Width = Width;
    M.Types[TypeIdValue] = T;
    Instruction Def;
    Def.Opcode = spv::Op::OpLoad;
    Def.ResultType = TypeId(TypeIdValue);
    Def.Result = ValueId(Id);
    M.Insts.push_back(Def);
    if (M.DefInst.size() <= Id)
      M.DefInst.resize(Id + 1, ~0u);
    M.DefInst[Id] = uint32_t(M.Insts.size() - 1);
  }
};

using spv::Op;

ModuleBuilder kazanModule() {
  ModuleBuilder B;
  B.block(15, std::nullopt, B.inst(Op::OpBranch, {18}));
  uint32_t LoopMerge = B.inst(Op::OpLoopMerge, {25, 21, 0});
  B.block(18, LoopMerge, B.inst(Op::OpBranchConditional, {24, 26, 25}));
  uint32_t SelMerge = B.inst(Op::OpSelectionMerge, {21, 0});
  B.block(26, SelMerge, B.inst(Op::OpBranchConditional, {29, 30, 21}));
  B.block(30, std::nullopt, B.inst(Op::OpBranch, {21}));
  B.block(21, std::nullopt, B.inst(Op::OpBranch, {18}));
  B.block(25, std::nullopt, B.inst(Op::OpReturn, {}));
  return B;
}

TEST(BuildCfgTest, KazanModule) {
  ModuleBuilder B = kazanModule();
  llvm::Expected<Cfg> G = buildCfg(B.M, B.F);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  ASSERT_EQ(G->size(), 6u);
  const CfgBlock &Header = G->block(1);
  EXPECT_EQ(Header.Label, 18u);
  EXPECT_EQ(Header.Name, "18");
  EXPECT_EQ(Header.Terminator, TerminatorKind::BranchConditional);
  EXPECT_EQ(Header.Merge, MergeKind::Loop);
  EXPECT_EQ(G->block(Header.MergeBlock).Label, 25u);
  EXPECT_EQ(G->block(Header.ContinueTarget).Label, 21u);
  EXPECT_EQ(labels(*G, Header.Succs), (Labels{26, 25}));
  const CfgBlock &Sel = G->block(2);
  EXPECT_EQ(Sel.Merge, MergeKind::Selection);
  EXPECT_EQ(G->block(Sel.MergeBlock).Label, 21u);
  EXPECT_EQ(Sel.ContinueTarget, NoBlock);
  EXPECT_EQ(G->block(0).Terminator, TerminatorKind::Branch);
  EXPECT_EQ(G->block(0).Merge, MergeKind::None);
  EXPECT_EQ(G->block(5).Terminator, TerminatorKind::Return);
  EXPECT_EQ(mermaid(*G), mermaid(kazanCfg()));
}

TEST(BuildCfgTest, NamesComeFromFriendlyNames) {
  ModuleBuilder B;
  B.M.FriendlyNames.resize(8);
  B.M.FriendlyNames[7] = "entry";
  B.block(7, std::nullopt, B.inst(Op::OpReturn, {}));
  llvm::Expected<Cfg> G = buildCfg(B.M, B.F);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_EQ(G->block(0).Name, "entry");
}

TEST(BuildCfgTest, TerminatorKinds) {
  ModuleBuilder B;
  B.block(10, std::nullopt, B.inst(Op::OpBranchConditional, {5, 11, 11}));
  B.block(11, std::nullopt, B.inst(Op::OpSwitch, {6, 12, 1, 13, 2, 14}));
  B.block(12, std::nullopt, B.inst(Op::OpKill, {}));
  B.block(13, std::nullopt, B.inst(Op::OpTerminateInvocation, {}));
  B.block(14, std::nullopt, B.inst(Op::OpUnreachable, {}));
  B.block(15, std::nullopt, B.inst(Op::OpReturnValue, {5}));
  llvm::Expected<Cfg> G = buildCfg(B.M, B.F);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_EQ(labels(*G, G->block(0).Succs), (Labels{11})); // deduplicated
  EXPECT_EQ(G->block(1).Terminator, TerminatorKind::Switch);
  EXPECT_EQ(labels(*G, G->block(1).Succs), (Labels{12, 13, 14}));
  EXPECT_EQ(G->block(2).Terminator, TerminatorKind::Kill);
  EXPECT_EQ(G->block(3).Terminator, TerminatorKind::Kill);
  EXPECT_EQ(G->block(4).Terminator, TerminatorKind::Unreachable);
  EXPECT_EQ(G->block(5).Terminator, TerminatorKind::Return);
}

TEST(BuildCfgTest, SwitchDefaultFirstThenCasesDeduplicated) {
  ModuleBuilder B;
  B.intValue(6, 32);
  // default %13; case 1: %11, case 2: %11, case 3: %12, case 4: %13
  B.block(10, B.inst(Op::OpSelectionMerge, {13, 0}),
          B.inst(Op::OpSwitch, {6, 13, 1, 11, 2, 11, 3, 12, 4, 13}));
  B.block(11, std::nullopt, B.inst(Op::OpBranch, {12}));
  B.block(12, std::nullopt, B.inst(Op::OpBranch, {13}));
  B.block(13, std::nullopt, B.inst(Op::OpReturn, {}));
  llvm::Expected<Cfg> G = buildCfg(B.M, B.F);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_EQ(labels(*G, G->block(0).Succs), (Labels{13, 11, 12}));
}

TEST(BuildCfgTest, SwitchOn64BitSelectorHasTwoWordLiterals) {
  ModuleBuilder B;
  B.intValue(6, 64);
  // Literals 11 and 12 would be read as labels with one-word literals.
  B.block(10, B.inst(Op::OpSelectionMerge, {13, 0}),
          B.inst(Op::OpSwitch, {6, 13, 11, 0, 12, 12, 0, 11}));
  B.block(11, std::nullopt, B.inst(Op::OpBranch, {13}));
  B.block(12, std::nullopt, B.inst(Op::OpBranch, {13}));
  B.block(13, std::nullopt, B.inst(Op::OpReturn, {}));
  llvm::Expected<Cfg> G = buildCfg(B.M, B.F);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_EQ(labels(*G, G->block(0).Succs), (Labels{13, 12, 11}));
}

std::string buildError(ModuleBuilder &B) {
  llvm::Expected<Cfg> G = buildCfg(B.M, B.F);
  if (G)
    return "no error";
  return llvm::toString(G.takeError());
}

TEST(BuildCfgTest, ErrorBranchTargetNotInFunction) {
  ModuleBuilder B;
  B.block(10, std::nullopt, B.inst(Op::OpBranch, {11}));
  uint32_t Term = B.inst(Op::OpBranchConditional, {5, 10, 42});
  B.block(11, std::nullopt, Term);
  EXPECT_EQ(buildError(B), "word " +
                               std::to_string(B.M.Insts[Term].WordOffset) +
                               ": branch target %42 is not a block of "
                               "function %main");
}

TEST(BuildCfgTest, ErrorSwitchCaseNotInFunction) {
  ModuleBuilder B;
  B.block(10, std::nullopt, B.inst(Op::OpSwitch, {6, 11, 1, 11, 2, 43}));
  B.block(11, std::nullopt, B.inst(Op::OpReturn, {}));
  EXPECT_EQ(buildError(B),
            "word 100: branch target %43 is not a block of function %main");
}

TEST(BuildCfgTest, ErrorMergeBlockNotInFunction) {
  ModuleBuilder B;
  uint32_t Merge = B.inst(Op::OpSelectionMerge, {44, 0});
  B.block(10, Merge, B.inst(Op::OpBranchConditional, {5, 11, 11}));
  B.block(11, std::nullopt, B.inst(Op::OpReturn, {}));
  EXPECT_EQ(buildError(B),
            "word 100: merge block %44 is not a block of function %main");
}

TEST(BuildCfgTest, ErrorContinueTargetNotInFunction) {
  ModuleBuilder B;
  B.block(10, std::nullopt, B.inst(Op::OpBranch, {11}));
  uint32_t Merge = B.inst(Op::OpLoopMerge, {12, 45, 0});
  B.block(11, Merge, B.inst(Op::OpBranch, {12}));
  B.block(12, std::nullopt, B.inst(Op::OpReturn, {}));
  EXPECT_EQ(buildError(B),
            "word 102: continue target %45 is not a block of function %main");
}

TEST(BuildCfgTest, ErrorMalformedSwitch) {
  ModuleBuilder B;
  B.block(10, std::nullopt, B.inst(Op::OpSwitch, {6, 11, 1}));
  B.block(11, std::nullopt, B.inst(Op::OpReturn, {}));
  EXPECT_EQ(buildError(B), "word 100: malformed OpSwitch: 3 operand words");
}

TEST(BuildCfgTest, ErrorNotATerminator) {
  ModuleBuilder B;
  B.block(10, std::nullopt, B.inst(Op::OpNop, {}));
  EXPECT_EQ(buildError(B), "word 100: unsupported: block terminator (opcode 0) "
                           "in block %10");
}

// --- depth -------------------------------------------------------------------


TEST(CfgDepthTest, TenThousandBlockChain) {
  runWithSmallStack([] {
    const uint32_t N = 10000;
    std::vector<BlockSpec> Specs;
    for (uint32_t L = 1; L < N; ++L)
      Specs.push_back(blk(L, {L + 1}));
    Specs.push_back(ret(N));
    Cfg G = makeCfg(Specs);
    ASSERT_EQ(G.rpo().size(), N);
    EXPECT_EQ(G.rpo().back(), N - 1);

    DominatorTree DT = computeDominators(G);
    EXPECT_EQ(DT.idom(N - 1), N - 2);
    EXPECT_TRUE(DT.dominates(0, N - 1));
    EXPECT_FALSE(DT.dominates(N - 1, 0));

    DominatorTree PDT = computePostDominators(G);
    EXPECT_EQ(PDT.idom(0), 1u);
    EXPECT_EQ(PDT.idom(N - 1), N); // the virtual exit
    EXPECT_TRUE(PDT.dominates(N - 1, 0));

    ControlDependence CD = computeControlDependence(G, PDT);
    EXPECT_TRUE(CD.dependsOn(N / 2).empty());

    llvm::Expected<StructureTree> T = buildStructureTree(G, DT);
    ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
    EXPECT_EQ(T->node(0).Children.size(), N);

    std::string S;
    llvm::raw_string_ostream OS(S);
    printDomTreeMermaid(G, DT, OS);
    printStructureTree(G, *T, OS, /*Full=*/true);
    EXPECT_NE(S.find("9999 --> 10000(10000);\n"), std::string::npos);
  });
}

} // namespace
