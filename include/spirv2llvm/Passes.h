// DXIL-shaped lowering passes (LLVM new pass manager), usable on any module.
// See docs/dxil-passes.md.
#pragma once

namespace llvm {
class PassBuilder;
class Module;
} // namespace llvm

namespace spirv2llvm {

/// Registers dxil-scalarizer, dxil-scalarize-signatures,
/// dxil-data-scalarization, dxil-flatten-arrays, dxil-op-lower and
/// dxil-native-vectors by name with PB.
void registerDxilPasses(llvm::PassBuilder &PB);

enum class DxilPipeline {
  /// --backend=scalar: no vector type left anywhere in the module.
  Scalar,
  /// --backend=dxil: Scalar, flattened arrays, dx.op calls.
  Dxil,
  /// Dxil without dxil-op-lower: what the CPU can still run (tests).
  DxilData,
  /// --backend=dxil --dxil-native-vectors.
  DxilNativeVectors,
};

/// The pipeline as the text opt's -passes takes (docs/dxil-passes.md).
const char *dxilPipelineText(DxilPipeline P);

/// Runs the pipeline on M.
void runDxilPipeline(llvm::Module &M, DxilPipeline P);

} // namespace spirv2llvm
