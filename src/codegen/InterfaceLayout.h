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

llvm::Expected<InterfaceLayout> computeInterfaceLayout(const Module &M,
                                                       const EntryPoint &EP,
                                                       unsigned Width);

} // namespace spirv2llvm

#endif
