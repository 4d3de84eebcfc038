//===- EmitControlFlow.cpp - Blocks, masks, loops and phis ----------------===//
//
// See SimdEmitter.h for the scheme. The LLVM CFG is a chain in structure
// tree order: each block is
//
//   guard:  %mask = load mask slot; br (any lane of %mask), body, next
//   body:   phis from their slots; instructions; edge masks to successors
//   next:   the following item
//
// and each loop wraps its items in a header/latch pair whose back edge is
// taken while any lane continues.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

void SimdEmitter::emitItems(uint32_t Node) {
  for (uint32_t Child : A->Tree.node(Node).Children) {
    if (Failed)
      return;
    // The zero start of the slots of this item's region (InitBefore).
    auto It = InitBefore.find(Child);
    if (It != InitBefore.end())
      emitZeroStores(It->second);
    const cfg::StructureNode &N = A->Tree.node(Child);
    if (N.Kind == cfg::StructureNodeKind::Loop)
      emitLoop(Child);
    else
      emitBlock(N.Block);
  }
}

void SimdEmitter::emitLoop(uint32_t Node) {
  const cfg::StructureNode &N = A->Tree.node(Node);
  cfg::BlockIndex H = N.Block;
  const std::string &Name = A->G.block(H).Name;
  BasicBlock *Top = BasicBlock::Create(Ctx, "loop." + Name, LF);
  BasicBlock *Latch = BasicBlock::Create(Ctx, "latch." + Name, LF);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "exit." + Name, LF);
  B.CreateBr(Top);
  B.SetInsertPoint(Top);

  // Every iteration starts with no lane in the loop's other blocks: each
  // of their slots is zeroed inside the loop body, just before the item
  // holding its immediate dominator (InitBefore, emitItems). A reset of
  // the whole construct here as well would cost blocks x nesting depth.

  emitItems(Node);
  B.CreateBr(Latch);

  // Lanes that took the back edge run the next iteration.
  B.SetInsertPoint(Latch);
  Type *T = ContSlots[H]->getAllocatedType();
  Value *Cont = B.CreateLoad(T, ContSlots[H], "cont." + Name);
  B.CreateStore(Cont, MaskSlots[H]);
  B.CreateStore(Constant::getNullValue(T), ContSlots[H]);
  // The watchdog (abi.h): a cancelled call leaves every loop.
  Value *Again = isUniformBlock(H) ? Cont : anyLane(Cont);
  BranchInst *Back =
      B.CreateCondBr(B.CreateAnd(Again, notCancelled()), Top, Exit);
  if (MDNode *MD = loopMetadata(H))
    Back->setMetadata(LLVMContext::MD_loop, MD);
  B.SetInsertPoint(Exit);
}

MDNode *SimdEmitter::loopMetadata(cfg::BlockIndex Header) {
  // OpLoopMerge's loop control: the hints LLVM's unroller understands.
  // DependencyInfinite/Length, Min/MaxIterations, IterationMultiple and
  // PeelCount have no counterpart that is safe for the masked loop (its
  // trip count is the maximum over the lanes), so they are dropped.
  uint32_t MergeIndex = F->Blocks[Header].MergeInst;
  if (MergeIndex == ~0u)
    return nullptr;
  const Instruction &LM = M.Insts[MergeIndex];
  if (LM.Opcode != spv::Op::OpLoopMerge || LM.Operands.size() < 3)
    return nullptr;
  uint32_t Control = LM.Operands[2];
  SmallVector<Metadata *, 4> Ops = {nullptr};
  auto Flag = [&](StringRef Name) {
    Ops.push_back(MDNode::get(Ctx, MDString::get(Ctx, Name)));
  };
  if (Control & uint32_t(spv::LoopControlMask::Unroll))
    Flag("llvm.loop.unroll.enable");
  if (Control & uint32_t(spv::LoopControlMask::DontUnroll))
    Flag("llvm.loop.unroll.disable");
  if (Control & uint32_t(spv::LoopControlMask::PartialCount)) {
    // Each of DependencyLength (0x8) .. PeelCount (0x80) that is set has
    // one literal before PartialCount's.
    unsigned K = 3;
    for (uint32_t Bit = 0x8; Bit <= 0x80; Bit <<= 1)
      K += (Control & Bit) != 0;
    if (K < LM.Operands.size())
      Ops.push_back(MDNode::get(
          Ctx, {MDString::get(Ctx, "llvm.loop.unroll.count"),
                ConstantAsMetadata::get(B.getInt32(LM.Operands[K]))}));
  }
  if (Ops.size() == 1)
    return nullptr;
  MDNode *MD = MDNode::getDistinct(Ctx, Ops);
  MD->replaceOperandWith(0, MD);
  return MD;
}

bool SimdEmitter::isCheapUnguarded(const Block &Blk) const {
  using spv::Op;
  constexpr size_t MaxInstructions = 12;
  if (Blk.Insts.size() > MaxInstructions)
    return false;
  // Push constants are always there, so reading them at constant offsets
  // cannot fault whether or not a lane wanted the value.
  auto IsPushConstantPointer = [&](uint32_t Id, auto &&Self) -> bool {
    if (const Variable *V = M.findVariable(Id))
      return V->Storage == spv::StorageClass::PushConstant;
    const Instruction *D = M.def(Id);
    if (!D || (D->Opcode != Op::OpAccessChain &&
               D->Opcode != Op::OpInBoundsAccessChain))
      return false;
    for (size_t K = 1; K < D->Operands.size(); ++K)
      if (!M.findConstant(D->Operands[K]))
        return false;
    return Self(D->Operands[0], Self);
  };
  for (uint32_t Index : Blk.Insts) {
    const Instruction &I = M.Insts[Index];
    // Loads of push constants (through constant indices) are safe too.
    if (I.Opcode == Op::OpLoad) {
      if (!IsPushConstantPointer(I.Operands[0], IsPushConstantPointer))
        return false;
    } else if (I.Opcode == Op::OpAccessChain ||
               I.Opcode == Op::OpInBoundsAccessChain) {
      if (!IsPushConstantPointer(I.Result.value(), IsPushConstantPointer))
        return false;
    } else if (!hasOpcodeFlag(I.Opcode, OpcodeFlag::Speculatable)) {
      // Speculatable: arithmetic, comparisons, conversions, composites and
      // control flow between blocks, masked or lane-wise, harmless with no
      // lane active.
      return false;
    }
  }
  return true;
}

void SimdEmitter::emitBlock(cfg::BlockIndex Bk) {
  const std::string &Name = A->G.block(Bk).Name;
  BasicBlock *Body = BasicBlock::Create(Ctx, "L" + Name, LF);
  BasicBlock *Next = BasicBlock::Create(Ctx, "L" + Name + ".next", LF);
  if (isUniformBlock(Bk)) {
    Value *Reached =
        B.CreateLoad(B.getInt1Ty(), MaskSlots[Bk], "reached." + Name);
    B.CreateCondBr(Reached, Body, Next);
    B.SetInsertPoint(Body);
    CurMask = uniformBlockMask();
  } else {
    Value *Mask = B.CreateLoad(maskType(), MaskSlots[Bk], "mask." + Name);
    // A short block of pure arithmetic costs less to run with no lane
    // active than a branch that divergent data makes unpredictable.
    CurUnguarded = Opts.SpeculateSmallBlocks && isCheapUnguarded(F->Blocks[Bk]);
    if (CurUnguarded)
      B.CreateBr(Body);
    else
      B.CreateCondBr(anyLane(Mask), Body, Next);
    CurMask = Mask;
  }
  B.SetInsertPoint(Body);
  CurBlock = Bk;
  Local.clear();

  const Block &Blk = F->Blocks[Bk];
  for (uint32_t Index : Blk.Insts) {
    if (Failed)
      break;
    const Instruction &I = M.Insts[Index];
    if (I.Opcode == spv::Op::OpPhi) {
      LaneValue V;
      V.Varying = isVarying(I.Result.value());
      for (AllocaInst *Slot : PhiSlots[I.Result.value()])
        V.Comps.push_back(B.CreateLoad(Slot->getAllocatedType(), Slot));
      set(I.Result.value(), std::move(V));
      continue;
    }
    if (Index == Blk.TerminatorInst) {
      emitTerminator(Bk, I);
      continue;
    }
    emitInstruction(I);
  }
  B.CreateBr(Next);
  B.SetInsertPoint(Next);
  Local.clear();
  CurBlock = cfg::NoBlock;
  CurUnguarded = false;
}

void SimdEmitter::addEdge(cfg::BlockIndex From, cfg::BlockIndex To,
                          Value *EdgeMask, Value *Taken) {
  if (!A->G.isReachable(To))
    return;
  // A back edge feeds the loop's next iteration, not this one.
  bool Back = A->G.isBackEdge(From, To);
  AllocaInst *Slot = Back ? ContSlots[To] : MaskSlots[To];
  if (!Slot) {
    fail("branch from " + M.friendlyName(A->G.block(From).Label) + " to " +
         M.friendlyName(A->G.block(To).Label) +
         " goes back to a block that is not a loop header");
    return;
  }
  auto GetTaken = [&] {
    if (!Taken)
      Taken = anyLane(EdgeMask);
    return Taken;
  };
  Value *Old = B.CreateLoad(Slot->getAllocatedType(), Slot);
  B.CreateStore(
      B.CreateOr(Old, isUniformBlock(To) ? GetTaken() : EdgeMask), Slot);

  // Phis of the target take this edge's value in the lanes that take it.
  uint32_t FromLabel = A->G.block(From).Label;
  for (uint32_t Index : F->Blocks[To].Insts) {
    const Instruction &Phi = M.Insts[Index];
    if (Phi.Opcode != spv::Op::OpPhi)
      break;
    for (size_t K = 0; K + 1 < Phi.Operands.size(); K += 2) {
      if (Phi.Operands[K + 1] != FromLabel)
        continue;
      uint32_t Id = Phi.Result.value();
      bool Varying = isVarying(Id);
      LaneValue In = coerce(get(Phi.Operands[K]), Varying);
      auto &Slots = PhiSlots[Id];
      if (Slots.size() != In.Comps.size()) {
        fail("phi " + M.friendlyName(Id) +
             " has an incoming value of a different type");
        return;
      }
      // Where lanes cannot arrive by different edges (a uniform block that
      // joins no divergent paths), the edge is taken by all lanes or none,
      // so one scalar condition selects the whole vector.
      bool PerLane = Varying && (!isUniformBlock(To) ||
                                 UI.isDivergentJoin(Fn, To));
      Value *Take = PerLane ? EdgeMask : GetTaken();
      for (size_t C = 0; C < Slots.size(); ++C) {
        Value *Cur = B.CreateLoad(Slots[C]->getAllocatedType(), Slots[C]);
        B.CreateStore(B.CreateSelect(Take, In.Comps[C], Cur,
                                     llvmName(Id) + ".in"),
                      Slots[C]);
      }
      break;
    }
  }
}

bool SimdEmitter::emitHelperInvocation(const Instruction &I) {
  // A demoted lane keeps running, so derivatives of its neighbours stay
  // defined, but its stores to memory and outputs no longer take effect
  // (storeMask) and it counts as discarded at the end.
  if (I.Opcode == spv::Op::OpDemoteToHelperInvocation) {
    Value *Old = B.CreateLoad(maskType(), DemotedSlot);
    B.CreateStore(B.CreateOr(Old, CurMask), DemotedSlot);
    return true;
  }
  if (I.Opcode == spv::Op::OpIsHelperInvocationEXT) {
    // Lanes the caller left off are not run at all, so the only helpers
    // here are the demoted ones.
    LaneValue V;
    V.Varying = true;
    V.Comps.push_back(DemotedSlot
                          ? static_cast<Value *>(B.CreateLoad(
                                maskType(), DemotedSlot, "is.helper"))
                          : Constant::getNullValue(maskType()));
    set(I.Result.value(), std::move(V));
    return true;
  }
  return false;
}

void SimdEmitter::emitTerminator(cfg::BlockIndex Bk, const Instruction &T) {
  auto Target = [&](uint32_t Label) -> cfg::BlockIndex {
    auto It = F->BlockIndexOf.find(Label);
    return It == F->BlockIndexOf.end() ? cfg::NoBlock : It->second;
  };
  Constant *None = Constant::getNullValue(maskType());
  // The CFG has read the terminator (cfg::TerminatorKind).
  switch (A->G.block(Bk).Terminator) {
  case cfg::TerminatorKind::Branch:
    // A guarded block runs only if some lane is active, so the edge is
    // taken; an unguarded one may run with none (the mask decides).
    addEdge(Bk, Target(T.Operands[0]), CurMask,
            CurUnguarded ? nullptr : B.getTrue());
    return;
  case cfg::TerminatorKind::BranchConditional: {
    cfg::BlockIndex True = Target(T.Operands[1]);
    cfg::BlockIndex False = Target(T.Operands[2]);
    if (True == False) {
      addEdge(Bk, True, CurMask, CurUnguarded ? nullptr : B.getTrue());
      return;
    }
    LaneValue Cond = get(T.Operands[0]);
    Value *C = Cond.Comps[0];
    Value *MT, *MF, *TT = nullptr, *TF = nullptr;
    if (Cond.Varying) {
      MT = B.CreateAnd(CurMask, C, "br.true");
      MF = B.CreateAnd(CurMask, B.CreateNot(C), "br.false");
    } else {
      // A uniform branch sends the whole mask one way.
      MT = B.CreateSelect(C, CurMask, None, "br.true");
      MF = B.CreateSelect(C, None, CurMask, "br.false");
      TT = C;
      TF = B.CreateNot(C);
      if (CurUnguarded) {
        // No lane may be here: the masks, not the condition, decide.
        TT = TF = nullptr;
      }
    }
    addEdge(Bk, True, MT, TT);
    addEdge(Bk, False, MF, TF);
    return;
  }
  case cfg::TerminatorKind::Switch: {
    LaneValue Sel = get(T.Operands[0]);
    Value *S = Sel.Comps[0];
    unsigned LitWords = S->getType()->getScalarSizeInBits() > 32 ? 2 : 1;
    // One condition per distinct target, in successor order.
    std::vector<std::pair<cfg::BlockIndex, Value *>> Conds;
    auto CondFor = [&](cfg::BlockIndex Tg) -> Value *& {
      for (auto &[Bt, V] : Conds)
        if (Bt == Tg)
          return V;
      Conds.emplace_back(Tg, nullptr);
      return Conds.back().second;
    };
    cfg::BlockIndex Default = Target(T.Operands[1]);
    CondFor(Default);
    Value *AnyCase = nullptr;
    for (size_t K = 2; K + LitWords < T.Operands.size(); K += LitWords + 1) {
      uint64_t Lit = T.Operands[K];
      if (LitWords == 2)
        Lit |= uint64_t(T.Operands[K + 1]) << 32;
      cfg::BlockIndex Tg = Target(T.Operands[K + LitWords]);
      Value *Eq = B.CreateICmpEQ(S, ConstantInt::get(S->getType(), Lit, false),
                                 "case");
      Value *&C = CondFor(Tg);
      C = C ? B.CreateOr(C, Eq) : Eq;
      AnyCase = AnyCase ? B.CreateOr(AnyCase, Eq) : Eq;
    }
    Value *DefaultCond =
        AnyCase ? B.CreateNot(AnyCase) : ConstantInt::getTrue(Ctx);
    Value *&DC = CondFor(Default);
    DC = DC ? B.CreateOr(DC, DefaultCond) : DefaultCond;
    for (auto &[Tg, Cond] : Conds) {
      if (Sel.Varying)
        addEdge(Bk, Tg, B.CreateAnd(CurMask, splat(Cond), "sw.edge"), nullptr);
      else
        addEdge(Bk, Tg, B.CreateSelect(Cond, CurMask, None, "sw.edge"),
                CurUnguarded ? nullptr : Cond);
    }
    return;
  }
  case cfg::TerminatorKind::Kill: {
    Value *Old = B.CreateLoad(maskType(), KilledSlot);
    B.CreateStore(B.CreateOr(Old, CurMask), KilledSlot);
    return;
  }
  case cfg::TerminatorKind::Return:
    // OpReturnValue: a callee's lanes leave their result behind.
    if (!T.Operands.empty() && !RetSlots.empty()) {
      LaneValue V = coerce(get(T.Operands[0]), true);
      for (size_t C = 0; C < RetSlots.size() && C < V.Comps.size(); ++C) {
        Value *Old = B.CreateLoad(RetSlots[C]->getAllocatedType(), RetSlots[C]);
        B.CreateStore(B.CreateSelect(CurMask, V.Comps[C], Old), RetSlots[C]);
      }
    }
    // The lanes leave: no edge carries them anywhere.
    return;
  case cfg::TerminatorKind::Unreachable:
    return;
  }
}

} // namespace spirv2llvm::simd
