//===- InvocationImage.cpp - Images and samplers, one invocation ----------===//
//
// The one-invocation back end's side of ImageInstr.h: image and sampler
// values are `ptr` handles (a sampled image is {ptr, ptr}); a
// UniformConstant variable is a binding whose pointers are symbolic
// (OpaqueRef, ImageInstr.h: the access chain's indices are read at the
// load); each image instruction is one s2l_image_op call. There are no quads here, so
// implicit-LOD sampling reads level 0 (plus the bias), as the SIMD back
// end does outside fragment shaders.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/DescriptorArrays.h"
#include "codegen/common/ImageInstr.h"
#include "codegen/invocation/InvocationEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"
#include "spirv2llvm/abi.h"

using namespace llvm;

namespace spirv2llvm::invocation {

using llvm::Constant;
using llvm::Type;

void InvocationEmitter::createOpaqueBindings(Value *&Sets) {
  createOpaqueRefs(
      B, M,
      [&] {
        if (!Sets)
          Sets = argField(4, B.getPtrTy(), "descriptor.sets");
        return Sets;
      },
      [&](uint32_t Id) { return llvmName(Id); }, Opaque);
}

bool InvocationEmitter::emitOpaqueMemory(const Instruction &I) {
  uint32_t Id = I.Result.value();
  const OpaqueRef &Base = Opaque.at(I.Operands[0]);
  MemoryOpKind Kind = opcodeInfo(I.Opcode).Memory;
  if (Kind == MemoryOpKind::AccessChain) {
    Expected<OpaqueRef> R = opaqueAccessChain(I, Base);
    if (!R)
      failAt(I, toString(R.takeError()));
    else
      Opaque[Id] = std::move(*R);
    return true;
  }
  if (Kind != MemoryOpKind::Load) {
    failAt(I, "unsupported: " + Twine(opName(I.Opcode)) +
                  " on an image or sampler variable");
    return true;
  }
  set(Id, loadOpaque(I, I.Operands[0]));
  return true;
}

Value *InvocationEmitter::loadOpaque(const Instruction &I, uint32_t Ptr) {
  const OpaqueRef &Base = Opaque.at(Ptr);
  Expected<TypeKind> Kind = opaqueHandleKind(M, Base);
  if (!Kind) {
    failAt(I, toString(Kind.takeError()));
    return ConstantPointerNull::get(B.getPtrTy());
  }
  SmallVector<Value *, 4> Indices;
  for (uint32_t X : Base.Indices)
    Indices.push_back(B.CreateSExtOrTrunc(get(X), B.getInt64Ty()));
  Expected<Value *> Data =
      opaqueElementData(B, M, Base, Indices, llvmName(Base.Var));
  if (!Data) {
    failAt(I, toString(Data.takeError()));
    return ConstantPointerNull::get(B.getPtrTy());
  }
  const spirv2llvm::Type *IT = imageTypeOf(M, Base.Var);
  bool TexelBuffer = IT && IT->ImageDim == 5;
  SmallVector<Value *, 2> H;
  loadImageHandles(B, *Data, *Kind, TexelBuffer, H);
  if (H.size() == 1)
    return H[0];
  Value *R = PoisonValue::get(StructType::get(Ctx, {B.getPtrTy(), B.getPtrTy()}));
  R = B.CreateInsertValue(R, H[0], 0);
  return B.CreateInsertValue(R, H[1], 1);
}

bool InvocationEmitter::emitImage(const Instruction &I) {
  uint32_t Id = I.Result.value();
  if (Error E = checkImageHandleOp(M, I)) {
    failAt(I, toString(std::move(E)));
    return true;
  }
  // The handle operations; the others call the runtime (ImageInstr.h).
  switch (opcodeInfo(I.Opcode).Image) {
  case ImageOpKind::SampledImage: {
    Value *R = PoisonValue::get(typeOf(I.ResultType));
    R = B.CreateInsertValue(R, get(I.Operands[0]), 0);
    set(Id, B.CreateInsertValue(R, get(I.Operands[1]), 1));
    return true;
  }
  case ImageOpKind::Image:
    set(Id, B.CreateExtractValue(get(I.Operands[0]), 0));
    return true;
  case ImageOpKind::TexelsResident:
    set(Id, B.CreateICmpEQ(get(I.Operands[0]), B.getInt32(0)));
    return true;
  case ImageOpKind::TexelPointer:
    return emitImageTexelPointer(I);
  case ImageOpKind::OpenClQuery:
    failAt(I, "unsupported: " + Twine(opName(I.Opcode)) +
                  " (OpenCL image queries)");
    return true;
  default:
    break;
  }
  Expected<ImageInstr> DE = decodeImageInstr(M, I);
  if (!DE) {
    failAt(I, toString(DE.takeError()));
    return true;
  }
  ImageInstr D = *DE;
  if (!ImageRT.Op)
    ImageRT = declareImageRuntime(*LM);
  Type *I32 = B.getInt32Ty(), *F32 = B.getFloatTy();
  // Component K of a scalar or vector value, or null.
  auto Comp = [&](uint32_t Id, unsigned K) -> Value * {
    if (!Id)
      return nullptr;
    Value *V = get(Id);
    if (auto *VT = dyn_cast<FixedVectorType>(V->getType()))
      return K < VT->getNumElements() ? B.CreateExtractElement(V, K) : nullptr;
    if (auto *AT = dyn_cast<ArrayType>(V->getType())) {
      // ConstOffsets: [4 x <2 x i32>], flattened.
      unsigned Inner = 2;
      if (K / Inner >= AT->getNumElements())
        return nullptr;
      return B.CreateExtractElement(B.CreateExtractValue(V, K / Inner),
                                    K % Inner);
    }
    return K == 0 ? V : nullptr;
  };
  ImageLaneOperands L;
  Value *Handle = get(D.Image);
  if (D.HasSampler) {
    L.Image = B.CreateExtractValue(Handle, 0);
    L.Sampler = B.CreateExtractValue(Handle, 1);
  } else {
    L.Image = Handle;
  }
  for (unsigned K = 0; K < D.CoordComps && K < 4; ++K)
    L.Coord[K] = Comp(D.Coord, K);
  if (D.Subpass) {
    // The coordinate is an offset from the fragment's pixel, FragCoord.xy
    // truncated (saturating: any input bits give a coordinate the
    // runtime checks, not poison).
    Expected<const InterfaceVariable *> FC = fragCoordInput(EP, Layout);
    if (!FC) {
      failAt(I, toString(FC.takeError()));
      return true;
    }
    Value *Inputs = argField(2, B.getPtrTy(), "inputs");
    for (unsigned K = 0; K < 2; ++K) {
      Value *Pos = B.CreateAlignedLoad(
          F32,
          B.CreateConstInBoundsGEP1_32(B.getInt8Ty(), Inputs,
                                       (*FC)->ComponentOffsets[K]),
          Align(4));
      Pos = B.CreateIntrinsic(Intrinsic::fptosi_sat, {I32, F32}, {Pos},
                              nullptr, K ? "frag.y" : "frag.x");
      L.Coord[K] = B.CreateAdd(Pos, B.CreateSExtOrTrunc(L.Coord[K], I32),
                               "subpass.coord");
    }
  }
  L.Dref = Comp(D.Dref, 0);
  if (D.Proj) {
    Value *Q = Comp(D.Coord, D.CoordComps);
    for (unsigned K = 0; K < D.CoordComps && K < 4; ++K)
      L.Coord[K] = B.CreateFDiv(L.Coord[K], Q);
    if (L.Dref)
      L.Dref = B.CreateFDiv(L.Dref, Q);
  }
  L.Bias = Comp(D.Bias, 0);
  L.Lod = Comp(D.Lod, 0);
  ImageInstr Call = D;
  if (D.ImplicitLod) {
    // No quads, no derivatives: level 0.
    L.Lod = ConstantFP::get(F32, 0.0);
    Call.Flags |= S2L_IMAGE_HAS_LOD;
  }
  L.MinLod = Comp(D.MinLod, 0);
  L.Sample = Comp(D.Sample, 0);
  for (unsigned K = 0; K < 3; ++K) {
    L.GradX[K] = Comp(D.GradX, K);
    L.GradY[K] = Comp(D.GradY, K);
    L.Offset[K] = Comp(D.Offset, K);
  }
  for (unsigned K = 0; K < 8; ++K)
    L.Offsets[K] = Comp(D.Offsets, K);
  for (unsigned K = 0; K < 4; ++K)
    L.Texel[K] = Comp(D.Texel, K);
  if (D.Component)
    L.Component = uint32_t(M.findConstant(D.Component)->scalarBits());

  IRBuilder<> AB(EntryBB, EntryBB->getFirstNonPHIOrDbgOrAlloca());
  Value *Ops = AB.CreateAlloca(ImageRT.OperandsTy, nullptr, "image.ops");
  Value *Result = AB.CreateAlloca(ArrayType::get(I32, 4), nullptr,
                                  "image.result");
  Value *Code = emitImageOpCall(B, ImageRT, Call, L, Ops, Result);
  if (D.Write)
    return true;
  Type *CompTy = D.ResultFloat ? F32 : I32;
  Value *Texel = nullptr;
  auto Part = [&](unsigned C) {
    Value *X = B.CreateLoad(
        I32, B.CreateConstInBoundsGEP2_32(ArrayType::get(I32, 4), Result, 0,
                                          C));
    return D.ResultFloat ? B.CreateBitCast(X, F32) : X;
  };
  if (D.ResultComps == 1) {
    Texel = Part(0);
  } else {
    Texel = PoisonValue::get(FixedVectorType::get(CompTy, D.ResultComps));
    for (unsigned C = 0; C < D.ResultComps; ++C)
      Texel = B.CreateInsertElement(Texel, Part(C), C);
  }
  Type *RT = typeOf(I.ResultType);
  if (D.Sparse) {
    Value *R = PoisonValue::get(RT);
    R = B.CreateInsertValue(R, Code, 0);
    Texel = B.CreateInsertValue(R, Texel, 1);
  } else if (Texel->getType() != RT) {
    // Signedness only: LLVM integers have none.
    failAt(I, "image result type does not match the texel");
    return true;
  }
  set(Id, Texel);
  return true;
}

bool InvocationEmitter::emitImageTexelPointer(const Instruction &I) {
  uint32_t Id = I.Result.value();
  auto It = Opaque.find(I.Operands[0]);
  const spirv2llvm::Type *IT = imageTypeOf(M, I.Operands[0]);
  if (It == Opaque.end() || !IT) {
    failAt(I, "OpImageTexelPointer needs a pointer to an image variable");
    return true;
  }
  if (!ImageRT.Op)
    ImageRT = declareImageRuntime(*LM);
  Value *Image = loadOpaque(I, I.Operands[0]);
  Type *I32 = B.getInt32Ty();
  IRBuilder<> AB(EntryBB, EntryBB->getFirstNonPHIOrDbgOrAlloca());
  Type *CoordTy = ArrayType::get(I32, 4);
  Value *Coords = AB.CreateAlloca(CoordTy, nullptr, "texel.coord");
  Value *Scratch = AB.CreateAlloca(B.getInt64Ty(), nullptr, "texel.scratch");
  B.CreateStore(Constant::getNullValue(CoordTy), Coords);
  Value *C = get(I.Operands[1]);
  unsigned N = isa<FixedVectorType>(C->getType())
                   ? cast<FixedVectorType>(C->getType())->getNumElements()
                   : 1;
  for (unsigned K = 0; K < N && K < 4; ++K)
    B.CreateStore(
        B.CreateSExtOrTrunc(N == 1 ? C : B.CreateExtractElement(C, K), I32),
        B.CreateConstInBoundsGEP2_32(CoordTy, Coords, 0, K));
  Value *P = B.CreateCall(
      ImageRT.TexelPointer,
      {Image, Coords, B.getInt32(IT->ImageDim), B.getInt32(IT->ImageArrayed),
       B.CreateSExtOrTrunc(get(I.Operands[2]), I32), Scratch});
  InvPointer Ptr;
  Ptr.Pointee = M.type(M.typeOf(Id)).Element;
  Ptr.Storage = spv::StorageClass::Image;
  Ptr.Explicit = true;
  Ptr.Addr = P;
  Ptr.Offset = B.getInt64(0);
  Pointers[Id] = Ptr;
  return true;
}

} // namespace spirv2llvm::invocation
