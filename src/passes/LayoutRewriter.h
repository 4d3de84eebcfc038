// Rewrites every access to one memory object (a global or an alloca) when the
// object's type changes: vectors become arrays, nested arrays are flattened,
// single-element vectors become scalars. Shared by the data-scalarization,
// flatten-arrays, native-vectors and scalarizer passes.
//
// Accesses are decoded by byte offset in the OLD layout (typed GEPs, i8 GEPs
// with byte offsets, constant-expression GEPs, `mul`/`shl` scaled dynamic
// offsets), then re-encoded as typed GEPs over the NEW type. The rewrite is
// all-or-nothing per object: if any use cannot be decoded the object is left
// untouched (and still valid), and the reason is reported.
#pragma once

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"

#include <string>

namespace spirv2llvm {

/// How an object's type changes. Index paths are per level of the old type
/// (array / vector element, struct field), excluding the leading 0.
class TypeRemap {
public:
  virtual ~TypeRemap() = default;
  /// The new type of data of old type T (T itself when unchanged); cached.
  llvm::Type *map(llvm::Type *T);
  /// GEP indices (after the leading 0) into map(Old) for a path in Old.
  virtual void mapPath(llvm::Type *Old, llvm::ArrayRef<llvm::Value *> Path,
                       llvm::IRBuilder<> &B,
                       llvm::SmallVectorImpl<llvm::Value *> &Out) = 0;
  bool changes(llvm::Type *T) { return map(T) != T; }

protected:
  /// \p Suffix renames the named structs that change ("S" -> "S.flat").
  explicit TypeRemap(llvm::StringRef Suffix) : Suffix(Suffix) {}
  /// map() without the cache. The default maps arrays and structs part by
  /// part (with map()) and keeps everything else.
  virtual llvm::Type *mapUncached(llvm::Type *T);

private:
  llvm::StringRef Suffix;
  llvm::DenseMap<llvm::Type *, llvm::Type *> Cache;
};

/// vector<M x T> -> [M x T], recursively through arrays and structs.
class VectorsToArrays : public TypeRemap {
public:
  VectorsToArrays() : TypeRemap(".scalar") {}
  void mapPath(llvm::Type *Old, llvm::ArrayRef<llvm::Value *> Path,
               llvm::IRBuilder<> &B,
               llvm::SmallVectorImpl<llvm::Value *> &Out) override;

protected:
  llvm::Type *mapUncached(llvm::Type *T) override;
};

/// [N x [M x T]] -> [N*M x T], recursively; vectors kept.
class FlattenArrays : public TypeRemap {
public:
  FlattenArrays() : TypeRemap(".flat") {}
  void mapPath(llvm::Type *Old, llvm::ArrayRef<llvm::Value *> Path,
               llvm::IRBuilder<> &B,
               llvm::SmallVectorImpl<llvm::Value *> &Out) override;

protected:
  llvm::Type *mapUncached(llvm::Type *T) override;
};

/// <1 x T> -> T, recursively through arrays and structs.
class OneElementVectorsToScalars : public TypeRemap {
public:
  OneElementVectorsToScalars() : TypeRemap(".nv") {}
  void mapPath(llvm::Type *Old, llvm::ArrayRef<llvm::Value *> Path,
               llvm::IRBuilder<> &B,
               llvm::SmallVectorImpl<llvm::Value *> &Out) override;

protected:
  llvm::Type *mapUncached(llvm::Type *T) override;
};

struct RewriteOptions {
  /// Expand memcpy/memmove/memset into per-element loads and stores even
  /// when one call over the new layout would do.
  bool ExpandMemIntrinsics = false;
  /// Keep the object and its type; only rewrite its accesses as scalar
  /// loads/stores through i8 GEPs with byte offsets (no vector type left in
  /// the instructions). Used by the function-level scalarizer on globals.
  bool AccessesOnly = false;
  /// Rewrite only the uses inside this function (AccessesOnly mode).
  llvm::Function *RestrictTo = nullptr;
  /// Upper bound on the number of scalar accesses one access expands to.
  unsigned MaxLeaves = 4096;
};

struct RewriteResult {
  bool Changed = false;
  std::string Failure; ///< Why the object was left untouched (if it was).
};

/// Rewrites global or alloca Root (whose type is changed by Remap) and all its
/// uses. Returns what happened; on failure nothing was modified.
RewriteResult rewriteObject(llvm::Value *Root, TypeRemap &Remap,
                            const RewriteOptions &Opts = {});

/// True when T is or contains a vector type.
bool containsVector(llvm::Type *T);
/// True when T is or contains an array of arrays.
bool containsNestedArray(llvm::Type *T);

} // namespace spirv2llvm
