//===- Graphics.cpp - DRAW_RECT on the JIT --------------------------------===//
//
// Amber draws a rectangle as a triangle strip of four vertices
// (x, y+h) (x, y) (x+w, y+h) (x+w, y), given in framebuffer pixels and
// converted to normalized device coordinates, with the position as an
// R32G32_SFLOAT attribute at location 0 (so a vec4 input reads (x, y, 0, 1)).
// Each triangle is rasterized on its own, as hardware does: a pixel whose
// centre lies on the shared diagonal belongs to exactly one of them by the
// top-left rule.
//
//===----------------------------------------------------------------------===//
#include "amber/Graphics.h"

#include "support/Diagnostic.h"

#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstring>

using namespace llvm;

namespace spirv2llvm::amber {

namespace {

class UnsupportedError : public ErrorInfo<UnsupportedError> {
public:
  static char ID;
  std::string Msg;
  explicit UnsupportedError(std::string M) : Msg(std::move(M)) {}
  void log(raw_ostream &OS) const override { OS << Msg; }
  std::error_code convertToErrorCode() const override {
    return inconvertibleErrorCode();
  }
};
char UnsupportedError::ID = 0;

// SPIR-V BuiltIn values used here.
enum : int32_t {
  BuiltInPosition = 0,
  BuiltInPointSize = 1,
  BuiltInClipDistance = 3,
  BuiltInCullDistance = 4,
  BuiltInVertexId = 5,
  BuiltInInstanceId = 6,
  BuiltInFragCoord = 15,
  BuiltInPointCoord = 16,
  BuiltInFrontFacing = 17,
  BuiltInFragDepth = 22,
  BuiltInHelperInvocation = 23,
  BuiltInVertexIndex = 42,
  BuiltInInstanceIndex = 43,
};

/// One vertex after vertex shading: clip position and the raw 32-bit
/// words of every output component, by location.
struct ShadedVertex {
  double Pos[4];
  /// Location -> (kind, value bits) per component.
  std::vector<std::pair<int32_t, std::vector<std::pair<ScalarKind, uint64_t>>>>
      Varyings;
};

uint64_t loadLane(const std::vector<uint8_t> &Buf, const InterfaceVariable &V,
                  size_t C, unsigned Lane) {
  uint32_t Bytes = V.Components[C].bytes();
  uint64_t X = 0;
  std::memcpy(&X, &Buf[V.ComponentOffsets[C] + Bytes * Lane], Bytes);
  return X;
}

void storeLane(std::vector<uint8_t> &Buf, const InterfaceVariable &V, size_t C,
               unsigned Lane, uint64_t X) {
  uint32_t Bytes = V.Components[C].bytes();
  std::memcpy(&Buf[V.ComponentOffsets[C] + Bytes * Lane], &X, Bytes);
}

double asDouble(ScalarType S, uint64_t X) {
  switch (S.Kind) {
  case ScalarKind::Float:
    if (S.Bits == 32) {
      float F;
      uint32_t U = uint32_t(X);
      std::memcpy(&F, &U, 4);
      return F;
    }
    if (S.Bits == 64) {
      double D;
      std::memcpy(&D, &X, 8);
      return D;
    }
    return halfToDouble(uint16_t(X));
  case ScalarKind::Int:
    return double(S.Bits == 64 ? int64_t(X)
                  : S.Bits == 32 ? int64_t(int32_t(X))
                  : S.Bits == 16 ? int64_t(int16_t(X))
                                 : int64_t(int8_t(X)));
  default:
    return double(X);
  }
}

uint64_t fromDouble(ScalarType S, double D) {
  if (S.Kind == ScalarKind::Float) {
    if (S.Bits == 32) {
      float F = float(D);
      uint32_t U;
      std::memcpy(&U, &F, 4);
      return U;
    }
    if (S.Bits == 64) {
      uint64_t U;
      std::memcpy(&U, &D, 8);
      return U;
    }
    return doubleToHalf(D);
  }
  return uint64_t(int64_t(D));
}

/// Descriptor table of abi.h over \p R, checked against \p Info.
Error descriptorTable(const ComputeInfo &Info, const DispatchResources &R,
                      std::vector<const s2l_descriptor *> &Table,
                      StringRef Stage) {
  for (const ComputeInfo::Binding &Bd : Info.Bindings) {
    const s2l_descriptor *D =
        Bd.Set < R.Sets.size() && Bd.Binding < R.Sets[Bd.Set].size()
            ? &R.Sets[Bd.Set][Bd.Binding]
            : nullptr;
    if (!D || !D->data)
      return makeError(Stage + " shader: no buffer bound at DESCRIPTOR_SET " +
                       Twine(Bd.Set) + " BINDING " + Twine(Bd.Binding));
    if (D->size < Bd.MinSize)
      return makeError(Stage + " shader: buffer at DESCRIPTOR_SET " +
                       Twine(Bd.Set) + " BINDING " + Twine(Bd.Binding) +
                       " has " + Twine(D->size) +
                       " bytes, the shader's type needs " + Twine(Bd.MinSize));
  }
  if (R.PushConstants.size() < Info.PushConstantSize)
    return makeError(Stage + " shader reads " + Twine(Info.PushConstantSize) +
                     " bytes of push constants, " +
                     Twine(R.PushConstants.size()) + " bound");
  Table.clear();
  for (const auto &Set : R.Sets)
    Table.push_back(Set.data());
  return Error::success();
}

/// Runs the vertex stage on every vertex of \p D for instance \p Inst, W
/// vertices per call.
Expected<std::vector<ShadedVertex>> shadeVertices(const GraphicsShaders &S,
                                                  const DrawCall &D,
                                                  uint32_t Inst,
                                                  const DispatchResources &R) {
  size_t N = D.Vertices.size();
  std::vector<ShadedVertex> Out(N);
  if (!S.Vertex) {
    // PASSTHROUGH: the position attribute is the clip position.
    for (size_t V = 0; V < N; ++V) {
      double P[4] = {0, 0, 0, 1};
      if (!D.Fetch(0, D.Vertices[V], Inst, P))
        return makeError("PASSTHROUGH needs a position at location 0");
      std::copy(P, P + 4, Out[V].Pos);
    }
    return Out;
  }
  const JitShader &J = *S.Vertex;
  const InterfaceLayout &L = J.layout();
  unsigned W = J.width();
  std::vector<uint8_t> In(L.InputSize), OutBuf(L.OutputSize);
  std::vector<const s2l_descriptor *> Table;
  if (Error E = descriptorTable(S.VertexInfo, R, Table, "vertex"))
    return std::move(E);
  s2l_group_args Args = {};
  Args.inputs = In.data();
  Args.outputs = OutBuf.data();
  Args.descriptor_sets = Table.data();
  Args.push_constants = R.PushConstants.data();
  Args.num_workgroups[0] = Args.num_workgroups[1] = Args.num_workgroups[2] = 1;
  const InterfaceVariable *PosVar = nullptr;
  for (const InterfaceVariable &V : L.Outputs) {
    bool IsPos = V.BuiltIn == BuiltInPosition ||
                 (V.BuiltIn < 0 && V.Location < 0 && V.Components.size() >= 4 &&
                  V.Components[0].Kind == ScalarKind::Float);
    if (IsPos && !PosVar)
      PosVar = &V;
  }
  // Without gl_Position the positions are undefined (Vulkan); every
  // vertex at the origin is one of the allowed outcomes: the shader runs
  // for its side effects and its triangles have no area.

  for (size_t Base = 0; Base < N; Base += W) {
    unsigned Lanes = unsigned(std::min<size_t>(W, N - Base));
    for (const InterfaceVariable &V : L.Inputs) {
      for (unsigned Lane = 0; Lane < Lanes; ++Lane) {
        uint32_t Index = D.Vertices[Base + Lane];
        double Vals[4] = {0, 0, 0, 1};
        if (V.BuiltIn == BuiltInVertexIndex || V.BuiltIn == BuiltInVertexId) {
          Vals[0] = Index;
        } else if (V.BuiltIn == BuiltInInstanceIndex ||
                   V.BuiltIn == BuiltInInstanceId) {
          Vals[0] = Inst;
        } else if (V.BuiltIn >= 0) {
          return makeUnsupported(
              formatv("vertex shader input built-in {0}", V.BuiltIn).str());
        } else if (V.Location < 0 ||
                   !D.Fetch(uint32_t(V.Location), Index, Inst, Vals)) {
          return makeError(formatv("vertex shader input location {0} has no "
                                   "VERTEX_DATA",
                                   V.Location)
                               .str());
        }
        for (size_t C = 0; C < V.Components.size(); ++C)
          storeLane(In, V, C, Lane,
                    fromDouble(V.Components[C], C < 4 ? Vals[C] : 0));
      }
    }
    Args.active_mask = (1u << Lanes) - 1;
    J.run(Args);
    for (unsigned Lane = 0; Lane < Lanes; ++Lane) {
      ShadedVertex &SV = Out[Base + Lane];
      for (unsigned C = 0; C < 4; ++C)
        SV.Pos[C] = !PosVar ? (C == 3 ? 1.0 : 0.0)
                            : asDouble(PosVar->Components[C],
                                       loadLane(OutBuf, *PosVar, C, Lane));
      for (const InterfaceVariable &V : L.Outputs) {
        if (V.Location < 0)
          continue;
        std::vector<std::pair<ScalarKind, uint64_t>> Comps;
        for (size_t C = 0; C < V.Components.size(); ++C)
          Comps.emplace_back(V.Components[C].Kind,
                             loadLane(OutBuf, V, C, Lane));
        SV.Varyings.emplace_back(V.Location, std::move(Comps));
      }
    }
  }
  return Out;
}

struct ScreenVertex {
  double X, Y, Z, InvW;
};

/// Edge function of a->b at p; positive on the inside of a triangle with
/// positive area2 in framebuffer (y-down) coordinates.
double edge(const ScreenVertex &A, const ScreenVertex &B, double Px,
            double Py) {
  return (B.X - A.X) * (Py - A.Y) - (B.Y - A.Y) * (Px - A.X);
}

/// Vulkan's top-left rule for an edge a->b of a triangle with positive
/// area2 (y down): top edges are horizontal with the inside below, left
/// edges go up.
bool isTopLeft(const ScreenVertex &A, const ScreenVertex &B) {
  double Dx = B.X - A.X, Dy = B.Y - A.Y;
  return (Dy == 0 && Dx > 0) || Dy < 0;
}

struct Fragment {
  uint32_t X, Y;
  double Bary[3];       ///< perspective-correct
  double LinearBary[3]; ///< screen-space (NoPerspective)
  double Z, InvW;
  bool Covered;
};

} // namespace

namespace {

std::optional<double> blendFactor(StringRef F, const double *Src,
                                  const double *Dst, unsigned C) {
  double SA = Src[3], DA = Dst[3];
  if (F == "zero") return 0.0;
  if (F == "one") return 1.0;
  if (F == "src_color") return Src[C];
  if (F == "one_minus_src_color") return 1 - Src[C];
  if (F == "dst_color") return Dst[C];
  if (F == "one_minus_dst_color") return 1 - Dst[C];
  if (F == "src_alpha") return SA;
  if (F == "one_minus_src_alpha") return 1 - SA;
  if (F == "dst_alpha") return DA;
  if (F == "one_minus_dst_alpha") return 1 - DA;
  if (F == "src_alpha_saturate") return C == 3 ? 1.0 : std::min(SA, 1 - DA);
  return std::nullopt;
}

std::optional<double> blendOp(StringRef Op, double S, double SF, double D,
                              double DF) {
  if (Op == "add") return S * SF + D * DF;
  if (Op == "subtract") return S * SF - D * DF;
  if (Op == "reverse_subtract") return D * DF - S * SF;
  if (Op == "min") return std::min(S, D);
  if (Op == "max") return std::max(S, D);
  return std::nullopt;
}

/// Blends \p Src (the fragment's colour, NaN where not written) with the
/// pixel at \p Px, in the attachment's normalized values (UNORM sources
/// are clamped first, as Vulkan does).
void blend(const BlendDecl &B, const BufferFormat &Fmt, const uint8_t *Px,
           double *Src) {
  const char Channels[] = {'R', 'G', 'B', 'A'};
  double S[4], D[4];
  for (unsigned C = 0; C < 4; ++C) {
    const Component *Co = Fmt.channel(Channels[C]);
    D[C] = Co ? readComponentNormalized(*Co, Px + Co->Offset) : 1.0;
    S[C] = std::isnan(Src[C]) ? D[C] : Src[C];
    if (Co && Co->Kind == NumKind::UNorm)
      S[C] = std::clamp(S[C], 0.0, 1.0);
  }
  for (unsigned C = 0; C < 4; ++C) {
    if (std::isnan(Src[C]))
      continue;
    bool Alpha = C == 3;
    double SF = *blendFactor(Alpha ? B.SrcAlpha : B.SrcColor, S, D, C);
    double DF = *blendFactor(Alpha ? B.DstAlpha : B.DstColor, S, D, C);
    Src[C] = *blendOp(Alpha ? B.AlphaOp : B.ColorOp, S[C], SF, D[C], DF);
  }
}

} // namespace

std::optional<bool> depthCompare(StringRef Op, double A, double B) {
  if (Op == "never") return false;
  if (Op == "less") return A < B;
  if (Op == "equal") return A == B;
  if (Op == "less_or_equal") return A <= B;
  if (Op == "greater") return A > B;
  if (Op == "not_equal") return A != B;
  if (Op == "greater_or_equal") return A >= B;
  if (Op == "always") return true;
  return std::nullopt;
}

std::optional<std::string> checkBlend(const BlendDecl &B) {
  double Z[4] = {0, 0, 0, 0};
  for (const std::string *F :
       {&B.SrcColor, &B.DstColor, &B.SrcAlpha, &B.DstAlpha})
    if (!blendFactor(*F, Z, Z, 0))
      return "unsupported blend factor '" + *F + "'";
  for (const std::string *Op : {&B.ColorOp, &B.AlphaOp})
    if (!blendOp(*Op, 0, 0, 0, 0))
      return "unsupported blend operation '" + *Op + "'";
  return std::nullopt;
}

Error makeUnsupported(const Twine &Msg) {
  return make_error<UnsupportedError>(Msg.str());
}

bool isUnsupported(const Error &E) { return E.isA<UnsupportedError>(); }

namespace {

/// Positions (x, y) in NDC as the location-0 attribute.
DrawCall positionsDraw(Topology T, std::vector<std::array<double, 2>> Ndc) {
  DrawCall D;
  D.Topo = T;
  for (uint32_t I = 0; I < Ndc.size(); ++I)
    D.Vertices.push_back(I);
  D.Fetch = [Ndc = std::move(Ndc)](uint32_t Loc, uint32_t V, uint32_t,
                                   double Out[4]) {
    if (Loc != 0 || V >= Ndc.size())
      return false;
    Out[0] = Ndc[V][0];
    Out[1] = Ndc[V][1];
    return true;
  };
  return D;
}

} // namespace

DrawCall rectDraw(std::array<double, 4> Rect, uint32_t FbW, uint32_t FbH) {
  const double X0 = Rect[0] / FbW * 2 - 1, Y0 = Rect[1] / FbH * 2 - 1;
  const double X1 = (Rect[0] + Rect[2]) / FbW * 2 - 1,
               Y1 = (Rect[1] + Rect[3]) / FbH * 2 - 1;
  return positionsDraw(Topology::TriangleStrip,
                       {{X0, Y1}, {X0, Y0}, {X1, Y1}, {X1, Y0}});
}

DrawCall gridDraw(std::array<double, 4> Rect, uint32_t Cols, uint32_t Rows,
                  uint32_t FbW, uint32_t FbH) {
  std::vector<std::array<double, 2>> P;
  for (uint32_t R = 0; R < Rows; ++R)
    for (uint32_t C = 0; C < Cols; ++C) {
      double X0 = (Rect[0] + Rect[2] * C / Cols) / FbW * 2 - 1;
      double X1 = (Rect[0] + Rect[2] * (C + 1) / Cols) / FbW * 2 - 1;
      double Y0 = (Rect[1] + Rect[3] * R / Rows) / FbH * 2 - 1;
      double Y1 = (Rect[1] + Rect[3] * (R + 1) / Rows) / FbH * 2 - 1;
      // Two triangles per cell, wound like DRAW_RECT's strip, whose
      // provoking (first) vertices are the cell's top-left and
      // bottom-right corners, which google/amber's draw_grid.amber
      // (flat varyings) shows to be Amber's choice.
      P.push_back({X0, Y0});
      P.push_back({X1, Y0});
      P.push_back({X0, Y1});
      P.push_back({X1, Y1});
      P.push_back({X0, Y1});
      P.push_back({X1, Y0});
    }
  return positionsDraw(Topology::TriangleList, std::move(P));
}

static Error drawInstance(const GraphicsShaders &S, const DrawCall &D,
                          uint32_t Inst, uint32_t FbW, uint32_t FbH,
                          std::vector<ColorTarget> &Targets,
                          const DispatchResources &R, const RasterState &RS);

Error draw(const GraphicsShaders &S, const DrawCall &D, uint32_t FbW,
           uint32_t FbH, std::vector<ColorTarget> &Targets,
           const DispatchResources &R, const RasterState &RS) {
  for (uint32_t Inst = D.FirstInstance;
       Inst < D.FirstInstance + D.InstanceCount; ++Inst)
    if (Error E = drawInstance(S, D, Inst, FbW, FbH, Targets, R, RS))
      return E;
  return Error::success();
}

static Error drawInstance(const GraphicsShaders &S, const DrawCall &D,
                          uint32_t Inst, uint32_t FbW, uint32_t FbH,
                          std::vector<ColorTarget> &Targets,
                          const DispatchResources &R, const RasterState &RS) {
  auto Verts = shadeVertices(S, D, Inst, R);
  if (!Verts)
    return Verts.takeError();

  std::array<double, 4> VP = RS.Viewport.value_or(
      std::array<double, 4>{0, 0, double(FbW), double(FbH)});
  const double VX = VP[0], VY = VP[1], VW = VP[2], VH = VP[3];
  // Clipping to the x and y planes leaves exactly the pixels inside the
  // viewport rectangle (attributes interpolate the same).
  auto InViewport = [&](uint32_t X, uint32_t Y) {
    return X + 0.5 >= VX && X + 0.5 < VX + VW && Y + 0.5 >= VY &&
           Y + 0.5 < VY + VH;
  };
  std::vector<ScreenVertex> SV(Verts->size());
  for (size_t V = 0; V < SV.size(); ++V) {
    const double *P = (*Verts)[V].Pos;
    if (!(P[3] > 0))
      return makeUnsupported("clipping (a vertex with w <= 0)");
    double Iw = 1.0 / P[3];
    // Framebuffer depth: the viewport's depth range over z / w.
    SV[V] = {VX + (P[0] * Iw + 1) * VW / 2, VY + (P[1] * Iw + 1) * VH / 2,
             RS.MinDepth + P[2] * Iw * (RS.MaxDepth - RS.MinDepth), Iw};
  }
  // Triangles in draw order; the first vertex is the provoking one.
  std::vector<std::array<unsigned, 3>> Tris;
  size_t N = SV.size();
  switch (D.Topo) {
  case Topology::TriangleList:
    for (size_t I = 0; I + 2 < N; I += 3)
      Tris.push_back({unsigned(I), unsigned(I + 1), unsigned(I + 2)});
    break;
  case Topology::TriangleStrip:
    // Vulkan: (i, i + 1 + i % 2, i + 2 - i % 2).
    for (size_t I = 0; I + 2 < N; ++I)
      Tris.push_back({unsigned(I), unsigned(I + 1 + I % 2),
                      unsigned(I + 2 - I % 2)});
    break;
  case Topology::TriangleFan:
    for (size_t I = 0; I + 2 < N; ++I)
      Tris.push_back({unsigned(I + 1), unsigned(I + 2), 0u});
    break;
  }

  const JitShader &F = *S.Fragment;
  const InterfaceLayout &L = F.layout();
  const unsigned W = F.width();
  std::vector<const s2l_descriptor *> Table;
  if (Error E = descriptorTable(S.FragmentInfo, R, Table, "fragment"))
    return E;

  // Where each fragment input comes from, checked once.
  for (const InterfaceVariable &V : L.Inputs) {
    if (V.BuiltIn == BuiltInFragCoord || V.BuiltIn == BuiltInFrontFacing ||
        V.BuiltIn == BuiltInHelperInvocation)
      continue;
    if (V.BuiltIn >= 0)
      return makeUnsupported(
          formatv("fragment shader input built-in {0}", V.BuiltIn).str());
    if (V.Location < 0)
      return makeUnsupported("fragment shader input " + V.Name +
                             " without a location");
  }
  // Outputs: location -> colour target.
  struct OutputTarget {
    const InterfaceVariable *Var;
    ColorTarget *Target;
  };
  std::vector<OutputTarget> Outs;
  const InterfaceVariable *FragDepth = nullptr;
  for (const InterfaceVariable &V : L.Outputs) {
    if (V.BuiltIn == BuiltInFragDepth) {
      FragDepth = &V;
      continue;
    }
    if (V.BuiltIn >= 0)
      return makeUnsupported(
          formatv("fragment shader output built-in {0}", V.BuiltIn).str());
    for (ColorTarget &T : Targets)
      if (int32_t(T.Location) == V.Location)
        Outs.push_back({&V, &T});
  }

  // A helper lane's stores to memory must have no effect, which an active
  // lane cannot promise: with storage buffers bound, only covered lanes run
  // (the translator still computes inactive lanes' values for derivatives).
  bool RunHelpers = RS.HelperLanes;
  for (const ComputeInfo::Binding &Bd : S.FragmentInfo.Bindings)
    RunHelpers &= Bd.IsUniform;

  std::vector<uint8_t> In(L.InputSize), Out(L.OutputSize);
  s2l_group_args Args = {};
  Args.inputs = In.data();
  Args.outputs = Out.data();
  Args.descriptor_sets = Table.data();
  Args.push_constants = R.PushConstants.data();
  Args.num_workgroups[0] = Args.num_workgroups[1] = Args.num_workgroups[2] = 1;

  std::vector<Fragment> Group;
  Group.reserve(W);

  auto Flush = [&](const std::array<unsigned, 3> &Tri, bool FrontFacing) {
    if (Group.empty())
      return;
    uint32_t Active = 0;
    for (unsigned Lane = 0; Lane < Group.size(); ++Lane)
      if (Group[Lane].Covered)
        Active |= 1u << Lane;
    for (const InterfaceVariable &V : L.Inputs) {
      const std::vector<std::pair<ScalarKind, uint64_t>> *Vary[3] = {};
      if (V.Location >= 0)
        for (unsigned K = 0; K < 3; ++K)
          for (const auto &[Loc, Comps] : (*Verts)[Tri[K]].Varyings)
            if (Loc == V.Location)
              Vary[K] = &Comps;
      for (size_t C = 0; C < V.Components.size(); ++C) {
        ScalarType ST = V.Components[C];
        for (unsigned Lane = 0; Lane < W; ++Lane) {
          if (Lane >= Group.size()) {
            storeLane(In, V, C, Lane, 0);
            continue;
          }
          const Fragment &Fr = Group[Lane];
          uint64_t Bits = 0;
          if (V.BuiltIn == BuiltInFragCoord) {
            double Vals[4] = {Fr.X + 0.5, Fr.Y + 0.5, Fr.Z, Fr.InvW};
            Bits = fromDouble(ST, C < 4 ? Vals[C] : 0);
          } else if (V.BuiltIn == BuiltInFrontFacing) {
            Bits = FrontFacing;
          } else if (V.BuiltIn == BuiltInHelperInvocation) {
            Bits = !Fr.Covered;
          } else if (Vary[0] && C < Vary[0]->size()) {
            if (ST.Kind == ScalarKind::Float && !V.Flat) {
              const double *Bary = V.NoPerspective ? Fr.LinearBary : Fr.Bary;
              double Val = 0;
              for (unsigned K = 0; K < 3; ++K) {
                const auto &[VK, VB] = (*Vary[K])[C];
                Val += Bary[K] * asDouble({VK, ST.Bits}, VB);
              }
              Bits = fromDouble(ST, Val);
            } else {
              Bits = (*Vary[0])[C].second; // flat: the provoking vertex
            }
          }
          storeLane(In, V, C, Lane, Bits);
        }
      }
    }
    // Helper lanes (the uncovered pixels of a quad) run, as in Vulkan, so
    // that derivatives see the whole quad; only covered lanes are written.
    Args.active_mask = RunHelpers ? (1u << Group.size()) - 1 : Active;
    uint32_t Alive = F.run(Args) & Active;
    for (unsigned Lane = 0; Lane < Group.size(); ++Lane) {
      if (!(Alive & (1u << Lane)))
        continue;
      const Fragment &Fr = Group[Lane];
      // Depth test after the shader (it may discard or write FragDepth).
      if (RS.Depth.Test && RS.DepthBuffer) {
        BufferDecl &DB = *RS.DepthBuffer;
        const Component &DC = *DB.Format.channel('D');
        uint8_t *DPx = &DB.Data[(uint64_t(Fr.Y) * DB.Width + Fr.X) *
                                    DB.Format.ElementSize +
                                DC.Offset];
        double Z = FragDepth ? asDouble(FragDepth->Components[0],
                                        loadLane(Out, *FragDepth, 0, Lane))
                             : Fr.Z;
        Z = std::clamp(Z, 0.0, 1.0);
        if (DC.Kind == NumKind::Float && DC.Bits == 32)
          Z = double(float(Z)); // compare what the attachment holds
        if (!*depthCompare(RS.Depth.CompareOp, Z,
                           readComponentNormalized(DC, DPx)))
          continue;
        if (RS.Depth.Write)
          writeComponentDouble(DC, Z, DPx);
      }
      for (const OutputTarget &OT : Outs) {
        BufferDecl &B = *OT.Target->Buffer;
        const BufferFormat &Fmt = B.Format;
        uint8_t *Px =
            &B.Data[(uint64_t(Fr.Y) * B.Width + Fr.X) * Fmt.ElementSize];
        const char Channels[] = {'R', 'G', 'B', 'A'};
        // Float values per channel; NaN: not written as a float.
        double Src[4] = {NAN, NAN, NAN, NAN};
        for (size_t C = 0; C < OT.Var->Components.size() && C < 4; ++C) {
          const Component *Co = Fmt.channel(Channels[C]);
          if (!Co)
            continue;
          ScalarType ST = OT.Var->Components[C];
          uint64_t Bits = loadLane(Out, *OT.Var, C, Lane);
          if ((Co->Kind == NumKind::Int || Co->Kind == NumKind::UInt) &&
              ST.Kind != ScalarKind::Float)
            std::memcpy(Px + Co->Offset, &Bits, Co->Bits / 8);
          else
            Src[C] = asDouble(ST, Bits);
        }
        if (RS.Blend.Enabled)
          blend(RS.Blend, Fmt, Px, Src);
        for (unsigned C = 0; C < 4; ++C)
          if (!std::isnan(Src[C]))
            if (const Component *Co = Fmt.channel(Channels[C]))
              writeComponentDouble(*Co, Src[C], Px + Co->Offset);
      }
    }
    Group.clear();
  };

  for (const std::array<unsigned, 3> &Tri : Tris) {
    const ScreenVertex &A = SV[Tri[0]], &B = SV[Tri[1]], &C = SV[Tri[2]];
    double Area = edge(A, B, C.X, C.Y);
    if (Area == 0)
      continue;
    // Vulkan: with VK_FRONT_FACE_COUNTER_CLOCKWISE (Amber's default) a
    // triangle is front-facing when a = -area/2 in framebuffer coordinates
    // is positive... in y-down coordinates that is a negative edge area.
    bool FrontFacing = Area < 0;
    // Oriented copy (positive area) for the coverage test.
    const ScreenVertex *O[3] = {&A, &B, &C};
    if (Area < 0)
      std::swap(O[1], O[2]);
    double MinX = std::min({A.X, B.X, C.X}), MaxX = std::max({A.X, B.X, C.X});
    double MinY = std::min({A.Y, B.Y, C.Y}), MaxY = std::max({A.Y, B.Y, C.Y});
    int64_t PX0 = std::max<int64_t>(0, int64_t(std::floor(MinX - 0.5)));
    int64_t PY0 = std::max<int64_t>(0, int64_t(std::floor(MinY - 0.5)));
    int64_t PX1 = std::min<int64_t>(FbW - 1, int64_t(std::ceil(MaxX)));
    int64_t PY1 = std::min<int64_t>(FbH - 1, int64_t(std::ceil(MaxY)));
    PX0 &= ~int64_t(1);
    PY0 &= ~int64_t(1);
    auto Covers = [&](double Px, double Py) {
      for (unsigned E = 0; E < 3; ++E) {
        const ScreenVertex &P = *O[E], &Q = *O[(E + 1) % 3];
        double V = edge(P, Q, Px, Py);
        if (V < 0 || (V == 0 && !isTopLeft(P, Q)))
          return false;
      }
      return true;
    };
    for (int64_t QY = PY0; QY <= PY1; QY += 2)
      for (int64_t QX = PX0; QX <= PX1; QX += 2) {
        Fragment Quad[4];
        bool Any = false;
        for (unsigned K = 0; K < 4; ++K) {
          Fragment &Fr = Quad[K];
          Fr.X = uint32_t(QX + (K & 1));
          Fr.Y = uint32_t(QY + (K >> 1));
          double Px = Fr.X + 0.5, Py = Fr.Y + 0.5;
          Fr.Covered = Fr.X < FbW && Fr.Y < FbH && Covers(Px, Py) &&
                       InViewport(Fr.X, Fr.Y);
          Any |= Fr.Covered;
          // Screen-space barycentrics, then perspective correction.
          double L0 = edge(B, C, Px, Py) / Area, L1 = edge(C, A, Px, Py) / Area;
          double L2 = 1 - L0 - L1;
          Fr.LinearBary[0] = L0;
          Fr.LinearBary[1] = L1;
          Fr.LinearBary[2] = L2;
          Fr.Z = L0 * A.Z + L1 * B.Z + L2 * C.Z;
          Fr.InvW = L0 * A.InvW + L1 * B.InvW + L2 * C.InvW;
          double P0 = L0 * A.InvW, P1 = L1 * B.InvW, P2 = L2 * C.InvW;
          double Sum = P0 + P1 + P2;
          Fr.Bary[0] = P0 / Sum;
          Fr.Bary[1] = P1 / Sum;
          Fr.Bary[2] = P2 / Sum;
          // Helper lanes outside the framebuffer still need sane inputs.
          if (Fr.X >= FbW || Fr.Y >= FbH)
            Fr.Covered = false;
        }
        if (!Any)
          continue;
        for (const Fragment &Fr : Quad)
          Group.push_back(Fr);
        if (Group.size() == W)
          Flush(Tri, FrontFacing);
      }
    Flush(Tri, FrontFacing);
  }
  return Error::success();
}

} // namespace spirv2llvm::amber
