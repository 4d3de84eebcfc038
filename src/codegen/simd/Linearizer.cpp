//===- Linearizer.cpp - Masked control flow of one SIMD function ----------===//
//
// See Linearizer.h for the scheme.
//
//===----------------------------------------------------------------------===//
#include "codegen/simd/Linearizer.h"
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"

#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace spirv2llvm::simd {

// LLVM's Type and Constant, not the parser's, unless qualified.
using llvm::Constant;
using llvm::Type;

Linearizer::Linearizer(SimdEmitter &E)
    : E(E), B(E.B), Ctx(E.Ctx), M(E.M), F(*E.F), A(*E.A) {}

void Linearizer::createSlots() {
  // Slots: a Varying block gets a lane mask, a Uniform one (all lanes of
  // the call or none) just a "reached" flag: its mask is the entry mask.
  // Loop headers get the same for their back edge.
  MaskSlots.assign(A.G.size(), nullptr);
  ContSlots.assign(A.G.size(), nullptr);
  for (cfg::BlockIndex Bk : A.G.rpo()) {
    bool U = E.isUniformBlock(Bk);
    Type *T = U ? B.getInt1Ty() : static_cast<Type *>(E.maskType());
    const std::string &Name = A.G.block(Bk).Name;
    MaskSlots[Bk] = E.createSlot(T, (U ? "reached." : "mask.") + Name);
    if (Bk == A.G.entry()) {
      B.CreateStore(U ? E.anyLane(E.FS.EntryMask) : E.FS.EntryMask,
                    MaskSlots[Bk]);
      continue; // the entry block has neither phis nor a back edge
    }
    auto &Inits = InitBefore[initItem(Bk)];
    Inits.push_back(MaskSlots[Bk]);
    if (A.G.block(Bk).Merge == cfg::MergeKind::Loop) {
      ContSlots[Bk] = E.createSlot(T, "cont." + Name);
      Inits.push_back(ContSlots[Bk]);
    }
    // Phi accumulators: each incoming edge selects its value into them.
    for (uint32_t Index : F.Blocks[Bk].Insts) {
      const Instruction &I = M.Insts[Index];
      if (I.Opcode != spv::Op::OpPhi)
        break;
      uint32_t Id = I.Result.value();
      bool Varying = E.isVarying(Id);
      for (const ScalarType &S : E.components(I.ResultType)) {
        AllocaInst *Slot = E.createSlot(E.laneType(S, Varying), E.llvmName(Id));
        Inits.push_back(Slot);
        PhiSlots[Id].push_back(Slot);
      }
    }
  }
}

void Linearizer::emitBody() { emitItems(0); }

uint32_t Linearizer::initItem(cfg::BlockIndex Bk) const {
  // The level whose chain runs Bk: its loop, or for a loop header the
  // level around that loop. Its predecessors all follow, at that level,
  // the item holding its immediate dominator; zeroing just before that item
  // keeps the slot's live range inside the construct. Inside a loop this
  // runs every iteration, as the loop's own resets do (emitLoop).
  const cfg::StructureTree &T = A.Tree;
  uint32_t Level = T.node(T.nodeOfBlock(Bk)).Parent;
  if (A.G.block(Bk).Merge == cfg::MergeKind::Loop)
    Level = T.node(Level).Parent;
  for (uint32_t N = T.nodeOfBlock(A.DT.idom(Bk)); N != ~0u;
       N = T.node(N).Parent)
    if (T.node(N).Parent == Level)
      return N;
  return T.node(Level).Children.front(); // not reached for valid trees
}

void Linearizer::emitZeroStores(ArrayRef<AllocaInst *> Slots) {
  if (Slots.empty())
    return;
  // Stores in a block on the chain would make that block a def of every
  // slot, and it dominates the rest of the function: mem2reg's iterated
  // dominance frontier walks a def block's whole dominator subtree, so
  // each slot would cost the function's size (15,000 blocks took minutes).
  // Both arms of a diamond store; neither dominates anything else, and
  // the join's phis of two zeros fold away. foldZeroDiamonds() then folds the
  // always-true branch and merges the blocks back.
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Arm = BasicBlock::Create(Ctx, "zero", E.LF);
  BasicBlock *Dead = BasicBlock::Create(Ctx, "zero.dead", E.LF);
  BasicBlock *Join = BasicBlock::Create(Ctx, "zeroed", E.LF);
  B.CreateCondBr(B.getTrue(), Arm, Dead);
  for (BasicBlock *BB : {Arm, Dead}) {
    B.SetInsertPoint(BB);
    for (AllocaInst *Slot : Slots)
      B.CreateStore(Constant::getNullValue(Slot->getAllocatedType()), Slot);
    B.CreateBr(Join);
  }
  B.SetInsertPoint(Join);
  ZeroDiamonds.push_back(Pre);
}

void Linearizer::foldZeroDiamonds() {
  // The zeroing diamonds (emitZeroStores) are empty now: fold them back,
  // last first: a diamond may start in the join block of the one before.
  for (BasicBlock *Pre : llvm::reverse(ZeroDiamonds)) {
    auto *Br = cast<BranchInst>(Pre->getTerminator());
    BasicBlock *Taken = Br->getSuccessor(0), *Other = Br->getSuccessor(1);
    BasicBlock *Join = Taken->getSingleSuccessor();
    ConstantFoldTerminator(Pre);
    DeleteDeadBlock(Other);
    MergeBlockIntoPredecessor(Taken);
    MergeBlockIntoPredecessor(Join);
  }
  ZeroDiamonds.clear();
}

void Linearizer::emitItems(uint32_t Node) {
  for (uint32_t Child : A.Tree.node(Node).Children) {
    if (E.Failed)
      return;
    // The zero start of the slots of this item's region (InitBefore).
    auto It = InitBefore.find(Child);
    if (It != InitBefore.end())
      emitZeroStores(It->second);
    const cfg::StructureNode &N = A.Tree.node(Child);
    if (N.Kind == cfg::StructureNodeKind::Loop)
      emitLoop(Child);
    else
      emitBlock(N.Block);
  }
}

void Linearizer::emitLoop(uint32_t Node) {
  const cfg::StructureNode &N = A.Tree.node(Node);
  cfg::BlockIndex H = N.Block;
  const std::string &Name = A.G.block(H).Name;
  BasicBlock *Top = BasicBlock::Create(Ctx, "loop." + Name, E.LF);
  BasicBlock *Latch = BasicBlock::Create(Ctx, "latch." + Name, E.LF);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "exit." + Name, E.LF);
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
  Value *Again = E.isUniformBlock(H) ? Cont : E.anyLane(Cont);
  BranchInst *Back =
      B.CreateCondBr(B.CreateAnd(Again, E.notCancelled()), Top, Exit);
  if (MDNode *MD = loopMetadata(H))
    Back->setMetadata(LLVMContext::MD_loop, MD);
  B.SetInsertPoint(Exit);
}

MDNode *Linearizer::loopMetadata(cfg::BlockIndex Header) {
  // OpLoopMerge's loop control: the hints LLVM's unroller understands.
  // DependencyInfinite/Length, Min/MaxIterations, IterationMultiple and
  // PeelCount have no counterpart that is safe for the masked loop (its
  // trip count is the maximum over the lanes), so they are dropped.
  uint32_t MergeIndex = F.Blocks[Header].MergeInst;
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

bool Linearizer::isCheapUnguarded(const Block &Blk) const {
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
    if (!D || !isPlainAccessChain(D->Opcode))
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
    } else if (isPlainAccessChain(I.Opcode)) {
      if (!IsPushConstantPointer(I.Result.value(), IsPushConstantPointer))
        return false;
    } else if (I.Opcode == Op::OpExtInst) {
      // A few GLSL.std.450 instructions (min, max, clamp, abs, floor, ...)
      // are as cheap as core arithmetic.
      auto Set = M.ExtInstImports.find(I.Operands[0]);
      if (Set == M.ExtInstImports.end() || Set->second != "GLSL.std.450" ||
          glslStd450Info(I.Operands[1]).Speculatable != GlslSpeculatable::Yes)
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

void Linearizer::emitBlock(cfg::BlockIndex Bk) {
  const std::string &Name = A.G.block(Bk).Name;
  BasicBlock *Body = BasicBlock::Create(Ctx, "L" + Name, E.LF);
  BasicBlock *Next = BasicBlock::Create(Ctx, "L" + Name + ".next", E.LF);
  if (E.isUniformBlock(Bk)) {
    Value *Reached =
        B.CreateLoad(B.getInt1Ty(), MaskSlots[Bk], "reached." + Name);
    B.CreateCondBr(Reached, Body, Next);
    B.SetInsertPoint(Body);
    E.FS.CurMask = E.uniformBlockMask();
  } else {
    Value *Mask = B.CreateLoad(E.maskType(), MaskSlots[Bk], "mask." + Name);
    // A short block of pure arithmetic costs less to run with no lane
    // active than a branch that divergent data makes unpredictable.
    E.FS.CurUnguarded =
        E.Opts.SpeculateSmallBlocks && isCheapUnguarded(F.Blocks[Bk]);
    if (E.FS.CurUnguarded)
      B.CreateBr(Body);
    else
      B.CreateCondBr(E.anyLane(Mask), Body, Next);
    E.FS.CurMask = Mask;
  }
  B.SetInsertPoint(Body);
  E.FS.CurBlock = Bk;
  E.FS.Local.clear();

  const Block &Blk = F.Blocks[Bk];
  for (uint32_t Index : Blk.Insts) {
    if (E.Failed)
      break;
    const Instruction &I = M.Insts[Index];
    if (I.Opcode == spv::Op::OpPhi) {
      LaneValue V;
      V.Varying = E.isVarying(I.Result.value());
      for (AllocaInst *Slot : PhiSlots[I.Result.value()])
        V.Comps.push_back(B.CreateLoad(Slot->getAllocatedType(), Slot));
      E.set(I.Result.value(), std::move(V));
      continue;
    }
    if (Index == Blk.TerminatorInst) {
      emitTerminator(Bk, I);
      continue;
    }
    E.emitInstruction(I);
  }
  B.CreateBr(Next);
  B.SetInsertPoint(Next);
  E.FS.Local.clear();
  E.FS.CurBlock = cfg::NoBlock;
  E.FS.CurUnguarded = false;
}

void Linearizer::addEdge(cfg::BlockIndex From, cfg::BlockIndex To,
                         Value *EdgeMask, Value *Taken) {
  if (!A.G.isReachable(To))
    return;
  // A back edge feeds the loop's next iteration, not this one.
  bool Back = A.G.isBackEdge(From, To);
  AllocaInst *Slot = Back ? ContSlots[To] : MaskSlots[To];
  if (!Slot) {
    E.fail("branch from " + M.friendlyName(A.G.block(From).Label) + " to " +
           M.friendlyName(A.G.block(To).Label) +
           " goes back to a block that is not a loop header");
    return;
  }
  auto GetTaken = [&] {
    if (!Taken)
      Taken = E.anyLane(EdgeMask);
    return Taken;
  };
  Value *Old = B.CreateLoad(Slot->getAllocatedType(), Slot);
  B.CreateStore(B.CreateOr(Old, E.isUniformBlock(To) ? GetTaken() : EdgeMask),
                Slot);

  // Phis of the target take this edge's value in the lanes that take it.
  uint32_t FromLabel = A.G.block(From).Label;
  for (uint32_t Index : F.Blocks[To].Insts) {
    const Instruction &Phi = M.Insts[Index];
    if (Phi.Opcode != spv::Op::OpPhi)
      break;
    for (size_t K = 0; K + 1 < Phi.Operands.size(); K += 2) {
      if (Phi.Operands[K + 1] != FromLabel)
        continue;
      uint32_t Id = Phi.Result.value();
      bool Varying = E.isVarying(Id);
      LaneValue In = E.coerce(E.get(Phi.Operands[K]), Varying);
      auto &Slots = PhiSlots[Id];
      if (Slots.size() != In.Comps.size()) {
        E.fail("phi " + M.friendlyName(Id) +
               " has an incoming value of a different type");
        return;
      }
      // Where lanes cannot arrive by different edges (a uniform block that
      // joins no divergent paths), the edge is taken by all lanes or none,
      // so one scalar condition selects the whole vector.
      bool PerLane =
          Varying && (!E.isUniformBlock(To) || E.UI.isDivergentJoin(E.Fn, To));
      Value *Take = PerLane ? EdgeMask : GetTaken();
      for (size_t C = 0; C < Slots.size(); ++C) {
        Value *Cur = B.CreateLoad(Slots[C]->getAllocatedType(), Slots[C]);
        B.CreateStore(
            B.CreateSelect(Take, In.Comps[C], Cur, E.llvmName(Id) + ".in"),
            Slots[C]);
      }
      break;
    }
  }
}

void Linearizer::emitTerminator(cfg::BlockIndex Bk, const Instruction &T) {
  auto Target = [&](uint32_t Label) -> cfg::BlockIndex {
    auto It = F.BlockIndexOf.find(Label);
    return It == F.BlockIndexOf.end() ? cfg::NoBlock : It->second;
  };
  Constant *None = Constant::getNullValue(E.maskType());
  // The CFG has read the terminator (cfg::TerminatorKind).
  switch (A.G.block(Bk).Terminator) {
  case cfg::TerminatorKind::Branch:
    // A guarded block runs only if some lane is active, so the edge is
    // taken; an unguarded one may run with none (the mask decides).
    addEdge(Bk, Target(T.Operands[0]), E.FS.CurMask,
            E.FS.CurUnguarded ? nullptr : B.getTrue());
    return;
  case cfg::TerminatorKind::BranchConditional: {
    cfg::BlockIndex True = Target(T.Operands[1]);
    cfg::BlockIndex False = Target(T.Operands[2]);
    if (True == False) {
      addEdge(Bk, True, E.FS.CurMask,
              E.FS.CurUnguarded ? nullptr : B.getTrue());
      return;
    }
    LaneValue Cond = E.get(T.Operands[0]);
    Value *C = Cond.Comps[0];
    Value *MT, *MF, *TT = nullptr, *TF = nullptr;
    if (Cond.Varying) {
      MT = B.CreateAnd(E.FS.CurMask, C, "br.true");
      MF = B.CreateAnd(E.FS.CurMask, B.CreateNot(C), "br.false");
    } else {
      // A uniform branch sends the whole mask one way.
      MT = B.CreateSelect(C, E.FS.CurMask, None, "br.true");
      MF = B.CreateSelect(C, None, E.FS.CurMask, "br.false");
      TT = C;
      TF = B.CreateNot(C);
      if (E.FS.CurUnguarded) {
        // No lane may be here: the masks, not the condition, decide.
        TT = TF = nullptr;
      }
    }
    addEdge(Bk, True, MT, TT);
    addEdge(Bk, False, MF, TF);
    return;
  }
  case cfg::TerminatorKind::Switch: {
    LaneValue Sel = E.get(T.Operands[0]);
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
      Value *Eq =
          B.CreateICmpEQ(S, ConstantInt::get(S->getType(), Lit, false), "case");
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
        addEdge(Bk, Tg, B.CreateAnd(E.FS.CurMask, E.splat(Cond), "sw.edge"),
                nullptr);
      else
        addEdge(Bk, Tg, B.CreateSelect(Cond, E.FS.CurMask, None, "sw.edge"),
                E.FS.CurUnguarded ? nullptr : Cond);
    }
    return;
  }
  case cfg::TerminatorKind::Kill: {
    Value *Old = B.CreateLoad(E.maskType(), E.FS.KilledSlot);
    B.CreateStore(B.CreateOr(Old, E.FS.CurMask), E.FS.KilledSlot);
    return;
  }
  case cfg::TerminatorKind::Return:
    // OpReturnValue: a callee's lanes leave their result behind.
    if (!T.Operands.empty() && !E.FS.RetSlots.empty()) {
      LaneValue V = E.coerce(E.get(T.Operands[0]), true);
      for (size_t C = 0; C < E.FS.RetSlots.size() && C < V.Comps.size(); ++C) {
        Value *Old = B.CreateLoad(E.FS.RetSlots[C]->getAllocatedType(),
                                  E.FS.RetSlots[C]);
        B.CreateStore(B.CreateSelect(E.FS.CurMask, V.Comps[C], Old),
                      E.FS.RetSlots[C]);
      }
    }
    // The lanes leave: no edge carries them anywhere.
    return;
  case cfg::TerminatorKind::Unreachable:
    return;
  }
}

} // namespace spirv2llvm::simd
