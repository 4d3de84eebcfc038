//===- ImageInstr.cpp - Image instructions, decoded once ------------------===//
#include "codegen/common/ImageInstr.h"
#include "codegen/common/DescriptorArrays.h"

#include "parser/OpcodeTable.h"
#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"

#include "spirv2llvm/abi.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace spirv2llvm {

namespace {

/// Image operand mask bits (SPIR-V "Image Operands") in operand order.
enum : uint32_t {
  IoBias = 0x1,
  IoLod = 0x2,
  IoGrad = 0x4,
  IoConstOffset = 0x8,
  IoOffset = 0x10,
  IoConstOffsets = 0x20,
  IoSample = 0x40,
  IoMinLod = 0x80,
  IoMakeTexelAvailable = 0x100,
  IoMakeTexelVisible = 0x200,
  IoOffsets = 0x10000,
};

/// Components of the coordinate the runtime reads for \p Dim (SPIR-V
/// numbers), without the array layer.
unsigned dimCoords(uint32_t Dim) {
  switch (Dim) {
  case 0: // 1D
  case 5: // Buffer
    return 1;
  case 1: // 2D
  case 4: // Rect
  case 6: // SubpassData
    return 2;
  default: // 3D, Cube
    return 3;
  }
}

unsigned componentCount(const Module &M, TypeId T) {
  const spirv2llvm::Type &Ty = M.type(T);
  return Ty.Kind == TypeKind::Vector ? Ty.Count : 1;
}

TypeId scalarOf(const Module &M, TypeId T) {
  const spirv2llvm::Type &Ty = M.type(T);
  return Ty.Kind == TypeKind::Vector ? Ty.Element : T;
}

/// The optional image operands of \p I after its \p Fixed operands: the
/// mask and the ids it announces, into \p D.
Error decodeImageOperands(const Module &M, const Instruction &I, size_t Fixed,
                          ImageInstr &D) {
  auto Bad = [&](const Twine &Msg) { return makeError(Msg); };
  size_t N = I.Operands.size();
  uint32_t Mask = I.Operands[Fixed];
  size_t K = Fixed + 1;
  auto Next = [&](const char *What, uint32_t &Into) -> Error {
    if (K >= N)
      return Bad(Twine("the image operand ") + What + " is missing");
    Into = I.Operands[K++];
    return Error::success();
  };
  uint32_t Ignored = 0;
  const uint32_t Known = IoBias | IoLod | IoGrad | IoConstOffset | IoOffset |
                         IoConstOffsets | IoSample | IoMinLod |
                         IoMakeTexelAvailable | IoMakeTexelVisible |
                         0x400 | 0x800 | 0x1000 | 0x2000 | 0x4000 |
                         IoOffsets;
  if (Mask & ~Known)
    return Bad("unsupported image operands 0x" + utohexstr(Mask & ~Known));
  if (Mask & IoBias) {
    if (Error E = Next("Bias", D.Bias))
      return E;
    D.Flags |= S2L_IMAGE_HAS_BIAS;
  }
  if (Mask & IoLod) {
    if (Error E = Next("Lod", D.Lod))
      return E;
    D.IntLod = D.Op == S2L_IMAGE_OP_FETCH;
    D.Flags |= S2L_IMAGE_HAS_LOD;
  }
  if (Mask & IoGrad) {
    if (Error E = Next("Grad", D.GradX))
      return E;
    if (Error E = Next("Grad", D.GradY))
      return E;
    D.Flags |= S2L_IMAGE_HAS_GRAD;
  }
  if (Mask & IoConstOffset) {
    if (Error E = Next("ConstOffset", D.Offset))
      return E;
    D.Flags |= S2L_IMAGE_HAS_OFFSET;
  }
  if (Mask & IoOffset) {
    if (Error E = Next("Offset", D.Offset))
      return E;
    D.Flags |= S2L_IMAGE_HAS_OFFSET;
  }
  if (Mask & IoConstOffsets) {
    if (Error E = Next("ConstOffsets", D.Offsets))
      return E;
    D.Flags |= S2L_IMAGE_HAS_OFFSETS;
  }
  if (Mask & IoSample) {
    if (Error E = Next("Sample", D.Sample))
      return E;
    D.Flags |= S2L_IMAGE_HAS_SAMPLE;
  }
  if (Mask & IoMinLod) {
    if (Error E = Next("MinLod", D.MinLod))
      return E;
    D.Flags |= S2L_IMAGE_HAS_MIN_LOD;
  }
  // Memory-model scopes: every image access here is already coherent.
  if (Mask & IoMakeTexelAvailable)
    if (Error E = Next("MakeTexelAvailable", Ignored))
      return E;
  if (Mask & IoMakeTexelVisible)
    if (Error E = Next("MakeTexelVisible", Ignored))
      return E;
  if (Mask & IoOffsets) {
    if (Error E = Next("Offsets", D.Offsets))
      return E;
    D.Flags |= S2L_IMAGE_HAS_OFFSETS;
  }
  return Error::success();
}

/// The operand types of \p D: the back ends read 32-bit scalars of the
/// right kind from each (unvalidated input can name anything).
Error checkOperandTypes(const Module &M, const ImageInstr &D) {
  auto Bad = [&](const Twine &Msg) { return makeError(Msg); };
  enum class Want { Float, Int, Any };
  auto Check = [&](uint32_t Id, Want K, unsigned MinComps,
                   const char *What) -> Error {
    if (!Id)
      return Error::success();
    const spirv2llvm::Type *T = M.findType(M.typeOf(Id).value());
    const spirv2llvm::Type *S =
        T && T->Kind == TypeKind::Vector ? M.findType(T->Element.value()) : T;
    unsigned N = T && T->Kind == TypeKind::Vector ? T->Count : 1;
    bool KindOk = S && S->Width == 32 &&
                  (K == Want::Float   ? S->Kind == TypeKind::Float
                   : K == Want::Int   ? S->Kind == TypeKind::Int
                                      : S->Kind == TypeKind::Float ||
                                            S->Kind == TypeKind::Int);
    if (!KindOk || N < MinComps)
      return Bad(Twine("the ") + What + " operand " + M.friendlyName(Id) +
                 " must be " +
                 (K == Want::Float ? "a 32-bit float"
                  : K == Want::Int ? "a 32-bit integer"
                                   : "a 32-bit number") +
                 (MinComps > 1 ? " vector of " + Twine(MinComps) + " or more"
                               : Twine("")));
    return Error::success();
  };
  bool IntCoords = D.Op == S2L_IMAGE_OP_FETCH || D.Op == S2L_IMAGE_OP_READ ||
                   D.Op == S2L_IMAGE_OP_WRITE;
  unsigned Offsets = D.Dim == 2 ? 3 : D.Dim == 0 || D.Dim == 5 ? 1 : 2;
  struct OperandRule {
    uint32_t Id;
    Want K;
    unsigned MinComps;
    const char *What;
  } Rules[] = {
      {D.Coord, IntCoords ? Want::Int : Want::Float,
       D.CoordComps + (D.Proj ? 1u : 0u), "coordinate"},
      {D.Dref, Want::Float, 1, "Dref"},
      {D.Bias, Want::Float, 1, "Bias"},
      {D.Lod, D.IntLod ? Want::Int : Want::Float, 1, "Lod"},
      {D.GradX, Want::Float, D.GradComps, "Grad"},
      {D.GradY, Want::Float, D.GradComps, "Grad"},
      {D.Offset, Want::Int, Offsets, "Offset"},
      {D.Sample, Want::Int, 1, "Sample"},
      {D.MinLod, Want::Float, 1, "MinLod"},
      {D.Texel, Want::Any, 1, "Texel"},
  };
  for (const OperandRule &R : Rules)
    if (Error E = Check(R.Id, R.K, R.MinComps, R.What))
      return E;
  if (D.Offsets) {
    // ConstOffsets: an array of 4 two-component integer vectors.
    const spirv2llvm::Type *T = M.findType(M.typeOf(D.Offsets).value());
    const spirv2llvm::Type *E =
        T && T->Kind == TypeKind::Array ? M.findType(T->Element.value())
                                        : nullptr;
    const spirv2llvm::Type *S =
        E && E->Kind == TypeKind::Vector ? M.findType(E->Element.value())
                                         : nullptr;
    if (!T || T->Count != 4 || !E || E->Count != 2 || !S ||
        S->Kind != TypeKind::Int || S->Width != 32)
      return Bad("the ConstOffsets operand " + M.friendlyName(D.Offsets) +
                 " must be an array of 4 two-component 32-bit integer "
                 "vectors");
  }
  return Error::success();
}

/// The result's texel of \p D (result type \p ResultType): components and
/// kind.
Error decodeResult(const Module &M, TypeId ResultType, ImageInstr &D) {
  auto Bad = [&](const Twine &Msg) { return makeError(Msg); };
  TypeId RT = ResultType;
  const spirv2llvm::Type *T = M.findType(RT.value());
  if (D.Sparse) {
    if (!T || T->Kind != TypeKind::Struct || T->Members.size() != 2)
      return Bad("a sparse result must be a struct of two members");
    RT = T->Members[1];
    T = M.findType(RT.value());
  }
  if (!T)
    return Bad("no result type");
  D.ResultComps = componentCount(M, RT);
  const spirv2llvm::Type &S = M.type(scalarOf(M, RT));
  if ((S.Kind != TypeKind::Float && S.Kind != TypeKind::Int) ||
      S.Width != 32)
    return Bad("unsupported result type " + M.friendlyName(RT.value()) +
               " (only 32-bit components)");
  D.ResultFloat = S.Kind == TypeKind::Float;
  if (D.ResultComps > 4)
    return Bad("the result has more than 4 components");
  return Error::success();
}

} // namespace

uint32_t vkFormatOfImageFormat(uint32_t F) {
  // SPIR-V ImageFormat -> VkFormat, in SPIR-V order (Unknown = 0 first).
  static const uint32_t Table[] = {
      0,   109, 97,  100, 37,  38,  103, 83,  122, 76,  91,  64,  77,  16,
      70,  9,   92,  78,  17,  71,  10,  108, 96,  42,  99,  102, 82,  21,
      75,  14,  107, 95,  41,  98,  68,  101, 81,  20,  74,  13,  110, 111};
  return F < std::size(Table) ? Table[F] : 0;
}

const spirv2llvm::Type *imageTypeOf(const Module &M, uint32_t Id) {
  const spirv2llvm::Type *T = M.findType(M.typeOf(Id).value());
  // Bounded: the parser rules out cycles, and a handle type is a few
  // levels deep (pointer, arrays, sampled image).
  for (unsigned Depth = 0;
       Depth < 64 && T &&
       (T->Kind == TypeKind::Pointer || T->Kind == TypeKind::Array ||
        T->Kind == TypeKind::RuntimeArray ||
        T->Kind == TypeKind::SampledImage);
       ++Depth)
    T = M.findType(T->Element.value());
  return T && T->Kind == TypeKind::Image ? T : nullptr;
}

Expected<ImageInstr> decodeImageInstr(const Module &M, const Instruction &I) {
  ImageInstr D;
  // Messages go through failAt, which names the instruction already.
  auto Bad = [&](const Twine &Msg) { return makeError(Msg); };
  size_t N = I.Operands.size();
  // What the opcode table says: the runtime operation, the fixed operands
  // after the image (each one word), the Proj and Sparse variants.
  const OpcodeInfo &Info = opcodeInfo(I.Opcode);
  const uint8_t Form = Info.ImageForm;
  switch (Info.Image) {
  case ImageOpKind::Sample: D.Op = S2L_IMAGE_OP_SAMPLE; break;
  case ImageOpKind::Fetch: D.Op = S2L_IMAGE_OP_FETCH; break;
  case ImageOpKind::Gather: D.Op = S2L_IMAGE_OP_GATHER; break;
  case ImageOpKind::Read: D.Op = S2L_IMAGE_OP_READ; break;
  case ImageOpKind::Write: D.Op = S2L_IMAGE_OP_WRITE; break;
  case ImageOpKind::QuerySize: D.Op = S2L_IMAGE_OP_QUERY_SIZE; break;
  case ImageOpKind::QueryLevels: D.Op = S2L_IMAGE_OP_QUERY_LEVELS; break;
  case ImageOpKind::QuerySamples: D.Op = S2L_IMAGE_OP_QUERY_SAMPLES; break;
  case ImageOpKind::QueryLod: D.Op = S2L_IMAGE_OP_QUERY_LOD; break;
  default:
    return Bad("not an image instruction the runtime runs");
  }
  // Sampling, gathering and the LOD query filter: they need a sampler.
  bool Sampled = D.Op == S2L_IMAGE_OP_SAMPLE ||
                 D.Op == S2L_IMAGE_OP_GATHER ||
                 D.Op == S2L_IMAGE_OP_QUERY_LOD;
  // The implicit-LOD forms are those that read derivatives over the quad.
  D.ImplicitLod = hasOpcodeFlag(I.Opcode, OpcodeFlag::QuadDerivatives);
  D.Proj = Form & ImageFormBit::Proj;
  D.Sparse = Form & ImageFormBit::Sparse;
  D.Write = D.Op == S2L_IMAGE_OP_WRITE;
  // Fixed operands, then the optional image operand mask.
  size_t Fixed = 1 + llvm::popcount(unsigned(
                         Form & (ImageFormBit::Coord | ImageFormBit::Dref |
                                 ImageFormBit::Component |
                                 ImageFormBit::Texel | ImageFormBit::Lod)));
  if (N < Fixed)
    return Bad("too few operands");
  D.Image = I.Operands[0];
  const spirv2llvm::Type *ImageT = M.findType(M.typeOf(D.Image).value());
  if (!ImageT || (ImageT->Kind != TypeKind::Image &&
                  ImageT->Kind != TypeKind::SampledImage))
    return Bad("operand " + M.friendlyName(D.Image) +
               " is not an image or sampled image");
  D.HasSampler = ImageT->Kind == TypeKind::SampledImage;
  if (Sampled && !D.HasSampler)
    return Bad("needs a sampled image, " + M.friendlyName(D.Image) +
               " is an image without a sampler");
  const spirv2llvm::Type *IT = imageTypeOf(M, D.Image);
  if (!IT)
    return Bad("operand " + M.friendlyName(D.Image) + " has no image type");
  D.Dim = IT->ImageDim;
  D.Arrayed = IT->ImageArrayed;
  D.MS = IT->ImageMS;
  D.StorageFormat = vkFormatOfImageFormat(IT->ImageFormat);
  if (D.Dim > 6)
    return Bad("unsupported image dimension " + Twine(D.Dim));
  // A subpass load's coordinate is an offset from the fragment's integer
  // position: the back ends add it (fragCoordInput). SPIR-V allows only
  // OpImageRead on SubpassData; unvalidated input may try more.
  if (D.Dim == 6) {
    if (D.Op != S2L_IMAGE_OP_READ)
      return Bad("a SubpassData image (input attachment) can only be read "
                 "with OpImageRead");
    D.Subpass = true;
  }
  const spirv2llvm::Type *ST = M.findType(IT->Element.value());
  if (!ST || (ST->Kind != TypeKind::Float && ST->Kind != TypeKind::Int))
    return Bad("the image's sampled type is not a scalar number");
  if (ST->Width != 32)
    return Bad("unsupported: " + Twine(ST->Width) +
               "-bit image components (only 32-bit)");
  D.Kind = ST->Kind == TypeKind::Float ? S2L_IMAGE_FLOAT
           : ST->Signed                ? S2L_IMAGE_SINT
                                       : S2L_IMAGE_UINT;

  // Coordinates.
  if (Form & ImageFormBit::Coord) {
    D.Coord = I.Operands[1];
    const spirv2llvm::Type *CT = M.findType(M.typeOf(D.Coord).value());
    unsigned Have = !CT ? 0 : CT->Kind == TypeKind::Vector ? CT->Count : 1;
    D.CoordComps = dimCoords(D.Dim) + (D.Arrayed ? 1 : 0);
    // Integer coordinates of a cube (arrayed or not) are x, y and the
    // layer-face 6 * layer + face.
    bool IntCoord = D.Op == S2L_IMAGE_OP_FETCH || D.Op == S2L_IMAGE_OP_READ ||
                    D.Op == S2L_IMAGE_OP_WRITE;
    if (IntCoord && D.Dim == 3)
      D.CoordComps = 3;
    if (D.Op == S2L_IMAGE_OP_QUERY_LOD)
      D.CoordComps = dimCoords(D.Dim);
    if (D.Proj)
      ++D.CoordComps; // q comes last
    if (Have < D.CoordComps)
      return Bad("coordinate " + M.friendlyName(D.Coord) + " has " +
                 Twine(Have) + " components, the image needs " +
                 Twine(D.CoordComps));
    if (D.Proj)
      --D.CoordComps;
    D.GradComps = dimCoords(D.Dim);
  }
  // The fixed operand after the coordinate, or after the image.
  uint32_t Third = I.Operands[Fixed - 1];
  if (Form & ImageFormBit::Component) {
    const spirv2llvm::Constant *C = M.findConstant(Third);
    if (!C || C->Kind != ConstantKind::Scalar)
      return Bad("the gather component must be a constant");
    D.Component = Third;
  } else if (Form & ImageFormBit::Texel) {
    D.Texel = Third;
  } else if (Form & ImageFormBit::Dref) {
    D.Dref = Third;
    D.Flags |= S2L_IMAGE_HAS_DREF;
  } else if (Form & ImageFormBit::Lod) {
    D.Lod = Third;
    D.IntLod = true;
    D.Flags |= S2L_IMAGE_HAS_LOD;
  }
  if (D.Proj)
    D.Flags |= S2L_IMAGE_PROJ;
  if (D.Sparse)
    D.Flags |= S2L_IMAGE_SPARSE;

  if (N > Fixed && !(Form & ImageFormBit::Lod))
    if (Error E = decodeImageOperands(M, I, Fixed, D))
      return std::move(E);
  if (D.Lod || (D.Flags & S2L_IMAGE_HAS_GRAD))
    D.ImplicitLod = false;

  if (Error E = checkOperandTypes(M, D))
    return std::move(E);
  if (!D.Write)
    if (Error E = decodeResult(M, I.ResultType, D))
      return std::move(E);
  return D;
}

Expected<const InterfaceVariable *> fragCoordInput(const EntryPoint &EP,
                                                   const InterfaceLayout &L) {
  if (EP.Model != spv::ExecutionModel::Fragment)
    return makeError("a subpass load (SubpassData image) outside a fragment "
                     "shader: input attachments are read at the fragment's "
                     "position");
  for (const InterfaceVariable &V : L.Inputs)
    if (V.BuiltIn == int32_t(spv::BuiltIn::FragCoord) &&
        V.Components.size() >= 2 &&
        V.Components[0].Kind == ScalarKind::Float &&
        V.Components[0].Bits == 32)
      return &V;
  return makeError("a subpass load needs the fragment's position, and the "
                   "interface has no 32-bit float FragCoord input");
}

ImageRuntime declareImageRuntime(llvm::Module &LM) {
  LLVMContext &Ctx = LM.getContext();
  ImageRuntime RT;
  llvm::Type *I32 = llvm::Type::getInt32Ty(Ctx), *F32 = llvm::Type::getFloatTy(Ctx);
  llvm::Type *Ptr = PointerType::getUnqual(Ctx);
  // Field for field abi.h's s2l_image_operands (ImageOperandField).
  RT.OperandsTy = StructType::getTypeByName(Ctx, "s2l_image_operands");
  if (!RT.OperandsTy)
    RT.OperandsTy = StructType::create(
        Ctx,
        {I32, I32, I32, I32, I32, I32, I32, I32, ArrayType::get(F32, 4),
         ArrayType::get(I32, 4), F32, F32, F32, I32, F32,
         ArrayType::get(F32, 3), ArrayType::get(F32, 3),
         ArrayType::get(I32, 3), ArrayType::get(I32, 8),
         ArrayType::get(I32, 4)},
        "s2l_image_operands");
  auto Declare = [&](StringRef Name, FunctionType *FT) {
    FunctionCallee C = LM.getOrInsertFunction(Name, FT);
    if (auto *F = dyn_cast<llvm::Function>(C.getCallee())) {
      F->addFnAttr(Attribute::NoUnwind);
      F->addFnAttr(Attribute::WillReturn);
    }
    return C;
  };
  RT.Op = Declare("s2l_image_op",
                  FunctionType::get(I32, {Ptr, Ptr, Ptr, Ptr}, false));
  RT.TexelPointer =
      Declare("s2l_image_texel_pointer",
              FunctionType::get(Ptr, {Ptr, Ptr, I32, I32, I32, Ptr}, false));
  return RT;
}

namespace {
/// Field numbers of s2l_image_operands in ImageRuntime::OperandsTy.
enum ImageOperandField : unsigned {
  FOp, FFlags, FDim, FArrayed, FKind, FComponent, FStorageFormat, FSample,
  FCoord, FICoord, FDref, FBias, FLod, FILod, FMinLod, FGradX, FGradY,
  FOffset, FGatherOffsets, FValue,
};
} // namespace

Value *emitImageOpCall(IRBuilder<> &B, const ImageRuntime &RT,
                       const ImageInstr &D, const ImageLaneOperands &L,
                       Value *Ops, Value *Result) {
  StructType *ST = RT.OperandsTy;
  llvm::Type *I32 = B.getInt32Ty(), *F32 = B.getFloatTy();
  auto Field = [&](unsigned F) { return B.CreateStructGEP(ST, Ops, F); };
  auto Elem = [&](unsigned F, unsigned K) {
    return B.CreateConstInBoundsGEP2_32(ST->getElementType(F), Field(F), 0, K);
  };
  // Stores \p V (an i32 or float of either kind) as \p T's bits.
  auto Put = [&](Value *Addr, Value *V, llvm::Type *T) {
    if (V->getType() != T)
      V = V->getType()->isFloatTy() || T->isFloatTy()
              ? B.CreateBitCast(V, T)
              : B.CreateSExtOrTrunc(V, T);
    B.CreateStore(V, Addr);
  };
  auto PutConst = [&](unsigned F, uint32_t V) {
    B.CreateStore(B.getInt32(V), Field(F));
  };
  // Everything is written: the runtime reads only what flags and op name,
  // but a zeroed struct keeps unused fields defined.
  B.CreateMemSet(Ops, B.getInt8(0),
                 B.GetInsertBlock()->getModule()->getDataLayout()
                     .getTypeAllocSize(ST),
                 MaybeAlign(4));
  PutConst(FOp, D.Op);
  PutConst(FFlags, D.Flags);
  PutConst(FDim, D.Dim);
  PutConst(FArrayed, D.Arrayed);
  PutConst(FKind, D.Kind);
  PutConst(FComponent, L.Component);
  PutConst(FStorageFormat, D.StorageFormat);
  if (L.Sample)
    Put(Field(FSample), L.Sample, I32);
  bool IntCoord = D.Op == S2L_IMAGE_OP_FETCH || D.Op == S2L_IMAGE_OP_READ ||
                  D.Op == S2L_IMAGE_OP_WRITE;
  for (unsigned K = 0; K < 4; ++K)
    if (L.Coord[K]) {
      if (IntCoord)
        Put(Elem(FICoord, K), L.Coord[K], I32);
      else
        Put(Elem(FCoord, K), L.Coord[K], F32);
    }
  if (L.Dref)
    Put(Field(FDref), L.Dref, F32);
  if (L.Bias)
    Put(Field(FBias), L.Bias, F32);
  if (L.Lod) {
    if (D.IntLod)
      Put(Field(FILod), L.Lod, I32);
    else
      Put(Field(FLod), L.Lod, F32);
  }
  if (L.MinLod)
    Put(Field(FMinLod), L.MinLod, F32);
  for (unsigned K = 0; K < 3; ++K) {
    if (L.GradX[K])
      Put(Elem(FGradX, K), L.GradX[K], F32);
    if (L.GradY[K])
      Put(Elem(FGradY, K), L.GradY[K], F32);
    if (L.Offset[K])
      Put(Elem(FOffset, K), L.Offset[K], I32);
  }
  for (unsigned K = 0; K < 8; ++K)
    if (L.Offsets[K])
      Put(Elem(FGatherOffsets, K), L.Offsets[K], I32);
  for (unsigned K = 0; K < 4; ++K)
    if (L.Texel[K])
      Put(Elem(FValue, K), L.Texel[K], I32);
  Value *Null = ConstantPointerNull::get(B.getPtrTy());
  return B.CreateCall(RT.Op, {Ops, L.Image ? L.Image : Null,
                              L.Sampler ? L.Sampler : Null, Result});
}

void loadImageHandles(IRBuilder<> &B, Value *Data, TypeKind Kind,
                      bool TexelBuffer, SmallVectorImpl<Value *> &Handles) {
  llvm::Type *Ptr = B.getPtrTy();
  if (Kind != TypeKind::SampledImage || TexelBuffer) {
    Handles.push_back(Data);
    // A sampled texel buffer (samplerBuffer) has an s2l_image descriptor,
    // as Vulkan's uniform texel buffers do; its fetches take no sampler.
    if (Kind == TypeKind::SampledImage)
      Handles.push_back(ConstantPointerNull::get(B.getPtrTy()));
    return;
  }
  // s2l_combined_image_sampler {image, sampler}; an unbound one (null)
  // reads as two null handles, through a zeroed stand-in.
  llvm::Module &LM = *B.GetInsertBlock()->getModule();
  llvm::Type *PairTy = ArrayType::get(Ptr, 2);
  GlobalVariable *Zero = LM.getGlobalVariable("s2l.null.combined", true);
  if (!Zero)
    Zero = new GlobalVariable(LM, PairTy, /*isConstant=*/true,
                              GlobalValue::PrivateLinkage,
                              llvm::Constant::getNullValue(PairTy),
                              "s2l.null.combined");
  Value *Pair = B.CreateSelect(B.CreateIsNull(Data), Zero, Data);
  Handles.push_back(B.CreateLoad(Ptr, Pair, "image"));
  Handles.push_back(B.CreateLoad(
      Ptr, B.CreateConstInBoundsGEP1_32(Ptr, Pair, 1), "sampler"));
}

void createOpaqueRefs(IRBuilder<> &B, const Module &M,
                      function_ref<Value *()> GetSets,
                      function_ref<std::string(uint32_t)> Name,
                      std::unordered_map<uint32_t, OpaqueRef> &Refs) {
  Refs.clear();
  for (ValueId Id : M.GlobalVariables) {
    const Variable &V = *M.findVariable(Id.value());
    if (V.Storage != spv::StorageClass::UniformConstant)
      continue;
    DescriptorFields D = loadBindingDescriptor(
        B, M, Id.value(), GetSets(), Name(Id.value()), ".data", ".count");
    OpaqueRef R;
    R.Var = Id.value();
    R.Pointee = V.Pointee;
    R.Data = D.Data;
    TypeKind K = M.type(V.Pointee).Kind;
    if (K == TypeKind::Array || K == TypeKind::RuntimeArray)
      R.Count = descriptorArrayCount(B, descriptorArrayShape(M, V.Pointee),
                                     D.Size);
    Refs[Id.value()] = std::move(R);
  }
}

Expected<OpaqueRef> opaqueAccessChain(const Instruction &I,
                                      const OpaqueRef &Base) {
  if (!Base.Count || !Base.Indices.empty())
    return makeError("unsupported: indexing into an image, sampler or an "
                     "element of an array of them");
  OpaqueRef R = Base;
  for (size_t K = 1; K < I.Operands.size(); ++K)
    R.Indices.push_back(I.Operands[K]);
  return R;
}

Expected<TypeKind> opaqueHandleKind(const Module &M, const OpaqueRef &R) {
  const spirv2llvm::Type *ET = &M.type(R.Pointee);
  while (ET->Kind == TypeKind::Array || ET->Kind == TypeKind::RuntimeArray)
    ET = &M.type(ET->Element);
  if (ET->Kind != TypeKind::Image && ET->Kind != TypeKind::Sampler &&
      ET->Kind != TypeKind::SampledImage)
    return makeError("unsupported: a UniformConstant variable of type " +
                     M.friendlyName(R.Pointee.value()));
  if (R.Count && R.Indices.empty())
    return makeError(
        "unsupported: loading an array of images or samplers whole");
  return ET->Kind;
}

Expected<Value *> opaqueElementData(IRBuilder<> &B, const Module &M,
                                    const OpaqueRef &R,
                                    ArrayRef<Value *> Indices,
                                    const std::string &Name) {
  if (!R.Count)
    return R.Data;
  DescriptorArrayShape Shape;
  std::string Error;
  Instruction Chain;
  Chain.Operands.push_back(R.Var);
  Chain.Operands.insert(Chain.Operands.end(), R.Indices.begin(),
                        R.Indices.end());
  if (!descriptorIndexCount(M, R.Pointee, Chain, 1, Shape, Error))
    return makeError(Error);
  auto [Flat, InRange] =
      flatDescriptorIndex(B, Indices, Shape.InnerDims, R.Count, Name);
  return loadDescriptorElement(B, *B.GetInsertBlock()->getModule(), R.Data,
                               Flat, InRange, Name)
      .Data;
}

Error checkImageHandleOp(const Module &M, const Instruction &I) {
  auto KindOf = [&](uint32_t TypeId) {
    const spirv2llvm::Type *T = M.findType(TypeId);
    return T ? T->Kind : TypeKind::Unsupported;
  };
  auto ValueKind = [&](size_t K) {
    return K < I.Operands.size() ? KindOf(M.typeOf(I.Operands[K]).value())
                                 : TypeKind::Unsupported;
  };
  TypeKind R = KindOf(I.ResultType.value());
  auto Want = [&](bool Ok, const char *What) -> Error {
    if (Ok)
      return Error::success();
    return makeError(Twine("operands or result are not ") + What);
  };
  switch (opcodeInfo(I.Opcode).Image) {
  case ImageOpKind::SampledImage:
    return Want(R == TypeKind::SampledImage &&
                    ValueKind(0) == TypeKind::Image &&
                    ValueKind(1) == TypeKind::Sampler,
                "a sampled image made of an image and a sampler");
  case ImageOpKind::Image:
    return Want(R == TypeKind::Image && ValueKind(0) == TypeKind::SampledImage,
                "an image taken from a sampled image");
  case ImageOpKind::TexelsResident:
    return Want(R == TypeKind::Bool && ValueKind(0) == TypeKind::Int,
                "a boolean from an integer residency code");
  case ImageOpKind::TexelPointer:
    return Want(R == TypeKind::Pointer && I.Operands.size() >= 3 &&
                    (ValueKind(1) == TypeKind::Int ||
                     ValueKind(1) == TypeKind::Vector) &&
                    ValueKind(2) == TypeKind::Int,
                "a texel pointer from integer coordinates");
  default:
    return Error::success();
  }
}

} // namespace spirv2llvm
