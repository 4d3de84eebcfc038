//===- EmitterColumnsTest.cpp - The emitters' opcode table columns --------===//
//
// The emitters switch over the table's small kinds instead of opcodes, so
// an opcode line that forgets a column would be silently unsupported (or
// worse, lowered as another kind). These tests hold the columns to the
// families and check the shared decoders and identities built on them.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ComputeOps.h"
#include "codegen/common/GroupOps.h"
#include "codegen/common/SubgroupInstr.h"
#include "parser/OpcodeTable.h"

#include "llvm/IR/LLVMContext.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace spirv2llvm;

namespace {

/// Every opcode the table lists (spv::Op values are below 0x10000 apart
/// from the vendor ranges the table does not use).
template <typename Fn> void forEachListed(Fn F) {
  for (uint32_t V = 0; V < 0x10000; ++V) {
    const OpcodeInfo &Info = opcodeInfo(spv::Op(V));
    if (Info.Opcode == spv::Op(V))
      F(Info);
  }
}

TEST(EmitterColumns, EachFamilyMemberHasItsKind) {
  unsigned Seen = 0;
  forEachListed([&](const OpcodeInfo &Info) {
    ++Seen;
    SCOPED_TRACE(uint32_t(Info.Opcode));
    switch (Info.Family) {
    case OpcodeFamily::Subgroup:
      EXPECT_NE(Info.Subgroup, SubgroupOpKind::None);
      if (Info.Subgroup == SubgroupOpKind::Shuffle ||
          Info.Subgroup == SubgroupOpKind::Broadcast)
        EXPECT_NE(Info.Lane, LaneSource::None);
      if (Info.Subgroup == SubgroupOpKind::Arithmetic)
        EXPECT_NE(Info.Combine, CombineKind::None);
      break;
    case OpcodeFamily::Atomic:
      EXPECT_TRUE(atomicOpKind(Info.Opcode).has_value());
      break;
    case OpcodeFamily::Derivative:
      EXPECT_NE(Info.Derivative, DerivativeKind::None);
      break;
    case OpcodeFamily::Image:
      EXPECT_NE(Info.Image, ImageOpKind::None);
      break;
    case OpcodeFamily::Memory:
      EXPECT_NE(Info.Memory, MemoryOpKind::None);
      break;
    default:
      EXPECT_EQ(Info.Subgroup, SubgroupOpKind::None);
      EXPECT_EQ(Info.Image, ImageOpKind::None);
      EXPECT_EQ(Info.Derivative, DerivativeKind::None);
      break;
    }
  });
  EXPECT_GT(Seen, 200u);
}

TEST(EmitterColumns, AtomicKinds) {
  auto K = atomicOpKind(spv::Op::OpAtomicIDecrement);
  ASSERT_TRUE(K);
  EXPECT_TRUE(K->Unit);
  EXPECT_EQ(K->RMW, llvm::AtomicRMWInst::Sub);
  K = atomicOpKind(spv::Op::OpAtomicSMax);
  ASSERT_TRUE(K);
  EXPECT_EQ(K->RMW, llvm::AtomicRMWInst::Max);
  EXPECT_FALSE(K->Unit);
  K = atomicOpKind(spv::Op::OpAtomicCompareExchange);
  ASSERT_TRUE(K);
  EXPECT_TRUE(K->IsCmpXchg);
  EXPECT_FALSE(K->RMW);
  EXPECT_FALSE(atomicOpKind(spv::Op::OpIAdd));
}

TEST(EmitterColumns, GroupIdentities) {
  llvm::LLVMContext Ctx;
  llvm::Type *I32 = llvm::Type::getInt32Ty(Ctx);
  llvm::Type *F32 = llvm::Type::getFloatTy(Ctx);
  auto Int = [&](CombineKind K) {
    return llvm::cast<llvm::ConstantInt>(groupIdentity(K, I32, false))
        ->getSExtValue();
  };
  auto Float = [&](CombineKind K, bool ForFill) {
    return llvm::cast<llvm::ConstantFP>(groupIdentity(K, F32, ForFill))
        ->getValueAPF()
        .convertToFloat();
  };
  EXPECT_EQ(Int(CombineKind::Add), 0);
  EXPECT_EQ(Int(CombineKind::Mul), 1);
  EXPECT_EQ(Int(CombineKind::SMin), INT32_MAX);
  EXPECT_EQ(Int(CombineKind::SMax), INT32_MIN);
  EXPECT_EQ(Int(CombineKind::UMin), -1);
  EXPECT_EQ(Int(CombineKind::UMax), 0);
  EXPECT_EQ(Int(CombineKind::And), -1);
  EXPECT_EQ(Int(CombineKind::Or), 0);
  EXPECT_EQ(Int(CombineKind::Xor), 0);
  // FAdd: -0.0 fills inactive lanes (a sum of -0.0 stays -0.0); the
  // spec's identity, which ExclusiveScan gives the first lane, is +0.0.
  EXPECT_TRUE(std::signbit(Float(CombineKind::FAdd, true)));
  EXPECT_FALSE(std::signbit(Float(CombineKind::FAdd, false)));
  EXPECT_EQ(Float(CombineKind::FMul, false), 1.0f);
  EXPECT_EQ(Float(CombineKind::FMin, false), INFINITY);
  EXPECT_EQ(Float(CombineKind::FMax, false), -INFINITY);
  // Atomics' combines have no group identity.
  EXPECT_EQ(groupIdentity(CombineKind::Sub, I32, false), nullptr);
  EXPECT_EQ(groupIdentity(CombineKind::Exchange, I32, false), nullptr);
}

Instruction inst(spv::Op Op, std::vector<uint32_t> Operands) {
  Instruction I;
  I.Opcode = Op;
  I.Operands = std::move(Operands);
  return I;
}

TEST(SubgroupDecoder, KhrFormsHaveNoScope) {
  Module M;
  // OpSubgroupReadInvocationKHR value index; the scoped twin has the
  // scope first.
  auto K = decodeSubgroupInstr(
      M, inst(spv::Op::OpSubgroupReadInvocationKHR, {7, 8}), false);
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  auto S = decodeSubgroupInstr(
      M, inst(spv::Op::OpGroupNonUniformBroadcast, {3, 7, 8}), false);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(K->Kind, SubgroupOpKind::Broadcast);
  EXPECT_EQ(S->Kind, SubgroupOpKind::Broadcast);
  EXPECT_EQ(K->Lane, LaneSource::Index);
  EXPECT_EQ(K->Value, 7u);
  EXPECT_EQ(S->Value, 7u);
  EXPECT_EQ(K->Index, 8u);
  EXPECT_EQ(S->Index, 8u);
}

TEST(SubgroupDecoder, GroupOperationsAndErrors) {
  Module M;
  auto D = decodeSubgroupInstr(
      M, inst(spv::Op::OpGroupNonUniformFAdd, {3, 2 /*ExclusiveScan*/, 9}),
      false);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  EXPECT_EQ(D->Kind, SubgroupOpKind::Arithmetic);
  EXPECT_EQ(D->Combine, CombineKind::FAdd);
  EXPECT_EQ(D->GroupOp, GroupOpKind::ExclusiveScan);
  EXPECT_EQ(D->Value, 9u);
  auto Err = [&](Instruction I) {
    auto R = decodeSubgroupInstr(M, I, false);
    return R ? std::string() : llvm::toString(R.takeError());
  };
  EXPECT_EQ(Err(inst(spv::Op::OpGroupNonUniformShuffle, {3, 9})),
            "too few operands");
  EXPECT_EQ(Err(inst(spv::Op::OpGroupNonUniformElect, {})),
            "missing scope operand");
  EXPECT_EQ(Err(inst(spv::Op::OpGroupNonUniformIAdd, {3, 7, 9})),
            "unsupported: group operation 7");
  // ClusteredReduce needs a constant cluster size; id 10 is none.
  EXPECT_EQ(Err(inst(spv::Op::OpGroupNonUniformIAdd, {3, 3, 9, 10})),
            "cluster size must be a constant power of two");
  // A scope that is no constant is refused where the subgroup is needed.
  auto R = decodeSubgroupInstr(
      M, inst(spv::Op::OpGroupNonUniformAny, {3, 9}), true);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "unsupported: a scope other than Subgroup for group operations");
}

} // namespace
