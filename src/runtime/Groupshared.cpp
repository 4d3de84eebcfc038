//===- Groupshared.cpp - Workgroup memory for addrspace(3) globals --------===//
#include "runtime/Groupshared.h"

#include "spirv2llvm/abi.h"
#include "support/Diagnostic.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/ReplaceConstant.h"

#include <cstddef>

using namespace llvm;

namespace spirv2llvm {

namespace {
constexpr unsigned GroupsharedAddrSpace = 3;
} // namespace

Expected<uint32_t> mapGroupsharedToArgs(Module &M, StringRef Entry) {
  SmallVector<GlobalVariable *, 8> Globals;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == GroupsharedAddrSpace)
      Globals.push_back(&G);
  if (Globals.empty())
    return 0;
  Function *F = M.getFunction(Entry);
  if (!F || F->isDeclaration())
    return makeError("entry function " + Entry + " not found");
  SmallVector<Constant *, 8> Consts(Globals.begin(), Globals.end());
  // GEPs folded into constant expressions become instructions, so every
  // use is an instruction of some function.
  convertUsersOfConstantsToInstructions(Consts);
  const DataLayout &DL = M.getDataLayout();
  // Each function that uses the globals reads args->workgroup_memory once,
  // from its first parameter: the entry's args, which callees receive.
  DenseMap<Function *, Value *> BlockOf;
  auto BlockFor = [&](Function *Fn) -> Value * {
    Value *&Block = BlockOf[Fn];
    if (!Block) {
      IRBuilder<> B(&*Fn->getEntryBlock().getFirstInsertionPt());
      Block = B.CreateLoad(
          B.getPtrTy(),
          B.CreateConstInBoundsGEP1_64(
              B.getInt8Ty(), Fn->getArg(0),
              offsetof(s2l_group_args, workgroup_memory)),
          "workgroup.memory");
    }
    return Block;
  };
  uint64_t Offset = 0;
  for (GlobalVariable *G : Globals) {
    for (User *U : G->users()) {
      auto *I = dyn_cast<Instruction>(U);
      Function *Fn = I ? I->getFunction() : nullptr;
      if (!Fn || (Fn != F && !(Fn->hasLocalLinkage() && Fn->arg_size() &&
                               Fn->getArg(0)->getType()->isPointerTy())))
        return makeError("groupshared variable " + G->getName() +
                         " is used outside the entry function and the "
                         "functions it passes its arguments to");
    }
    Type *T = G->getValueType();
    uint64_t Al = std::max<uint64_t>(
        {G->getAlign().valueOrOne().value(), DL.getABITypeAlign(T).value(),
         16});
    Offset = alignTo(Offset, Al);
    DenseMap<Function *, Value *> CastIn;
    for (Use &U : make_early_inc_range(G->uses())) {
      Function *Fn = cast<Instruction>(U.getUser())->getFunction();
      Value *&Cast = CastIn[Fn];
      if (!Cast) {
        Value *Block = BlockFor(Fn);
        IRBuilder<> B(cast<Instruction>(Block)->getNextNode());
        Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Block, Offset);
        Cast = B.CreateAddrSpaceCast(Addr, G->getType(), G->getName());
      }
      U.set(Cast);
    }
    Offset += DL.getTypeAllocSize(T);
    G->eraseFromParent();
  }
  if (Offset > UINT32_MAX)
    return makeError("groupshared variables need " + Twine(Offset) +
                     " bytes, too many");
  return uint32_t(alignTo(Offset, 16));
}

} // namespace spirv2llvm
