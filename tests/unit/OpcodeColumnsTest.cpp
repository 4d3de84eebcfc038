//===- OpcodeColumnsTest.cpp - The opcode table's value columns -----------===//
//
// The emitters compute values from the opcode table's columns instead of
// switching over opcodes (issue 15). These tests tie the table to the code
// that reads it: every GLSL.std.450 instruction has a form, the
// component-wise form is exactly what GlslComponentWise.cpp implements, and
// the component-wise builders produce the LLVM operation the table names.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ComponentOps.h"
#include "codegen/common/GlslComponentWise.h"
#include "parser/OpcodeTable.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <gtest/gtest.h>

using namespace spirv2llvm;

namespace {

struct Builder {
  llvm::LLVMContext Ctx;
  llvm::Module M{"t", Ctx};
  llvm::Function *F = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(Ctx),
                              {llvm::Type::getInt32Ty(Ctx),
                               llvm::Type::getInt32Ty(Ctx),
                               llvm::Type::getFloatTy(Ctx)},
                              false),
      llvm::Function::ExternalLinkage, "f", M);
  llvm::IRBuilder<> B{llvm::BasicBlock::Create(Ctx, "entry", F)};
  llvm::Value *arg(unsigned K) { return F->getArg(K); }
};

TEST(OpcodeColumns, EveryGlslInstructionHasAFormAndComponentWiseIsImplemented) {
  Builder T;
  MathBuilder MB(T.B, T.M);
  for (uint32_t Inst = 0; Inst < GLSLstd450Count; ++Inst) {
    const GlslStd450Info &Info = glslStd450Info(Inst);
    // Numbers that are not instructions, and the reserved IMix, have none.
    EXPECT_EQ(Info.OperandCount == 0, Info.Form == GlslFormKind::None)
        << "GLSL.std.450 " << Inst;
    bool Mapped = bool(glslComponentOp(T.B, MB, Inst).Map);
    EXPECT_EQ(Mapped, Info.Form == GlslFormKind::ComponentWise)
        << "GLSL.std.450 " << Inst;
  }
  EXPECT_EQ(glslStd450Info(GLSLstd450IMix).Form, GlslFormKind::None);
  EXPECT_EQ(glslStd450Info(GLSLstd450Count + 7).Form, GlslFormKind::None);
}

TEST(OpcodeColumns, PackingComesFromTheTable) {
  std::optional<GlslPacking> P = glslPacking(GLSLstd450UnpackSnorm2x16);
  ASSERT_TRUE(P);
  EXPECT_FALSE(P->Pack);
  EXPECT_EQ(P->Count, 2u);
  EXPECT_EQ(P->Bits, 16u);
  EXPECT_TRUE(P->Snorm);
  EXPECT_FALSE(P->Half);
  P = glslPacking(GLSLstd450PackHalf2x16);
  ASSERT_TRUE(P);
  EXPECT_TRUE(P->Pack);
  EXPECT_TRUE(P->Half);
  P = glslPacking(GLSLstd450PackUnorm4x8);
  ASSERT_TRUE(P);
  EXPECT_EQ(P->Count, 4u);
  EXPECT_EQ(P->Bits, 8u);
  EXPECT_FALSE(P->Snorm);
  EXPECT_FALSE(glslPacking(GLSLstd450PackDouble2x32));
  EXPECT_FALSE(glslPacking(GLSLstd450Sin));
}

TEST(OpcodeColumns, BinaryOpcodesBuildTheNamedOperation) {
  Builder T;
  // Plain operators: the LLVM instruction the Bin column names.
  auto *Sub = llvm::dyn_cast<llvm::BinaryOperator>(
      emitComponentBinary(T.B, spv::Op::OpISub, T.arg(0), T.arg(1)));
  ASSERT_TRUE(Sub);
  EXPECT_EQ(Sub->getOpcode(), llvm::Instruction::Sub);
  // Comparisons: the predicate of the Cmp column.
  auto *Cmp = llvm::dyn_cast<llvm::ICmpInst>(
      emitComponentBinary(T.B, spv::Op::OpSLessThanEqual, T.arg(0), T.arg(1)));
  ASSERT_TRUE(Cmp);
  EXPECT_EQ(Cmp->getPredicate(), llvm::CmpInst::ICMP_SLE);
  // Guarded division: the divisor is a select, never the raw operand.
  auto *Div = llvm::dyn_cast<llvm::BinaryOperator>(
      emitComponentBinary(T.B, spv::Op::OpUDiv, T.arg(0), T.arg(1)));
  ASSERT_TRUE(Div);
  EXPECT_EQ(Div->getOpcode(), llvm::Instruction::UDiv);
  EXPECT_TRUE(llvm::isa<llvm::SelectInst>(Div->getOperand(1)));
  // Shifts mask the amount.
  auto *Shl = llvm::dyn_cast<llvm::BinaryOperator>(
      emitComponentBinary(T.B, spv::Op::OpShiftLeftLogical, T.arg(0),
                          T.arg(1)));
  ASSERT_TRUE(Shl);
  EXPECT_EQ(Shl->getOpcode(), llvm::Instruction::Shl);
  EXPECT_NE(Shl->getOperand(1), T.arg(1));
  // SMod ends in the select that gives the result the divisor's sign.
  EXPECT_TRUE(llvm::isa<llvm::SelectInst>(
      emitComponentBinary(T.B, spv::Op::OpSMod, T.arg(0), T.arg(1))));
  EXPECT_EQ(emitComponentBinary(T.B, spv::Op::OpDot, T.arg(0), T.arg(1)),
            nullptr);
}

TEST(OpcodeColumns, UnaryOpcodesBuildTheNamedConversion) {
  Builder T;
  llvm::Type *I16 = T.B.getInt16Ty(), *I64 = T.B.getInt64Ty();
  // Extensions truncate to a narrower result.
  auto *Trunc = llvm::dyn_cast<llvm::TruncInst>(
      emitComponentUnary(T.B, spv::Op::OpSConvert, T.arg(0), I16));
  EXPECT_TRUE(Trunc);
  auto *SExt = llvm::dyn_cast<llvm::SExtInst>(
      emitComponentUnary(T.B, spv::Op::OpSConvert, T.arg(0), I64));
  EXPECT_TRUE(SExt);
  // A conversion to the operand's own type is the operand.
  EXPECT_EQ(emitComponentUnary(T.B, spv::Op::OpUConvert, T.arg(0),
                               T.arg(0)->getType()),
            T.arg(0));
  // Float to integer saturates.
  auto *Sat = llvm::dyn_cast<llvm::IntrinsicInst>(emitComponentUnary(
      T.B, spv::Op::OpConvertFToS, T.arg(2), T.B.getInt32Ty()));
  ASSERT_TRUE(Sat);
  EXPECT_EQ(Sat->getIntrinsicID(), llvm::Intrinsic::fptosi_sat);
  // A bitcast keeps its width-changing meaning (never a truncation).
  auto *Cast = llvm::dyn_cast<llvm::BitCastInst>(emitComponentUnary(
      T.B, spv::Op::OpBitcast, T.arg(2), T.B.getInt32Ty()));
  EXPECT_TRUE(Cast);
  EXPECT_EQ(emitComponentUnary(T.B, spv::Op::OpCopyLogical, T.arg(1),
                               T.arg(1)->getType()),
            T.arg(1));
}

} // namespace
