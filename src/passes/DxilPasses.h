// The pass classes behind include/spirv2llvm/Passes.h.
#pragma once

#include "llvm/IR/PassManager.h"

namespace spirv2llvm {

/// Function pass: vector operations, memory accesses, GEPs into vectors,
/// vector allocas and memory intrinsics over vector data become scalar.
struct DxilScalarizerPass : llvm::PassInfoMixin<DxilScalarizerPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  static bool isRequired() { return true; }
};

/// Module pass: internal functions get vector-free signatures (vectors and
/// aggregates holding them become arrays), dxil-scalarizer is re-run on the
/// functions touched, and unused declarations mentioning vectors go.
struct DxilScalarizeSignaturesPass
    : llvm::PassInfoMixin<DxilScalarizeSignaturesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Module pass: vectors in global/static/groupshared data become arrays.
struct DxilDataScalarizationPass
    : llvm::PassInfoMixin<DxilDataScalarizationPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Module pass: multi-dimensional arrays (globals and allocas) become
/// one-dimensional.
struct DxilFlattenArraysPass : llvm::PassInfoMixin<DxilFlattenArraysPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

/// Module pass: LLVM intrinsics become dx.op calls (scalar overloads, or the
/// DXIL 1.9 vector overloads when AllowVectors).
struct DxilOpLowerPass : llvm::PassInfoMixin<DxilOpLowerPass> {
  explicit DxilOpLowerPass(bool AllowVectors = false)
      : AllowVectors(AllowVectors) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  bool AllowVectors;
};

/// Module pass (DXIL 1.9): vectors stay native; single-element vectors
/// become scalars; non-element-wise vector operations are scalarized.
struct DxilNativeVectorsPass : llvm::PassInfoMixin<DxilNativeVectorsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace spirv2llvm

namespace spirv2llvm {
/// True when dxil-op-lower maps the intrinsic to an element-wise DXIL
/// operation (which has DXIL 1.9 vector overloads).
bool hasElementwiseDxilOp(unsigned IntrinsicID);
} // namespace spirv2llvm
