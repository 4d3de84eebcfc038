//===- EmitInlineSample.cpp - 8-bit RGBA 2D samples in vectors ------------===//
//
// A sampled image is a call of s2l_image_op per lane (EmitImage.cpp): about
// 225 ns a bilinear sample, against lavapipe's 5 (docs/performance.md,
// "Images"). The common case of textures, a 2D R8G8B8A8_UNORM or
// B8G8R8A8_UNORM image of one level with a nearest or linear sampler that
// repeats or clamps to the edge, runs here in W-lane vectors instead: the
// texel addresses from the coordinates, one masked gather per corner, the
// UNORM conversion and the filter weights in vectors.
//
// The format and the sampler are known only when the descriptors are bound,
// so the instruction tests them (uniform loads and compares, a branch) and
// falls back to the call when anything differs: other formats, mip chains
// but with an explicit Lod or (fragment shaders) an implicit one,
// different min and mag filters (the level of detail would then decide the
// filter), anisotropy, depth compare, unnormalized coordinates, the other
// address modes, arrays, offsets. llvmpipe specializes its sampling code to
// the bound state at draw time; a check per instruction costs a few
// compares and keeps one compiled shader for every binding.
//
// The results are the runtime's to the bit (SamplerFilter.cpp): u = s *
// width in float, floor(u) for nearest, floor((u - 0.5) * 256) in double
// for linear (8 bits of sub-texel weight), the spec's wrap, c / 255
// correctly rounded (decodeUnorm8), and the corners summed in the same
// order, with the operations marked NoContraction so that the JIT does not
// fuse them.
// `-s2l-inline-sampling=false` turns the path off (for A/B benchmarks).
//
//===----------------------------------------------------------------------===//
#include "codegen/common/ImageInstr.h"
#include "codegen/simd/ImageDescriptors.h"
#include "codegen/simd/SimdEmitter.h"

#include "spirv2llvm/abi.h"
#include "support/Contraction.h"

#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace spirv2llvm::simd {

using llvm::Constant;
using llvm::Function;
using llvm::Type;

namespace {

cl::opt<bool> InlineSampling(
    "s2l-inline-sampling", cl::Hidden, cl::init(true),
    cl::desc("sample 2D RGBA8 images of one level inline when the bound "
             "sampler allows (else: a runtime call per lane)"));

constexpr uint32_t FormatR8G8B8A8Unorm = 37, FormatB8G8R8A8Unorm = 44;
constexpr uint32_t AddressRepeat = 0, AddressClampToEdge = 2;
/// The largest side the inline path takes: index arithmetic stays in 32
/// bits (|index| <= 2^28 + 1 after floorToInt's clamp).
constexpr uint32_t MaxSide = 1u << 16;

/// Field \p Path (indices after the pointer's) of the struct \p T at \p P.
Value *loadField(IRBuilder<> &B, StructType *T, Value *P,
                 ArrayRef<Value *> Path, Type *FieldTy, const Twine &Name) {
  SmallVector<Value *, 4> Idx{B.getInt32(0)};
  Idx.append(Path.begin(), Path.end());
  return B.CreateLoad(FieldTy, B.CreateInBoundsGEP(T, P, Idx), Name);
}

/// Component \p K (0 red) of W packed texels of 8-bit UNORM components,
/// in R8G8B8A8 order or, when \p Bgra (a uniform i1), B8G8R8A8, as floats:
/// c / 255 correctly
/// rounded, as the runtime's table, in three float operations: 1/255 split
/// into Hi (cut to 16 bits, so c * Hi is exact for c < 256) and Lo;
/// c * Lo is off by about 2^-40 of the result, and c / 255 is never
/// closer than about 2^-33 of itself to a float rounding boundary, so
/// the sum rounds to c / 255's float (checked for every c by
/// ImageInlineExec's tests, which compare with the runtime bit for bit).
Value *decodeUnorm8(IRBuilder<> &B, Value *Texel, unsigned K, Value *Bgra,
                    unsigned W, unsigned ExactKind) {
  auto *V32 = FixedVectorType::get(B.getInt32Ty(), W);
  auto *VF = FixedVectorType::get(B.getFloatTy(), W);
  // B8G8R8A8 holds red in byte 2 and blue in byte 0.
  unsigned Byte = K, Swapped = K == 0 ? 2 : K == 2 ? 0 : K;
  Value *Shift = B.CreateVectorSplat(
      W, Byte == Swapped ? (Value *)B.getInt32(8 * Byte)
                         : B.CreateSelect(Bgra, B.getInt32(8 * Swapped),
                                          B.getInt32(8 * Byte)));
  constexpr float Hi = 0x1.01p-8f; // 1/255 cut to 16 bits (9 significant)
  constexpr float Lo = float(1.0 / 255.0 - double(Hi));
  Value *C = B.CreateUIToFP(
      B.CreateAnd(B.CreateLShr(Texel, Shift), ConstantInt::get(V32, 255)), VF);
  auto Exact = [&](Value *V) {
    cast<llvm::Instruction>(V)->setMetadata(ExactKind,
                                            MDNode::get(B.getContext(), {}));
    return V;
  };
  return Exact(B.CreateFAdd(Exact(B.CreateFMul(C, ConstantFP::get(VF, Hi))),
                            Exact(B.CreateFMul(C, ConstantFP::get(VF, Lo)))));
}

} // namespace

namespace {

/// The texel components where paths meet, with the block each path ends in.
using PathEnd = std::pair<SmallVector<Value *, 4>, BasicBlock *>;

/// One level's fields per lane (splats for one-level images).
struct LevelLanes {
  Value *Offset, *Row, *Width, *Height; // <W x i32>
};

/// Builds the inline path of one sample, step for step as the runtime's
/// SamplerFilter.cpp: the descriptor check (checkDescriptors), one level's
/// filter (filterLevel: coordinates, wrap, gathers, weights) and, for mip
/// chains with an explicit Lod, the level selection and blend
/// (sampleMipChain).
class InlineSampler {
public:
  InlineSampler(IRBuilder<> &B, llvm::Module &LM, unsigned W,
                const ImageInstr &D, const LaneValue &Handle,
                const LaneValue &Coord, Value *Mask)
      : B(B), Ctx(B.getContext()), W(W), D(D), Mask(Mask),
        CoordU(Coord.Comps[0]), CoordV(Coord.Comps[1]) {
    I32 = B.getInt32Ty();
    F32 = B.getFloatTy();
    V32 = FixedVectorType::get(I32, W);
    V64 = FixedVectorType::get(B.getInt64Ty(), W);
    VF = FixedVectorType::get(F32, W);
    VD = FixedVectorType::get(B.getDoubleTy(), W);
    ImageTy = imageStructType(Ctx);
    SamplerTy = samplerStructType(Ctx);
    Img = descriptorOrZero(B, LM, Handle.Comps[0], ImageTy);
    Smp = descriptorOrZero(B, LM, Handle.Comps[1], SamplerTy);
    Fn = B.GetInsertBlock()->getParent();
    ExactKind = Ctx.getMDKindID(NoContractionMetadata);
    Zero32 = Constant::getNullValue(V32);
  }

  /// Loads the fields the inline path reads; true (i1) when the image and
  /// sampler are ones it handles, but for the level count.
  Value *checkDescriptors();
  /// Whether the image has one level, or levels the mip path handles
  /// (with \p MipPath: a level of detail per lane, explicit or from the
  /// quad's derivatives).
  Value *checkLevels(bool MipPath);
  /// The one-level path; returns its result and end block.
  PathEnd sampleOneLevel();
  /// selectLod with an explicit Lod and the blend of two levels; lanes
  /// whose levels the inline path cannot read send all lanes to \p Slow.
  /// \p OpBias: the instruction's Bias operand per lane, or null.
  PathEnd sampleMipChain(Value *LodLane, BasicBlock *Slow, Value *OpBias);
  /// One phi per component over \p Paths.
  SmallVector<Value *, 4> merge(ArrayRef<PathEnd> Paths, const char *Name);
  /// Implicit LOD in a fragment shader: lambda_base = log2(rho_max) per
  /// lane from the coordinates' fine derivatives over each 2x2 quad, as
  /// the runtime computes it from the gradients the call path passes.
  Value *implicitLambdaBase();

  Value *OneLevel = nullptr;

private:
  Value *field(StructType *T, Value *P, std::initializer_list<unsigned> Path,
               Type *FieldTy, const char *Name) {
    SmallVector<Value *, 4> Idx;
    for (unsigned K : Path)
      Idx.push_back(B.getInt32(K));
    return loadField(B, T, P, Idx, FieldTy, Name);
  }
  Value *is(Value *V, uint32_t K) { return B.CreateICmpEQ(V, B.getInt32(K)); }
  Value *exact(Value *V) {
    if (auto *I = dyn_cast<llvm::Instruction>(V))
      I->setMetadata(ExactKind, MDNode::get(Ctx, {}));
    return V;
  }
  Value *vec(Value *S) { return B.CreateVectorSplat(W, S); }
  Value *lanes(Value *V) {
    return V->getType()->isVectorTy() ? V : B.CreateVectorSplat(W, V);
  }
  Value *decode(Value *Texel, unsigned K) {
    return decodeUnorm8(B, Texel, K, Bgra, W, ExactKind);
  }
  SmallVector<Value *, 2> wrap(SmallVector<Value *, 2> Idx, Value *SizeV,
                               Value *Mode, const char *Axis);
  Value *floorToInt(Value *X);
  void linearCoord(Value *X, Value *&I0, Value *&Alpha);
  Value *gather(const LevelLanes &L, Value *X, Value *Y);
  SmallVector<Value *, 4> filterLevel(const LevelLanes &L);
  PathEnd filterNearest(const LevelLanes &L, Value *U, Value *V,
                        BasicBlock *Done);
  PathEnd filterLinear(const LevelLanes &L, Value *U, Value *V,
                       BasicBlock *Done);
  std::pair<LevelLanes, Value *> levelLanes(Value *Lv);

  IRBuilder<> &B;
  LLVMContext &Ctx;
  unsigned W;
  const ImageInstr &D;
  Value *Mask;
  Value *CoordU, *CoordV;
  Type *I32, *F32;
  VectorType *V32, *V64, *VF, *VD;
  StructType *ImageTy, *SamplerTy;
  Value *Img, *Smp;
  Function *Fn;
  unsigned ExactKind;
  Value *Zero32;
  Value *Data = nullptr, *Offset0 = nullptr, *Row = nullptr, *Width = nullptr,
        *Height = nullptr, *Filter = nullptr, *ModeU = nullptr,
        *ModeV = nullptr, *Bgra = nullptr, *Levels = nullptr,
        *MipMode = nullptr;
};

Value *InlineSampler::checkDescriptors() {
  Data = field(ImageTy, Img, {0}, B.getPtrTy(), "img.data");
  Offset0 = field(ImageTy, Img, {7, 0, 0}, B.getInt64Ty(), "img.offset");
  Row = field(ImageTy, Img, {7, 0, 1}, B.getInt64Ty(), "img.row");
  Width = field(ImageTy, Img, {7, 0, 3}, I32, "img.width");
  Height = field(ImageTy, Img, {7, 0, 4}, I32, "img.height");
  Filter = field(SamplerTy, Smp, {SamplerMagFilter}, I32, "smp.mag");
  ModeU = field(SamplerTy, Smp, {SamplerAddressMode, 0}, I32, "smp.u");
  ModeV = field(SamplerTy, Smp, {SamplerAddressMode, 1}, I32, "smp.v");

  auto RepeatOrClamp = [&](Value *Mode) {
    return B.CreateOr(is(Mode, AddressRepeat), is(Mode, AddressClampToEdge));
  };
  auto Side = [&](Value *S) {
    return B.CreateAnd(B.CreateICmpNE(S, B.getInt32(0)),
                       B.CreateICmpULE(S, B.getInt32(MaxSide)));
  };
  // Texel offsets in 32 bits (a gather of W lanes in one instruction):
  // level 0 ends below 2 GiB (other levels are checked per lane).
  Value *End0 = B.CreateAdd(
      Offset0, B.CreateMul(Row, B.CreateZExt(Height, B.getInt64Ty())));
  Value *Ok = B.CreateAnd(B.CreateICmpULE(End0, B.getInt64(INT32_MAX)),
                          B.CreateICmpULE(Offset0, B.getInt64(INT32_MAX)));
  Value *Format = field(ImageTy, Img, {1}, I32, "img.format");
  Bgra = is(Format, FormatB8G8R8A8Unorm);
  for (Value *C :
       {B.CreateOr(is(Format, FormatR8G8B8A8Unorm), Bgra),
        is(field(ImageTy, Img, {2}, I32, "img.view"), S2L_VIEW_2D),
        is(field(ImageTy, Img, {5}, I32, "img.samples"), 1),
        B.CreateIsNotNull(Data), Side(Width), Side(Height),
        B.CreateICmpEQ(
            Filter, field(SamplerTy, Smp, {SamplerMinFilter}, I32, "smp.min")),
        B.CreateICmpULE(Filter, B.getInt32(1)), RepeatOrClamp(ModeU),
        RepeatOrClamp(ModeV),
        B.CreateNot(B.CreateFCmpOGT(
            field(SamplerTy, Smp, {SamplerMaxAnisotropy}, F32, "smp.aniso"),
            ConstantFP::get(F32, 1.0))),
        is(field(SamplerTy, Smp, {SamplerCompareEnable}, I32, "smp.compare"),
           0),
        is(field(SamplerTy, Smp, {SamplerUnnormalized}, I32, "smp.unnorm"), 0)})
    Ok = B.CreateAnd(Ok, C);
  return Ok;
}

Value *InlineSampler::checkLevels(bool MipPath) {
  Levels = field(ImageTy, Img, {4}, I32, "img.levels");
  MipMode = field(SamplerTy, Smp, {SamplerMipmapMode}, I32, "smp.mip");
  OneLevel = is(Levels, 1);
  if (!MipPath)
    return OneLevel;
  return B.CreateOr(
      OneLevel,
      B.CreateAnd(B.CreateICmpULE(Levels, B.getInt32(S2L_MAX_IMAGE_LEVELS)),
                  B.CreateICmpULE(MipMode, B.getInt32(1))));
}

SmallVector<Value *, 2> InlineSampler::wrap(SmallVector<Value *, 2> Idx,
                                            Value *SizeV, Value *Mode,
                                            const char *Axis) {
  // The spec's wrap for repeat and clamp to edge (wrapIndex) of the
  // indices \p Idx on one axis of sizes \p SizeV, behind a branch on the
  // (uniform) mode. floorMod in double with a correction step: exact for
  // these magnitudes.
  BasicBlock *Repeat =
      BasicBlock::Create(Ctx, Twine("wrap.repeat.") + Axis, Fn);
  BasicBlock *Clamp = BasicBlock::Create(Ctx, Twine("wrap.clamp.") + Axis, Fn);
  BasicBlock *Done = BasicBlock::Create(Ctx, Twine("wrap.") + Axis, Fn);
  B.CreateCondBr(is(Mode, AddressRepeat), Repeat, Clamp);
  B.SetInsertPoint(Repeat);
  Value *Recip =
      B.CreateFDiv(ConstantFP::get(VD, 1.0), B.CreateUIToFP(SizeV, VD));
  SmallVector<Value *, 2> Rep, Cl;
  for (Value *I : Idx) {
    Value *Q = B.CreateUnaryIntrinsic(
        Intrinsic::floor, B.CreateFMul(B.CreateSIToFP(I, VD), Recip));
    Value *Rem = B.CreateSub(I, B.CreateMul(B.CreateFPToSI(Q, V32), SizeV));
    Rem = B.CreateSelect(B.CreateICmpSLT(Rem, Zero32), B.CreateAdd(Rem, SizeV),
                         Rem);
    Rem = B.CreateSelect(B.CreateICmpSGE(Rem, SizeV), B.CreateSub(Rem, SizeV),
                         Rem);
    Rep.push_back(Rem);
  }
  BasicBlock *RepeatEnd = B.GetInsertBlock();
  B.CreateBr(Done);
  B.SetInsertPoint(Clamp);
  for (Value *I : Idx)
    Cl.push_back(B.CreateBinaryIntrinsic(
        Intrinsic::smax,
        B.CreateBinaryIntrinsic(Intrinsic::smin, I,
                                B.CreateSub(SizeV, ConstantInt::get(V32, 1))),
        Zero32));
  BasicBlock *ClampEnd = B.GetInsertBlock();
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  SmallVector<Value *, 2> Out;
  for (size_t K = 0; K < Idx.size(); ++K) {
    PHINode *P = B.CreatePHI(V32, 2);
    P->addIncoming(Rep[K], RepeatEnd);
    P->addIncoming(Cl[K], ClampEnd);
    Out.push_back(P);
  }
  return Out;
}

Value *InlineSampler::floorToInt(Value *X) {
  constexpr float Limit = 1 << 28;
  Value *C = B.CreateBinaryIntrinsic(
      Intrinsic::minnum,
      B.CreateBinaryIntrinsic(Intrinsic::maxnum, X,
                              ConstantFP::get(VF, -Limit)),
      ConstantFP::get(VF, Limit));
  Value *I = B.CreateFPToSI(B.CreateUnaryIntrinsic(Intrinsic::floor, C), V32);
  return B.CreateSelect(B.CreateFCmpUNO(X, X), Zero32, I);
}

void InlineSampler::linearCoord(Value *X, Value *&I0, Value *&Alpha) {
  // i0 = floor(u - 0.5) and alpha with 8 fraction bits (linearCoord).
  constexpr double Limit = double(1ll << 36);
  Value *Xd = B.CreateFPExt(X, VD);
  Value *Q = B.CreateUnaryIntrinsic(
      Intrinsic::floor,
      exact(B.CreateFMul(exact(B.CreateFSub(Xd, ConstantFP::get(VD, 0.5))),
                         ConstantFP::get(VD, 256.0))));
  Q = B.CreateBinaryIntrinsic(
      Intrinsic::minnum,
      B.CreateBinaryIntrinsic(Intrinsic::maxnum, Q,
                              ConstantFP::get(VD, -Limit)),
      ConstantFP::get(VD, Limit));
  Value *Qi = B.CreateSelect(B.CreateFCmpUNO(X, X), Constant::getNullValue(V64),
                             B.CreateFPToSI(Q, V64));
  I0 = B.CreateTrunc(B.CreateAShr(Qi, ConstantInt::get(V64, 8)), V32);
  Alpha = exact(B.CreateFMul(
      B.CreateUIToFP(
          B.CreateTrunc(B.CreateAnd(Qi, ConstantInt::get(V64, 255)), V32), VF),
      ConstantFP::get(VF, 1.0 / 256.0)));
}

SmallVector<Value *, 4> InlineSampler::merge(ArrayRef<PathEnd> Paths,
                                             const char *Name) {
  SmallVector<Value *, 4> Out;
  for (unsigned K = 0; K < D.ResultComps; ++K) {
    PHINode *P = B.CreatePHI(VF, unsigned(Paths.size()), Name);
    for (const PathEnd &E : Paths)
      P->addIncoming(E.first[K], E.second);
    Out.push_back(P);
  }
  return Out;
}

Value *InlineSampler::gather(const LevelLanes &L, Value *X, Value *Y) {
  // In range after the wrap, and the level ends below 2 GiB: an i32 index
  // vector, which x86 gathers W lanes at a time.
  Value *Off = B.CreateAdd(
      L.Offset, B.CreateAdd(B.CreateNUWMul(Y, L.Row),
                            B.CreateShl(X, ConstantInt::get(V32, 2))));
  Value *Ptrs = B.CreateGEP(B.getInt8Ty(), vec(Data), Off, "texel.addr");
  return B.CreateMaskedGather(V32, Ptrs, Align(4), Mask, Zero32, "texel");
}

PathEnd InlineSampler::filterNearest(const LevelLanes &L, Value *U, Value *V,
                                     BasicBlock *Done) {
  Value *NearX = wrap({floorToInt(U)}, L.Width, ModeU, "u")[0];
  Value *NearY = wrap({floorToInt(V)}, L.Height, ModeV, "v")[0];
  Value *NearTexel = gather(L, NearX, NearY);
  SmallVector<Value *, 4> NearOut;
  for (unsigned K = 0; K < D.ResultComps; ++K)
    NearOut.push_back(decode(NearTexel, K));
  BasicBlock *NearestEnd = B.GetInsertBlock();
  B.CreateBr(Done);
  return {NearOut, NearestEnd};
}

PathEnd InlineSampler::filterLinear(const LevelLanes &L, Value *U, Value *V,
                                    BasicBlock *Done) {
  // The four corners wrapped, weighted and summed in the runtime's order:
  // corner bit 0 is i + 1, bit 1 is j + 1.
  Value *I0, *Alpha, *J0, *Beta;
  linearCoord(U, I0, Alpha);
  linearCoord(V, J0, Beta);
  Value *One32 = ConstantInt::get(V32, 1);
  SmallVector<Value *, 2> X =
      wrap({I0, B.CreateAdd(I0, One32)}, L.Width, ModeU, "u");
  SmallVector<Value *, 2> Y =
      wrap({J0, B.CreateAdd(J0, One32)}, L.Height, ModeV, "v");
  Value *OneF = ConstantFP::get(VF, 1.0);
  Value *WX[2] = {exact(B.CreateFSub(OneF, Alpha)), Alpha};
  Value *WY[2] = {exact(B.CreateFSub(OneF, Beta)), Beta};
  SmallVector<Value *, 4> LinOut(D.ResultComps, nullptr);
  for (unsigned C = 0; C < 4; ++C) {
    Value *Texel = gather(L, X[C & 1], Y[C >> 1]);
    Value *Weight = exact(B.CreateFMul(WX[C & 1], WY[C >> 1]));
    for (unsigned K = 0; K < D.ResultComps; ++K) {
      Value *Term = exact(B.CreateFMul(Weight, decode(Texel, K)));
      LinOut[K] = LinOut[K] ? exact(B.CreateFAdd(LinOut[K], Term)) : Term;
    }
  }
  BasicBlock *LinearEnd = B.GetInsertBlock();
  B.CreateBr(Done);
  return {LinOut, LinearEnd};
}

SmallVector<Value *, 4> InlineSampler::filterLevel(const LevelLanes &L) {
  // filterLevel for one level: u = s * width, v = t * height in float,
  // then nearest or linear behind a branch on the sampler's filter.
  Value *U =
      exact(B.CreateFMul(lanes(CoordU), B.CreateUIToFP(L.Width, VF), "u"));
  Value *V =
      exact(B.CreateFMul(lanes(CoordV), B.CreateUIToFP(L.Height, VF), "v"));
  BasicBlock *Nearest = BasicBlock::Create(Ctx, "sample.nearest", Fn);
  BasicBlock *Linear = BasicBlock::Create(Ctx, "sample.linear", Fn);
  BasicBlock *Done = BasicBlock::Create(Ctx, "sample.filtered", Fn);
  B.CreateCondBr(is(Filter, 1), Linear, Nearest);
  B.SetInsertPoint(Nearest);
  PathEnd Near = filterNearest(L, U, V, Done);
  B.SetInsertPoint(Linear);
  PathEnd Lin = filterLinear(L, U, V, Done);
  B.SetInsertPoint(Done);
  return merge({Near, Lin}, "sample.texel");
}

PathEnd InlineSampler::sampleOneLevel() {
  LevelLanes L0{vec(B.CreateTrunc(Offset0, I32)), vec(B.CreateTrunc(Row, I32)),
                vec(Width), vec(Height)};
  SmallVector<Value *, 4> Out = filterLevel(L0);
  return {Out, B.GetInsertBlock()};
}

std::pair<LevelLanes, Value *> InlineSampler::levelLanes(Value *Lv) {
  // The level's fields per lane (inactive lanes read level 0's).
  auto G = [&](unsigned K, Type *T, Value *Pass) {
    Value *Ptrs = B.CreateInBoundsGEP(
        ImageTy, Img, {B.getInt32(0), B.getInt32(7), Lv, B.getInt32(K)});
    return B.CreateMaskedGather(FixedVectorType::get(T, W), Ptrs, Align(4),
                                Mask, Pass);
  };
  Value *Off64 = G(0, B.getInt64Ty(), vec(Offset0));
  Value *Row64 = G(1, B.getInt64Ty(), vec(Row));
  Value *Wd = G(3, I32, vec(Width)), *Ht = G(4, I32, vec(Height));
  // The per-lane checks of the one-level path: sides 1 to MaxSide, the
  // level's end below 2 GiB.
  Value *End = B.CreateAdd(Off64, B.CreateMul(Row64, B.CreateZExt(Ht, V64)));
  Value *Bad = B.CreateOr(
      B.CreateOr(B.CreateICmpEQ(Wd, Zero32), B.CreateICmpEQ(Ht, Zero32)),
      B.CreateOr(
          B.CreateOr(B.CreateICmpUGT(Wd, ConstantInt::get(V32, MaxSide)),
                     B.CreateICmpUGT(Ht, ConstantInt::get(V32, MaxSide))),
          B.CreateOr(
              B.CreateICmpUGT(End, ConstantInt::get(V64, INT32_MAX)),
              B.CreateICmpUGT(Off64, ConstantInt::get(V64, INT32_MAX)))));
  return std::make_pair(
      LevelLanes{B.CreateTrunc(Off64, V32), B.CreateTrunc(Row64, V32), Wd, Ht},
      B.CreateAnd(Bad, Mask));
}

Value *InlineSampler::implicitLambdaBase() {
  // The gradients EmitImage.cpp gives the call: fine differences within
  // each quad (lane 4q + i is pixel (i & 1, i >> 1)).
  auto Diff = [&](Value *V, unsigned Bit) -> Value * {
    if (!V->getType()->isVectorTy())
      return ConstantFP::get(VF, 0.0);
    SmallVector<int, 16> Hi, Lo;
    for (unsigned L = 0; L < W; ++L) {
      Hi.push_back(int(L | Bit));
      Lo.push_back(int(L & ~Bit));
    }
    return B.CreateFSub(B.CreateShuffleVector(V, Hi),
                        B.CreateShuffleVector(V, Lo));
  };
  // derivatives() and selectLod's length3: level-0 texel-space
  // derivatives, rho = sqrt(x * x + y * y + 0 * 0), step for step (no
  // contraction: the runtime is built without FMA).
  Value *Wd = vec(B.CreateUIToFP(Width, F32));
  Value *Ht = vec(B.CreateUIToFP(Height, F32));
  auto Rho = [&](unsigned Bit) {
    Value *X = exact(B.CreateFMul(Diff(CoordU, Bit), Wd));
    Value *Y = exact(B.CreateFMul(Diff(CoordV, Bit), Ht));
    Value *Sum = exact(B.CreateFAdd(
        exact(B.CreateFAdd(exact(B.CreateFMul(X, X)),
                           exact(B.CreateFMul(Y, Y)))),
        ConstantFP::get(VF, 0.0)));
    return B.CreateUnaryIntrinsic(Intrinsic::sqrt, Sum);
  };
  Value *RhoX = Rho(1), *RhoY = Rho(2);
  // std::max(RhoX, RhoY): RhoY only when RhoX < RhoY (NaN keeps RhoX).
  Value *RhoMax =
      B.CreateSelect(B.CreateFCmpOLT(RhoX, RhoY), RhoY, RhoX, "rho.max");
  // log2 as the runtime takes it: libm's log2f, one call per lane. The
  // calls are nobuiltin so that LLVM neither folds them into llvm.log2
  // nor vectorizes them into libmvec's (differently rounded) variants.
  llvm::Module &LM = *Fn->getParent();
  FunctionCallee Log2 =
      LM.getOrInsertFunction("log2f", FunctionType::get(F32, {F32}, false));
  if (auto *F = dyn_cast<Function>(Log2.getCallee())) {
    F->setDoesNotThrow();
    F->setWillReturn();
  }
  Value *Out = PoisonValue::get(VF);
  for (unsigned L = 0; L < W; ++L) {
    CallInst *C = B.CreateCall(Log2, {B.CreateExtractElement(RhoMax, L)});
    C->addFnAttr(Attribute::NoBuiltin);
    C->setDoesNotAccessMemory();
    Out = B.CreateInsertElement(Out, C, L);
  }
  return Out;
}

PathEnd InlineSampler::sampleMipChain(Value *LodLane, BasicBlock *Slow,
                                      Value *OpBias) {
  // selectLod with an explicit Lod, step for step in float.
  auto SmpF = [&](unsigned K, const char *Name) {
    return vec(field(SamplerTy, Smp, {K}, F32, Name));
  };
  auto ClampF = [&](Value *X, Value *Lo, Value *Hi) { // std::clamp
    return B.CreateSelect(B.CreateFCmpOLT(X, Lo), Lo,
                          B.CreateSelect(B.CreateFCmpOLT(Hi, X), Hi, X));
  };
  // The sampler's bias plus the Bias operand, then clamped (selectLod).
  Value *Bias = SmpF(SamplerMipLodBias, "smp.bias");
  if (OpBias)
    Bias = exact(B.CreateFAdd(Bias, OpBias, "bias"));
  Bias = ClampF(Bias, ConstantFP::get(VF, -16.0), ConstantFP::get(VF, 16.0));
  Value *Lambda = exact(B.CreateFAdd(LodLane, Bias, "lambda.prime"));
  Value *LodMin = SmpF(SamplerMinLod, "smp.minlod");
  Value *LodMax = SmpF(SamplerMaxLod, "smp.maxlod");
  Lambda = B.CreateSelect(B.CreateFCmpOGT(Lambda, LodMax), LodMax, Lambda);
  Lambda = B.CreateSelect(B.CreateOr(B.CreateFCmpOLT(Lambda, LodMin),
                                     B.CreateFCmpUNO(Lambda, Lambda)),
                          LodMin, Lambda);
  Value *ZeroF = ConstantFP::get(VF, 0.0);
  Lambda = B.CreateSelect(B.CreateFCmpUNO(Lambda, Lambda), ZeroF, Lambda);
  Value *QI = B.CreateSub(Levels, B.getInt32(1));
  Value *Q = vec(B.CreateUIToFP(QI, F32));
  Value *DPrime = ClampF(Lambda, ZeroF, Q);
  // Linear mipmaps: floor(d') and the next level, delta = d' - floor(d');
  // nearest: 0 if d' <= 0.5, else ceil(d' + 0.5) - 1.
  Value *Hi = B.CreateUnaryIntrinsic(Intrinsic::floor, DPrime);
  Value *QV = vec(QI);
  Value *LinL0 = B.CreateFPToUI(Hi, V32);
  Value *LinL1 = B.CreateBinaryIntrinsic(
      Intrinsic::umin, B.CreateAdd(LinL0, ConstantInt::get(V32, 1)), QV);
  Value *Delta = exact(B.CreateFSub(DPrime, Hi, "delta"));
  Value *NearD = B.CreateSelect(
      B.CreateFCmpOLE(DPrime, ConstantFP::get(VF, 0.5)), Zero32,
      B.CreateFPToUI(
          exact(B.CreateFSub(
              B.CreateUnaryIntrinsic(
                  Intrinsic::ceil,
                  exact(B.CreateFAdd(DPrime, ConstantFP::get(VF, 0.5)))),
              ConstantFP::get(VF, 1.0))),
          V32));
  NearD = B.CreateBinaryIntrinsic(Intrinsic::umin, NearD, QV);
  Value *MipLinear = is(MipMode, 1);
  Value *Lv0 = B.CreateSelect(MipLinear, LinL0, NearD, "level");
  Value *Lv1 = B.CreateSelect(MipLinear, LinL1, NearD, "level.next");
  auto [F0, Bad0] = levelLanes(Lv0);
  auto [F1, Bad1] = levelLanes(Lv1);
  Value *AnyBad = B.CreateOrReduce(B.CreateOr(Bad0, Bad1));
  BasicBlock *MipGo = BasicBlock::Create(Ctx, "sample.mip.filter", Fn);
  B.CreateCondBr(AnyBad, Slow, MipGo);
  B.SetInsertPoint(MipGo);
  SmallVector<Value *, 4> T0 = filterLevel(F0);
  BasicBlock *T0End = B.GetInsertBlock();
  BasicBlock *Blend = BasicBlock::Create(Ctx, "sample.mip.blend", Fn);
  BasicBlock *MipDone = BasicBlock::Create(Ctx, "sample.mip.done", Fn);
  B.CreateCondBr(MipLinear, Blend, MipDone);
  B.SetInsertPoint(Blend);
  SmallVector<Value *, 4> T1 = filterLevel(F1);
  // (1 - delta) * T0 + delta * T1 where the levels differ and delta > 0.
  Value *Mix =
      B.CreateAnd(B.CreateICmpNE(Lv0, Lv1), B.CreateFCmpOGT(Delta, ZeroF));
  Value *OneMinus = exact(B.CreateFSub(ConstantFP::get(VF, 1.0), Delta));
  SmallVector<Value *, 4> Blended;
  for (unsigned K = 0; K < D.ResultComps; ++K)
    Blended.push_back(
        B.CreateSelect(Mix,
                       exact(B.CreateFAdd(exact(B.CreateFMul(OneMinus, T0[K])),
                                          exact(B.CreateFMul(Delta, T1[K])))),
                       T0[K]));
  BasicBlock *BlendEnd = B.GetInsertBlock();
  B.CreateBr(MipDone);
  B.SetInsertPoint(MipDone);
  return {merge({{T0, T0End}, {Blended, BlendEnd}}, "sample.mip"), MipDone};
}

} // namespace

SimdEmitter::InlineSample
SimdEmitter::emitInlineSample(const ImageInstr &D, const LaneValue &Handle,
                              const LaneValue &Coord) {
  InlineSample R;
  if (!InlineSampling || D.Op != S2L_IMAGE_OP_SAMPLE || D.Dref || D.Sparse ||
      D.Dim != 1 /* 2D */ || D.Arrayed || D.MS || D.Kind != S2L_IMAGE_FLOAT ||
      D.Offset || D.Offsets || D.MinLod || !D.HasSampler || !D.ResultFloat ||
      D.ResultComps == 0 || D.ResultComps > 4 || Handle.Comps.size() < 2 ||
      Coord.Comps.size() < 2)
    return R;
  // Uniform descriptors (the check is one branch), varying coordinates
  // (else the call runs once for the whole group anyway).
  if (Handle.Comps[0]->getType()->isVectorTy() ||
      Handle.Comps[1]->getType()->isVectorTy() ||
      !Coord.Comps[0]->getType()->getScalarType()->isFloatTy() ||
      !Coord.Comps[1]->getType()->getScalarType()->isFloatTy() ||
      (!Coord.Comps[0]->getType()->isVectorTy() &&
       !Coord.Comps[1]->getType()->isVectorTy()))
    return R;

  InlineSampler S(B, *LM, W, D, Handle, Coord, FS.CurMask);
  Value *Ok = S.checkDescriptors();
  // Mip chains: with an explicit level of detail (textureLod), or an
  // implicit one in fragment shaders (texture), whose log2 is libm's, as
  // in the runtime, with or without a Bias operand. Gradients take the
  // call.
  Value *LodLane = nullptr;
  // Fragment shaders' implicit LOD: computed in the mip path only (its
  // log2 calls are the costly part), from the quad derivatives.
  bool QuadLod = false;
  if (D.Lod && !D.Bias && !D.GradX) {
    LaneValue L = get(D.Lod);
    if (!L.Comps.empty() && L.Comps[0]->getType()->getScalarType()->isFloatTy())
      LodLane = splat(L.Comps[0]);
  } else if (D.ImplicitLod) {
    if (EP.Model == spv::ExecutionModel::Fragment)
      QuadLod = true;
    else // No quads: lod 0 (EmitImage.cpp).
      LodLane = ConstantFP::get(FixedVectorType::get(B.getFloatTy(), W), 0.0);
  }
  bool MipPath = LodLane || QuadLod;
  Ok = B.CreateAnd(Ok, S.checkLevels(MipPath));

  llvm::Function *Fun = B.GetInsertBlock()->getParent();
  BasicBlock *Fast = BasicBlock::Create(Ctx, "sample.inline", Fun);
  BasicBlock *Slow = BasicBlock::Create(Ctx, "sample.call", Fun);
  R.Join = BasicBlock::Create(Ctx, "sample.join", Fun);
  BasicBlock *FastJoin = BasicBlock::Create(Ctx, "sample.inline.join", Fun);
  B.CreateCondBr(Ok, Fast, Slow);

  B.SetInsertPoint(Fast);
  BasicBlock *One = BasicBlock::Create(Ctx, "sample.one.level", Fun);
  BasicBlock *Mip =
      MipPath ? BasicBlock::Create(Ctx, "sample.mip", Fun) : nullptr;
  if (Mip)
    B.CreateCondBr(S.OneLevel, One, Mip);
  else
    B.CreateBr(One);
  B.SetInsertPoint(One);
  SmallVector<PathEnd, 2> Results{S.sampleOneLevel()};
  B.CreateBr(FastJoin);
  if (Mip) {
    B.SetInsertPoint(Mip);
    if (QuadLod)
      LodLane = S.implicitLambdaBase();
    Value *OpBias = nullptr;
    if (D.Bias) {
      LaneValue Bv = get(D.Bias);
      OpBias = splat(Bv.Comps[0]);
    }
    Results.push_back(S.sampleMipChain(LodLane, Slow, OpBias));
    B.CreateBr(FastJoin);
  }

  B.SetInsertPoint(FastJoin);
  R.Comps = S.merge(Results, "sample.texel");
  R.FastEnd = FastJoin;
  B.CreateBr(R.Join);
  B.SetInsertPoint(Slow);
  return R;
}

// OpImageFetch of a 2D sampled image, in vectors when the bound image is
// R8G8B8A8_UNORM or B8G8R8A8_UNORM and the level is uniform and exists: bounds, address and
// conversion as the storage-image path (EmitImage.cpp); lanes outside the
// level read zero, as s2l_image_op's robust access does.
SimdEmitter::InlineSample
SimdEmitter::emitInlineFetch(const ImageInstr &D, const LaneValue &Handle,
                             const LaneValue &Coord) {
  InlineSample R;
  if (!InlineSampling || D.Op != S2L_IMAGE_OP_FETCH || D.Sparse ||
      D.Dim != 1 /* 2D */ || D.Arrayed || D.MS || D.Kind != S2L_IMAGE_FLOAT ||
      D.Offset || D.Sample || !D.ResultFloat || D.ResultComps == 0 ||
      D.ResultComps > 4 || Handle.Comps.empty() || Coord.Comps.size() < 2 ||
      Handle.Comps[0]->getType()->isVectorTy())
    return R;
  Value *Lod = nullptr;
  if (D.Lod) {
    LaneValue L = get(D.Lod);
    if (L.Comps.empty() || L.Comps[0]->getType()->isVectorTy() ||
        !L.Comps[0]->getType()->isIntegerTy())
      return R;
    Lod = B.CreateSExtOrTrunc(L.Comps[0], B.getInt32Ty());
  }
  for (unsigned K = 0; K < 2; ++K)
    if (!Coord.Comps[K]->getType()->getScalarType()->isIntegerTy())
      return R;
  if (!Coord.Comps[0]->getType()->isVectorTy() &&
      !Coord.Comps[1]->getType()->isVectorTy())
    return R;

  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty(), *Ptr = B.getPtrTy();
  VectorType *V32 = FixedVectorType::get(I32, W);
  StructType *ImageTy = imageStructType(Ctx);
  Value *Img = descriptorOrZero(B, *LM, Handle.Comps[0], ImageTy);
  if (!Lod)
    Lod = B.getInt32(0);
  // The level index is checked before its fields are read: a level past
  // the array would be outside the descriptor.
  Value *Levels = loadField(B, ImageTy, Img, {B.getInt32(4)}, I32, "img.levels");
  Value *LevelOk = B.CreateAnd(
      B.CreateICmpULT(Lod, Levels),
      B.CreateICmpULT(Lod, B.getInt32(S2L_MAX_IMAGE_LEVELS)));
  Value *Level = B.CreateSelect(LevelOk, Lod, B.getInt32(0));
  auto LevelField = [&](unsigned K, Type *T, const char *Name) {
    return loadField(B, ImageTy, Img, {B.getInt32(7), Level, B.getInt32(K)}, T,
                     Name);
  };
  Value *Data = loadField(B, ImageTy, Img, {B.getInt32(0)}, Ptr, "img.data");
  Value *Offset = LevelField(0, I64, "img.offset");
  Value *Row = LevelField(1, I64, "img.row");
  Value *Width = LevelField(3, I32, "img.width");
  Value *Height = LevelField(4, I32, "img.height");
  auto Is = [&](Value *V, uint32_t K) { return B.CreateICmpEQ(V, B.getInt32(K)); };
  Value *Span = B.CreateMul(Row, B.CreateZExt(Height, I64));
  Value *Ok = B.CreateAnd(LevelOk, B.CreateICmpULE(Span, B.getInt64(INT32_MAX)));
  Value *Format =
      loadField(B, ImageTy, Img, {B.getInt32(1)}, I32, "img.format");
  Value *Bgra = Is(Format, FormatB8G8R8A8Unorm);
  for (Value *C :
       {B.CreateOr(Is(Format, FormatR8G8B8A8Unorm), Bgra),
        Is(loadField(B, ImageTy, Img, {B.getInt32(2)}, I32, "img.view"),
           S2L_VIEW_2D),
        Is(loadField(B, ImageTy, Img, {B.getInt32(5)}, I32, "img.samples"), 1),
        B.CreateIsNotNull(Data), B.CreateICmpULE(Width, B.getInt32(MaxSide)),
        B.CreateICmpULE(Height, B.getInt32(MaxSide))})
    Ok = B.CreateAnd(Ok, C);

  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *Fast = BasicBlock::Create(Ctx, "fetch.inline", Fn);
  BasicBlock *Slow = BasicBlock::Create(Ctx, "fetch.call", Fn);
  R.Join = BasicBlock::Create(Ctx, "fetch.join", Fn);
  B.CreateCondBr(Ok, Fast, Slow);
  B.SetInsertPoint(Fast);
  Value *Zero32 = Constant::getNullValue(V32);
  auto Lanes = [&](Value *C) {
    return splat(B.CreateSExtOrTrunc(
        C, C->getType()->isVectorTy() ? (Type *)V32 : I32));
  };
  Value *X = Lanes(Coord.Comps[0]), *Y = Lanes(Coord.Comps[1]);
  // Unsigned compares reject negative coordinates too.
  Value *In = B.CreateAnd(B.CreateICmpULT(X, B.CreateVectorSplat(W, Width)),
                          B.CreateICmpULT(Y, B.CreateVectorSplat(W, Height)));
  X = B.CreateSelect(In, X, Zero32);
  Y = B.CreateSelect(In, Y, Zero32);
  Value *Base = B.CreateGEP(B.getInt8Ty(), Data, Offset, "img.level");
  Value *Off = B.CreateAdd(
      B.CreateMul(Y, B.CreateVectorSplat(W, B.CreateTrunc(Row, I32))),
      B.CreateShl(X, ConstantInt::get(V32, 2)));
  Value *Ptrs = B.CreateGEP(B.getInt8Ty(), B.CreateVectorSplat(W, Base), Off,
                            "texel.addr");
  Value *Texel = B.CreateMaskedGather(
      V32, Ptrs, Align(4), B.CreateAnd(FS.CurMask, In), Zero32, "texel");
  unsigned ExactKind = Ctx.getMDKindID(NoContractionMetadata);
  for (unsigned K = 0; K < D.ResultComps; ++K)
    R.Comps.push_back(decodeUnorm8(B, Texel, K, Bgra, W, ExactKind));
  R.FastEnd = B.GetInsertBlock();
  B.CreateBr(R.Join);
  B.SetInsertPoint(Slow);
  return R;
}

} // namespace spirv2llvm::simd
