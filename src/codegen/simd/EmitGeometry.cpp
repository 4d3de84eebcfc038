//===- EmitGeometry.cpp - OpEmitVertex and OpEndPrimitive -----------------===//
//
// A geometry shader's lane is one invocation (one input primitive, or one
// of its Invocations). Outputs are written to the output block as in every
// stage, so at OpEmitVertex the block holds each lane's current vertex:
// the vertex is copied, per component, into the lane's next slot of the
// emitted-vertex region behind the outputs (Interface.h, GeometryLayout).
// Slots differ per lane, so the copies are scatters whose addresses are
// slot * VertexBytes + the component's offset + lane * size; a lane whose
// OutputVertices slots are full drops the vertex (Vulkan leaves emitting
// more undefined; dropping keeps memory safe and matches the first
// OutputVertices vertices that a conformant shader emits).
//
// OpEndPrimitive only sets the lane's pending-cut word; the next emitted
// vertex records it as "starts a new strip", so a cut with no vertex after
// it costs nothing and the assembler sees strips as runs of vertices.
//
// Limitation: vertex stream 0 only; another stream is refused (several
// streams are only observable through transform feedback).
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Type;

bool SimdEmitter::emitGeometry(const Instruction &I) {
  if (!Layout.HasGeometry) {
    failAt(I, "only a geometry shader can emit vertices and end primitives");
    return true;
  }
  bool IsStream = I.Opcode == spv::Op::OpEmitStreamVertex ||
                  I.Opcode == spv::Op::OpEndStreamPrimitive;
  if (IsStream) {
    const spirv2llvm::Constant *C =
        I.Operands.empty() ? nullptr : M.findConstant(I.Operands[0]);
    if (!C || C->Kind != ConstantKind::Scalar || C->IsSpec) {
      failAt(I, "unsupported: a vertex stream that is not a constant");
      return true;
    }
    if (C->scalarBits() != 0) {
      failAt(I, "unsupported: vertex stream " + Twine(C->scalarBits()) +
                    " (only stream 0: other streams need transform "
                    "feedback)");
      return true;
    }
  }
  const GeometryLayout &G = Layout.Geometry;
  Type *I8 = B.getInt8Ty(), *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  auto *V32 = FixedVectorType::get(I32, W);
  auto At = [&](uint32_t Off) {
    return B.CreateConstInBoundsGEP1_32(I8, FS.OutputsPtr, Off);
  };
  Value *Mask = storeMask();
  if (I.Opcode == spv::Op::OpEndPrimitive ||
      I.Opcode == spv::Op::OpEndStreamPrimitive) {
    B.CreateMaskedStore(splat(B.getInt32(1)), At(G.PendingCutOffset), Align(4),
                        Mask);
    return true;
  }
  Value *Count =
      B.CreateAlignedLoad(V32, At(G.CountOffset), Align(4), "gs.count");
  Value *Room =
      B.CreateICmpULT(Count, splat(B.getInt32(G.MaxVertices)), "gs.room");
  Value *Emit = B.CreateAnd(Mask, Room, "gs.emit");
  Value *Slot = B.CreateZExt(Count, FixedVectorType::get(I64, W), "gs.slot");
  Value *Lanes = laneIndices(I64);
  // Byte offset of lane L's element of a component at offset Off, size S,
  // in the lane's slot.
  auto SlotAddresses = [&](uint64_t Base, uint64_t SlotBytes, uint64_t S) {
    Value *Off = B.CreateMul(Slot, splat(B.getInt64(SlotBytes)));
    Off = B.CreateAdd(Off, B.CreateMul(Lanes, splat(B.getInt64(S))));
    Off = B.CreateAdd(Off, splat(B.getInt64(Base)));
    return B.CreateGEP(I8, FS.OutputsPtr, Off);
  };
  for (const InterfaceVariable &IV : Layout.Outputs)
    for (size_t C = 0; C < IV.Components.size(); ++C) {
      uint32_t S = IV.Components[C].bytes();
      auto *VT = FixedVectorType::get(B.getIntNTy(8 * S), W);
      Value *X = B.CreateAlignedLoad(VT, At(IV.ComponentOffsets[C]), Align(S),
                                     "gs.out");
      B.CreateMaskedScatter(
          X,
          SlotAddresses(uint64_t(G.VerticesOffset) + IV.ComponentOffsets[C],
                        G.VertexBytes, S),
          Align(S), Emit);
    }
  Value *Pending = B.CreateAlignedLoad(V32, At(G.PendingCutOffset), Align(4),
                                       "gs.pending.cut");
  B.CreateMaskedScatter(Pending, SlotAddresses(G.CutOffset, 4 * W, 4), Align(4),
                        Emit);
  B.CreateMaskedStore(llvm::Constant::getNullValue(V32), At(G.PendingCutOffset),
                      Align(4), Emit);
  B.CreateMaskedStore(B.CreateAdd(Count, splat(B.getInt32(1))),
                      At(G.CountOffset), Align(4), Emit);
  return true;
}

} // namespace spirv2llvm::simd
