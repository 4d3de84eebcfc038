//===- ComputeOps.cpp - Atomics and barriers, shared by the back ends -----===//
#include "codegen/common/ComputeOps.h"

#include "parser/OpcodeTable.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

/// The atomicrmw operation of an atomic's Combine column.
std::optional<AtomicRMWInst::BinOp> atomicRMWOp(CombineKind Kind) {
  switch (Kind) {
  case CombineKind::Exchange: return AtomicRMWInst::Xchg;
  case CombineKind::Add: return AtomicRMWInst::Add;
  case CombineKind::Sub: return AtomicRMWInst::Sub;
  case CombineKind::SMin: return AtomicRMWInst::Min;
  case CombineKind::UMin: return AtomicRMWInst::UMin;
  case CombineKind::SMax: return AtomicRMWInst::Max;
  case CombineKind::UMax: return AtomicRMWInst::UMax;
  case CombineKind::And: return AtomicRMWInst::And;
  case CombineKind::Or: return AtomicRMWInst::Or;
  case CombineKind::Xor: return AtomicRMWInst::Xor;
  default: // no integer atomic of the table combines so
    return std::nullopt;
  }
}

} // namespace

std::optional<AtomicOpKind> atomicOpKind(spv::Op Opcode) {
  const OpcodeInfo &Info = opcodeInfo(Opcode);
  AtomicOpKind K;
  K.IsLoad = Info.Atomic == AtomicForm::Load;
  K.IsStore = Info.Atomic == AtomicForm::Store;
  K.IsCmpXchg = Info.Atomic == AtomicForm::CompareExchange;
  K.Unit = Info.Atomic == AtomicForm::UpdateByOne;
  if (Info.Atomic == AtomicForm::Update || K.Unit) {
    K.RMW = atomicRMWOp(Info.Combine);
    if (!K.RMW)
      return std::nullopt;
  }
  if (Info.Atomic == AtomicForm::None)
    return std::nullopt;
  return K;
}

bool emitBarrierInstruction(IRBuilder<> &B, const Module &M,
                            const EntryPoint &EP, const Instruction &I,
                            StructType *ArgsType, Value *Args) {
  using spv::Op;
  if (I.Opcode != Op::OpControlBarrier && I.Opcode != Op::OpMemoryBarrier)
    return false;
  // Scopes are constant ids; a workgroup (or wider) execution scope means
  // the workgroup's other SIMD groups or invocations must catch up. Lanes
  // of one group run in lockstep and a subgroup of the one-invocation back
  // end is one invocation, so a subgroup barrier needs no call.
  auto ScopeOf = [&](uint32_t Id) {
    const spirv2llvm::Constant *C = M.findConstant(Id);
    return C ? spv::Scope(C->scalarBits()) : spv::Scope::Workgroup;
  };
  // The invocations of one workgroup all run on one OS thread (its SIMD
  // groups or invocations are fibers of the thread that took the
  // workgroup), so memory ordering among them, at Workgroup memory scope
  // or narrower, needs only the compiler not to move accesses across: a
  // single-thread fence, which costs no instruction, where a full one
  // costs an mfence.
  bool Wide = true;
  if (const spirv2llvm::Constant *C = M.findConstant(
          I.Operands[I.Opcode == Op::OpControlBarrier ? 1 : 0])) {
    auto S = spv::Scope(C->scalarBits());
    Wide = S != spv::Scope::Workgroup && S != spv::Scope::Subgroup &&
           S != spv::Scope::Invocation;
  }
  SyncScope::ID Sync = Wide ? SyncScope::System : SyncScope::SingleThread;
  if (I.Opcode == Op::OpControlBarrier &&
      ScopeOf(I.Operands[0]) <= spv::Scope::Workgroup &&
      EP.Model == spv::ExecutionModel::GLCompute) {
    B.CreateFence(AtomicOrdering::SequentiallyConsistent, Sync);
    llvm::Type *Ptr = B.getPtrTy();
    Value *Fn = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, Args, 11),
                             "barrier.fn");
    Value *Ctx = B.CreateLoad(Ptr, B.CreateStructGEP(ArgsType, Args, 12),
                              "barrier.ctx");
    CallInst *Call =
        B.CreateCall(FunctionType::get(B.getVoidTy(), {Ptr}, false), Fn, {Ctx});
    // The runtime's work-group functions find barriers by this mark
    // (runtime/WorkgroupFunction.h), which survives inlining and LLVM's
    // passes where the pattern of loads would not.
    Call->setMetadata("s2l.barrier", MDNode::get(B.getContext(), {}));
  }
  B.CreateFence(AtomicOrdering::SequentiallyConsistent, Sync);
  return true;
}

} // namespace spirv2llvm
