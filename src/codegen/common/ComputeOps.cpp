//===- ComputeOps.cpp - Atomics and barriers, shared by the back ends -----===//
#include "codegen/common/ComputeOps.h"

using namespace llvm;

namespace spirv2llvm {

std::optional<AtomicOpKind> atomicOpKind(spv::Op Opcode) {
  using spv::Op;
  AtomicOpKind K;
  switch (Opcode) {
  case Op::OpAtomicLoad: K.IsLoad = true; break;
  case Op::OpAtomicStore: K.IsStore = true; break;
  case Op::OpAtomicExchange: K.RMW = AtomicRMWInst::Xchg; break;
  case Op::OpAtomicCompareExchange: K.IsCmpXchg = true; break;
  case Op::OpAtomicIIncrement: K.RMW = AtomicRMWInst::Add; K.Unit = true; break;
  case Op::OpAtomicIDecrement: K.RMW = AtomicRMWInst::Sub; K.Unit = true; break;
  case Op::OpAtomicIAdd: K.RMW = AtomicRMWInst::Add; break;
  case Op::OpAtomicISub: K.RMW = AtomicRMWInst::Sub; break;
  case Op::OpAtomicSMin: K.RMW = AtomicRMWInst::Min; break;
  case Op::OpAtomicUMin: K.RMW = AtomicRMWInst::UMin; break;
  case Op::OpAtomicSMax: K.RMW = AtomicRMWInst::Max; break;
  case Op::OpAtomicUMax: K.RMW = AtomicRMWInst::UMax; break;
  case Op::OpAtomicAnd: K.RMW = AtomicRMWInst::And; break;
  case Op::OpAtomicOr: K.RMW = AtomicRMWInst::Or; break;
  case Op::OpAtomicXor: K.RMW = AtomicRMWInst::Xor; break;
  default:
    return std::nullopt;
  }
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
    B.CreateCall(FunctionType::get(B.getVoidTy(), {Ptr}, false), Fn, {Ctx});
  }
  B.CreateFence(AtomicOrdering::SequentiallyConsistent, Sync);
  return true;
}

} // namespace spirv2llvm
