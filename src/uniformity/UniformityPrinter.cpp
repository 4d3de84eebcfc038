//===- UniformityPrinter.cpp - The document's uniformity tables -----------===//
//
// Prints the two tables of the design document per function, padded so the
// Markdown source lines up like the document's:
//
//   | Variable | Uniformity |
//   |----------|------------|
//   | %int_0   | Constant   |
//
// and, with lane shapes, a third table of the Varying values whose lanes
// are uniform or affine:
//
//   | Value | Lanes     |
//   |-------|-----------|
//   | %gid  | affine(1) |
//
//===----------------------------------------------------------------------===//
#include "uniformity/LaneShape.h"
#include "uniformity/Uniformity.h"

#include <algorithm>

using namespace llvm;

namespace spirv2llvm {

namespace {

void printTable(StringRef Head, StringRef Head2,
                const std::vector<std::pair<std::string, std::string>> &Rows,
                raw_ostream &OS) {
  size_t W1 = Head.size(), W2 = Head2.size();
  for (const auto &[Name, U] : Rows) {
    W1 = std::max(W1, Name.size());
    W2 = std::max(W2, U.size());
  }
  auto Row = [&](StringRef A, StringRef B) {
    OS << "| " << A << std::string(W1 - A.size(), ' ') << " | " << B
       << std::string(W2 - B.size(), ' ') << " |\n";
  };
  Row(Head, Head2);
  OS << "|" << std::string(W1 + 2, '-') << "|" << std::string(W2 + 2, '-')
     << "|\n";
  for (const auto &[Name, U] : Rows)
    Row(Name, U);
}

void printTable(StringRef Head,
                const std::vector<std::pair<std::string, Uniformity>> &Rows,
                raw_ostream &OS) {
  std::vector<std::pair<std::string, std::string>> Named;
  for (const auto &[Name, U] : Rows)
    Named.emplace_back(Name, uniformityName(U));
  printTable(Head, "Uniformity", Named, OS);
}

} // namespace

void printUniformity(const Module &M, const cfg::ModuleAnalysis &MA,
                     const UniformityInfo &UI, raw_ostream &OS,
                     const LaneShapeInfo *Lanes) {
  bool First = true;
  for (uint32_t Fn = 0; Fn < M.Functions.size(); ++Fn) {
    if (!UI.isAnalyzed(Fn))
      continue;
    const Function &F = M.Functions[Fn];
    const cfg::FunctionAnalysis &A = MA[Fn];
    if (!First)
      OS << "\n";
    First = false;
    OS << "## " << M.friendlyName(F.Id.value()) << "\n\n";

    std::vector<std::pair<std::string, Uniformity>> Rows;
    for (const Instruction &I : M.Insts) {
      // Module scope, in module order: constants and global variables.
      if (I.Opcode == spv::Op::OpFunction)
        break;
      uint32_t Id = I.Result.value();
      if (!Id || !UI.has(Id))
        continue;
      IdKind K = M.kindOf(Id);
      if (K == IdKind::Constant || K == IdKind::Variable)
        Rows.emplace_back(M.friendlyName(Id), UI.value(Id));
    }
    std::vector<uint32_t> Ids;
    for (ValueId P : F.Params)
      Ids.push_back(P.value());
    for (cfg::BlockIndex B : A.G.rpo())
      for (uint32_t Index : F.Blocks[B].Insts)
        if (uint32_t Id = M.Insts[Index].Result.value())
          Ids.push_back(Id);
    std::sort(Ids.begin(), Ids.end());
    std::vector<std::pair<std::string, std::string>> LaneRows;
    for (uint32_t Id : Ids) {
      Rows.emplace_back(M.friendlyName(Id), UI.value(Id));
      if (const auto *S = Lanes ? Lanes->computed(Id) : nullptr) {
        std::string Text;
        for (LaneShape L : *S)
          Text += (Text.empty() ? "" : ", ") + laneShapeName(L);
        LaneRows.emplace_back(M.friendlyName(Id),
                              S->size() == 1 ? Text : "(" + Text + ")");
      }
    }
    printTable("Variable", Rows, OS);

    OS << "\n";
    std::vector<std::pair<uint32_t, cfg::BlockIndex>> Blocks;
    for (cfg::BlockIndex B : A.G.rpo())
      Blocks.emplace_back(A.G.block(B).Label, B);
    std::sort(Blocks.begin(), Blocks.end());
    Rows.clear();
    for (auto [Label, B] : Blocks)
      Rows.emplace_back(M.friendlyName(Label), UI.block(Fn, B));
    printTable("Basic Block", Rows, OS);
    if (!LaneRows.empty()) {
      OS << "\n";
      printTable("Value", "Lanes", LaneRows, OS);
    }
  }
}

} // namespace spirv2llvm
