// The C++ API of the DXIL passes (include/spirv2llvm/Passes.h): the fixed
// pipelines of runDxilPipeline and the pass names of registerDxilPasses.
#include "spirv2llvm/Passes.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace llvm;

namespace {

// A compute-style kernel: groupshared vec3 array, a 2-D local array of
// vectors indexed dynamically, vector math.
const char *Kernel = R"(
@shared = internal addrspace(3) global [4 x <3 x float>] zeroinitializer, align 16
define void @main(i32 %tid, ptr %out) {
  %loc = alloca [2 x [2 x <4 x float>]], align 16
  %p = getelementptr [4 x <3 x float>], ptr addrspace(3) @shared, i32 0, i32 %tid
  %v = load <3 x float>, ptr addrspace(3) %p, align 16
  %s = call <3 x float> @llvm.sin.v3f32(<3 x float> %v)
  store <3 x float> %s, ptr addrspace(3) %p, align 16
  %w = shufflevector <3 x float> %s, <3 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 0>
  %q = getelementptr [2 x [2 x <4 x float>]], ptr %loc, i32 0, i32 %tid, i32 1
  store <4 x float> %w, ptr %q, align 16
  %r = load <4 x float>, ptr %q, align 16
  %m = call <4 x float> @llvm.maxnum.v4f32(<4 x float> %r, <4 x float> zeroinitializer)
  store <4 x float> %m, ptr %out, align 16
  ret void
}
declare <3 x float> @llvm.sin.v3f32(<3 x float>)
declare <4 x float> @llvm.maxnum.v4f32(<4 x float>, <4 x float>)
)";

std::unique_ptr<Module> parse(LLVMContext &Ctx, const char *Src) {
  SMDiagnostic Err;
  auto M = parseAssemblyString(Src, Err, Ctx);
  EXPECT_TRUE(M) << Err.getMessage().str();
  return M;
}

bool mentionsVector(Type *T) {
  if (T->isVectorTy())
    return true;
  for (Type *S : T->subtypes())
    if (mentionsVector(S))
      return true;
  return false;
}

/// Instructions of F whose type, operand types or GEP source type mention
/// vectors.
unsigned vectorInstructions(Function &F) {
  unsigned N = 0;
  for (Instruction &I : instructions(F)) {
    bool V = mentionsVector(I.getType());
    for (Value *Op : I.operands())
      V |= mentionsVector(Op->getType());
    if (auto *GEP = dyn_cast<GetElementPtrInst>(&I))
      V |= mentionsVector(GEP->getSourceElementType());
    N += V;
  }
  return N;
}

unsigned callsTo(Module &M, StringRef Prefix) {
  unsigned N = 0;
  for (Function &F : M)
    if (F.getName().starts_with(Prefix))
      N += F.getNumUses();
  return N;
}

TEST(DxilPasses, ScalarPipelineLeavesNoVectorInstruction) {
  LLVMContext Ctx;
  auto M = parse(Ctx, Kernel);
  ASSERT_GT(vectorInstructions(*M->getFunction("main")), 0u);
  spirv2llvm::runDxilPipeline(*M, spirv2llvm::DxilPipeline::Scalar);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  EXPECT_EQ(vectorInstructions(*M->getFunction("main")), 0u);
  EXPECT_EQ(callsTo(*M, "dx.op."), 0u); // lowering is not part of Scalar
  // No vector type anywhere: the groupshared array is [4 x [3 x float]]
  // (not flattened: that is the DXIL pipeline's), and the vector overloads
  // of sin and maxnum are no longer declared.
  GlobalVariable *Shared = M->getGlobalVariable("shared", true);
  ASSERT_TRUE(Shared);
  EXPECT_FALSE(mentionsVector(Shared->getValueType()));
  EXPECT_TRUE(Shared->getValueType()->getArrayElementType()->isArrayTy());
  for (Function &F : *M)
    EXPECT_FALSE(mentionsVector(F.getFunctionType())) << F.getName().str();
}

TEST(DxilPasses, DxilPipelineScalarizesDataAndLowersOps) {
  LLVMContext Ctx;
  auto M = parse(Ctx, Kernel);
  spirv2llvm::runDxilPipeline(*M, spirv2llvm::DxilPipeline::Dxil);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  EXPECT_EQ(vectorInstructions(*M->getFunction("main")), 0u);
  GlobalVariable *Shared = M->getGlobalVariable("shared", true);
  ASSERT_TRUE(Shared);
  auto *AT = dyn_cast<ArrayType>(Shared->getValueType());
  ASSERT_TRUE(AT);
  EXPECT_EQ(AT->getNumElements(), 12u); // [4 x <3 x float>] -> [12 x float]
  EXPECT_TRUE(AT->getElementType()->isFloatTy());
  EXPECT_EQ(Shared->getAddressSpace(), 3u);
  EXPECT_EQ(callsTo(*M, "dx.op.unary.f32"), 3u);  // sin per element
  EXPECT_EQ(callsTo(*M, "dx.op.binary.f32"), 4u); // fmax per element
  EXPECT_EQ(callsTo(*M, "llvm.sin"), 0u);
}

TEST(DxilPasses, NativeVectorPipelineKeepsVectors) {
  LLVMContext Ctx;
  auto M = parse(Ctx, Kernel);
  spirv2llvm::runDxilPipeline(*M, spirv2llvm::DxilPipeline::DxilNativeVectors);
  EXPECT_FALSE(verifyModule(*M, &errs()));
  GlobalVariable *Shared = M->getGlobalVariable("shared", true);
  ASSERT_TRUE(Shared);
  EXPECT_TRUE(Shared->getValueType()->getArrayElementType()->isVectorTy());
  EXPECT_EQ(callsTo(*M, "dx.op.unary.v3f32"), 1u);
  EXPECT_EQ(callsTo(*M, "dx.op.binary.v4f32"), 1u);
  // The 2-D local array of vectors is flattened to [4 x <4 x float>].
  bool Flat = false;
  for (Instruction &I : instructions(*M->getFunction("main")))
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      Flat |= AI->getAllocatedType()->isArrayTy() &&
              AI->getAllocatedType()->getArrayNumElements() == 4 &&
              AI->getAllocatedType()->getArrayElementType()->isVectorTy();
  EXPECT_TRUE(Flat);
}

TEST(DxilPasses, RegisteredNamesParse) {
  PassBuilder PB;
  spirv2llvm::registerDxilPasses(PB);
  ModulePassManager MPM;
  EXPECT_FALSE(errorToBool(PB.parsePassPipeline(
      MPM, "dxil-data-scalarization,dxil-flatten-arrays,function(dxil-"
           "scalarizer),dxil-scalarize-signatures,dxil-op-lower,dxil-native-"
           "vectors,dxil-op-lower<vectors>")));
  for (auto P : {spirv2llvm::DxilPipeline::Scalar, spirv2llvm::DxilPipeline::Dxil,
                 spirv2llvm::DxilPipeline::DxilData,
                 spirv2llvm::DxilPipeline::DxilNativeVectors})
    EXPECT_FALSE(errorToBool(
        PB.parsePassPipeline(MPM, spirv2llvm::dxilPipelineText(P))))
        << spirv2llvm::dxilPipelineText(P);
  EXPECT_TRUE(errorToBool(PB.parsePassPipeline(MPM, "dxil-no-such-pass")));
}

} // namespace
