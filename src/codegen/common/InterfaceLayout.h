//===- InterfaceLayout.h - Where interface variables live -------*- C++ -*-===//
//
// Computes the structure-of-arrays layout (include/spirv2llvm/Interface.h)
// of an entry point's Input and Output variables.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_INTERFACELAYOUT_H
#define SPIRV2LLVM_CODEGEN_INTERFACELAYOUT_H

#include "parser/Module.h"
#include "spirv2llvm/Interface.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace spirv2llvm {

/// Flattens \p T into scalar components, appending to \p Out. Fails for
/// types that have no flat form (runtime arrays, images, opaque types).
llvm::Error flattenType(const Module &M, TypeId T,
                        std::vector<ScalarType> &Out);

/// Whether built-in variable \p Var is computed by the generated code rather
/// than passed in the interface: every compute built-in, and in every stage
/// the subgroup built-ins (size, lane id, lane masks), which only the
/// generated code knows.
bool isComputedBuiltIn(const Module &M, const EntryPoint &EP, uint32_t Var);

/// Geometry shaders: reads the execution modes and appends the emitted
/// vertices' region to \p L's output block (Interface.h, GeometryLayout).
/// Fails naming a missing or out-of-range mode.
llvm::Error addGeometryLayout(const Module &M, const EntryPoint &EP,
                              InterfaceLayout &L);

/// The layout of \p EP's inputs and outputs at \p Width lanes (with the
/// geometry region for geometry shaders).
llvm::Expected<InterfaceLayout> computeInterfaceLayout(const Module &M,
                                                       const EntryPoint &EP,
                                                       unsigned Width);

} // namespace spirv2llvm

#endif
