//===- UniformityPrinter.cpp - The document's uniformity tables -----------===//
//
// Prints the two tables of the design document per function, padded so the
// Markdown source lines up like the document's:
//
//   | Variable | Uniformity |
//   |----------|------------|
//   | %int_0   | Constant   |
//
//===----------------------------------------------------------------------===//
#include "uniformity/Uniformity.h"

#include <algorithm>

using namespace llvm;

namespace spirv2llvm {

namespace {

void printTable(StringRef Head, const std::vector<std::pair<std::string,
                                                            Uniformity>> &Rows,
                raw_ostream &OS) {
  size_t W1 = Head.size(), W2 = StringRef("Uniformity").size();
  for (const auto &[Name, U] : Rows) {
    W1 = std::max(W1, Name.size());
    W2 = std::max(W2, StringRef(uniformityName(U)).size());
  }
  auto Row = [&](StringRef A, StringRef B) {
    OS << "| " << A << std::string(W1 - A.size(), ' ') << " | " << B
       << std::string(W2 - B.size(), ' ') << " |\n";
  };
  Row(Head, "Uniformity");
  OS << "|" << std::string(W1 + 2, '-') << "|" << std::string(W2 + 2, '-')
     << "|\n";
  for (const auto &[Name, U] : Rows)
    Row(Name, uniformityName(U));
}

} // namespace

void printUniformity(const Module &M, const cfg::ModuleAnalysis &MA,
                     const UniformityInfo &UI, raw_ostream &OS) {
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
    for (uint32_t Id : Ids)
      Rows.emplace_back(M.friendlyName(Id), UI.value(Id));
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
  }
}

} // namespace spirv2llvm
