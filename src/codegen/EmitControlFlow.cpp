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
#include "codegen/SimdEmitter.h"

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

  // Every iteration starts with no lane in the loop's other blocks.
  const cfg::Construct &C = A->Tree.constructs()[N.ConstructIndex];
  for (cfg::BlockIndex Bk : C.Blocks)
    if (Bk != H && MaskSlots[Bk])
      B.CreateStore(Constant::getNullValue(MaskSlots[Bk]->getAllocatedType()),
                    MaskSlots[Bk]);

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
  B.CreateCondBr(B.CreateAnd(Again, notCancelled()), Top, Exit);
  B.SetInsertPoint(Exit);
}

void SimdEmitter::emitBlock(cfg::BlockIndex Bk) {
  const std::string &Name = A->G.block(Bk).Name;
  BasicBlock *Body = BasicBlock::Create(Ctx, "L" + Name, LF);
  BasicBlock *Next = BasicBlock::Create(Ctx, "L" + Name + ".next", LF);
  if (isUniformBlock(Bk)) {
    Value *Reached =
        B.CreateLoad(B.getInt1Ty(), MaskSlots[Bk], "reached." + Name);
    B.CreateCondBr(Reached, Body, Next);
    CurMask = EntryMask;
  } else {
    Value *Mask = B.CreateLoad(maskType(), MaskSlots[Bk], "mask." + Name);
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

void SimdEmitter::emitTerminator(cfg::BlockIndex Bk, const Instruction &T) {
  auto Target = [&](uint32_t Label) -> cfg::BlockIndex {
    auto It = F->BlockIndexOf.find(Label);
    return It == F->BlockIndexOf.end() ? cfg::NoBlock : It->second;
  };
  Constant *None = Constant::getNullValue(maskType());
  switch (T.Opcode) {
  case spv::Op::OpBranch:
    // The block runs only if some lane is active, so the edge is taken.
    addEdge(Bk, Target(T.Operands[0]), CurMask, B.getTrue());
    return;
  case spv::Op::OpBranchConditional: {
    cfg::BlockIndex True = Target(T.Operands[1]);
    cfg::BlockIndex False = Target(T.Operands[2]);
    if (True == False) {
      addEdge(Bk, True, CurMask, B.getTrue());
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
    }
    addEdge(Bk, True, MT, TT);
    addEdge(Bk, False, MF, TF);
    return;
  }
  case spv::Op::OpSwitch: {
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
        addEdge(Bk, Tg, B.CreateSelect(Cond, CurMask, None, "sw.edge"), Cond);
    }
    return;
  }
  case spv::Op::OpKill:
  case spv::Op::OpTerminateInvocation: {
    Value *Old = B.CreateLoad(maskType(), KilledSlot);
    B.CreateStore(B.CreateOr(Old, CurMask), KilledSlot);
    return;
  }
  case spv::Op::OpReturn:
  case spv::Op::OpReturnValue:
  case spv::Op::OpUnreachable:
    // The lanes leave: no edge carries them anywhere.
    return;
  default:
    failAt(T, "unsupported terminator");
    return;
  }
}

} // namespace spirv2llvm::simd
