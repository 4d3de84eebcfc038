//===- MemoryLayout.cpp - Byte layout of SPIR-V types in memory -----------===//
#include "codegen/common/MemoryLayout.h"

#include "support/Diagnostic.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

uint64_t roundUp(uint64_t V, uint64_t A) { return A ? (V + A - 1) / A * A : V; }

uint32_t scalarBytes(const Type &T) {
  return T.Kind == TypeKind::Bool ? 4 : std::max<uint32_t>(T.Width / 8, 1);
}

} // namespace

bool MemoryLayout::isExplicit(TypeId T) const {
  const Type *Ty = M.findType(T.value());
  if (!Ty)
    return false;
  if (Ty->Kind == TypeKind::Struct)
    return M.decorationValue(T.value(), spv::Decoration::Offset, 0).has_value();
  if (Ty->Kind == TypeKind::Array || Ty->Kind == TypeKind::RuntimeArray)
    return M.decorationValue(T.value(), spv::Decoration::ArrayStride)
        .has_value();
  return false;
}

uint32_t MemoryLayout::alignOf(TypeId T, MatrixLayout ML) {
  const Type *Ty = M.findType(T.value());
  if (!Ty)
    return 1;
  switch (Ty->Kind) {
  case TypeKind::Bool:
  case TypeKind::Int:
  case TypeKind::Float:
    return scalarBytes(*Ty);
  case TypeKind::Vector: {
    uint32_t S = alignOf(Ty->Element);
    return S * (Ty->Count == 3 ? 4 : Ty->Count);
  }
  case TypeKind::Matrix:
    return alignOf(Ty->Element);
  case TypeKind::Array:
  case TypeKind::RuntimeArray:
    return alignOf(Ty->Element, ML);
  case TypeKind::Pointer:
    // PhysicalStorageBuffer pointers are 64-bit addresses in memory.
    return Ty->Storage == spv::StorageClass::PhysicalStorageBuffer ? 8 : 1;
  case TypeKind::Struct: {
    uint32_t A = 1;
    for (uint32_t I = 0; I < Ty->Members.size(); ++I)
      A = std::max(A, alignOf(Ty->Members[I], memberMatrixLayout(T, I)));
    return A;
  }
  default:
    return 1;
  }
}

uint64_t MemoryLayout::matrixStride(TypeId T, MatrixLayout ML) {
  const Type &Ty = M.type(T);
  if (ML.Stride)
    return ML.Stride;
  // Natural: column-major, columns at the column vector's alignment.
  return roundUp(sizeOf(Ty.Element), alignOf(Ty.Element));
}

uint64_t MemoryLayout::columnComponentStride(TypeId T, MatrixLayout ML) {
  const Type &Ty = M.type(T);
  const Type &Col = M.type(Ty.Element);
  uint64_t Scalar = scalarBytes(M.type(Col.Element));
  return ML.RowMajor ? matrixStride(T, ML) : Scalar;
}

uint64_t MemoryLayout::vectorComponentStride(TypeId Vec, MatrixLayout ML,
                                             bool InMatrix) {
  const Type &Ty = M.type(Vec);
  uint64_t Scalar = scalarBytes(M.type(Ty.Element));
  return InMatrix && ML.RowMajor && ML.Stride ? ML.Stride : Scalar;
}

uint64_t MemoryLayout::sizeOf(TypeId T, MatrixLayout ML) {
  const Type *Ty = M.findType(T.value());
  if (!Ty)
    return 0;
  switch (Ty->Kind) {
  case TypeKind::Bool:
  case TypeKind::Int:
  case TypeKind::Float:
    return scalarBytes(*Ty);
  case TypeKind::Vector:
    return uint64_t(Ty->Count) * scalarBytes(M.type(Ty->Element));
  case TypeKind::Matrix: {
    const Type &Col = M.type(Ty->Element);
    uint64_t Scalar = scalarBytes(M.type(Col.Element));
    uint64_t Stride = matrixStride(T, ML);
    // Last column (row) starts at (n-1) * stride and holds a full vector.
    if (ML.RowMajor)
      return (Col.Count - 1) * Stride + Ty->Count * Scalar;
    return (Ty->Count - 1) * Stride + Col.Count * Scalar;
  }
  case TypeKind::Array:
    return uint64_t(Ty->Count) * arrayStride(T, ML);
  case TypeKind::RuntimeArray:
    return 0;
  case TypeKind::Pointer:
    return Ty->Storage == spv::StorageClass::PhysicalStorageBuffer ? 8 : 0;
  case TypeKind::Struct: {
    uint64_t End = 0;
    for (uint32_t I = 0; I < Ty->Members.size(); ++I)
      End = std::max(End, memberOffset(T, I) +
                              sizeOf(Ty->Members[I], memberMatrixLayout(T, I)));
    return isExplicit(T) ? End : roundUp(End, alignOf(T));
  }
  default:
    return 0;
  }
}

uint64_t MemoryLayout::extentOf(TypeId T, MatrixLayout ML) {
  const Type *Ty = M.findType(T.value());
  if (!Ty)
    return 0;
  switch (Ty->Kind) {
  case TypeKind::Array:
    if (Ty->Count == 0)
      return 0;
    return (uint64_t(Ty->Count) - 1) * arrayStride(T, ML) +
           extentOf(Ty->Element, ML);
  case TypeKind::Struct: {
    uint64_t End = 0;
    for (uint32_t I = 0; I < Ty->Members.size(); ++I)
      End = std::max(End, memberOffset(T, I) +
                              extentOf(Ty->Members[I],
                                       memberMatrixLayout(T, I)));
    return End;
  }
  default:
    // Scalars, vectors and matrices: sizeOf already ends at the last
    // component (a matrix's last column holds a full vector).
    return sizeOf(T, ML);
  }
}

uint64_t MemoryLayout::memberOffset(TypeId T, uint32_t Index) {
  if (auto Off = M.decorationValue(T.value(), spv::Decoration::Offset,
                                   int32_t(Index)))
    return *Off;
  const Type &Ty = M.type(T);
  uint64_t Off = 0;
  for (uint32_t I = 0; I <= Index && I < Ty.Members.size(); ++I) {
    MatrixLayout ML = memberMatrixLayout(T, I);
    Off = roundUp(Off, alignOf(Ty.Members[I], ML));
    if (I == Index)
      return Off;
    Off += sizeOf(Ty.Members[I], ML);
  }
  return Off;
}

MatrixLayout MemoryLayout::memberMatrixLayout(TypeId T, uint32_t Index) {
  MatrixLayout ML;
  auto It = M.Decorations.find(T.value());
  if (It == M.Decorations.end())
    return ML;
  for (const Decoration &D : It->second) {
    if (D.Member != int32_t(Index))
      continue;
    if (D.Kind == spv::Decoration::RowMajor)
      ML.RowMajor = true;
    else if (D.Kind == spv::Decoration::MatrixStride && !D.Literals.empty())
      ML.Stride = D.Literals[0];
  }
  return ML;
}

uint64_t MemoryLayout::arrayStride(TypeId T, MatrixLayout ML) {
  if (auto S = M.decorationValue(T.value(), spv::Decoration::ArrayStride))
    return *S;
  const Type &Ty = M.type(T);
  return roundUp(sizeOf(Ty.Element, ML), alignOf(Ty.Element, ML));
}

Error MemoryLayout::scalars(TypeId T, MatrixLayout ML, uint64_t Base,
                            std::vector<ScalarSlot> &Out) {
  // Explicit stack of (type, layout, offset); children pushed last-first so
  // scalars come out in flattening order.
  struct Item {
    TypeId T;
    MatrixLayout ML;
    uint64_t Offset;
    uint64_t VecStride; ///< component stride for vectors (0: natural)
  };
  std::vector<Item> Stack{{T, ML, Base, 0}};
  while (!Stack.empty()) {
    Item I = Stack.back();
    Stack.pop_back();
    const Type *Ty = M.findType(I.T.value());
    if (!Ty)
      return makeError("id " + M.friendlyName(I.T.value()) + " is not a type");
    if (Out.size() > (1u << 20))
      return makeError("type has too many components");
    switch (Ty->Kind) {
    case TypeKind::Bool:
      Out.push_back({{ScalarKind::Bool, 1}, I.Offset});
      break;
    case TypeKind::Int:
      Out.push_back({{Ty->Signed ? ScalarKind::Int : ScalarKind::UInt,
                      Ty->Width},
                     I.Offset});
      break;
    case TypeKind::Float:
      Out.push_back({{ScalarKind::Float, Ty->Width}, I.Offset});
      break;
    case TypeKind::Pointer:
      if (Ty->Storage != spv::StorageClass::PhysicalStorageBuffer)
        return makeError("type " + M.friendlyName(I.T.value()) +
                         " cannot be loaded or stored as a whole");
      Out.push_back({{ScalarKind::UInt, 64}, I.Offset});
      break;
    case TypeKind::Vector: {
      uint64_t S = I.VecStride ? I.VecStride
                               : scalarBytes(M.type(Ty->Element));
      for (uint32_t K = Ty->Count; K-- > 0;)
        Stack.push_back({Ty->Element, {}, I.Offset + K * S, 0});
      break;
    }
    case TypeKind::Matrix: {
      uint64_t Stride = matrixStride(I.T, I.ML);
      uint64_t CompStride = columnComponentStride(I.T, I.ML);
      for (uint32_t C = Ty->Count; C-- > 0;) {
        uint64_t ColOffset = I.ML.RowMajor
                                 ? C * scalarBytes(M.type(M.type(Ty->Element)
                                                              .Element))
                                 : C * Stride;
        Stack.push_back({Ty->Element, {}, I.Offset + ColOffset, CompStride});
      }
      break;
    }
    case TypeKind::Array: {
      uint64_t Stride = arrayStride(I.T, I.ML);
      for (uint32_t K = Ty->Count; K-- > 0;)
        Stack.push_back({Ty->Element, I.ML, I.Offset + K * Stride, 0});
      break;
    }
    case TypeKind::Struct:
      for (uint32_t K = uint32_t(Ty->Members.size()); K-- > 0;)
        Stack.push_back({Ty->Members[K], memberMatrixLayout(I.T, K),
                         I.Offset + memberOffset(I.T, K), 0});
      break;
    default:
      return makeError("type " + M.friendlyName(I.T.value()) +
                       " cannot be loaded or stored as a whole");
    }
  }
  return Error::success();
}

std::optional<uint64_t> constantIndex(const Module &M, uint32_t Id) {
  const Constant *C = M.findConstant(Id);
  if (C && C->Kind == ConstantKind::Scalar && !C->IsSpec)
    return C->scalarBits();
  if (C && C->Kind == ConstantKind::Null)
    return 0;
  return std::nullopt;
}

Error MemoryLayout::walkChain(const Instruction &I, size_t First,
                              bool ElementFirst, ChainPosition &Pos,
                              function_ref<void(uint64_t)> AddConst,
                              function_ref<void(uint32_t, uint64_t)> AddScaled) {
  // The callers say where (failAt).
  auto Fail = [&](const Twine &Msg) { return makeError(Msg); };
  auto ConstIndex = [&](uint32_t Id) { return constantIndex(M, Id); };
  auto Add = [&](uint32_t IndexId, uint64_t Stride) {
    if (std::optional<uint64_t> CI = ConstIndex(IndexId)) {
      if (*CI * Stride)
        AddConst(*CI * Stride);
    } else {
      AddScaled(IndexId, Stride);
    }
  };
  TypeId T = Pos.Pointee;
  if (ElementFirst) {
    const Type &PT = M.type(M.typeOf(I.Operands[0]));
    AddScaled(I.Operands[1],
              M.decorationValue(PT.Id.value(), spv::Decoration::ArrayStride)
                  .value_or(sizeOf(T)));
  }
  bool InMatrix = false;
  for (size_t K = First; K < I.Operands.size(); ++K) {
    const Type *Ty = M.findType(T.value());
    if (!Ty)
      return Fail("indexing a non-composite type");
    switch (Ty->Kind) {
    case TypeKind::Struct: {
      std::optional<uint64_t> CI = ConstIndex(I.Operands[K]);
      if (!CI || *CI >= Ty->Members.size())
        return Fail("struct member index must be a constant in range");
      if (uint64_t Bytes = memberOffset(T, uint32_t(*CI)))
        AddConst(Bytes);
      Pos.ML = memberMatrixLayout(T, uint32_t(*CI));
      T = Ty->Members[*CI];
      break;
    }
    case TypeKind::Array:
    case TypeKind::RuntimeArray:
      Add(I.Operands[K], arrayStride(T, Pos.ML));
      T = Ty->Element;
      break;
    case TypeKind::Matrix:
      // Column c: a whole column apart (column-major), or one scalar apart
      // with the column's components a matrix stride apart (row-major).
      Add(I.Operands[K], Pos.ML.RowMajor ? sizeOf(M.type(Ty->Element).Element)
                                         : matrixStride(T, Pos.ML));
      Pos.VecStride = columnComponentStride(T, Pos.ML);
      InMatrix = true;
      T = Ty->Element;
      break;
    case TypeKind::Vector:
      Add(I.Operands[K], InMatrix && Pos.VecStride ? Pos.VecStride
                                                   : sizeOf(Ty->Element));
      T = Ty->Element;
      Pos.VecStride = 0;
      break;
    default:
      return Fail("indexing a non-composite type");
    }
    if (M.type(T).Kind != TypeKind::Vector)
      InMatrix = false;
  }
  if (!InMatrix)
    Pos.VecStride = 0;
  Pos.Pointee = T;
  return Error::success();
}

} // namespace spirv2llvm
