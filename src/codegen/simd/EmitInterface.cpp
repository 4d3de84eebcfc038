//===- EmitInterface.cpp - Dynamically indexed Input/Output variables -----===//
//
// Interface variables are structure-of-arrays blocks (docs/abi.md): scalar
// component c of a variable is at ComponentOffsets[c], lane L at
// + L * size. When every component of a variable has the same size S the
// components are back to back, so component c of lane L is at
// Base + c * S * W + L * S, where Base is the first component's offset.
// An access chain with a non-constant index (gl_ClipDistance[i], an array
// of varyings indexed by a loop counter) then becomes a memory pointer whose
// offset counts packed bytes, c * S: a uniform offset is one vector access,
// a varying one a gather or scatter. Offsets are clamped to the variable,
// so an out-of-range index reads or writes one of its own components,
// never other memory.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

bool SimdEmitter::interfaceAccessChain(const Instruction &I, PointerValue P,
                                       size_t FirstIndex) {
  uint32_t Id = I.Result.value();
  const InterfaceVariable *IV = Layout.find(P.Var);
  if (!IV) {
    failAt(I, "unsupported: dynamic indexing of " +
                  M.friendlyName(P.Var) +
                  ", which is not in the entry point's interface");
    return true;
  }
  const std::vector<ScalarType> &All = IV->Components;
  if (All.empty())
    return true;
  uint32_t S = All[0].bytes();
  for (const ScalarType &C : All)
    if (C.bytes() != S) {
      failAt(I, "unsupported: dynamic indexing of interface variable " +
                    M.friendlyName(P.Var) +
                    ", whose components differ in size");
      return true;
    }
  if (!P.InMemory) {
    // From a register pointer: the packed offset of its first component.
    P.InMemory = true;
    P.Storage = M.findVariable(P.Var)->Storage;
    // In the entry block, so every block that uses the pointer sees it.
    Value *Block = IV->IsInput ? FS.InputsPtr : FS.OutputsPtr;
    IRBuilder<> EB(FS.AllocaBB->getTerminator());
    P.Base = EB.CreateConstInBoundsGEP1_32(EB.getInt8Ty(), Block,
                                           IV->ComponentOffsets[0],
                                           llvmName(P.Var) + ".lanes");
    P.Size = B.getInt64(uint64_t(All.size()) * S);
    P.Offset = B.getInt64(uint64_t(P.FirstComp) * S);
    P.AffineBase = nullptr;
  }
  Type *I64 = B.getInt64Ty();
  TypeId T = P.Pointee;
  for (size_t K = FirstIndex; K < I.Operands.size(); ++K) {
    const spirv2llvm::Type *Ty = M.findType(T.value());
    if (!Ty) {
      failAt(I, "indexing a non-composite type");
      return true;
    }
    uint64_t Step = 0;
    TypeId Next;
    const spirv2llvm::Constant *C = M.findConstant(I.Operands[K]);
    bool ConstIndex = C && C->Kind == ConstantKind::Scalar && !C->IsSpec;
    switch (Ty->Kind) {
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      Next = Ty->Element;
      Step = components(Next).size() * S;
      break;
    case TypeKind::Struct: {
      if (!ConstIndex || C->scalarBits() >= Ty->Members.size()) {
        failAt(I, "struct member index must be a constant in range");
        return true;
      }
      uint64_t Before = 0;
      for (uint64_t Mb = 0; Mb < C->scalarBits(); ++Mb)
        Before += components(Ty->Members[Mb]).size();
      P.Offset = B.CreateAdd(P.Offset, ConstantInt::get(P.Offset->getType(),
                                                        Before * S));
      T = Ty->Members[C->scalarBits()];
      continue;
    }
    default:
      failAt(I, "indexing a non-composite type");
      return true;
    }
    LaneValue Idx = get(I.Operands[K]);
    Value *X = Idx.Comps[0];
    Type *XT = X->getType()->isVectorTy()
                   ? static_cast<Type *>(FixedVectorType::get(I64, W))
                   : I64;
    X = B.CreateSExtOrTrunc(X, XT);
    Value *Term = B.CreateMul(X, ConstantInt::get(XT, Step));
    if (Term->getType()->isVectorTy() && !P.offsetVarying())
      P.Offset = splat(P.Offset);
    else if (!Term->getType()->isVectorTy() && P.offsetVarying())
      Term = splat(Term);
    P.Offset = B.CreateAdd(P.Offset, Term);
    T = Next;
  }
  P.Pointee = T;
  P.AffineBase = nullptr;
  P.ML = {};
  P.VecStride = 0;
  setPointer(Id, P);
  return true;
}

namespace {
/// The interface-memory type of scalar \p S (booleans are 32-bit).
Type *memoryType(IRBuilder<> &B, const ScalarType &S, Type *Scalar) {
  return S.Kind == ScalarKind::Bool ? B.getInt32Ty() : Scalar;
}
} // namespace

Value *SimdEmitter::interfaceAddresses(const PointerValue &P, uint64_t Comp,
                                       uint32_t S, bool &PerLane) {
  // Packed offset of the component, clamped to the variable.
  Value *Off = B.CreateAdd(P.Offset,
                           ConstantInt::get(P.Offset->getType(), Comp * S));
  uint64_t Last = cast<ConstantInt>(P.Size)->getZExtValue() - S;
  Off = B.CreateBinaryIntrinsic(Intrinsic::umin, Off,
                                ConstantInt::get(Off->getType(), Last));
  Value *Phys = B.CreateMul(Off, ConstantInt::get(Off->getType(), W));
  PerLane = P.offsetVarying();
  if (!PerLane)
    return B.CreateGEP(B.getInt8Ty(), P.Base, Phys);
  Value *Lane = B.CreateMul(laneIndices(B.getInt64Ty()), splat(B.getInt64(S)));
  return B.CreateGEP(B.getInt8Ty(), P.Base, B.CreateAdd(Phys, Lane));
}

LaneValue SimdEmitter::loadInterfaceMemory(const PointerValue &P,
                                           bool Varying) {
  const std::vector<ScalarType> &Comps = components(P.Pointee);
  LaneValue R;
  R.Varying = true;
  for (size_t C = 0; C < Comps.size(); ++C) {
    const ScalarType &S = Comps[C];
    Type *MemT = memoryType(B, S, scalarType(S));
    Type *VT = FixedVectorType::get(MemT, W);
    bool PerLane;
    Value *Addr = interfaceAddresses(P, C, S.bytes(), PerLane);
    Value *X;
    if (PerLane)
      X = B.CreateMaskedGather(VT, Addr, Align(S.bytes()), FS.CurMask,
                               Constant::getNullValue(VT));
    else
      X = B.CreateAlignedLoad(VT, Addr, Align(S.bytes()));
    if (S.Kind == ScalarKind::Bool)
      X = B.CreateICmpNE(X, Constant::getNullValue(VT));
    R.Comps.push_back(X);
  }
  return coerce(std::move(R), Varying);
}

void SimdEmitter::storeInterfaceMemory(const PointerValue &P, LaneValue V) {
  if (P.Storage != spv::StorageClass::Output) {
    fail("store to Input variable " + M.friendlyName(P.Var));
    return;
  }
  const std::vector<ScalarType> &Comps = components(P.Pointee);
  V = coerce(std::move(V), true);
  Value *Mask = storeMask();
  for (size_t C = 0; C < Comps.size() && C < V.Comps.size(); ++C) {
    const ScalarType &S = Comps[C];
    Value *X = V.Comps[C];
    if (S.Kind == ScalarKind::Bool)
      X = B.CreateZExt(X, FixedVectorType::get(B.getInt32Ty(), W));
    bool PerLane;
    Value *Addr = interfaceAddresses(P, C, S.bytes(), PerLane);
    if (PerLane)
      B.CreateMaskedScatter(X, Addr, Align(S.bytes()), Mask);
    else
      B.CreateMaskedStore(X, Addr, Align(S.bytes()), Mask);
  }
}

} // namespace spirv2llvm::simd
