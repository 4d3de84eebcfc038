//===- FunctionAnalysis.h - All CFG results of one function -----*- C++ -*-===//
//
// Bundles the per-function results later stages query together, computed
// once: CFG, dominator and post-dominator trees, control dependence and the
// structure tree.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CFG_FUNCTIONANALYSIS_H
#define SPIRV2LLVM_CFG_FUNCTIONANALYSIS_H

#include "cfg/Cfg.h"
#include "cfg/DominatorTree.h"
#include "cfg/StructureTree.h"

#include <memory>
#include <vector>

namespace spirv2llvm::cfg {

struct FunctionAnalysis {
  const Function *F = nullptr;
  Cfg G;
  DominatorTree DT;
  DominatorTree PDT;
  ControlDependence CD;
  StructureTree Tree;
};

llvm::Expected<FunctionAnalysis> analyzeFunction(const Module &M,
                                                 const Function &F);

/// Analyses of every function of \p M, indexed like Module::Functions.
using ModuleAnalysis = std::vector<FunctionAnalysis>;
llvm::Expected<ModuleAnalysis> analyzeModule(const Module &M);

} // namespace spirv2llvm::cfg

#endif
