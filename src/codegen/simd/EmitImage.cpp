//===- EmitImage.cpp - Images and samplers in the SIMD back end -----------===//
//
// Handles: an image or sampler value is the address of its s2l_image /
// s2l_sampler as a 64-bit integer component, a sampled image two of them
// (ImageInstr.h). A UniformConstant variable of such a type is a binding:
// loading it reads descriptor_sets[set][binding].data; an element of an
// array of them is picked like an element of an array of blocks
// (DescriptorArrays.h: out of range gives null handles, which read zero).
// Its pointers are symbolic (OpaqueRef): the access chain's indices are
// read when the pointer is loaded, so a load in another block than its
// access chain needs nothing special.
//
// Instructions: one s2l_image_op call per active lane, in a loop over the
// lanes (the operands' lane is an extractelement; one copy of the call
// whatever W is). Implicit-LOD sampling in fragment shaders passes the
// coordinate's derivatives over the 2x2 quad as gradients, the way
// EmitDerivative.cpp computes OpDPdx/OpDPdy (fine); other stages have no
// quads and sample level 0 (plus the bias). Writes run for the lanes of
// the store mask only (not helpers, not demoted lanes); an instruction
// whose operands are all uniform runs once.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/DescriptorArrays.h"
#include "codegen/common/ImageInstr.h"
#include "codegen/simd/ImageDescriptors.h"
#include "codegen/simd/SimdEmitter.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"
#include "spirv2llvm/abi.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Type;

bool SimdEmitter::isOpaqueRef(uint32_t Ptr) const {
  return FS.OpaqueRefs.count(Ptr) != 0;
}

void SimdEmitter::createOpaqueBindings(Value *&Sets) {
  createOpaqueRefs(
      B, M,
      [&] {
        if (!Sets)
          Sets = argField(4, B.getPtrTy(), "descriptor.sets");
        return Sets;
      },
      [&](uint32_t Id) { return llvmName(Id); }, FS.OpaqueRefs);
}

bool SimdEmitter::emitOpaqueMemory(const Instruction &I) {
  uint32_t Id = I.Result.value();
  const OpaqueRef &Base = FS.OpaqueRefs.at(I.Operands[0]);
  MemoryOpKind Kind = opcodeInfo(I.Opcode).Memory;
  if (Kind == MemoryOpKind::AccessChain) {
    Expected<OpaqueRef> R = opaqueAccessChain(I, Base);
    if (!R)
      failAt(I, toString(R.takeError()));
    else
      FS.OpaqueRefs[Id] = std::move(*R);
    return true;
  }
  if (Kind != MemoryOpKind::Load) {
    failAt(I, "unsupported: " + Twine(opName(I.Opcode)) +
                  " on an image or sampler variable");
    return true;
  }
  LaneValue R = loadOpaque(I, I.Operands[0]);
  set(Id, coerce(std::move(R), isVarying(Id) || R.Varying));
  return true;
}

LaneValue SimdEmitter::loadOpaque(const Instruction &I, uint32_t Ptr) {
  const OpaqueRef &Base = FS.OpaqueRefs.at(Ptr);
  LaneValue R;
  Type *I64 = B.getInt64Ty();
  Expected<TypeKind> KindOr = opaqueHandleKind(M, Base);
  if (!KindOr) {
    failAt(I, toString(KindOr.takeError()));
    R.Comps.assign(2, B.getInt64(0));
    return R;
  }
  TypeKind Kind = *KindOr;
  const spirv2llvm::Type *IT = imageTypeOf(M, Base.Var);
  bool TexelBuffer = IT && IT->ImageDim == 5;
  auto Handles = [&](Value *Data) {
    SmallVector<Value *, 2> H;
    loadImageHandles(B, Data, Kind, TexelBuffer, H);
    for (Value *&X : H)
      X = B.CreatePtrToInt(X, I64);
    return H;
  };
  bool Varying = false;
  for (uint32_t X : Base.Indices)
    Varying |= get(X).Comps[0]->getType()->isVectorTy();
  // The descriptor data of one lane's element (all lanes' when uniform).
  auto Element = [&](unsigned Lane) -> Value * {
    SmallVector<Value *, 4> Indices;
    for (uint32_t X : Base.Indices) {
      Value *V = get(X).Comps[0];
      if (V->getType()->isVectorTy())
        V = B.CreateExtractElement(V, Lane);
      // Signed: a negative index is out of range, not a huge one.
      Indices.push_back(B.CreateSExtOrTrunc(V, I64));
    }
    Expected<Value *> D =
        opaqueElementData(B, M, Base, Indices, llvmName(Base.Var));
    if (!D) {
      failAt(I, toString(D.takeError()));
      return ConstantPointerNull::get(B.getPtrTy());
    }
    return *D;
  };
  if (!Varying) {
    for (Value *H : Handles(Element(0)))
      R.Comps.push_back(H);
    return R;
  }
  // Non-uniform index: each lane's element (every lane: the loads are of
  // the descriptor table only, and out-of-range lanes give null).
  R.Varying = true;
  for (unsigned L = 0; L < W; ++L) {
    SmallVector<Value *, 2> H = Handles(Element(L));
    if (R.Comps.empty())
      R.Comps.assign(H.size(), PoisonValue::get(FixedVectorType::get(I64, W)));
    for (size_t C = 0; C < H.size(); ++C)
      R.Comps[C] = B.CreateInsertElement(R.Comps[C], H[C], L);
  }
  return R;
}

void SimdEmitter::forEachLane(Value *Mask,
                              function_ref<void(Value *Lane)> Body) {
  Type *I32 = B.getInt32Ty();
  Value *Bits = B.CreateZExt(B.CreateBitCast(Mask, B.getIntNTy(W)),
                             B.getInt64Ty());
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "lanes", LF);
  BasicBlock *Do = BasicBlock::Create(Ctx, "lanes.do", LF);
  BasicBlock *Latch = BasicBlock::Create(Ctx, "lanes.next", LF);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "lanes.done", LF);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *Lane = B.CreatePHI(I32, 2, "lane");
  Lane->addIncoming(B.getInt32(0), Pre);
  Value *On = B.CreateTrunc(
      B.CreateLShr(Bits, B.CreateZExt(Lane, B.getInt64Ty())), B.getInt1Ty());
  B.CreateCondBr(On, Do, Latch);
  B.SetInsertPoint(Do);
  Body(Lane);
  B.CreateBr(Latch);
  B.SetInsertPoint(Latch);
  Value *Next = B.CreateAdd(Lane, B.getInt32(1));
  Lane->addIncoming(Next, Latch);
  B.CreateCondBr(B.CreateICmpULT(Next, B.getInt32(W)), Loop, Exit);
  B.SetInsertPoint(Exit);
}

namespace {

/// Lane \p Lane of component \p C of \p V (uniform values are scalars).
Value *laneOf(IRBuilder<> &B, const LaneValue &V, size_t C, Value *Lane) {
  if (C >= V.Comps.size())
    return nullptr;
  Value *X = V.Comps[C];
  return X->getType()->isVectorTy() ? B.CreateExtractElement(X, Lane) : X;
}

/// The result of an image instruction whose lanes left their texels (and
/// residency codes, at index 4) in \p All ([5 x [W x i32]]): residency
/// first for sparse forms, then the texel. Without \p AnyVarying only the
/// lowest lane of \p Mask ran; \p Varying: the result is per lane.
LaneValue readImageLanes(IRBuilder<> &B, unsigned W, AllocaInst *All,
                         const ImageInstr &D, Value *Mask, bool AnyVarying,
                         bool Varying) {
  Type *I32 = B.getInt32Ty(), *F32 = B.getFloatTy();
  auto Result = [&](unsigned C, Type *T) -> Value * {
    Value *V = B.CreateAlignedLoad(
        FixedVectorType::get(I32, W),
        B.CreateConstInBoundsGEP2_32(All->getAllocatedType(), All, 0, C),
        Align(4));
    if (T != I32)
      V = B.CreateBitCast(V, FixedVectorType::get(T, W));
    if (!Varying)
      return B.CreateExtractElement(V, uint64_t(0));
    return V;
  };
  LaneValue R;
  R.Varying = Varying;
  if (!AnyVarying) {
    // Which lane ran: the lowest of the mask.
    Value *Bits = B.CreateBitCast(Mask, B.getIntNTy(W));
    Value *Lane = B.CreateZExtOrTrunc(
        B.CreateBinaryIntrinsic(Intrinsic::cttz, Bits, B.getTrue()), I32);
    auto Pick = [&](unsigned C, Type *T) -> Value * {
      Value *V = B.CreateLoad(
          I32, B.CreateInBoundsGEP(All->getAllocatedType(), All,
                                   {B.getInt32(0), B.getInt32(C), Lane}));
      if (T != I32)
        V = B.CreateBitCast(V, T);
      return Varying ? B.CreateVectorSplat(W, V) : V;
    };
    if (D.Sparse)
      R.Comps.push_back(Pick(4, I32));
    for (unsigned C = 0; C < D.ResultComps; ++C)
      R.Comps.push_back(Pick(C, D.ResultFloat ? F32 : I32));
  } else {
    if (D.Sparse)
      R.Comps.push_back(Result(4, I32));
    for (unsigned C = 0; C < D.ResultComps; ++C)
      R.Comps.push_back(Result(C, D.ResultFloat ? F32 : I32));
  }
  return R;
}

} // namespace

bool SimdEmitter::emitImageHandleOp(const Instruction &I) {
  uint32_t Id = I.Result.value();
  // The handle operations; the others call the runtime (ImageInstr.h).
  switch (opcodeInfo(I.Opcode).Image) {
  case ImageOpKind::SampledImage: {
    LaneValue Im = get(I.Operands[0]), Sm = get(I.Operands[1]);
    bool V = Im.Varying || Sm.Varying;
    Im = coerce(std::move(Im), V);
    Sm = coerce(std::move(Sm), V);
    LaneValue R;
    R.Varying = V;
    R.Comps = {Im.Comps[0], Sm.Comps[0]};
    set(Id, coerce(std::move(R), isVarying(Id) || V));
    return true;
  }
  case ImageOpKind::Image: {
    LaneValue S = get(I.Operands[0]);
    S.Comps.resize(1);
    set(Id, coerce(std::move(S), isVarying(Id) || S.Varying));
    return true;
  }
  case ImageOpKind::TexelsResident: {
    LaneValue C = get(I.Operands[0]);
    LaneValue R;
    R.Varying = C.Varying;
    R.Comps.push_back(
        B.CreateICmpEQ(C.Comps[0], Constant::getNullValue(C.Comps[0]->getType())));
    set(Id, coerce(std::move(R), isVarying(Id) || R.Varying));
    return true;
  }
  case ImageOpKind::TexelPointer:
    return emitImageTexelPointer(I);
  case ImageOpKind::OpenClQuery:
    failAt(I, "unsupported: " + Twine(opName(I.Opcode)) +
                  " (OpenCL image queries)");
    return true;
  default:
    return false;
  }
}

bool SimdEmitter::emitImage(const Instruction &I) {
  uint32_t Id = I.Result.value();
  if (Error E = checkImageHandleOp(M, I)) {
    failAt(I, toString(std::move(E)));
    return true;
  }
  if (emitImageHandleOp(I))
    return true;
  Expected<ImageInstr> DE = decodeImageInstr(M, I);
  if (!DE) {
    failAt(I, toString(DE.takeError()));
    return true;
  }
  ImageInstr D = *DE;
  if (emitInlineStorageAccess(I, D))
    return true;
  if (!ImageRT.Op)
    ImageRT = declareImageRuntime(*LM);
  Type *I32 = B.getInt32Ty(), *F32 = B.getFloatTy();

  LaneValue Handle = get(D.Image);
  LaneValue Coord = D.Coord ? get(D.Coord) : LaneValue();
  LaneValue Dref = D.Dref ? get(D.Dref) : LaneValue();
  // The values must have the components their types promise (decode
  // checked the types); anything else is malformed input.
  if (Handle.Comps.size() < (D.HasSampler ? 2u : 1u) ||
      Coord.Comps.size() < D.CoordComps + (D.Proj ? 1u : 0u) ||
      (D.Dref && Dref.Comps.empty())) {
    failAt(I, "malformed image operands");
    return true;
  }
  if (D.Subpass && !addSubpassPosition(I, Coord))
    return true;
  // Proj: the coordinates (and Dref) divided by q, the component after
  // them.
  if (D.Proj) {
    Value *Q = Coord.Comps[D.CoordComps];
    for (unsigned K = 0; K < D.CoordComps; ++K) {
      bool V = Coord.Comps[K]->getType()->isVectorTy() ||
               Q->getType()->isVectorTy();
      Coord.Comps[K] = B.CreateFDiv(V ? splat(Coord.Comps[K]) : Coord.Comps[K],
                                    V ? splat(Q) : Q);
    }
    if (D.Dref) {
      bool V = Dref.Comps[0]->getType()->isVectorTy() ||
               Q->getType()->isVectorTy();
      Dref.Comps[0] = B.CreateFDiv(V ? splat(Dref.Comps[0]) : Dref.Comps[0],
                                   V ? splat(Q) : Q);
    }
  }
  // 2D RGBA8 samples and fetches in vectors when the bound descriptors
  // allow (EmitInlineSample.cpp); the call below is then the fallback.
  InlineSample Fast = D.Op == S2L_IMAGE_OP_FETCH
                           ? emitInlineFetch(D, Handle, Coord)
                           : emitInlineSample(D, Handle, Coord);
  LaneValue GradX, GradY;
  uint32_t Flags = D.Flags;
  Value *ImplicitLod = nullptr;
  if (D.ImplicitLod) {
    if (EP.Model == spv::ExecutionModel::Fragment) {
      // Fine derivatives within each 2x2 quad (EmitDerivative.cpp).
      auto Diff = [&](Value *V, unsigned Bit) -> Value * {
        if (!V->getType()->isVectorTy())
          return ConstantFP::get(V->getType(), 0.0);
        SmallVector<int, 16> Hi, Lo;
        for (unsigned L = 0; L < W; ++L) {
          Hi.push_back(int(L | Bit));
          Lo.push_back(int(L & ~Bit));
        }
        return B.CreateFSub(B.CreateShuffleVector(V, Hi),
                            B.CreateShuffleVector(V, Lo));
      };
      for (unsigned K = 0; K < D.GradComps; ++K) {
        GradX.Comps.push_back(Diff(Coord.Comps[K], 1));
        GradY.Comps.push_back(Diff(Coord.Comps[K], 2));
      }
      Flags |= S2L_IMAGE_HAS_GRAD;
    } else {
      // No quads: level 0 (Vulkan gives implicit LOD only to fragment
      // shaders and derivative groups).
      ImplicitLod = ConstantFP::get(F32, 0.0);
      Flags |= S2L_IMAGE_HAS_LOD;
    }
  } else if (D.GradX) {
    GradX = get(D.GradX);
    GradY = get(D.GradY);
  }
  LaneValue Bias = D.Bias ? get(D.Bias) : LaneValue();
  LaneValue Lod = D.Lod ? get(D.Lod) : LaneValue();
  LaneValue MinLod = D.MinLod ? get(D.MinLod) : LaneValue();
  LaneValue Sample = D.Sample ? get(D.Sample) : LaneValue();
  LaneValue Offset = D.Offset ? get(D.Offset) : LaneValue();
  LaneValue Offsets = D.Offsets ? get(D.Offsets) : LaneValue();
  LaneValue Texel = D.Texel ? get(D.Texel) : LaneValue();
  uint32_t Component = 0;
  if (D.Component)
    Component = uint32_t(M.findConstant(D.Component)->scalarBits());

  // Run once when every operand is uniform.
  bool AnyVarying = false;
  for (const LaneValue *V : {&Handle, &Coord, &Dref, &GradX, &GradY, &Bias,
                             &Lod, &MinLod, &Sample, &Offset, &Offsets,
                             &Texel})
    for (Value *C : V->Comps)
      AnyVarying |= C->getType()->isVectorTy();
  Value *Mask = D.Write ? storeMask() : FS.CurMask;
  if (!AnyVarying) {
    // The lowest lane of the mask only.
    Value *Bits = B.CreateBitCast(Mask, B.getIntNTy(W));
    Mask = B.CreateBitCast(B.CreateAnd(Bits, B.CreateNeg(Bits)), maskType());
  }

  Type *LanesTy = ArrayType::get(I32, W);
  AllocaInst *Ops = createSlot(ImageRT.OperandsTy, "image.ops");
  AllocaInst *One = createSlot(ArrayType::get(I32, 4), "image.result");
  AllocaInst *All = D.Write ? nullptr
                            : createSlot(ArrayType::get(LanesTy, 5),
                                         "image.lanes");
  if (All)
    B.CreateStore(Constant::getNullValue(All->getAllocatedType()), All);
  ImageInstr Call = D;
  Call.Flags = Flags;
  forEachLane(Mask, [&](Value *L) {
    ImageLaneOperands Ln;
    Ln.Image = B.CreateIntToPtr(laneOf(B, Handle, 0, L), B.getPtrTy());
    if (D.HasSampler)
      Ln.Sampler = B.CreateIntToPtr(laneOf(B, Handle, 1, L), B.getPtrTy());
    for (unsigned K = 0; K < D.CoordComps && K < 4; ++K)
      Ln.Coord[K] = laneOf(B, Coord, K, L);
    Ln.Dref = laneOf(B, Dref, 0, L);
    Ln.Bias = laneOf(B, Bias, 0, L);
    Ln.Lod = ImplicitLod ? ImplicitLod : laneOf(B, Lod, 0, L);
    Ln.MinLod = laneOf(B, MinLod, 0, L);
    Ln.Sample = laneOf(B, Sample, 0, L);
    for (unsigned K = 0; K < 3; ++K) {
      Ln.GradX[K] = laneOf(B, GradX, K, L);
      Ln.GradY[K] = laneOf(B, GradY, K, L);
      Ln.Offset[K] = laneOf(B, Offset, K, L);
    }
    for (unsigned K = 0; K < 8; ++K)
      Ln.Offsets[K] = laneOf(B, Offsets, K, L);
    for (unsigned K = 0; K < 4; ++K)
      Ln.Texel[K] = laneOf(B, Texel, K, L);
    Ln.Component = Component;
    Value *Code = emitImageOpCall(B, ImageRT, Call, Ln, Ops, One);
    if (!All)
      return;
    for (unsigned C = 0; C < 4; ++C) {
      Value *X = B.CreateLoad(I32, B.CreateConstInBoundsGEP2_32(
                                       One->getAllocatedType(), One, 0, C));
      B.CreateStore(X, B.CreateInBoundsGEP(All->getAllocatedType(), All,
                                           {B.getInt32(0), B.getInt32(C), L}));
    }
    B.CreateStore(Code, B.CreateInBoundsGEP(All->getAllocatedType(), All,
                                            {B.getInt32(0), B.getInt32(4), L}));
  });
  if (!All)
    return true;

  // The result: residency first for sparse forms, then the texel.
  LaneValue R = readImageLanes(B, W, All, D, Mask, AnyVarying,
                               AnyVarying || isVarying(Id));
  if (Fast.Join) {
    // Both paths' texels meet here (the inline one only takes varying
    // coordinates, so the result is varying).
    for (Value *&C : R.Comps)
      C = splat(C);
    BasicBlock *SlowEnd = B.GetInsertBlock();
    B.CreateBr(Fast.Join);
    B.SetInsertPoint(Fast.Join);
    for (unsigned C = 0; C < D.ResultComps; ++C) {
      PHINode *P = B.CreatePHI(R.Comps[C]->getType(), 2, "sample");
      P->addIncoming(Fast.Comps[C], Fast.FastEnd);
      P->addIncoming(R.Comps[C], SlowEnd);
      R.Comps[C] = P;
    }
    R.Varying = true;
  }
  set(Id, coerce(std::move(R), isVarying(Id)));
  return true;
}

bool SimdEmitter::addSubpassPosition(const Instruction &I,
                                     LaneValue &Coord) {
  Expected<const InterfaceVariable *> FC = fragCoordInput(EP, Layout);
  if (!FC) {
    failAt(I, toString(FC.takeError()));
    return false;
  }
  VectorType *VF = FixedVectorType::get(B.getFloatTy(), W);
  VectorType *V32 = FixedVectorType::get(B.getInt32Ty(), W);
  for (unsigned K = 0; K < 2; ++K) {
    Value *Addr = B.CreateConstInBoundsGEP1_32(
        B.getInt8Ty(), FS.InputsPtr, (*FC)->ComponentOffsets[K]);
    // Pixel centres are at +0.5: truncation gives the pixel. Saturating,
    // so that any bits a caller leaves there give some coordinate (which
    // the runtime then checks) rather than poison.
    Value *Pos = B.CreateIntrinsic(Intrinsic::fptosi_sat, {V32, VF},
                                   {B.CreateAlignedLoad(VF, Addr, Align(4))},
                                   nullptr, K ? "frag.y" : "frag.x");
    Value *Off = Coord.Comps[K];
    Off = splat(B.CreateSExtOrTrunc(
        Off, Off->getType()->isVectorTy() ? (Type *)V32 : B.getInt32Ty()));
    Coord.Comps[K] = B.CreateAdd(Pos, Off, "subpass.coord");
  }
  Coord.Varying = true;
  return true;
}

namespace {

/// Storage formats whose reads and writes are inlined: 32-bit words per
/// texel, or 8-bit UNORM RGBA (the common compute formats).
struct InlineFormat {
  uint32_t VkFormat;
  unsigned Words;  ///< 32-bit words per texel (RGBA8: 1)
  bool Rgba8Unorm;
};
const InlineFormat *inlineFormat(uint32_t VkFormat) {
  static const InlineFormat Table[] = {
      {37, 1, true},                                   // R8G8B8A8_UNORM
      {98, 1, false}, {99, 1, false}, {100, 1, false}, // R32 UINT/SINT/SFLOAT
      {101, 2, false}, {102, 2, false}, {103, 2, false}, // R32G32
      {107, 4, false}, {108, 4, false}, {109, 4, false}, // R32G32B32A32
  };
  for (const InlineFormat &F : Table)
    if (F.VkFormat == VkFormat)
      return &F;
  return nullptr;
}

} // namespace

// OpImageRead / OpImageWrite of a storage image whose format the shader
// declares (one of inlineFormat's) through a uniform handle: the texel
// address is computed in vectors from level 0's pitches, the access is a
// masked gather or scatter, and the conversion is inline. The dispatch
// checks that the bound image has the declared format
// (src/runtime/Compute.cpp), so the layout is known here. Out-of-range
// coordinates and a null handle (an unbound array element) are masked
// off: reads give zero, writes are dropped, as s2l_image_op does.
bool SimdEmitter::emitInlineStorageAccess(const Instruction &I,
                                          const ImageInstr &D) {
  const InlineFormat *F = inlineFormat(D.StorageFormat);
  if (!F || (D.Op != S2L_IMAGE_OP_READ && D.Op != S2L_IMAGE_OP_WRITE) ||
      D.Sparse || D.MS || D.Dim > 5 || D.Dim == 3 /* Cube */)
    return false;
  LaneValue Handle = get(D.Image);
  if (Handle.Comps[0]->getType()->isVectorTy())
    return false; // per-lane images: the runtime call
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty(), *Ptr = B.getPtrTy();
  VectorType *V64 = FixedVectorType::get(I64, W);
  StructType *ImageTy = imageStructType(Ctx);
  // A null handle reads the fields of a zeroed image: every coordinate is
  // then out of range.
  Value *Img = descriptorOrZero(B, *LM, Handle.Comps[0], ImageTy);
  auto Field = [&](std::initializer_list<unsigned> Path, Type *T,
                   const char *Name) {
    SmallVector<Value *, 4> Idx{B.getInt32(0)};
    for (unsigned K : Path)
      Idx.push_back(B.getInt32(K));
    return B.CreateLoad(T, B.CreateInBoundsGEP(ImageTy, Img, Idx), Name);
  };
  Value *Data = Field({0}, Ptr, "img.data");
  Value *Offset0 = Field({7, 0, 0}, I64, "img.offset");
  Value *Row = Field({7, 0, 1}, I64, "img.row");
  Value *Slice = Field({7, 0, 2}, I64, "img.slice");
  Value *Width = Field({7, 0, 3}, I32, "img.width");
  Value *Height = Field({7, 0, 4}, I32, "img.height");
  // The third coordinate counts depth slices (3D) or layers (arrayed).
  Value *Slices = D.Dim == 2 ? Field({7, 0, 5}, I32, "img.depth")
                             : Field({3}, I32, "img.layers");
  LaneValue Coord = get(D.Coord);
  // Coordinates by role: x, then y for 2D/3D/Rect, then the slice.
  unsigned Dims = D.Dim == 0 || D.Dim == 5 ? 1 : D.Dim == 2 ? 3 : 2;
  Value *Zero32 = Constant::getNullValue(FixedVectorType::get(I32, W));
  Value *X = splat(B.CreateSExtOrTrunc(Coord.Comps[0],
                                       Coord.Comps[0]->getType()->isVectorTy()
                                           ? (Type *)FixedVectorType::get(I32, W)
                                           : I32));
  auto CoordAt = [&](unsigned K) -> Value * {
    if (K >= Coord.Comps.size())
      return Zero32;
    Value *C = Coord.Comps[K];
    C = B.CreateSExtOrTrunc(C, C->getType()->isVectorTy()
                                   ? (Type *)FixedVectorType::get(I32, W)
                                   : I32);
    return splat(C);
  };
  Value *Y = Dims >= 2 ? CoordAt(1) : Zero32;
  Value *Z = Dims == 3 ? CoordAt(2) : D.Arrayed ? CoordAt(Dims) : Zero32;
  // Unsigned compares reject negative coordinates too.
  Value *In = B.CreateAnd(
      B.CreateAnd(B.CreateICmpULT(X, splat(Width)),
                  B.CreateICmpULT(Y, splat(Height))),
      B.CreateICmpULT(Z, splat(Slices)));
  Value *Off = B.CreateAdd(
      B.CreateAdd(B.CreateMul(B.CreateZExt(X, V64),
                              ConstantInt::get(V64, F->Words * 4)),
                  B.CreateMul(B.CreateZExt(Y, V64), splat(Row))),
      B.CreateAdd(B.CreateMul(B.CreateZExt(Z, V64), splat(Slice)),
                  splat(Offset0)));
  Value *Ptrs = B.CreateGEP(B.getInt8Ty(), splat(Data), Off, "texel.addr");
  VectorType *V32 = FixedVectorType::get(I32, W);
  VectorType *VF = FixedVectorType::get(B.getFloatTy(), W);
  auto WordPtrs = [&](unsigned K) {
    return K ? B.CreateGEP(B.getInt8Ty(), Ptrs,
                           ConstantInt::get(V64, 4 * K))
             : Ptrs;
  };

  if (D.Op == S2L_IMAGE_OP_WRITE) {
    Value *Mask = B.CreateAnd(storeMask(), In);
    LaneValue T = get(D.Texel);
    auto Comp = [&](unsigned K) -> Value * {
      if (K >= T.Comps.size())
        return Zero32;
      Value *C = splat(T.Comps[K]);
      return C->getType()->getScalarType()->isFloatTy() ? B.CreateBitCast(C, V32)
                                                         : C;
    };
    if (F->Rgba8Unorm) {
      // Vulkan's float -> UNORM: clamp to [0, 1] (NaN -> 0), scale,
      // round to nearest even.
      Value *Packed = Zero32;
      for (unsigned K = 0; K < 4; ++K) {
        Value *C = B.CreateBitCast(Comp(K), VF);
        C = B.CreateBinaryIntrinsic(Intrinsic::maxnum, C,
                                    ConstantFP::get(VF, 0.0));
        C = B.CreateBinaryIntrinsic(Intrinsic::minnum, C,
                                    ConstantFP::get(VF, 1.0));
        C = B.CreateUnaryIntrinsic(
            Intrinsic::roundeven,
            B.CreateFMul(C, ConstantFP::get(VF, 255.0)));
        Value *Byte = B.CreateFPToUI(C, V32);
        Packed = B.CreateOr(Packed,
                            B.CreateShl(Byte, ConstantInt::get(V32, 8 * K)));
      }
      B.CreateMaskedScatter(Packed, Ptrs, Align(4), Mask);
      return true;
    }
    for (unsigned K = 0; K < F->Words; ++K)
      B.CreateMaskedScatter(Comp(K), WordPtrs(K), Align(4), Mask);
    return true;
  }

  Value *Mask = B.CreateAnd(FS.CurMask, In);
  SmallVector<Value *, 4> Out(4, Zero32);
  bool Float = D.Kind == S2L_IMAGE_FLOAT;
  // Missing components: 0, alpha 1; out of range reads a texel of zero
  // bits, so alpha stays 1 there too (robustImageAccess2, as
  // s2l_image_op).
  Out[3] = Float ? B.CreateBitCast(ConstantFP::get(VF, 1.0), V32)
                 : ConstantInt::get(V32, 1);
  if (F->Rgba8Unorm) {
    Value *Packed = B.CreateMaskedGather(V32, Ptrs, Align(4), Mask, Zero32);
    for (unsigned K = 0; K < 4; ++K) {
      Value *Byte = B.CreateAnd(B.CreateLShr(Packed, ConstantInt::get(V32, 8 * K)),
                                ConstantInt::get(V32, 255));
      // c / 255, correctly rounded (as decodeTexel's UNORM conversion).
      Value *C = B.CreateFDiv(B.CreateUIToFP(Byte, VF),
                              ConstantFP::get(VF, 255.0));
      Out[K] = B.CreateBitCast(C, V32);
    }
  } else {
    for (unsigned K = 0; K < F->Words; ++K)
      Out[K] = B.CreateMaskedGather(V32, WordPtrs(K), Align(4), Mask, Zero32);
  }
  LaneValue R;
  R.Varying = true;
  for (unsigned C = 0; C < D.ResultComps; ++C)
    R.Comps.push_back(D.ResultFloat ? B.CreateBitCast(Out[C], VF) : Out[C]);
  set(I.Result.value(), coerce(std::move(R), isVarying(I.Result.value())));
  return true;
}

bool SimdEmitter::emitImageTexelPointer(const Instruction &I) {
  // Operands: the pointer to the image variable, coordinate, sample.
  uint32_t Id = I.Result.value();
  if (!isOpaqueRef(I.Operands[0])) {
    failAt(I, "OpImageTexelPointer needs a pointer to an image variable");
    return true;
  }
  const spirv2llvm::Type *IT = imageTypeOf(M, I.Operands[0]);
  if (!IT) {
    failAt(I, "OpImageTexelPointer: the pointer does not point to an image");
    return true;
  }
  LaneValue Handle = loadOpaque(I, I.Operands[0]);
  if (Failed)
    return true;
  if (!ImageRT.Op)
    ImageRT = declareImageRuntime(*LM);
  LaneValue Coord = get(I.Operands[1]);
  LaneValue Sample = get(I.Operands[2]);
  Type *I32 = B.getInt32Ty(), *Ptr = B.getPtrTy();
  AllocaInst *Coords = createSlot(ArrayType::get(I32, 4), "texel.coord");
  AllocaInst *Scratch = createSlot(B.getInt64Ty(), "texel.scratch");
  AllocaInst *Lanes = createSlot(ArrayType::get(Ptr, W), "texel.ptrs");
  B.CreateStore(Constant::getNullValue(Lanes->getAllocatedType()), Lanes);
  // Every lane of the mask: atomics run for the store mask later, and a
  // pointer of an inactive lane is never used.
  forEachLane(FS.CurMask, [&](Value *L) {
    B.CreateStore(Constant::getNullValue(Coords->getAllocatedType()), Coords);
    for (unsigned K = 0; K < Coord.Comps.size() && K < 4; ++K)
      B.CreateStore(B.CreateSExtOrTrunc(laneOf(B, Coord, K, L), I32),
                    B.CreateConstInBoundsGEP2_32(Coords->getAllocatedType(),
                                                 Coords, 0, K));
    Value *P = B.CreateCall(
        ImageRT.TexelPointer,
        {B.CreateIntToPtr(laneOf(B, Handle, 0, L), Ptr), Coords,
         B.getInt32(IT->ImageDim), B.getInt32(IT->ImageArrayed),
         B.CreateSExtOrTrunc(laneOf(B, Sample, 0, L), I32), Scratch});
    B.CreateStore(P, B.CreateInBoundsGEP(Lanes->getAllocatedType(), Lanes,
                                         {B.getInt32(0), L}));
  });
  PointerValue P;
  P.Var = 0;
  P.Pointee = M.type(M.typeOf(Id)).Element;
  P.InMemory = true;
  P.Storage = spv::StorageClass::Image;
  P.LaneBase = B.CreateAlignedLoad(FixedVectorType::get(Ptr, W), Lanes,
                                   Align(8), "texel.ptr");
  P.Offset = Constant::getNullValue(FixedVectorType::get(B.getInt64Ty(), W));
  // Computed here: other blocks reload the lane pointers from a slot.
  P.DynamicBase = true;
  setPointer(Id, P);
  return true;
}

} // namespace spirv2llvm::simd
