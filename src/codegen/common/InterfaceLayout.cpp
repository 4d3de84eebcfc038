//===- InterfaceLayout.cpp - Where interface variables live ---------------===//
#include "codegen/common/InterfaceLayout.h"

#include "parser/SpirvNames.h"
#include "support/Diagnostic.h"

#include <optional>

using namespace llvm;

namespace spirv2llvm {

Error flattenType(const Module &M, TypeId T, std::vector<ScalarType> &Out) {
  // Iterative over an explicit stack: types nest as deep as the input says.
  std::vector<TypeId> Stack{T};
  // Expanding in reverse keeps component order: push members last-first.
  while (!Stack.empty()) {
    TypeId Cur = Stack.back();
    Stack.pop_back();
    const Type *Ty = M.findType(Cur.value());
    if (!Ty)
      return makeError("id " + M.friendlyName(Cur.value()) +
                       " is not a type");
    if (Out.size() > (1u << 20))
      return makeError("type " + M.friendlyName(T.value()) +
                       " has too many components");
    switch (Ty->Kind) {
    case TypeKind::Bool:
      Out.push_back({ScalarKind::Bool, 1});
      break;
    case TypeKind::Int:
      Out.push_back({Ty->Signed ? ScalarKind::Int : ScalarKind::UInt,
                     Ty->Width});
      break;
    case TypeKind::Float:
      Out.push_back({ScalarKind::Float, Ty->Width});
      break;
    case TypeKind::Pointer:
      // A PhysicalStorageBuffer pointer value is its 64-bit address.
      if (Ty->Storage != spv::StorageClass::PhysicalStorageBuffer)
        return makeError("type " + M.friendlyName(Cur.value()) +
                         " has no flat component form");
      Out.push_back({ScalarKind::UInt, 64});
      break;
    case TypeKind::Image:
    case TypeKind::Sampler:
      // A handle: the address of the s2l_image / s2l_sampler (ImageInstr.h).
      Out.push_back({ScalarKind::UInt, 64});
      break;
    case TypeKind::SampledImage:
      Out.push_back({ScalarKind::UInt, 64});
      Out.push_back({ScalarKind::UInt, 64});
      break;
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      for (uint32_t I = 0; I < Ty->Count; ++I)
        Stack.push_back(Ty->Element);
      break;
    case TypeKind::Struct:
      for (size_t I = Ty->Members.size(); I-- > 0;)
        Stack.push_back(Ty->Members[I]);
      break;
    default:
      return makeError("type " + M.friendlyName(Cur.value()) +
                       " has no flat component form");
    }
  }
  return Error::success();
}

namespace {

/// The locations of a variable's scalar components (Vulkan 1.3 "Location
/// Assignment", "Component Assignment"), in flattenType's order. A cursor
/// (location, component) moves over the scalars; each array element,
/// matrix column and struct member starts at the next unused location (at
/// the Component decoration's component), a member with its own Location
/// decoration there; a 64-bit scalar takes two components and one that
/// does not fit in the rest of a location (the third of a dvec3) moves to
/// the next. Iterative, like flattenType.
std::vector<LocationSlot> assignLocations(const Module &M, TypeId T,
                                          uint32_t Location,
                                          uint32_t FirstComponent) {
  std::vector<LocationSlot> Out;
  // A stack entry is a type, or (Type empty) a "start a new location"
  // marker with an explicit location (ExplicitLoc >= 0) or none.
  struct Item {
    TypeId Type;
    int64_t ExplicitLoc = -1;
  };
  std::vector<Item> Stack{{T}};
  uint32_t Loc = Location, Comp = FirstComponent;
  bool Used = false;
  while (!Stack.empty()) {
    Item Cur = Stack.back();
    Stack.pop_back();
    if (!Cur.Type.value()) {
      if (Cur.ExplicitLoc >= 0) {
        Loc = uint32_t(Cur.ExplicitLoc);
        Comp = 0;
        Used = false;
      } else if (Used) {
        ++Loc;
        Comp = FirstComponent;
        Used = false;
      }
      continue;
    }
    const Type *Ty = M.findType(Cur.Type.value());
    if (!Ty)
      continue; // flattenType has reported it
    switch (Ty->Kind) {
    case TypeKind::Vector:
      // Components of one vector share locations: no markers.
      for (uint32_t I = 0; I < Ty->Count; ++I)
        Stack.push_back({Ty->Element});
      break;
    case TypeKind::Matrix:
    case TypeKind::Array:
      for (uint32_t I = 0; I < Ty->Count; ++I) {
        Stack.push_back({Ty->Element});
        Stack.push_back({TypeId()});
      }
      break;
    case TypeKind::Struct:
      for (size_t I = Ty->Members.size(); I-- > 0;) {
        Stack.push_back({Ty->Members[I]});
        auto MemberLoc = M.decorationValue(
            Cur.Type.value(), spv::Decoration::Location, int32_t(I));
        Stack.push_back({TypeId(), MemberLoc ? int64_t(*MemberLoc) : -1});
      }
      break;
    default: {
      // A scalar (or a handle: two 32-bit components, as 64 bits).
      uint32_t Slots = 1;
      if ((Ty->Kind == TypeKind::Int || Ty->Kind == TypeKind::Float)
              ? Ty->Width == 64
              : Ty->Kind != TypeKind::Bool)
        Slots = 2;
      if (Comp + Slots > 4) {
        ++Loc;
        Comp = 0;
      }
      Out.push_back({Loc, Comp});
      Comp += Slots;
      Used = true;
      break;
    }
    }
  }
  return Out;
}

} // namespace

const InterfaceVariable *InterfaceLayout::find(uint32_t Id) const {
  for (const auto *List : {&Inputs, &Outputs})
    for (const InterfaceVariable &V : *List)
      if (V.Id == Id)
        return &V;
  return nullptr;
}

const InterfaceVariable *
InterfaceLayout::findByName(const std::string &Name) const {
  for (const auto *List : {&Inputs, &Outputs})
    for (const InterfaceVariable &V : *List)
      if (V.Name == Name)
        return &V;
  return nullptr;
}

const InterfaceVariable *
InterfaceLayout::findInputLocation(int32_t Location) const {
  for (const InterfaceVariable &V : Inputs)
    if (V.Location == Location)
      return &V;
  return nullptr;
}

const InterfaceVariable *
InterfaceLayout::findOutputLocation(int32_t Location) const {
  for (const InterfaceVariable &V : Outputs)
    if (V.Location == Location)
      return &V;
  return nullptr;
}

void InterfaceLayout::print(raw_ostream &OS) const {
  OS << "width " << Width << "\n";
  for (const auto *List : {&Inputs, &Outputs}) {
    bool In = List == &Inputs;
    OS << (In ? "inputs" : "outputs") << " (" << (In ? InputSize : OutputSize)
       << " bytes)\n";
    for (const InterfaceVariable &V : *List) {
      OS << "  %" << V.Name;
      if (V.Location >= 0)
        OS << " location " << V.Location;
      if (V.BuiltIn >= 0) {
        const char *N = builtInName(static_cast<spv::BuiltIn>(V.BuiltIn));
        OS << " builtin " << (N ? N : std::to_string(V.BuiltIn));
      }
      OS << " offset " << V.Offset << " components " << V.Components.size()
         << "\n";
    }
  }
  if (HasGeometry)
    OS << "geometry: " << Geometry.InputVertices << " input vertices, at most "
       << Geometry.MaxVertices << " output vertices of " << Geometry.VertexBytes
       << " bytes at offset " << Geometry.VerticesOffset << ", counts at "
       << Geometry.CountOffset << ", strip starts at " << Geometry.CutOffset
       << ", " << Geometry.Invocations << " invocations\n";
}

bool isComputedBuiltIn(const Module &M, const EntryPoint &EP, uint32_t Var) {
  auto BI = M.decorationValue(Var, spv::Decoration::BuiltIn);
  if (!BI)
    return false;
  if (EP.Model == spv::ExecutionModel::GLCompute)
    return true;
  switch (spv::BuiltIn(*BI)) {
  case spv::BuiltIn::SubgroupSize:
  case spv::BuiltIn::SubgroupLocalInvocationId:
  case spv::BuiltIn::SubgroupEqMask:
  case spv::BuiltIn::SubgroupGeMask:
  case spv::BuiltIn::SubgroupGtMask:
  case spv::BuiltIn::SubgroupLeMask:
  case spv::BuiltIn::SubgroupLtMask:
    return true;
  default:
    return false;
  }
}

namespace {

/// Whether \p M declares a SubpassData image type (an input attachment).
bool hasSubpassImages(const Module &M) {
  for (const auto &[Id, T] : M.Types)
    if (T.Kind == TypeKind::Image && T.ImageDim == uint32_t(spv::Dim::SubpassData))
      return true;
  return false;
}

/// Subpass loads read at the fragment's position (Vulkan "Input
/// Attachment Operations"), which the entry point receives only as the
/// FragCoord built-in: a fragment shader with input attachments that does
/// not declare FragCoord gets one more input, FragCoord as a rasterizer
/// fills it (x + 0.5, y + 0.5, z, 1/w), after the shader's own. Its Id is
/// 0: no variable of the module.
void addSubpassFragCoord(const Module &M, const EntryPoint &EP,
                         InterfaceLayout &L) {
  if (EP.Model != spv::ExecutionModel::Fragment || !hasSubpassImages(M))
    return;
  for (const InterfaceVariable &V : L.Inputs)
    if (V.BuiltIn == int32_t(spv::BuiltIn::FragCoord))
      return;
  InterfaceVariable IV;
  IV.Name = "s2l.subpass.FragCoord";
  IV.BuiltIn = int32_t(spv::BuiltIn::FragCoord);
  IV.Components.assign(4, ScalarType{ScalarKind::Float, 32});
  for (const ScalarType &S : IV.Components) {
    uint32_t Bytes = S.bytes() * L.Width;
    L.InputSize = (L.InputSize + Bytes - 1) / Bytes * Bytes;
    IV.ComponentOffsets.push_back(L.InputSize);
    L.InputSize += Bytes;
  }
  IV.Offset = IV.ComponentOffsets[0];
  L.Inputs.push_back(std::move(IV));
}

} // namespace

Expected<InterfaceLayout> computeInterfaceLayout(const Module &M,
                                                 const EntryPoint &EP,
                                                 unsigned Width) {
  InterfaceLayout L;
  L.Width = Width;
  for (ValueId Id : EP.Interface) {
    const Variable *Var = M.findVariable(Id.value());
    if (!Var || (Var->Storage != spv::StorageClass::Input &&
                 Var->Storage != spv::StorageClass::Output))
      continue;
    // Computed from the group's arguments and the lane index.
    if (isComputedBuiltIn(M, EP, Id.value()))
      continue;
    InterfaceVariable IV;
    IV.Id = Id.value();
    auto NameIt = M.Names.find(Id.value());
    IV.Name = NameIt != M.Names.end() && !NameIt->second.empty()
                  ? NameIt->second
                  : M.friendlyName(Id.value()).substr(1);
    IV.IsInput = Var->Storage == spv::StorageClass::Input;
    if (auto Loc = M.decorationValue(Id.value(), spv::Decoration::Location))
      IV.Location = int32_t(*Loc);
    if (auto BI = M.decorationValue(Id.value(), spv::Decoration::BuiltIn))
      IV.BuiltIn = int32_t(*BI);
    IV.Flat = M.hasDecoration(Id.value(), spv::Decoration::Flat);
    IV.NoPerspective =
        M.hasDecoration(Id.value(), spv::Decoration::NoPerspective);
    IV.Index =
        M.decorationValue(Id.value(), spv::Decoration::Index).value_or(0);
    if (Error E = flattenType(M, Var->Pointee, IV.Components))
      return makeError("interface variable " + M.friendlyName(Id.value()) +
                       ": " + toString(std::move(E)));
    // gl_PerVertex: a rasterizer needs to know which components are the
    // position, the point size, the clip distances.
    // A geometry shader's gl_in[] is an array of them: the members of
    // element 0 (element k's are k * (components / length) further).
    TypeId BlockT = Var->Pointee;
    if (const Type &AT = M.type(BlockT);
        AT.Kind == TypeKind::Array && EP.Model == spv::ExecutionModel::Geometry)
      BlockT = AT.Element;
    if (const Type &Ty = M.type(BlockT); Ty.Kind == TypeKind::Struct) {
      uint32_t First = 0;
      for (size_t I = 0; I < Ty.Members.size(); ++I) {
        std::vector<ScalarType> MemberComps;
        if (Error E = flattenType(M, Ty.Members[I], MemberComps))
          return makeError("interface variable " +
                           M.friendlyName(Id.value()) + ": " +
                           toString(std::move(E)));
        auto DI = M.Decorations.find(BlockT.value());
        if (DI != M.Decorations.end())
          for (const Decoration &D : DI->second)
            if (D.Kind == spv::Decoration::BuiltIn && D.Member == int32_t(I) &&
                !D.Literals.empty())
              IV.MemberBuiltIns.emplace_back(First, int32_t(D.Literals[0]));
        First += uint32_t(MemberComps.size());
      }
    }
    uint32_t &Size =
        Var->Storage == spv::StorageClass::Input ? L.InputSize : L.OutputSize;
    for (const ScalarType &S : IV.Components) {
      uint32_t Bytes = S.bytes() * Width;
      Size = (Size + Bytes - 1) / Bytes * Bytes;
      IV.ComponentOffsets.push_back(Size);
      Size += Bytes;
    }
    IV.Offset = IV.ComponentOffsets.empty() ? Size : IV.ComponentOffsets[0];
    // A block without a variable Location whose members have their own
    // (Vulkan allows either) is placed from its first member's.
    std::optional<uint32_t> Loc;
    if (IV.Location >= 0)
      Loc = uint32_t(IV.Location);
    else if (IV.BuiltIn < 0)
      if (const Type *PT = M.findType(Var->Pointee.value());
          PT && PT->Kind == TypeKind::Struct && !PT->Members.empty())
        Loc = M.decorationValue(Var->Pointee.value(),
                                spv::Decoration::Location, 0);
    if (Loc) {
      uint32_t FirstComponent =
          M.decorationValue(Id.value(), spv::Decoration::Component)
              .value_or(0);
      IV.ComponentLocations =
          assignLocations(M, Var->Pointee, *Loc, FirstComponent);
    }
    (Var->Storage == spv::StorageClass::Input ? L.Inputs : L.Outputs)
        .push_back(std::move(IV));
  }
  addSubpassFragCoord(M, EP, L);
  if (EP.Model == spv::ExecutionModel::Geometry)
    if (Error E = addGeometryLayout(M, EP, L))
      return std::move(E);
  return L;
}

} // namespace spirv2llvm
