//===- LaneShape.cpp - Uniform / affine / varying lanes of integers -------===//
//
// See LaneShape.h for the lattice, the sources and the transfer rules.
//
//===----------------------------------------------------------------------===//
#include "uniformity/LaneShape.h"

#include "uniformity/CrossBlockValues.h"

#include "parser/OpcodeTable.h"

#include "llvm/ADT/STLExtras.h"

#include <cstdlib>
#include <limits>
#include <optional>
#include <tuple>

namespace spirv2llvm {

std::string laneShapeName(LaneShape S) {
  switch (S.Kind) {
  case LaneShapeKind::Uniform:
    return "uniform";
  case LaneShapeKind::Affine:
    return "affine(" + std::to_string(S.Stride) + ")";
  case LaneShapeKind::Varying:
    break;
  }
  return "varying";
}

LaneShape LaneShapeInfo::shape(uint32_t Id, unsigned Comp) const {
  if (UI && UI->value(Id) != Uniformity::Varying)
    return LaneShape::uniform();
  auto It = Shapes.find(Id);
  if (It == Shapes.end() || Comp >= It->second.size())
    return LaneShape::varying();
  return It->second[Comp];
}

std::array<uint32_t, 3> declaredWorkgroupSize(const Module &M,
                                              const EntryPoint &EP) {
  std::array<uint32_t, 3> Size = {1, 1, 1};
  if (EP.Model != spv::ExecutionModel::GLCompute)
    return Size;
  for (const auto &[Mode, Lits] : EP.Modes) {
    if (Mode == spv::ExecutionMode::LocalSize && Lits.size() >= 3)
      Size = {Lits[0], Lits[1], Lits[2]};
    if (Mode == spv::ExecutionMode::LocalSizeId && Lits.size() >= 3)
      for (int K = 0; K < 3; ++K)
        if (const Constant *C = M.findConstant(Lits[K]))
          Size[K] = uint32_t(C->scalarBits());
  }
  for (ValueId C : M.ConstantOrder) {
    auto BI = M.decorationValue(C.value(), spv::Decoration::BuiltIn);
    if (!BI || spv::BuiltIn(*BI) != spv::BuiltIn::WorkgroupSize)
      continue;
    const Constant *K = M.findConstant(C.value());
    for (size_t I = 0; I < 3 && I < K->Elements.size(); ++I)
      if (const Constant *E = M.findConstant(K->Elements[I].value()))
        Size[I] = uint32_t(E->scalarBits());
  }
  return Size;
}

namespace {

using ShapeList = llvm::SmallVector<LaneShape, 4>;

/// Strides stay within 32 bits (the emitter scales them by element sizes).
std::optional<int64_t> checked(std::optional<int64_t> S) {
  if (!S || *S > std::numeric_limits<int32_t>::max() ||
      *S < std::numeric_limits<int32_t>::min())
    return std::nullopt;
  return S;
}

struct LaneShapeState {
  const Module &M;
  const EntryPoint &EP;
  const cfg::ModuleAnalysis &MA;
  const UniformityInfo &UI;
  LaneShapeOptions Opts;
  std::array<uint32_t, 3> WorkgroupSize;
  LaneShapeInfo R;
  /// Pointers into a built-in variable: the variable and the first
  /// component (access chains with constant indices).
  std::unordered_map<uint32_t, std::pair<uint32_t, unsigned>> BuiltInPtrs;

  /// Components of a tracked type: integer scalars and vectors, and
  /// PhysicalStorageBuffer pointers (64-bit addresses); 0 for others.
  unsigned trackedComponents(TypeId T) const {
    const Type *Ty = M.findType(T.value());
    if (!Ty)
      return 0;
    if (Ty->Kind == TypeKind::Int ||
        (Ty->Kind == TypeKind::Pointer &&
         Ty->Storage == spv::StorageClass::PhysicalStorageBuffer))
      return 1;
    if (Ty->Kind == TypeKind::Vector) {
      const Type *E = M.findType(Ty->Element.value());
      return E && E->Kind == TypeKind::Int ? Ty->Count : 0;
    }
    return 0;
  }

  LaneShape shape(uint32_t Id, unsigned Comp) const {
    if (M.kindOf(Id) == IdKind::Constant)
      return LaneShape::uniform();
    return R.shape(Id, Comp);
  }

  /// Component \p Comp of constant \p Id as a signed value, if it is a
  /// plain (not specialization) integer constant.
  std::optional<int64_t> constantComponent(uint32_t Id, unsigned Comp) const {
    const Constant *C = M.findConstant(Id);
    if (C && C->Kind == ConstantKind::Composite && !C->IsSpec &&
        Comp < C->Elements.size())
      return constantComponent(C->Elements[Comp].value(), 0);
    if (!C || C->IsSpec)
      return std::nullopt;
    if (C->Kind == ConstantKind::Null)
      return 0;
    const Type *Ty = M.findType(C->Type.value());
    if (C->Kind != ConstantKind::Scalar || !Ty || Ty->Kind != TypeKind::Int)
      return std::nullopt;
    uint64_t V = C->scalarBits();
    if (Ty->Width < 64) // sign-extend from the type's width
      V = uint64_t(int64_t(V << (64 - Ty->Width)) >> (64 - Ty->Width));
    return int64_t(V);
  }

  /// The lanes of built-in \p Var, per component, by how the SIMD emitter
  /// computes them (EmitCompute.cpp); empty if it has none to offer.
  ShapeList builtInShapes(uint32_t Var) const {
    auto BI = M.decorationValue(Var, spv::Decoration::BuiltIn);
    if (!BI)
      return {};
    bool Compute = EP.Model == spv::ExecutionModel::GLCompute;
    uint32_t X = std::max<uint32_t>(WorkgroupSize[0], 1);
    switch (spv::BuiltIn(*BI)) {
    case spv::BuiltIn::SubgroupLocalInvocationId:
      return {LaneShape::affine(1)};
    case spv::BuiltIn::LocalInvocationIndex:
      if (Compute)
        return {LaneShape::affine(1)};
      return {};
    case spv::BuiltIn::LocalInvocationId:
    case spv::BuiltIn::GlobalInvocationId:
      // One group lies within one row of the workgroup only when rows are
      // whole multiples of the group.
      if (Compute && X % std::max(Opts.Width, 1u) == 0)
        return {LaneShape::affine(1), LaneShape::uniform(),
                LaneShape::uniform()};
      return {};
    default:
      return {};
    }
  }

  /// Whether a load through \p Ptr reads one address for all lanes of
  /// memory the group shares: one scalar load, its value in every lane.
  /// (The uniformity analysis calls loads through PhysicalStorageBuffer
  /// pointers Varying whatever their address, having no variable to look
  /// at; the emitter still loads a uniform address once.)
  bool loadsOneAddress(uint32_t Ptr) const {
    const Type *T = M.findType(M.typeOf(Ptr).value());
    return T && T->Kind == TypeKind::Pointer &&
           T->Storage != spv::StorageClass::Max &&
           !isPerInvocationStorage(T->Storage) &&
           UI.address(Ptr) != Uniformity::Varying;
  }

  /// Records the pointer \p Id if it is a built-in variable or an access
  /// chain into one with constant indices.
  void notePointer(const Instruction &I) {
    uint32_t Id = I.Result.value();
    if (!isAccessChain(I.Opcode) || I.Operands.empty())
      return;
    uint32_t Base = I.Operands[0];
    std::pair<uint32_t, unsigned> Root;
    if (auto It = BuiltInPtrs.find(Base); It != BuiltInPtrs.end())
      Root = It->second;
    else if (M.findVariable(Base) &&
             M.decorationValue(Base, spv::Decoration::BuiltIn))
      Root = {Base, 0};
    else
      return;
    // Built-ins that have lane shapes are vectors of integers: one index.
    if (!isPlainAccessChain(I.Opcode))
      return;
    if (I.Operands.size() != 2 || Root.second != 0)
      return;
    std::optional<int64_t> K = constantComponent(I.Operands[1], 0);
    if (!K || *K < 0 || *K >= 4)
      return;
    BuiltInPtrs[Id] = {Root.first, unsigned(*K)};
  }

  /// The shapes of result \p I (\p N components) by its opcode's rule.
  ShapeList transfer(const Instruction &I, unsigned N) {
    const auto &Ops = I.Operands;
    auto Each = [&](auto Fn) {
      ShapeList S;
      for (unsigned C = 0; C < N; ++C) {
        std::optional<int64_t> Stride = checked(Fn(C));
        S.push_back(Stride ? LaneShape::affine(*Stride) : LaneShape::varying());
      }
      return S;
    };
    auto Stride = [&](size_t Op, unsigned C) -> std::optional<int64_t> {
      LaneShape S = shape(Ops[Op], C);
      if (S.isVarying())
        return std::nullopt;
      return S.stride();
    };
    auto SameCount = [&](size_t Op) {
      return trackedComponents(M.typeOf(Ops[Op])) == N;
    };
    AffineRule Rule = opcodeInfo(I.Opcode).Affine;
    switch (Rule) {
    case AffineRule::None:
      return {};
    case AffineRule::Add:
    case AffineRule::Sub:
      if (Ops.size() < 2 || !SameCount(0) || !SameCount(1))
        return {};
      return Each([&](unsigned C) -> std::optional<int64_t> {
        auto A = Stride(0, C), B = Stride(1, C);
        if (!A || !B)
          return std::nullopt;
        return Rule == AffineRule::Sub ? *A - *B : *A + *B;
      });
    case AffineRule::Mul:
      if (Ops.size() < 2 || !SameCount(0) || !SameCount(1))
        return {};
      return Each([&](unsigned C) -> std::optional<int64_t> {
        auto A = Stride(0, C), B = Stride(1, C);
        if (!A || !B)
          return std::nullopt;
        if (!*A && !*B)
          return 0; // uniform times uniform
        // Affine times a constant: the stride scales.
        std::optional<int64_t> K = constantComponent(Ops[*A ? 1 : 0], C);
        if (!K || std::abs(*K) > std::numeric_limits<int32_t>::max())
          return std::nullopt;
        return (*A ? *A : *B) * *K;
      });
    case AffineRule::Shl:
      if (Ops.size() < 2 || !SameCount(0))
        return {};
      return Each([&](unsigned C) -> std::optional<int64_t> {
        auto A = Stride(0, C);
        if (!A)
          return std::nullopt;
        if (!*A)
          return shape(Ops[1], C).isVarying() ? std::nullopt
                                              : std::optional<int64_t>(0);
        std::optional<int64_t> K = constantComponent(Ops[1], C);
        if (!K || *K < 0 || *K >= 32)
          return std::nullopt;
        return *A * (int64_t(1) << *K);
      });
    case AffineRule::Negate:
      if (Ops.empty() || !SameCount(0))
        return {};
      return Each([&](unsigned C) -> std::optional<int64_t> {
        auto A = Stride(0, C);
        return A ? std::optional<int64_t>(-*A) : std::nullopt;
      });
    case AffineRule::Convert:
      if (Ops.empty() || !SameCount(0))
        return {};
      return Each([&](unsigned C) { return Stride(0, C); });
    case AffineRule::Extract: {
      // One index into a vector of integers.
      if (Ops.size() != 2 || N != 1 ||
          trackedComponents(M.typeOf(Ops[0])) <= Ops[1])
        return {};
      return Each([&](unsigned) { return Stride(0, Ops[1]); });
    }
    case AffineRule::Construct: {
      ShapeList S;
      for (uint32_t Op : Ops) {
        unsigned K = trackedComponents(M.typeOf(Op));
        if (!K)
          return {};
        for (unsigned C = 0; C < K; ++C)
          S.push_back(shape(Op, C));
      }
      if (S.size() != N)
        return {};
      return S;
    }
    case AffineRule::Load: {
      if (Ops.empty())
        return {};
      uint32_t Var = Ops[0];
      unsigned First = 0;
      if (auto It = BuiltInPtrs.find(Ops[0]); It != BuiltInPtrs.end())
        std::tie(Var, First) = It->second;
      if (loadsOneAddress(Ops[0]))
        return ShapeList(N, LaneShape::uniform());
      const Variable *V = M.findVariable(Var);
      if (!V || V->Storage != spv::StorageClass::Input)
        return {};
      ShapeList All = builtInShapes(Var);
      if (First + N > All.size())
        return {};
      return ShapeList(All.begin() + First, All.begin() + First + N);
    }
    }
    return {};
  }

  void runFunction(uint32_t Fn) {
    const Function &F = M.Functions[Fn];
    const cfg::FunctionAnalysis &A = MA[Fn];
    // Values the emitter carries out of a divergent loop per lane: lanes
    // may hold different iterations' values.
    CrossBlockValues Carried = crossBlockValues(M, A, UI, Fn);
    for (cfg::BlockIndex Bk : A.G.rpo()) {
      for (uint32_t Index : F.Blocks[Bk].Insts) {
        const Instruction &I = M.Insts[Index];
        notePointer(I);
        uint32_t Id = I.Result.value();
        if (!Id || UI.value(Id) != Uniformity::Varying)
          continue;
        unsigned N = trackedComponents(I.ResultType);
        if (!N || Carried.MaskedLiveOut.count(Id))
          continue;
        ShapeList S = transfer(I, N);
        if (S.size() == N &&
            llvm::any_of(S, [](LaneShape L) { return !L.isVarying(); }))
          R.Shapes[Id].assign(S.begin(), S.end());
      }
    }
  }
};

} // namespace

LaneShapeInfo computeLaneShapes(const Module &M, const EntryPoint &EP,
                                const cfg::ModuleAnalysis &MA,
                                const UniformityInfo &UI,
                                const LaneShapeOptions &Opts) {
  LaneShapeState S{M, EP, MA, UI, Opts, declaredWorkgroupSize(M, EP), {}, {}};
  S.R.UI = &UI;
  // Callees before callers is not needed: parameters and call results are
  // varying, so each function stands alone.
  for (uint32_t Fn = 0; Fn < M.Functions.size(); ++Fn)
    if (UI.isAnalyzed(Fn))
      S.runFunction(Fn);
  return std::move(S.R);
}

} // namespace spirv2llvm
