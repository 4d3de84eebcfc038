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
  IRBuilder<> B(&*F->getEntryBlock().getFirstInsertionPt());
  Value *Args = F->getArg(0);
  Value *Block = B.CreateLoad(
      B.getPtrTy(),
      B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Args,
                                   offsetof(s2l_group_args, workgroup_memory)),
      "workgroup.memory");
  uint64_t Offset = 0;
  for (GlobalVariable *G : Globals) {
    for (User *U : G->users())
      if (auto *I = dyn_cast<Instruction>(U); !I || I->getFunction() != F)
        return makeError("groupshared variable " + G->getName() +
                         " is used outside the entry function");
    Type *T = G->getValueType();
    uint64_t Al = std::max<uint64_t>(
        {G->getAlign().valueOrOne().value(), DL.getABITypeAlign(T).value(),
         16});
    Offset = alignTo(Offset, Al);
    Value *Addr = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Block, Offset);
    Value *Cast = B.CreateAddrSpaceCast(Addr, G->getType(), G->getName());
    Offset += DL.getTypeAllocSize(T);
    G->replaceAllUsesWith(Cast);
    G->eraseFromParent();
  }
  if (Offset > UINT32_MAX)
    return makeError("groupshared variables need " + Twine(Offset) +
                     " bytes, too many");
  return uint32_t(alignTo(Offset, 16));
}

} // namespace spirv2llvm
