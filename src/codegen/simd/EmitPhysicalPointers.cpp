//===- EmitPhysicalPointers.cpp - PhysicalStorageBuffer pointers ----------===//
//
// GLSL's buffer_reference: pointers in the PhysicalStorageBuffer storage
// class are 64-bit addresses. As values (in phis, selects, composites,
// Function variables, and in memory, 8 bytes) they are one UInt 64
// component (flattenType, MemoryLayout), so all the generic value code
// moves them around. Where one is dereferenced (access chains, loads,
// stores, atomics) it becomes a memory pointer: a uniform address is a
// scalar Base, a varying one per-lane bases (LaneBase), whose accesses are
// gathers and scatters. An access chain on one is a memory pointer like any
// other; used as a value again it is Base (or LaneBase) + Offset.
//
// Addresses come from the shader, so there is nothing to check them
// against: as in Vulkan, dereferencing an address that is not inside a
// live buffer is undefined (docs/abi.md); robust buffer access does not
// apply to them.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

bool SimdEmitter::isPhysicalPointerType(TypeId T) const {
  const spirv2llvm::Type *Ty = M.findType(T.value());
  return Ty && Ty->Kind == TypeKind::Pointer &&
         Ty->Storage == spv::StorageClass::PhysicalStorageBuffer;
}

bool SimdEmitter::physicalPointerOf(uint32_t Id, PointerValue &P) {
  LaneValue V = get(Id);
  if (V.Comps.size() != 1 || !V.Comps[0]->getType()->isIntOrIntVectorTy(64)) {
    fail("pointer " + M.friendlyName(Id) + " is not a 64-bit address");
    return false;
  }
  Value *Addr = V.Comps[0];
  P = PointerValue();
  P.Var = Id;
  P.Pointee = M.type(M.typeOf(Id)).Element;
  P.InMemory = true;
  P.Storage = spv::StorageClass::PhysicalStorageBuffer;
  P.DynamicBase = true;
  std::optional<AffineInfo> Af =
      Addr->getType()->isVectorTy() ? laneAffine(Id, 0, Addr) : std::nullopt;
  if (Af && Af->Base->getType() == B.getInt64Ty()) {
    // Lanes Stride bytes apart from one address: one base, and offsets
    // that consecutive accesses turn into vector loads and stores.
    P.Base = B.CreateIntToPtr(Af->Base, B.getPtrTy(), llvmName(Id) + ".ptr");
    P.Offset = B.CreateMul(laneIndices(B.getInt64Ty()),
                           splat(B.getInt64(Af->Stride)));
    P.AffineBase = B.getInt64(0);
    P.AffineStride = Af->Stride;
  } else if (Addr->getType()->isVectorTy()) {
    P.LaneBase = B.CreateIntToPtr(Addr, FixedVectorType::get(B.getPtrTy(), W),
                                  llvmName(Id) + ".lanes");
    P.Offset = splat(B.getInt64(0));
  } else {
    P.Base = B.CreateIntToPtr(Addr, B.getPtrTy(), llvmName(Id) + ".ptr");
    P.Offset = B.getInt64(0);
    P.AffineBase = P.Offset;
  }
  return true;
}

Value *SimdEmitter::addressOf(const PointerValue &P) {
  Type *I64 = B.getInt64Ty();
  if (P.LaneBase)
    return B.CreateAdd(
        B.CreatePtrToInt(P.LaneBase, FixedVectorType::get(I64, W)),
        P.Offset);
  Value *Base = B.CreatePtrToInt(P.Base, I64);
  if (P.offsetVarying())
    Base = splat(Base);
  return B.CreateAdd(Base, P.Offset);
}

bool SimdEmitter::emitPhysicalPointer(const Instruction &I) {
  using spv::Op;
  if (I.Opcode != Op::OpConvertUToPtr && I.Opcode != Op::OpConvertPtrToU &&
      I.Opcode != Op::OpBitcast)
    return false;
  uint32_t Id = I.Result.value();
  TypeId SrcTy = M.typeOf(I.Operands[0]);
  bool SrcPtr = isPhysicalPointerType(SrcTy);
  bool DstPtr = isPhysicalPointerType(I.ResultType);
  if (I.Opcode == Op::OpBitcast && !SrcPtr && !DstPtr)
    return false; // EmitArithmetic.cpp
  if ((I.Opcode == Op::OpConvertUToPtr && !DstPtr) ||
      (I.Opcode == Op::OpConvertPtrToU && !SrcPtr)) {
    failAt(I, "only PhysicalStorageBuffer pointers convert to and from "
              "integers");
    return true;
  }
  LaneValue X = get(I.Operands[0]);
  bool Varying = X.Varying || isVarying(Id);
  X = coerce(std::move(X), Varying);
  // Everything here is bits: gather the operand's into one integer of its
  // total width, then split that as the result wants.
  const std::vector<ScalarType> &Out = components(I.ResultType);
  unsigned Total = 0;
  for (Value *C : X.Comps)
    Total += C->getType()->getScalarSizeInBits();
  unsigned OutTotal = 0;
  for (const ScalarType &S : Out)
    OutTotal += S.Bits;
  if (I.Opcode == Op::OpBitcast && Total != OutTotal) {
    failAt(I, "bitcast between types of different sizes");
    return true;
  }
  auto IntTy = [&](unsigned Bits) -> Type * {
    Type *T = B.getIntNTy(Bits);
    return Varying ? static_cast<Type *>(FixedVectorType::get(T, W)) : T;
  };
  Value *Bits = nullptr;
  unsigned Shift = 0;
  for (Value *C : X.Comps) {
    unsigned N = C->getType()->getScalarSizeInBits();
    Value *CI = B.CreateBitCast(C, IntTy(N));
    CI = B.CreateZExt(CI, IntTy(Total));
    if (Shift)
      CI = B.CreateShl(CI, ConstantInt::get(IntTy(Total), Shift));
    Bits = Bits ? B.CreateOr(Bits, CI) : CI;
    Shift += N;
  }
  // Conversions change the width (zero-extending, as for unsigned).
  if (Total != OutTotal)
    Bits = B.CreateZExtOrTrunc(Bits, IntTy(OutTotal));
  LaneValue R;
  R.Varying = Varying;
  Shift = 0;
  for (const ScalarType &S : Out) {
    Value *Part = Bits;
    if (Shift)
      Part = B.CreateLShr(Part, ConstantInt::get(IntTy(OutTotal), Shift));
    Part = B.CreateTrunc(Part, IntTy(S.Bits));
    R.Comps.push_back(B.CreateBitCast(Part, laneType(S, Varying)));
    Shift += S.Bits;
  }
  set(Id, std::move(R));
  return true;
}

} // namespace spirv2llvm::simd
