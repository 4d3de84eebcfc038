//===- BufferBounds.h - Buffers smaller than the shader's blocks ----------===//
//
// Vulkan lets a script bind a buffer smaller than the block the shader
// declares: the accesses past its end are out of bounds, undefined without
// robustBufferAccess and defined with it. The runtime refuses such a
// binding for code without bounds checks (it would read and write outside
// the buffer); the runner translates the pipeline's shaders again with
// robust buffer access instead, one of the behaviours Vulkan allows, as a
// driver could. The conformance suite's frexp/modf vertex and fragment
// scripts and google/amber's sparse-descriptor-set script bind such
// buffers (docs/amber.md).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_BUFFERBOUNDS_H
#define SPIRV2LLVM_AMBER_BUFFERBOUNDS_H

#include "spirv2llvm/Compute.h"
#include "spirv2llvm/Interface.h"

#include <optional>
#include <string>

namespace spirv2llvm::amber {

/// The first single buffer binding of \p Info that \p R binds with fewer
/// bytes than the shader's type needs, as a message ("buffer at set 1,
/// binding 0 has 16 bytes, the shader's type needs 88"); nullopt when
/// every buffer is large enough or the code checks bounds
/// (ComputeInfo::BoundsChecked). Elements of descriptor arrays are not
/// looked at: the runtime refuses short ones even for bounds-checked code.
std::optional<std::string> undersizedBuffer(const ComputeInfo &Info,
                                            const DispatchResources &R);

} // namespace spirv2llvm::amber

#endif
