//===- MemoryLayout.h - Byte layout of SPIR-V types in memory ---*- C++ -*-===//
//
// Where each scalar of a type lives in memory. Buffer and push-constant
// types carry an explicit layout (Offset, ArrayStride, MatrixStride,
// RowMajor decorations: std140, std430 or scalar, as the shader declared);
// Workgroup variables have none, so they get a natural layout (members in
// order at their alignment, arrays at their element size rounded up to the
// alignment, matrices column-major with columns at the vector alignment).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_CODEGEN_MEMORYLAYOUT_H
#define SPIRV2LLVM_CODEGEN_MEMORYLAYOUT_H

#include "parser/Module.h"
#include "spirv2llvm/Interface.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <unordered_map>
#include <vector>

namespace spirv2llvm {

/// How a matrix (or a vector inside one) is laid out; set by the decorations
/// of the struct member that holds it.
struct MatrixLayout {
  bool RowMajor = false;
  uint32_t Stride = 0; ///< MatrixStride; 0: natural
};

/// One scalar of a flattened type and its byte offset.
struct ScalarSlot {
  ScalarType Type;
  uint64_t Offset = 0;
};

/// Where an access chain has got to in explicitly laid out memory.
struct ChainPosition {
  TypeId Pointee;     ///< the type pointed at
  MatrixLayout ML;    ///< the layout the enclosing struct member gives
  /// Inside a matrix: the distance of a column's components (row-major
  /// matrices spread them a matrix stride apart); 0 elsewhere.
  uint64_t VecStride = 0;
};

/// The value of index \p Id when it is a constant (OpConstantNull is zero);
/// spec constants are not: they may still change.
std::optional<uint64_t> constantIndex(const Module &M, uint32_t Id);

class MemoryLayout {
public:
  explicit MemoryLayout(const Module &M) : M(M) {}

  /// Size in bytes of \p T (runtime arrays count as zero elements).
  uint64_t sizeOf(TypeId T, MatrixLayout ML = {});
  /// Bytes from the start of \p T to the end of its last scalar: sizeOf
  /// without the padding after an array's last element (a std140
  /// `float x[3]` ends at byte 36, not 48) or after a struct's last member.
  /// What a buffer bound to a block of this type must hold: Vulkan asks
  /// for the bytes the shader can access, not the stride-rounded size.
  uint64_t extentOf(TypeId T, MatrixLayout ML = {});
  uint32_t alignOf(TypeId T, MatrixLayout ML = {});
  /// Byte offset of member \p Index of struct \p T.
  uint64_t memberOffset(TypeId T, uint32_t Index);
  /// Layout a matrix member (or array of matrices) of struct \p T has.
  MatrixLayout memberMatrixLayout(TypeId T, uint32_t Index);
  /// Bytes between elements of array or runtime array \p T.
  uint64_t arrayStride(TypeId T, MatrixLayout ML = {});
  /// For a matrix type: bytes between columns (column-major) or rows
  /// (row-major), and the distance of a column's components.
  uint64_t matrixStride(TypeId T, MatrixLayout ML);
  uint64_t columnComponentStride(TypeId T, MatrixLayout ML);

  /// Every scalar of \p T with its offset, in flattening order (as
  /// flattenType). Fails for types with no flat form (runtime arrays).
  llvm::Error scalars(TypeId T, MatrixLayout ML, uint64_t Base,
                      std::vector<ScalarSlot> &Out);

  /// A vector's component stride when it is a column of a matrix laid out
  /// as \p ML (row-major: the matrix stride), else its scalar size.
  uint64_t vectorComponentStride(TypeId Vec, MatrixLayout ML, bool InMatrix);

  /// Steps access chain \p I through its indices Operands[First..] from
  /// \p Pos, giving each step's byte offset to \p AddConst (a constant
  /// index) or \p AddScaled (index id, stride). For OpPtrAccessChain,
  /// \p ElementFirst steps over whole pointees by its Element operand
  /// (Operands[1], at the pointer type's ArrayStride) first. Both back ends
  /// address buffers this way; they differ only in how they add.
  llvm::Error walkChain(const Instruction &I, size_t First, bool ElementFirst,
                        ChainPosition &Pos,
                        llvm::function_ref<void(uint64_t)> AddConst,
                        llvm::function_ref<void(uint32_t, uint64_t)> AddScaled);

private:
  bool isExplicit(TypeId T) const;
  const Module &M;
};

} // namespace spirv2llvm

#endif
