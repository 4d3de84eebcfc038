//===- CfgPrinter.h - Mermaid/DOT/Markdown dumps of cfg results -*- C++ -*-===//
//
// Formats used by --print-cfg, --print-domtree and --print-structure; tests
// and users rely on them, so they follow the design document byte for byte:
//
//   graph TD;
//   15[15] --> 18(18);
//   style 15 stroke-width:4px
//   18 --> 25(25);
//
// Edges are grouped by source in ascending label id; each source's targets in
// reverse postorder. The entry is decorated as `N[N]` where it first
// appears; any other node as `N(N)` the first time it is an edge's target
// (as in the document, where `21 --> 18;` precedes `26 --> 21(21);`), or
// where it first appears if it is never a target. A node without edges gets
// a line of its own. The `style` line follows the first line.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CFG_CFGPRINTER_H
#define SPIRV2LLVM_CFG_CFGPRINTER_H

#include "cfg/Cfg.h"
#include "cfg/DominatorTree.h"
#include "cfg/StructureTree.h"

#include "llvm/Support/raw_ostream.h"

namespace spirv2llvm::cfg {

void printCfgMermaid(const Cfg &G, llvm::raw_ostream &OS);
void printCfgDot(const Cfg &G, llvm::raw_ostream &OS,
                 llvm::StringRef GraphName = "cfg");
/// Dominator tree as Mermaid edges parent --> child (same conventions).
void printDomTreeMermaid(const Cfg &G, const DominatorTree &DT,
                         llvm::raw_ostream &OS);
/// The document's indented list, four spaces per level:
///   - CFGStructureTree
///       - %15
///       - Loop
///           - %18
/// With \p Full, selection/switch/loop constructs follow as a second list.
void printStructureTree(const Cfg &G, const StructureTree &T,
                        llvm::raw_ostream &OS, bool Full = false);

} // namespace spirv2llvm::cfg

#endif
