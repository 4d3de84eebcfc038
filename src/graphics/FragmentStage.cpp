//===- FragmentStage.cpp - Shading quads and merging outputs ---------------===//
//
// Lanes 4q..4q+3 of a call are the 2x2 quad q (top-left, top-right,
// bottom-left, bottom-right), which is how the translator computes
// derivatives. Only covered lanes are active: the generated code runs the
// other lanes of a quad as helper invocations itself when the shader takes
// derivatives, and they store nothing (docs/abi.md).
//
// Varyings are interpolated at the pixel centre (at the sample under
// sample shading) from the barycentric planes of setup: the perspective-
// correct weights are the plane values P1/Q and P2/Q, the linear ones L1
// and L2. Depth is evaluated at every sample's own position.
//
//===----------------------------------------------------------------------===//
#include "graphics/FragmentStage.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace spirv2llvm::graphics {

FragmentStage::FragmentStage(DrawContext &Ctx, const ShadedVertices &Verts)
    : Ctx(Ctx), Verts(Verts), P(Ctx.Pipe) {
  W = P.Width;
  QuadsPerCall = W / 4;
  if (P.Fragment) {
    const ComputeInfo &FI = P.Fragment->computeInfo();
    const InterfaceLayout &L = P.Fragment->layout();
    In.assign(L.InputSize, 0);
    Out.assign(L.OutputSize, 0);
    // Testing first is invisible when the shader cannot change the
    // outcome (no FragDepth, no discard, no sample mask, no coverage from
    // alpha) or the result of skipping it (no memory writes).
    Early = FI.EarlyFragmentTests ||
            (!P.FragDepthOffset && !FI.CanDiscard && !P.SampleMaskOffset &&
             !P.FragmentWritesMemory &&
             !Ctx.State.Multisample.AlphaToCoverageEnable);
  } else {
    Early = true;
  }
  Args.inputs = In.data();
  Args.outputs = Out.data();
  Args.descriptor_sets = Ctx.FragmentTable.SetTable.data();
  Args.push_constants = Ctx.Res.PushConstants.data();
  Args.num_workgroups[0] = Args.num_workgroups[1] = Args.num_workgroups[2] = 1;
  Args.cancel = Ctx.stopFlag();
  for (auto *V : {&B1, &B2, &LB1, &LB2, &Z, &InvW, &PX, &PY, &SX, &SY})
    V->assign(W, 0);
  Batch.reserve(QuadsPerCall);
}

namespace {

bool isFloatDepth(Format F) {
  return F == Format::D32_SFLOAT || F == Format::D32_SFLOAT_S8_UINT;
}

/// The depth a sample of \p Pr is tested with and FragCoord.z: the Vulkan
/// depth test's clamp (with VK_EXT_depth_clamp_zero_one's rules), to the
/// depth range of the primitive's viewport.
float clampDepth(const DrawContext &Ctx, const SetupPrim &Pr, double Z) {
  const RasterizationState &RS = Ctx.State.Rasterization;
  if (RS.DepthClampEnable) {
    float Lo = 0, Hi = 1;
    if (!RS.DepthClampZeroOne) {
      const ViewportArea &V = Ctx.Viewports[Pr.Viewport];
      Lo = std::min(V.MinDepth, V.MaxDepth);
      Hi = std::max(V.MinDepth, V.MaxDepth);
    }
    return float(std::clamp(Z, double(Lo), double(Hi)));
  }
  // "If the depth attachment has a floating-point format and
  // VK_EXT_depth_range_unrestricted is enabled then z_f is unchanged."
  if (RS.DepthClampZeroOne && RS.DepthRangeUnrestricted &&
      isFloatDepth(Ctx.DepthStencil.Fmt))
    return float(Z);
  return float(std::clamp(Z, 0.0, 1.0));
}

double planeAt(double F0, double Fx, double Fy, const SetupPrim &Pr, double X,
               double Y) {
  return F0 + Fx * (X - Pr.RefX) + Fy * (Y - Pr.RefY);
}

double sampleDepth(const SetupPrim &Pr, double X, double Y) {
  return planeAt(Pr.Z0, Pr.Zx, Pr.Zy, Pr, X, Y);
}

} // namespace

bool FragmentStage::depthStencil(int32_t X, int32_t Y, uint32_t Sample,
                                 float Zf, bool Front) {
  const AttachmentView &DS = Ctx.DepthStencil;
  if (!DS.Data)
    return true;
  const DepthStencilState &St = Ctx.State.DepthStencil;
  uint8_t *T = DS.texel(uint32_t(X), uint32_t(Y), Sample);
  bool HasDepth = hasDepth(DS.Fmt), HasStencil = hasStencil(DS.Fmt);
  if (St.DepthBoundsTestEnable && HasDepth) {
    float Stored = readDepth(DS.Fmt, T);
    if (Stored < St.MinDepthBounds || Stored > St.MaxDepthBounds)
      return false;
  }
  bool Stencil = St.StencilTestEnable && HasStencil;
  const StencilOpState &SO = Front ? St.Front : St.Back;
  uint8_t Cur = Stencil ? readStencil(DS.Fmt, T) : 0;
  if (Stencil && !stencilTest(SO, Cur)) {
    writeStencil(DS.Fmt, stencilUpdate(SO, Cur, false, false), T);
    return false;
  }
  bool DepthPass = true;
  if (St.DepthTestEnable && HasDepth)
    DepthPass = compare(St.DepthCompare, quantizeDepth(DS.Fmt, Zf),
                        readDepth(DS.Fmt, T));
  if (Stencil)
    writeStencil(DS.Fmt, stencilUpdate(SO, Cur, true, DepthPass), T);
  if (DepthPass && St.DepthTestEnable && St.DepthWriteEnable && HasDepth)
    writeDepth(DS.Fmt, Zf, T);
  return DepthPass;
}

void FragmentStage::test(Quad &Q) {
  if (!Ctx.DepthStencil.Data)
    return;
  const uint32_t S = Ctx.Samples;
  for (unsigned K = 0; K < 4; ++K) {
    int32_t X = Q.X + int32_t(K & 1), Y = Q.Y + int32_t(K >> 1);
    for (uint32_t Smp = 0; Smp < S; ++Smp) {
      uint32_t Bit = 1u << (K * S + Smp);
      if (!(Q.Coverage & Bit))
        continue;
      double Z = sampleDepth(*Q.Prim, X + Ctx.SamplePositions[Smp][0],
                             Y + Ctx.SamplePositions[Smp][1]);
      if (!depthStencil(X, Y, Smp, clampDepth(Ctx, *Q.Prim, Z),
                        Q.Prim->FrontFacing))
        Q.Coverage &= ~Bit;
    }
  }
}

void FragmentStage::add(const Quad &Q) {
  if (P.FragmentHasFlatInputs && !Batch.empty() &&
      (Batch[0].Prim != Q.Prim || Batch[0].Sample != Q.Sample))
    flush();
  for (const Quad &B : Batch)
    if (B.X == Q.X && B.Y == Q.Y) {
      flush();
      break;
    }
  Batch.push_back(Q);
  if (Batch.size() == QuadsPerCall)
    flush();
}

void FragmentStage::feedInputs() {
  const unsigned Lanes = unsigned(Batch.size()) * 4;
  // Plane values at each quad's first shading point in double, then the
  // four pixels by float steps (a loop over 4 the compiler vectorizes);
  // lanes past the batch are inactive and keep what they had.
  for (unsigned QI = 0; QI < Batch.size(); ++QI) {
    const Quad &Q = Batch[QI];
    const SetupPrim &Pr = *Q.Prim;
    double Sx = 0.5, Sy = 0.5;
    if (Q.Sample >= 0) {
      Sx = Ctx.SamplePositions[Q.Sample][0];
      Sy = Ctx.SamplePositions[Q.Sample][1];
    }
    double X0 = Q.X + Sx, Y0 = Q.Y + Sy;
    double Dx = X0 - Pr.RefX, Dy = Y0 - Pr.RefY;
    auto At = [&](const double *Pl) { return Pl[0] + Pl[1] * Dx + Pl[2] * Dy; };
    const float Ox[4] = {0, 1, 0, 1}, Oy[4] = {0, 0, 1, 1};
    float Q0 = float(At(Pr.Q)), P10 = float(At(Pr.P1)), P20 = float(At(Pr.P2));
    float L10 = float(At(Pr.L1)), L20 = float(At(Pr.L2));
    float Z0 = float(Pr.Z0 + Pr.Zx * Dx + Pr.Zy * Dy);
    float Qx = float(Pr.Q[1]), Qy = float(Pr.Q[2]);
    float P1x = float(Pr.P1[1]), P1y = float(Pr.P1[2]);
    float P2x = float(Pr.P2[1]), P2y = float(Pr.P2[2]);
    float L1x = float(Pr.L1[1]), L1y = float(Pr.L1[2]);
    float L2x = float(Pr.L2[1]), L2y = float(Pr.L2[2]);
    float Zx = float(Pr.Zx), Zy = float(Pr.Zy);
    float *B1q = &B1[QI * 4], *B2q = &B2[QI * 4], *LB1q = &LB1[QI * 4],
          *LB2q = &LB2[QI * 4], *Zq = &Z[QI * 4], *Wq = &InvW[QI * 4],
          *PXq = &PX[QI * 4], *PYq = &PY[QI * 4];
    for (unsigned K = 0; K < 4; ++K) {
      float Qv = Q0 + Qx * Ox[K] + Qy * Oy[K];
      float InvQ = 1.0f / Qv;
      B1q[K] = (P10 + P1x * Ox[K] + P1y * Oy[K]) * InvQ;
      B2q[K] = (P20 + P2x * Ox[K] + P2y * Oy[K]) * InvQ;
      LB1q[K] = L10 + L1x * Ox[K] + L1y * Oy[K];
      LB2q[K] = L20 + L2x * Ox[K] + L2y * Oy[K];
      Zq[K] = Z0 + Zx * Ox[K] + Zy * Oy[K];
      Wq[K] = Qv;
      PXq[K] = float(X0) + Ox[K];
      PYq[K] = float(Y0) + Oy[K];
      SX[QI * 4 + K] = float(Sx);
      SY[QI * 4 + K] = float(Sy);
    }
    for (unsigned K = 0; K < 4; ++K)
      Zq[K] = clampDepth(Ctx, Pr, Zq[K]);
  }
  const uint32_t S = Ctx.Samples, PixelMask = (1u << S) - 1;
  // One input at a time, the kind decided once per input: the stores go
  // to consecutive lanes.
  for (const FragmentInput &FI : P.FragmentInputs) {
    uint8_t *Dst = &In[FI.Offset];
    auto StoreBits = [&](unsigned Lane, uint32_t Bits) {
      std::memcpy(Dst + 4 * Lane, &Bits, 4);
    };
    auto Store = [&](unsigned Lane, float F) {
      uint32_t Bits;
      if (FI.Type.Kind == ScalarKind::Float)
        std::memcpy(&Bits, &F, 4);
      else if (FI.Type.Kind == ScalarKind::Int)
        Bits = uint32_t(int32_t(F));
      else
        Bits = uint32_t(F);
      StoreBits(Lane, Bits);
    };
    switch (FI.K) {
    case FragmentInput::Kind::Varying: {
      const Varying &Vy = P.Varyings[FI.Index];
      for (unsigned QI = 0; QI < Batch.size(); ++QI) {
        const SetupPrim &Pr = *Batch[QI].Prim;
        if (!Vy.Interpolated) {
          uint32_t Bits = Verts.varyings(Pr.Provoking)[FI.Index];
          for (unsigned K = 0; K < 4; ++K)
            StoreBits(QI * 4 + K, Bits);
          continue;
        }
        float V0, V1, V2;
        std::memcpy(&V0, &Verts.varyings(Pr.V[0])[FI.Index], 4);
        std::memcpy(&V1, &Verts.varyings(Pr.V[1])[FI.Index], 4);
        std::memcpy(&V2, &Verts.varyings(Pr.V[2])[FI.Index], 4);
        const float *Wa = Vy.NoPerspective ? LB1.data() : B1.data();
        const float *Wb = Vy.NoPerspective ? LB2.data() : B2.data();
        float D1 = V1 - V0, D2 = V2 - V0;
        float Out[4];
        for (unsigned K = 0; K < 4; ++K)
          Out[K] = V0 + Wa[QI * 4 + K] * D1 + Wb[QI * 4 + K] * D2;
        std::memcpy(Dst + 16 * QI, Out, 16);
      }
      break;
    }
    case FragmentInput::Kind::FragCoord: {
      const float *Src[4] = {PX.data(), PY.data(), Z.data(), InvW.data()};
      for (unsigned Lane = 0; Lane < Lanes; ++Lane)
        Store(Lane, Src[FI.Index & 3][Lane]);
      break;
    }
    case FragmentInput::Kind::FrontFacing:
      for (unsigned Lane = 0; Lane < Lanes; ++Lane)
        StoreBits(Lane, Batch[Lane / 4].Prim->FrontFacing);
      break;
    case FragmentInput::Kind::Helper:
    case FragmentInput::Kind::SampleMaskIn:
      for (unsigned Lane = 0; Lane < Lanes; ++Lane) {
        uint32_t Cov = (Batch[Lane / 4].Coverage >> ((Lane % 4) * S)) &
                       PixelMask;
        if (FI.K == FragmentInput::Kind::Helper)
          StoreBits(Lane, Cov == 0);
        else
          StoreBits(Lane, FI.Index ? 0 : Cov);
      }
      break;
    case FragmentInput::Kind::SampleId:
      for (unsigned Lane = 0; Lane < Lanes; ++Lane)
        StoreBits(Lane, uint32_t(std::max(Batch[Lane / 4].Sample, 0)));
      break;
    case FragmentInput::Kind::SamplePosition:
      for (unsigned Lane = 0; Lane < Lanes; ++Lane)
        Store(Lane, FI.Index ? SY[Lane] : SX[Lane]);
      break;
    case FragmentInput::Kind::PointCoord:
      for (unsigned Lane = 0; Lane < Lanes; ++Lane) {
        const SetupPrim &Pr = *Batch[Lane / 4].Prim;
        float C = 0.5f;
        if (Pr.K == SetupPrim::Kind::Point) {
          float Pos = FI.Index ? PY[Lane] : PX[Lane];
          float Centre = FI.Index ? Pr.PointY : Pr.PointX;
          C = (Pos - (Centre - Pr.PointSize / 2)) / Pr.PointSize;
        }
        Store(Lane, C);
      }
      break;
    case FragmentInput::Kind::PrimitiveId:
      for (unsigned Lane = 0; Lane < Lanes; ++Lane)
        StoreBits(Lane, Batch[Lane / 4].Prim->PrimitiveId);
      break;
    case FragmentInput::Kind::ViewportIndex:
      for (unsigned Lane = 0; Lane < Lanes; ++Lane)
        StoreBits(Lane, Batch[Lane / 4].Prim->Viewport);
      break;
    case FragmentInput::Kind::Zero:
      for (unsigned Lane = 0; Lane < Lanes; ++Lane)
        StoreBits(Lane, 0);
      break;
    }
  }
}

void FragmentStage::flush() {
  if (Batch.empty())
    return;
  // Once the draw is stopped (a fault, its time limit, the embedder's
  // cancel flag) no further call starts, as no further workgroup starts in
  // a dispatch: the rest of the tile is dropped.
  if (Ctx.stopped()) {
    Batch.clear();
    return;
  }
  const uint32_t S = Ctx.Samples;
  const uint32_t PixelMask = (1u << S) - 1;
  uint32_t Covered = 0;
  for (unsigned Lane = 0; Lane < Batch.size() * 4; ++Lane) {
    if ((Batch[Lane / 4].Coverage >> ((Lane % 4) * S)) & PixelMask)
      Covered |= 1u << Lane;
  }
  uint32_t Alive = Covered;
  if (P.Fragment) {
    feedInputs();
    // Uncovered lanes of a quad run as helpers inside the shader when it
    // needs them (derivatives), storing nothing (docs/abi.md).
    Args.active_mask = Covered;
    Alive &= P.Fragment->run(Args);
    Ctx.FragmentCalls.fetch_add(1, std::memory_order_relaxed);
  }
  Ctx.FragmentQuads.fetch_add(Batch.size(), std::memory_order_relaxed);
  merge(Alive);
  Batch.clear();
}

void FragmentStage::merge(uint32_t Alive) {
  const GraphicsPipelineDesc &St = Ctx.State;
  const uint32_t S = Ctx.Samples;
  const uint32_t PixelMask = (1u << S) - 1;
  auto Word = [&](uint32_t Offset, unsigned Lane) {
    uint32_t X;
    std::memcpy(&X, &Out[Offset + 4 * Lane], 4);
    return X;
  };
  // What does not change from lane to lane, decided once per call: the
  // late tests only when there is a depth/stencil attachment to test
  // (depthStencil passes everything without one), and per colour output
  // its attachment, merger and value kind.
  const bool LateTests = !Early && Ctx.DepthStencil.Data;
  struct OutputPlan {
    const ColorOutput *O;
    /// The second source when the merger blends with it (location 0).
    const ColorOutput *O1;
    const AttachmentView *A;
    const ColorMerger *M;
    ColorValue::Kind K;
    uint32_t Alpha1; // the bits of alpha 1 when not written or AlphaToOne
    bool ForceAlpha;
  };
  llvm::SmallVector<OutputPlan, 8> Plans;
  const ColorOutput *CoverageAlpha = nullptr;
  if (P.Fragment)
    for (const ColorOutput &O : P.ColorOutputs) {
      if (St.Multisample.AlphaToCoverageEnable && !CoverageAlpha &&
          O.Location == 0 && O.NumComponents == 4 &&
          O.Type.Kind == ScalarKind::Float)
        CoverageAlpha = &O;
      const AttachmentView &A = Ctx.Color[O.Location];
      const std::optional<ColorMerger> &M = P.Mergers[O.Location];
      if (!A.Data || !M)
        continue;
      ColorValue::Kind K = O.Type.Kind == ScalarKind::Float
                               ? ColorValue::Kind::Float
                           : O.Type.Kind == ScalarKind::Int
                               ? ColorValue::Kind::SInt
                               : ColorValue::Kind::UInt;
      bool Float = K == ColorValue::Kind::Float;
      // Alpha to one: after alpha gave the coverage (Vulkan).
      const ColorOutput *O1 =
          M->usesSrc1() && P.Src1Output ? &*P.Src1Output : nullptr;
      Plans.push_back(
          {&O, O1, &A, &*M, K, Float ? 0x3f800000u : 1u,
           St.Multisample.AlphaToOneEnable && O.Location == 0 && Float});
    }
  for (unsigned Lane = 0; Lane < Batch.size() * 4; ++Lane) {
    if (!(Alive & (1u << Lane)))
      continue;
    const Quad &Q = Batch[Lane / 4];
    unsigned K = Lane % 4;
    int32_t X = Q.X + int32_t(K & 1), Y = Q.Y + int32_t(K >> 1);
    uint32_t Cov = (Q.Coverage >> (K * S)) & PixelMask;
    Cov &= St.Multisample.SampleMask;
    if (P.SampleMaskOffset)
      Cov &= Word(*P.SampleMaskOffset, Lane);
    if (CoverageAlpha) {
      float A;
      uint32_t Bits = Word(CoverageAlpha->Offsets[3], Lane);
      std::memcpy(&A, &Bits, 4);
      uint32_t N =
          uint32_t(std::lround(std::clamp(A, 0.0f, 1.0f) * float(S)));
      Cov &= N >= 32 ? ~0u : (1u << N) - 1;
    }
    if (LateTests && Cov) {
      float FragDepth = 0;
      if (P.FragDepthOffset) {
        uint32_t Bits = Word(*P.FragDepthOffset, Lane);
        std::memcpy(&FragDepth, &Bits, 4);
      }
      for (uint32_t Smp = 0; Smp < S; ++Smp) {
        if (!(Cov & (1u << Smp)))
          continue;
        float Zs =
            P.FragDepthOffset
                ? clampDepth(Ctx, *Q.Prim, FragDepth)
                : clampDepth(Ctx, *Q.Prim,
                             sampleDepth(*Q.Prim,
                                         X + Ctx.SamplePositions[Smp][0],
                                         Y + Ctx.SamplePositions[Smp][1]));
        if (!depthStencil(X, Y, Smp, Zs, Q.Prim->FrontFacing))
          Cov &= ~(1u << Smp);
      }
    }
    if (!Cov)
      continue;
    for (const OutputPlan &Pl : Plans) {
      ColorValue V;
      V.K = Pl.K;
      uint32_t Bits[4] = {0, 0, 0, Pl.Alpha1};
      for (unsigned C = 0; C < Pl.O->NumComponents; ++C)
        Bits[C] = Word(Pl.O->Offsets[C], Lane);
      if (Pl.ForceAlpha)
        Bits[3] = Pl.Alpha1;
      std::memcpy(V.U, Bits, 16);
      // Missing components of the second source as of the first.
      ColorValue V1;
      if (Pl.O1) {
        V1.K = Pl.K;
        uint32_t Bits1[4] = {0, 0, 0, Pl.Alpha1};
        for (unsigned C = 0; C < Pl.O1->NumComponents; ++C)
          Bits1[C] = Word(Pl.O1->Offsets[C], Lane);
        std::memcpy(V1.U, Bits1, 16);
      }
      const ColorValue *Src1 = Pl.O1 ? &V1 : nullptr;
      if (S == 1) {
        Pl.M->merge(V, Src1, St.Blend.Constants,
                    Pl.A->texel(uint32_t(X), uint32_t(Y), 0));
        continue;
      }
      for (uint32_t Smp = 0; Smp < S; ++Smp)
        if (Cov & (1u << Smp))
          Pl.M->merge(V, Src1, St.Blend.Constants,
                      Pl.A->texel(uint32_t(X), uint32_t(Y), Smp));
    }
  }
}

} // namespace spirv2llvm::graphics
