//===- EmitComposite.cpp - Building and taking apart composites -----------===//
//
// With values kept as flat component lists, constructing, extracting,
// inserting and shuffling are index arithmetic over the lists and emit no
// code, except dynamic indices, which become per-component selects.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/CompositeAccess.h"
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

namespace {

/// First component and component count of the member reached by literal
/// \p Indices from type \p T. Returns false for an index out of range.
bool memberRange(const Module &M, TypeId T,
                 ArrayRef<uint32_t> Indices, uint32_t &First, uint32_t &Count,
                 std::function<size_t(TypeId)> CompCount) {
  First = 0;
  for (uint32_t Index : Indices) {
    const spirv2llvm::Type *Ty = M.findType(T.value());
    if (!Ty)
      return false;
    switch (Ty->Kind) {
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      if (Index >= Ty->Count)
        return false;
      First += Index * CompCount(Ty->Element);
      T = Ty->Element;
      break;
    case TypeKind::Struct:
      if (Index >= Ty->Members.size())
        return false;
      for (uint32_t K = 0; K < Index; ++K)
        First += CompCount(Ty->Members[K]);
      T = Ty->Members[Index];
      break;
    default:
      return false;
    }
  }
  Count = uint32_t(CompCount(T));
  return true;
}

} // namespace

bool SimdEmitter::emitComposite(const Instruction &I) {
  uint32_t Id = I.Result.value();
  bool Varying = isVarying(Id);
  auto CompCount = [&](TypeId T) { return components(T).size(); };
  switch (opcodeInfo(I.Opcode).Eval) {
  case EvalKind::Construct: {
    LaneValue R;
    R.Varying = Varying;
    for (uint32_t Op : I.Operands) {
      LaneValue V = coerce(get(Op), Varying);
      R.Comps.append(V.Comps.begin(), V.Comps.end());
    }
    if (R.Comps.size() != components(I.ResultType).size()) {
      failAt(I, "constituents do not add up to the result type");
      return true;
    }
    set(Id, std::move(R));
    return true;
  }
  case EvalKind::Member: {
    std::optional<MemberAccess> A = decodeMemberAccess(I);
    if (!A) {
      failAt(I, "missing operands");
      return true;
    }
    LaneValue C = coerce(get(A->Composite), Varying);
    LaneValue R;
    R.Varying = Varying;
    if (A->Dynamic) {
      // Per-component selects on the index value.
      Value *Idx = get(A->IndexId).Comps[0];
      if (Varying)
        Idx = splat(Idx);
      auto Is = [&](size_t K) {
        return B.CreateICmpEQ(Idx, ConstantInt::get(Idx->getType(), K));
      };
      if (!A->Write) {
        // An out-of-range index gives component 0 (an undefined value).
        Value *Acc = C.Comps[0];
        for (size_t K = 1; K < C.Comps.size(); ++K)
          Acc = B.CreateSelect(Is(K), C.Comps[K], Acc);
        R.Comps.push_back(Acc);
      } else {
        LaneValue Obj = coerce(get(A->Object), Varying);
        for (size_t K = 0; K < C.Comps.size(); ++K)
          R.Comps.push_back(B.CreateSelect(Is(K), Obj.Comps[0], C.Comps[K]));
      }
      set(Id, std::move(R));
      return true;
    }
    uint32_t First, Count;
    if (!memberRange(M, M.typeOf(A->Composite), A->Literals, First, Count,
                     CompCount)) {
      failAt(I, "index out of range for the composite's type");
      return true;
    }
    if (!A->Write) {
      if (First + Count > C.Comps.size()) {
        failAt(I, "index out of range");
        return true;
      }
      R.Comps.assign(C.Comps.begin() + First, C.Comps.begin() + First + Count);
    } else {
      LaneValue Obj = coerce(get(A->Object), Varying);
      if (Obj.Comps.size() != Count || First + Count > C.Comps.size()) {
        failAt(I, "object does not match the member it replaces");
        return true;
      }
      R = C;
      for (uint32_t K = 0; K < Count; ++K)
        R.Comps[First + K] = Obj.Comps[K];
    }
    set(Id, std::move(R));
    return true;
  }
  case EvalKind::Shuffle: {
    LaneValue X = coerce(get(I.Operands[0]), Varying);
    LaneValue Y = coerce(get(I.Operands[1]), Varying);
    const std::vector<ScalarType> &RC = components(I.ResultType);
    LaneValue R;
    R.Varying = Varying;
    for (size_t K = 2; K < I.Operands.size(); ++K) {
      uint32_t S = I.Operands[K];
      if (S == 0xFFFFFFFFu) {
        // Undefined component: zero, never poison.
        R.Comps.push_back(
            Constant::getNullValue(laneType(RC[R.Comps.size() % RC.size()],
                                            Varying)));
      } else if (S < X.Comps.size()) {
        R.Comps.push_back(X.Comps[S]);
      } else if (S - X.Comps.size() < Y.Comps.size()) {
        R.Comps.push_back(Y.Comps[S - X.Comps.size()]);
      } else {
        failAt(I, "component index " + Twine(S) + " out of range");
        return true;
      }
    }
    set(Id, std::move(R));
    return true;
  }
  default:
    return false;
  }
}

} // namespace spirv2llvm::simd
