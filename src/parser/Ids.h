//===- Ids.h - Typed SPIR-V result ids --------------------------*- C++ -*-===//
//
// Distinct wrapper types for ids that name types, values, blocks and
// functions, so that a block id can't be passed where a value id is expected
// (SwiftShader's SpirvID<T> does the same). 0 is never a valid SPIR-V id and
// stands for "none".
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_PARSER_IDS_H
#define SPIRV2LLVM_PARSER_IDS_H

#include <cstdint>
#include <functional>

namespace spirv2llvm {

template <typename Tag> class TypedId {
public:
  constexpr TypedId() = default;
  constexpr explicit TypedId(uint32_t V) : Value(V) {}
  constexpr uint32_t value() const { return Value; }
  constexpr bool isValid() const { return Value != 0; }
  constexpr explicit operator bool() const { return Value != 0; }
  friend constexpr bool operator==(TypedId A, TypedId B) {
    return A.Value == B.Value;
  }
  friend constexpr bool operator!=(TypedId A, TypedId B) {
    return A.Value != B.Value;
  }
  friend constexpr bool operator<(TypedId A, TypedId B) {
    return A.Value < B.Value;
  }

private:
  uint32_t Value = 0;
};

struct TypeIdTag;
struct ValueIdTag;
struct BlockIdTag;
struct FunctionIdTag;
using TypeId = TypedId<TypeIdTag>;
using ValueId = TypedId<ValueIdTag>;
using BlockId = TypedId<BlockIdTag>;
using FunctionId = TypedId<FunctionIdTag>;

} // namespace spirv2llvm

template <typename Tag> struct std::hash<spirv2llvm::TypedId<Tag>> {
  size_t operator()(spirv2llvm::TypedId<Tag> Id) const {
    return std::hash<uint32_t>()(Id.value());
  }
};

#endif
