//===- NoContraction.cpp - Marking NoContraction results -------------------===//
#include "codegen/common/NoContraction.h"

#include "support/Contraction.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace spirv2llvm {

NoContractionScope::NoContractionScope(IRBuilder<> &B, const Module &M,
                                       const spirv2llvm::Instruction &I)
    : B(B) {
  if (!I.Result.value() ||
      !M.hasDecoration(I.Result.value(), spv::Decoration::NoContraction))
    return;
  Block = B.GetInsertBlock();
  if (Block && B.GetInsertPoint() != Block->end())
    Block = nullptr; // only appends are tracked
  if (Block && !Block->empty())
    Last = &Block->back();
}

NoContractionScope::~NoContractionScope() {
  if (!Block)
    return;
  LLVMContext &C = Block->getContext();
  MDNode *Mark = MDNode::get(C, {});
  for (auto It = Last ? std::next(Last->getIterator()) : Block->begin();
       It != Block->end(); ++It) {
    unsigned Op = It->getOpcode();
    if (Op == llvm::Instruction::FAdd || Op == llvm::Instruction::FSub ||
        Op == llvm::Instruction::FMul)
      It->setMetadata(NoContractionMetadata, Mark);
  }
}

} // namespace spirv2llvm
