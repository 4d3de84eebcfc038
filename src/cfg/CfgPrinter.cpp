//===- CfgPrinter.cpp - Mermaid/DOT/Markdown dumps of cfg results ---------===//
//
// The CFG and both dominator trees print through one edge-list writer: the
// caller lists (source, targets) groups in output order and the writer
// applies the node decoration and style rules of CfgPrinter.h. Decoration
// follows the design document's example, where a block first printed as a
// source stays bare (`21 --> 18;`) and is decorated when it first appears as
// a target (`26 --> 21(21);`): the root is decorated wherever it first
// appears, other nodes the first time they are a target, or the first time
// they are printed at all if they are never a target (unreachable blocks).
// A node with no edges at all gets a line of its own (`15[15];`), so a
// one-block function still shows its entry.
//
// The post-dominator tree's virtual exit prints as `exit` and comes first.
//
//===----------------------------------------------------------------------===//
#include "cfg/CfgPrinter.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace spirv2llvm::cfg {

namespace {

struct EdgeGroup {
  BlockIndex Source;
  std::vector<BlockIndex> Targets;
};

/// Nodes and edges of one graph to print.
struct EdgeList {
  /// Names indexed by node (blocks, then the virtual exit if any).
  std::vector<std::string> Names;
  BlockIndex Root = 0;
  std::vector<EdgeGroup> Groups;
};

std::vector<std::string> blockNames(const Cfg &G) {
  std::vector<std::string> Names;
  Names.reserve(G.size() + 1);
  for (const CfgBlock &B : G.blocks())
    Names.push_back(B.Name);
  return Names;
}

/// Block indices sorted by ascending label id (ties: module order).
std::vector<BlockIndex> blocksByLabel(const Cfg &G) {
  std::vector<BlockIndex> Order(G.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](BlockIndex A, BlockIndex B) {
    return std::pair(G.block(A).Label, A) < std::pair(G.block(B).Label, B);
  });
  return Order;
}

void writeMermaid(const EdgeList &L, llvm::raw_ostream &OS) {
  const size_t N = L.Names.size();
  std::vector<bool> IsTarget(N, false), Decorated(N, false);
  for (const EdgeGroup &Group : L.Groups)
    for (BlockIndex T : Group.Targets)
      IsTarget[T] = true;

  auto Ref = [&](BlockIndex Node, bool AsTarget) {
    const std::string &Name = L.Names[Node];
    bool Decorate =
        !Decorated[Node] && (Node == L.Root || AsTarget || !IsTarget[Node]);
    if (!Decorate)
      return Name;
    Decorated[Node] = true;
    return Node == L.Root ? Name + "[" + Name + "]" : Name + "(" + Name + ")";
  };
  bool StylePending = N != 0;
  auto EndLine = [&] {
    OS << ";\n";
    if (StylePending)
      OS << "style " << L.Names[L.Root] << " stroke-width:4px\n";
    StylePending = false;
  };

  OS << "graph TD;\n";
  for (const EdgeGroup &Group : L.Groups) {
    if (Group.Targets.empty()) {
      if (!IsTarget[Group.Source] && !Decorated[Group.Source]) {
        OS << Ref(Group.Source, false);
        EndLine();
      }
      continue;
    }
    for (BlockIndex T : Group.Targets) {
      std::string Source = Ref(Group.Source, false);
      OS << Source << " --> " << Ref(T, true);
      EndLine();
    }
  }
}

/// Quotes \p S as a DOT ID.
std::string dotQuote(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out.push_back('\\');
    Out.push_back(C);
  }
  return Out + "\"";
}

bool isDotIdentifier(llvm::StringRef S) {
  if (S.empty() || (S[0] >= '0' && S[0] <= '9'))
    return false;
  return llvm::all_of(S, [](char C) {
    return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
           (C >= '0' && C <= '9') || C == '_';
  });
}

/// CFG edges: every block (reachable or not) in ascending label id, targets
/// in reverse postorder with unreachable targets last in module order.
EdgeList cfgEdges(const Cfg &G) {
  EdgeList L;
  L.Names = blockNames(G);
  L.Root = G.entry();
  for (BlockIndex B : blocksByLabel(G)) {
    EdgeGroup Group{B, G.block(B).Succs};
    std::sort(Group.Targets.begin(), Group.Targets.end(),
              [&](BlockIndex X, BlockIndex Y) {
                return std::pair(G.rpoIndex(X), X) <
                       std::pair(G.rpoIndex(Y), Y);
              });
    L.Groups.push_back(std::move(Group));
  }
  return L;
}

} // namespace

void printCfgMermaid(const Cfg &G, llvm::raw_ostream &OS) {
  writeMermaid(cfgEdges(G), OS);
}

void printCfgDot(const Cfg &G, llvm::raw_ostream &OS,
                 llvm::StringRef GraphName) {
  EdgeList L = cfgEdges(G);
  OS << "digraph "
     << (isDotIdentifier(GraphName) ? GraphName.str() : dotQuote(GraphName))
     << " {\n";
  if (G.size() != 0)
    OS << "  " << dotQuote(L.Names[L.Root]) << " [style=bold];\n";
  std::vector<bool> IsTarget(G.size(), false);
  for (const EdgeGroup &Group : L.Groups)
    for (BlockIndex T : Group.Targets)
      IsTarget[T] = true;
  for (const EdgeGroup &Group : L.Groups) {
    if (Group.Targets.empty() && !IsTarget[Group.Source] &&
        Group.Source != L.Root)
      OS << "  " << dotQuote(L.Names[Group.Source]) << ";\n";
    for (BlockIndex T : Group.Targets)
      OS << "  " << dotQuote(L.Names[Group.Source]) << " -> "
         << dotQuote(L.Names[T]) << ";\n";
  }
  OS << "}\n";
}

void printDomTreeMermaid(const Cfg &G, const DominatorTree &DT,
                         llvm::raw_ostream &OS) {
  EdgeList L;
  L.Names = blockNames(G);
  L.Root = DT.root();
  std::vector<BlockIndex> Order = blocksByLabel(G);
  if (DT.isPostDominatorTree()) {
    L.Names.push_back("exit");
    Order.insert(Order.begin(), DT.root());
  }
  for (BlockIndex B : Order)
    if (!DT.children(B).empty() || (B == DT.root() && G.size() != 0))
      L.Groups.push_back({B, DT.children(B)});
  writeMermaid(L, OS);
}

void printStructureTree(const Cfg &G, const StructureTree &T,
                        llvm::raw_ostream &OS, bool Full) {
  // Preorder with an explicit stack of (node, depth); children are pushed
  // in reverse so that they pop in order.
  std::vector<std::pair<uint32_t, unsigned>> Stack{{0, 0}};
  while (!Stack.empty()) {
    auto [N, Depth] = Stack.back();
    Stack.pop_back();
    const StructureNode &Node = T.node(N);
    OS.indent(4 * Depth) << "- ";
    switch (Node.Kind) {
    case StructureNodeKind::Root:
      OS << "CFGStructureTree\n";
      break;
    case StructureNodeKind::Loop:
      OS << "Loop\n";
      break;
    case StructureNodeKind::Block:
      OS << "%" << G.block(Node.Block).Name << "\n";
      break;
    }
    for (auto It = Node.Children.rbegin(); It != Node.Children.rend(); ++It)
      Stack.push_back({*It, Depth + 1});
  }

  if (!T.unreachable().empty()) {
    OS << "- Unreachable:";
    for (BlockIndex B : T.unreachable())
      OS << " %" << G.block(B).Name;
    OS << "\n";
  }

  if (!Full)
    return;
  OS << "\n- Constructs\n";
  for (const Construct &C : T.constructs()) {
    OS << "    - ";
    switch (C.Kind) {
    case ConstructKind::Selection:
      OS << "Selection";
      break;
    case ConstructKind::Switch:
      OS << "Switch";
      break;
    case ConstructKind::Loop:
      OS << "Loop";
      break;
    }
    OS << " %" << G.block(C.Header).Name << " merge %" << G.block(C.Merge).Name;
    if (C.Continue != NoBlock)
      OS << " continue %" << G.block(C.Continue).Name;
    OS << ":";
    for (BlockIndex B : C.Blocks)
      OS << " %" << G.block(B).Name;
    OS << "\n";
  }
}

} // namespace spirv2llvm::cfg
