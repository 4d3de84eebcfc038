//===- ComputeReflection.cpp - What a compute entry needs -----------------===//
#include "codegen/ComputeReflection.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace llvm;

namespace spirv2llvm {

ComputeReflection reflectCompute(const Module &M, const EntryPoint &EP,
                                 MemoryLayout &ML) {
  ComputeReflection R;
  ComputeInfo &Compute = R.Info;
  std::array<uint32_t, 3> WorkgroupSize = {1, 1, 1};
  auto fail = [&](const Twine &Msg) { R.Errors.push_back(Msg.str()); };
  auto &WorkgroupOffsets = R.WorkgroupOffsets;
  // Workgroup size (compute only): LocalSize, LocalSizeId, or a
  // WorkgroupSize constant, which wins over both. Bindings and push
  // constants are reflected for every stage: graphics hosts need them too.
  bool IsCompute = EP.Model == spv::ExecutionModel::GLCompute;
  for (const auto &[Mode, Lits] : EP.Modes) {
    if (!IsCompute)
      break;
    if (Mode == spv::ExecutionMode::LocalSize && Lits.size() >= 3)
      WorkgroupSize = {Lits[0], Lits[1], Lits[2]};
    if (Mode == spv::ExecutionMode::LocalSizeId && Lits.size() >= 3)
      for (int K = 0; K < 3; ++K)
        if (const spirv2llvm::Constant *C = M.findConstant(Lits[K]))
          WorkgroupSize[K] = uint32_t(C->scalarBits());
  }
  for (ValueId C : IsCompute ? M.ConstantOrder : std::vector<ValueId>{}) {
    auto BI = M.decorationValue(C.value(), spv::Decoration::BuiltIn);
    if (!BI || spv::BuiltIn(*BI) != spv::BuiltIn::WorkgroupSize)
      continue;
    const spirv2llvm::Constant *K = M.findConstant(C.value());
    for (size_t I = 0; I < 3 && I < K->Elements.size(); ++I)
      if (const spirv2llvm::Constant *E =
              M.findConstant(K->Elements[I].value()))
        WorkgroupSize[I] = uint32_t(E->scalarBits());
  }
  for (uint32_t &S : WorkgroupSize)
    if (S == 0) {
      fail("workgroup size has a zero dimension");
      S = 1;
    }
  if (uint64_t(WorkgroupSize[0]) * WorkgroupSize[1] * WorkgroupSize[2] >
      1024 * 1024)
    fail("workgroup size " + Twine(WorkgroupSize[0]) + "x" +
         Twine(WorkgroupSize[1]) + "x" + Twine(WorkgroupSize[2]) +
         " is too large");
  Compute.WorkgroupSize = WorkgroupSize;

  uint32_t WgOffset = 0;
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    switch (V.Storage) {
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::Uniform: {
      ComputeInfo::Binding Bd;
      Bd.Set = M.decorationValue(Id.value(), spv::Decoration::DescriptorSet)
                   .value_or(0);
      Bd.Binding =
          M.decorationValue(Id.value(), spv::Decoration::Binding).value_or(0);
      Bd.IsUniform = V.Storage == spv::StorageClass::Uniform &&
                     !M.hasDecoration(V.Pointee.value(),
                                      spv::Decoration::BufferBlock);
      Bd.MinSize = ML.sizeOf(V.Pointee);
      const spirv2llvm::Type &PT = M.type(V.Pointee);
      if (PT.Kind == TypeKind::Struct && !PT.Members.empty() &&
          M.type(PT.Members.back()).Kind == TypeKind::RuntimeArray)
        Bd.HasRuntimeArray = true;
      Compute.Bindings.push_back(Bd);
      break;
    }
    case spv::StorageClass::PushConstant:
      Compute.PushConstantSize =
          std::max<uint32_t>(Compute.PushConstantSize,
                             uint32_t(ML.sizeOf(V.Pointee)));
      break;
    case spv::StorageClass::Workgroup: {
      uint32_t Align = std::max<uint32_t>(ML.alignOf(V.Pointee), 4);
      WgOffset = (WgOffset + Align - 1) / Align * Align;
      WorkgroupOffsets[Id.value()] = WgOffset;
      WgOffset += uint32_t(ML.sizeOf(V.Pointee));
      break;
    }
    default:
      break;
    }
  }
  Compute.WorkgroupMemorySize = (WgOffset + 15) / 16 * 16;
  for (const Instruction &I : M.Insts)
    if (I.Opcode == spv::Op::OpControlBarrier)
      Compute.HasBarriers = true;
  return R;
}

} // namespace spirv2llvm
