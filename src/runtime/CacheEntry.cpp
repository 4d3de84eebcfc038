//===- CacheEntry.cpp - Serialized interface and the full cache key -------===//
#include "runtime/CacheEntry.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"

#include <type_traits>

using namespace llvm;

namespace spirv2llvm {

// Trip-wires: a field added to these structures must be added to the
// serialization below (and EntryFormatVersion in CompileCache.cpp bumped),
// or a cache hit would hand out a default value where a compile gives the
// real one.
static_assert(sizeof(ComputeInfo::Binding) == 48,
              "ComputeInfo::Binding changed: update CacheEntry.cpp");
static_assert(sizeof(ComputeInfo) == 56,
              "ComputeInfo changed: update CacheEntry.cpp");
static_assert(sizeof(ScalarType) == 8,
              "ScalarType changed: update CacheEntry.cpp");
static_assert(sizeof(LocationSlot) == 8,
              "LocationSlot changed: update CacheEntry.cpp");

namespace {

struct Writer {
  std::string Out;
  void u8(uint8_t V) { Out.push_back(char(V)); }
  void u32(uint32_t V) {
    char B[4];
    support::endian::write32le(B, V);
    Out.append(B, 4);
  }
  void u64(uint64_t V) {
    char B[8];
    support::endian::write64le(B, V);
    Out.append(B, 8);
  }
  void str(StringRef S) {
    u32(uint32_t(S.size()));
    Out.append(S.data(), S.size());
  }
};

struct Reader {
  StringRef In;
  bool Ok = true;
  bool take(size_t N, const char *&P) {
    if (!Ok || In.size() < N)
      return Ok = false;
    P = In.data();
    In = In.drop_front(N);
    return true;
  }
  uint8_t u8() {
    const char *P;
    return take(1, P) ? uint8_t(*P) : 0;
  }
  uint32_t u32() {
    const char *P;
    return take(4, P) ? support::endian::read32le(P) : 0;
  }
  uint64_t u64() {
    const char *P;
    return take(8, P) ? support::endian::read64le(P) : 0;
  }
  std::string str() {
    uint32_t N = u32();
    const char *P;
    return take(N, P) ? std::string(P, N) : std::string();
  }
  /// A count of items of at least \p MinBytes each: bounded by what is
  /// left, so a corrupt count cannot make us allocate gigabytes.
  uint32_t count(size_t MinBytes) {
    uint32_t N = u32();
    if (uint64_t(N) * MinBytes > In.size())
      Ok = false;
    return Ok ? N : 0;
  }
};

void writeVariable(Writer &W, const InterfaceVariable &V) {
  W.u32(V.Id);
  W.str(V.Name);
  W.u8(V.IsInput);
  W.u32(uint32_t(V.Location));
  W.u32(uint32_t(V.BuiltIn));
  W.u8(V.Flat);
  W.u8(V.NoPerspective);
  W.u32(V.Index);
  W.u32(V.Offset);
  W.u32(uint32_t(V.Components.size()));
  for (const ScalarType &C : V.Components) {
    W.u8(uint8_t(C.Kind));
    W.u32(C.Bits);
  }
  W.u32(uint32_t(V.ComponentOffsets.size()));
  for (uint32_t O : V.ComponentOffsets)
    W.u32(O);
  W.u32(uint32_t(V.MemberBuiltIns.size()));
  for (auto [C, B] : V.MemberBuiltIns) {
    W.u32(C);
    W.u32(uint32_t(B));
  }
  W.u32(uint32_t(V.ComponentLocations.size()));
  for (const LocationSlot &S : V.ComponentLocations) {
    W.u32(S.Location);
    W.u32(S.Component);
  }
}

void readVariable(Reader &R, InterfaceVariable &V) {
  V.Id = R.u32();
  V.Name = R.str();
  V.IsInput = R.u8();
  V.Location = int32_t(R.u32());
  V.BuiltIn = int32_t(R.u32());
  V.Flat = R.u8();
  V.NoPerspective = R.u8();
  V.Index = R.u32();
  V.Offset = R.u32();
  V.Components.resize(R.count(5)); // kind and bits
  for (ScalarType &C : V.Components) {
    C.Kind = ScalarKind(R.u8());
    C.Bits = R.u32();
  }
  V.ComponentOffsets.resize(R.count(4));
  for (uint32_t &O : V.ComponentOffsets)
    O = R.u32();
  V.MemberBuiltIns.resize(R.count(8));
  for (auto &[C, B] : V.MemberBuiltIns) {
    C = R.u32();
    B = int32_t(R.u32());
  }
  V.ComponentLocations.resize(R.count(8));
  for (LocationSlot &S : V.ComponentLocations) {
    S.Location = R.u32();
    S.Component = R.u32();
  }
}

} // namespace

std::string serializeShaderInfo(const ShaderInfo &I) {
  Writer W;
  W.str(I.EntrySymbol);
  W.str(I.EntryName);
  W.u8(uint8_t(I.EntryStage));
  const InterfaceLayout &L = I.Layout;
  W.u32(L.Width);
  W.u32(L.InputSize);
  W.u32(L.OutputSize);
  for (const auto *Vars : {&L.Inputs, &L.Outputs}) {
    W.u32(uint32_t(Vars->size()));
    for (const InterfaceVariable &V : *Vars)
      writeVariable(W, V);
  }
  const ComputeInfo &C = I.Compute;
  for (uint32_t S : C.WorkgroupSize)
    W.u32(S);
  W.u32(uint32_t(C.Bindings.size()));
  for (const ComputeInfo::Binding &B : C.Bindings) {
    W.u32(B.Set);
    W.u32(B.Binding);
    W.u8(uint8_t(B.Kind));
    W.u32(B.ImageDim);
    W.u8(B.ImageArrayed);
    W.u8(B.ImageMultisampled);
    W.u32(B.ImageFormat);
    W.u8(B.IsUniform);
    W.u64(B.MinSize);
    W.u8(B.HasRuntimeArray);
    W.u8(B.IsArray);
    W.u32(B.ArraySize);
  }
  W.u32(C.PushConstantSize);
  W.u32(C.WorkgroupMemorySize);
  W.u8(C.HasBarriers);
  W.u8(C.EarlyFragmentTests);
  W.u8(C.CanDiscard);
  W.u8(C.BoundsChecked);
  return std::move(W.Out);
}

bool deserializeShaderInfo(StringRef Bytes, ShaderInfo &I) {
  Reader R{Bytes};
  I.EntrySymbol = R.str();
  I.EntryName = R.str();
  uint8_t St = R.u8();
  // Geometry shaders are not cached: their layout has more than this
  // format holds (GeometryLayout).
  if (St > uint8_t(Stage::Compute))
    return false;
  I.EntryStage = Stage(St);
  InterfaceLayout &L = I.Layout;
  L.Width = R.u32();
  L.InputSize = R.u32();
  L.OutputSize = R.u32();
  for (auto *Vars : {&L.Inputs, &L.Outputs}) {
    Vars->resize(R.count(31)); // the least one variable takes
    for (InterfaceVariable &V : *Vars)
      readVariable(R, V);
  }
  ComputeInfo &C = I.Compute;
  for (uint32_t &S : C.WorkgroupSize)
    S = R.u32();
  C.Bindings.resize(R.count(34)); // the bytes one binding takes
  for (ComputeInfo::Binding &B : C.Bindings) {
    B.Set = R.u32();
    B.Binding = R.u32();
    uint8_t K = R.u8();
    if (K > uint8_t(ComputeInfo::DescriptorKind::InputAttachment))
      return false;
    B.Kind = ComputeInfo::DescriptorKind(K);
    B.ImageDim = R.u32();
    B.ImageArrayed = R.u8();
    B.ImageMultisampled = R.u8();
    B.ImageFormat = R.u32();
    B.IsUniform = R.u8();
    B.MinSize = R.u64();
    B.HasRuntimeArray = R.u8();
    B.IsArray = R.u8();
    B.ArraySize = R.u32();
  }
  C.PushConstantSize = R.u32();
  C.WorkgroupMemorySize = R.u32();
  C.HasBarriers = R.u8();
  C.EarlyFragmentTests = R.u8();
  C.CanDiscard = R.u8();
  C.BoundsChecked = R.u8();
  return R.Ok && R.In.empty() && !I.EntrySymbol.empty();
}

std::string fullCacheKey(const std::string &InputKey, StringRef Kind,
                         unsigned OptLevel, StringRef Triple, StringRef Cpu,
                         StringRef Features) {
  std::string K;
  K += "spirv2llvm=" SPIRV2LLVM_VERSION "\n";
  K += "llvm=" LLVM_VERSION_STRING "\n";
  K += ("triple=" + Twine(Triple) + "\ncpu=" + Cpu + "\nfeatures=" +
        Features + "\n")
           .str();
  K += ("kind=" + Twine(Kind) + "\n").str();
  K += "jit-opt=" + std::to_string(OptLevel) + "\n";
  K += InputKey;
  return K;
}

} // namespace spirv2llvm
