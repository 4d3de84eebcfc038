//===- RunCommand.cpp - `spirv2llvm run`: dispatch a compute shader -------===//
//
// Parses the run command line into RunOptions by hand (no global cl::opt
// state), creates and initializes the buffers, translates and JIT-compiles
// the shader, checks the buffers and push constants against what the
// shader reads, then dispatches and times it.
//
// Usage errors are found in two rounds: the command line alone (malformed
// numbers, sizes, kinds), then against the shader's reflection (a missing
// binding, a buffer smaller than its type, too few push-constant bytes).
// Both exit 2; only what the shader itself does wrong exits 1.
//
//===----------------------------------------------------------------------===//
#include "RunCommand.h"

#include "ArgParse.h"
#include "runtime/GuardedBuffer.h"

#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <thread>

using namespace llvm;

namespace spirv2llvm {

namespace {

const char *const ErrorPrefix = "spirv2llvm run: error: ";

const char *const HelpText = R"(usage: spirv2llvm run SHADER [options]

Translates and JIT-compiles a GLCompute entry point, dispatches it on the
CPU and reports how fast it ran. SHADER is any input spirv2llvm reads.

Resources:
  --buffer [SET.]BINDING[[INDEX]]:SIZE[:init=KIND]
                          a buffer for the shader's binding (set 0 if SET is
                          left out; with [INDEX], element INDEX of an array
                          of blocks); SIZE in bytes, a multiple of 4, with an
                          optional K, M or G suffix (KiB, MiB, GiB); its
                          type (storage or uniform) comes from the shader.
                          Word i of the buffer gets, by KIND:
                            zero (default)   0
                            iota_u32         i
                            iota_f32         float(i)
                            random_u32:SEED  upper 32 bits of splitmix64(
                                               SEED * 0xD1B54A32D192ED03 + i)
                            random_f32:SEED  float(random_u32 >> 8) * 2^-24
                            fill_u32:V       V
                            fill_f32:V       V
                            file:PATH        the file's bytes (rest zero)
  --image [SET.]BINDING[[INDEX]]:WxH[xD][:FORMAT][:levels=N][:layers=N]
          [:samples=N][:view=VIEW][:init=KIND]
  --image [SET.]BINDING[[INDEX]]:FILE.png[:FORMAT]
                          an image for a storage, sampled or combined image,
                          texel buffer (W alone: N texels) or input
                          attachment binding. FORMAT is a Vulkan name
                          (R8G8B8A8_UNORM, R32_SFLOAT, R32_UINT, ...;
                          default: the shader's declared format, else
                          R8G8B8A8_UNORM); VIEW is 1d, 2d, 3d, cube, 1darray,
                          2darray, cubearray or buffer (default: what the
                          shader declares); levels, layers and samples
                          default to 1 (layers 6 for cubes); init=KIND as for --buffer, applied
                          to the image's bytes (all levels, tightly packed).
                          A PNG is read as RGBA8 into level 0 (FORMAT one of
                          R8G8B8A8_UNORM, _SRGB, _UINT, ...)
  --sampler [SET.]BINDING[[INDEX]][:KEY=VALUE,...]
                          a sampler, or the sampler of a combined image
                          sampler binding (which takes --image and --sampler
                          on the same binding). KEYs (defaults first):
                            filter=nearest|linear (also mag=, min=)
                            mipmap=nearest|linear
                            address=clamp|repeat|mirror|border|mirror-clamp
                                     (also address-u=, -v=, -w=)
                            border=transparent-black|opaque-black|
                                   opaque-white (int- prefix: integer)
                            lod=0:1000 (MIN:MAX)   bias=0
                            anisotropy=1 (max anisotropy, 1 (off) to 16)
                            compare=OP (never, less, equal, less-or-equal,
                                    greater, not-equal, greater-or-equal,
                                    always; default: no comparison)
                            unnormalized (default: normalized coordinates)
  --push HEX              push-constant bytes, in memory order
  --push-u32 A[,B..]      push-constant words (also --push-i32, --push-f32);
                          all --push options append in command-line order

Dispatch:
  --dispatch X[,Y[,Z]]    workgroups to run (default 1,1,1)
  --entry NAME            entry point (default: the only one)
  --threads N             worker threads (default 0: all cores)
  --width=4|8|16          invocations per SIMD call (default: 16 with
                          AVX-512, 8 with AVX2, else 4)
  --backend=simd|invocation|scalar|dxil
                          code generator (default simd); the others run one
                          invocation per call, barriers as fibers
  -O0 .. -O3              LLVM optimization level (default -O2)
  --spec ID=VALUE         specialization constant SpecId ID
  --robust-buffer-access  out-of-bounds loads read 0, stores are dropped
  --no-validate, --no-canonicalize, --no-inline
                          as for translation (spirv2llvm --help)
  --no-contract           no fused multiply-adds (spirv2llvm --help)
  --no-speculate-small-blocks
                          keep the any-lane branch around every divergent
                          block (default: short arithmetic blocks run
                          unguarded)
  --repeat N              one warm-up dispatch, then N timed ones, each from
                          the initial buffer contents (default: one dispatch)
  --timeout SECONDS       stop a dispatch that runs longer (running
                          invocations leave their loops) and exit 1
                          (default: no limit)

Compile cache (docs/compile-cache.md):
  --cache-dir DIR         keep the compiled shader in DIR and load it from
                          there next time, without translating or compiling
                          (default: $SPIRV2LLVM_CACHE_DIR; none if unset)
  --cache-max-size SIZE   bytes the cache may hold, with an optional K, M or
                          G suffix (default 256M); least recently used
                          entries go first

Output:
  --dump [SET.]BINDING[[INDEX]]:PATH
                          write the buffer or image to PATH after the run
                          (the result of one dispatch). An image goes out as
                          a PNG when PATH ends in .png: level 0, sample 0,
                          layers and 3D slices stacked top to bottom, RGBA8 for formats
                          of 8-bit UNORM/sRGB components, else RGBA16
                          (float values clamped to [0,1], integers to
                          0..65535); any other PATH gets the image's bytes
                          as laid out in memory (all levels)
  -q                      print only the RESULT line

The last line is
  RESULT invocations=N dispatches=N median_ms=X min_ms=X max_ms=X
         minv_per_s=X compile_ms=X [cache=hit|miss|disabled]
(invocations per dispatch, timed dispatches, millions of invocations per
second at the median, translate + JIT time or the cache lookup and load;
cache= only with a cache directory). Exit status: 0 success, 1 the
shader failed to translate, compile or run (an access outside its buffers
that faults, a trap, a dispatch over --timeout), 2 bad usage.

Each buffer lies between large inaccessible regions: without
--robust-buffer-access, a shader indexing far outside a buffer faults, and
the fault is reported with the buffer it missed instead of crashing.
)";

std::string bindingName(uint32_t Set, uint32_t Binding,
                        std::optional<uint32_t> Index = {}) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) about
  // the temporaries of "[" + to_string(I) + "]" here.
  std::string S = std::to_string(Set) + "." + std::to_string(Binding);
  if (Index) {
    S += '[';
    S += std::to_string(*Index);
    S += ']';
  }
  return S;
}

/// Parses --buffer's value; the error does not repeat the option.
Expected<RunBuffer> parseBufferSpec(StringRef V) {
  RunBuffer B;
  B.Spec = V.str();
  auto [Ref, Rest] = V.split(':');
  if (!V.contains(':'))
    return makeError("expected [SET.]BINDING[[INDEX]]:SIZE[:init=KIND]");
  if (!parseBindingRef(Ref, B.Set, B.Binding, B.Index))
    return makeError("malformed binding '" + Ref +
                     "' (expected [SET.]BINDING or [SET.]BINDING[INDEX])");
  // The KIND may itself contain ':' (random_u32:7, file:C:/x), so split
  // once more only.
  auto [SizeText, InitText] = Rest.split(':');
  if (!parseByteSize(SizeText, B.Size))
    return makeError("malformed size '" + SizeText +
                     "' (bytes, optionally with a K, M or G suffix)");
  if (B.Size == 0 || B.Size % 4)
    return makeError("size " + Twine(B.Size) +
                     " is not a positive multiple of 4");
  if (Rest.contains(':')) {
    if (!InitText.starts_with("init="))
      return makeError("expected 'init=KIND' after the size, not '" + InitText +
                       "'");
    auto Init = parseBufferInit(InitText.drop_front(5));
    if (!Init)
      return Init.takeError();
    B.Init = std::move(*Init);
  }
  return B;
}

/// Appends \p List (comma-separated) to \p Bytes, 4 bytes per element in
/// host byte order.
template <typename T>
bool appendWords(StringRef List, bool (*Parse)(StringRef, T &),
                 std::vector<uint8_t> &Bytes, std::string &Bad) {
  SmallVector<StringRef, 8> Items;
  List.split(Items, ',');
  for (StringRef Item : Items) {
    T Value;
    if (!Parse(Item.trim(), Value)) {
      Bad = Item.str();
      return false;
    }
    uint8_t Raw[4];
    std::memcpy(Raw, &Value, 4);
    Bytes.insert(Bytes.end(), Raw, Raw + 4);
  }
  return true;
}

using DescriptorKind = ComputeInfo::DescriptorKind;

const char *kindName(DescriptorKind K) {
  switch (K) {
  case DescriptorKind::UniformBuffer:
    return "uniform buffer";
  case DescriptorKind::StorageBuffer:
    return "storage buffer";
  case DescriptorKind::SampledImage:
    return "sampled image";
  case DescriptorKind::StorageImage:
    return "storage image";
  case DescriptorKind::Sampler:
    return "sampler";
  case DescriptorKind::CombinedImageSampler:
    return "combined image sampler";
  case DescriptorKind::UniformTexelBuffer:
    return "uniform texel buffer";
  case DescriptorKind::StorageTexelBuffer:
    return "storage texel buffer";
  case DescriptorKind::InputAttachment:
    return "input attachment";
  }
  return "resource";
}

bool isBufferKind(DescriptorKind K) {
  return K == DescriptorKind::UniformBuffer ||
         K == DescriptorKind::StorageBuffer;
}
bool needsImage(DescriptorKind K) {
  return !isBufferKind(K) && K != DescriptorKind::Sampler;
}
bool needsSampler(DescriptorKind K) {
  return K == DescriptorKind::Sampler ||
         K == DescriptorKind::CombinedImageSampler;
}

/// The options that give a binding of \p B's kind at \p Ref, for messages:
/// "--image 0.1:WxH:FORMAT".
std::string howToGive(const ComputeInfo::Binding &B, const std::string &Ref) {
  if (isBufferKind(B.Kind))
    return "--buffer " + Ref + ":SIZE";
  if (B.Kind == DescriptorKind::Sampler)
    return "--sampler " + Ref;
  bool Storage = B.Kind == DescriptorKind::StorageImage ||
                 B.Kind == DescriptorKind::StorageTexelBuffer;
  bool TexelBuffer = B.Kind == DescriptorKind::StorageTexelBuffer ||
                     B.Kind == DescriptorKind::UniformTexelBuffer;
  std::string Image = "--image " + Ref + (TexelBuffer ? ":N" : ":WxH") +
                      (Storage ? ":FORMAT" : "");
  if (B.Kind == DescriptorKind::CombinedImageSampler)
    return Image + " and --sampler " + Ref;
  return Image;
}

/// A resource option as checkResources sees it.
struct GivenResource {
  const char *Option;
  uint32_t Set, Binding;
  std::optional<uint32_t> Index;
  const RunBuffer *Buffer = nullptr;
};

std::vector<GivenResource> givenResources(const RunOptions &O) {
  std::vector<GivenResource> G;
  for (const RunBuffer &B : O.Buffers)
    G.push_back({"--buffer", B.Set, B.Binding, B.Index, &B});
  for (const RunImage &I : O.Images)
    G.push_back({"--image", I.Set, I.Binding, I.Index});
  for (const RunSampler &S : O.Samplers)
    G.push_back({"--sampler", S.Set, S.Binding, S.Index});
  return G;
}

/// Checks that the image, sampler or combined binding \p B (an element
/// \p Index of it) has what it needs: the message, else nullopt.
std::optional<std::string> checkImageResource(const RunOptions &O,
                                              const ComputeInfo::Binding &B,
                                              std::optional<uint32_t> Index) {
  std::string Ref = bindingName(B.Set, B.Binding, Index);
  bool HasImage = O.findImage(B.Set, B.Binding, Index);
  bool HasSampler = O.findSampler(B.Set, B.Binding, Index);
  if ((needsImage(B.Kind) && !HasImage) ||
      (needsSampler(B.Kind) && !HasSampler))
    return "the shader's binding " + Ref + " is a " + kindName(B.Kind) +
           (B.Kind == DescriptorKind::CombinedImageSampler
                ? std::string(HasImage     ? " and has no --sampler"
                              : HasSampler ? " and has no --image"
                                           : "")
                : "") +
           ": give it with " + howToGive(B, Ref);
  return std::nullopt;
}

/// Checks the buffers, images, samplers and push constants of \p O against
/// what the shader reads (\p Info). Returns the usage error.
std::optional<std::string> checkResources(const RunOptions &O,
                                          const ComputeInfo &Info) {
  std::vector<GivenResource> Given = givenResources(O);
  for (const ComputeInfo::Binding &B : Info.Bindings) {
    const char *Kind = kindName(B.Kind);
    std::string Name = bindingName(B.Set, B.Binding);
    // A resource of the wrong sort: a --buffer for an image, ...
    for (const GivenResource &G : Given) {
      if (G.Set != B.Set || G.Binding != B.Binding)
        continue;
      StringRef Option = G.Option;
      bool Fits = Option == "--buffer"  ? isBufferKind(B.Kind)
                  : Option == "--image" ? needsImage(B.Kind)
                                        : needsSampler(B.Kind);
      if (!Fits)
        return (Option + " " + bindingName(G.Set, G.Binding, G.Index) +
                ": the shader's binding " + Name + " is a" +
                (B.IsArray ? "n array of " : " ") + Kind +
                (B.IsArray ? "s" : "") + ": give it with " +
                howToGive(B, B.IsArray ? Name + "[INDEX]" : Name))
            .str();
    }
    if (B.IsArray) {
      // A descriptor array: its elements come as SET.BINDING[INDEX].
      std::string Size =
          B.ArraySize ? std::to_string(B.ArraySize) : std::string("runtime");
      for (const GivenResource &G : Given)
        if (G.Set == B.Set && G.Binding == B.Binding && !G.Index)
          return std::string(G.Option) + " " + Name +
                 ": the shader's binding " + Name + " is an array of " + Size +
                 " " + Kind + "s; give its elements as " +
                 howToGive(B, Name + "[INDEX]");
      if (!O.hasElements(B.Set, B.Binding))
        return isBufferKind(B.Kind)
                   ? "the shader uses binding " + Name + " (an array of " +
                         Size + " " + Kind + "s) but no --buffer " + Name +
                         "[INDEX] gives an element"
                   : "the shader uses binding " + Name + " (an array of " +
                         Size + " " + Kind + "s) but nothing gives an " +
                         "element: give them with " +
                         howToGive(B, Name + "[INDEX]");
      for (const GivenResource &G : Given) {
        if (G.Set != B.Set || G.Binding != B.Binding)
          continue;
        std::string El = bindingName(B.Set, B.Binding, G.Index);
        if (B.ArraySize && *G.Index >= B.ArraySize)
          return std::string(G.Option) + " " + El +
                 ": index out of range (the shader's array at " + Name +
                 " has " + Size + " elements)";
        if (G.Buffer && G.Buffer->Size < B.MinSize)
          return "--buffer " + El + ": " + std::to_string(G.Buffer->Size) +
                 " bytes, but the shader's " + Kind + " at " + Name +
                 " needs at least " + std::to_string(B.MinSize);
        if (!isBufferKind(B.Kind))
          if (auto E = checkImageResource(O, B, G.Index))
            return E;
      }
      continue;
    }
    for (const GivenResource &G : Given)
      if (G.Set == B.Set && G.Binding == B.Binding && G.Index)
        return std::string(G.Option) + " " + Name +
               "[...]: the shader's binding " + Name + " is a single " + Kind +
               ", not an array";
    if (!isBufferKind(B.Kind)) {
      if (auto E = checkImageResource(O, B, std::nullopt))
        return E;
      continue;
    }
    const RunBuffer *Buf = O.findBuffer(B.Set, B.Binding);
    if (!Buf)
      return "the shader uses binding " + Name + " (" + Kind +
             (B.MinSize ? ", at least " + std::to_string(B.MinSize) + " bytes"
                        : std::string()) +
             ") but no --buffer gives it";
    if (Buf->Size < B.MinSize)
      return "--buffer " + Name + ": " + std::to_string(Buf->Size) +
             " bytes, but the shader's " + Kind + " at " + Name +
             " needs at least " + std::to_string(B.MinSize);
  }
  if (O.PushConstants.size() < Info.PushConstantSize)
    return "the shader reads " + std::to_string(Info.PushConstantSize) +
           " bytes of push constants but --push/--push-u32/--push-i32/"
           "--push-f32 give " +
           std::to_string(O.PushConstants.size());
  return std::nullopt;
}

const ComputeInfo::Binding *findBinding(const ComputeInfo &Info, uint32_t Set,
                                        uint32_t Binding) {
  for (const ComputeInfo::Binding &B : Info.Bindings)
    if (B.Set == Set && B.Binding == Binding)
      return &B;
  return nullptr;
}

/// Prints the human summary that precedes the RESULT line.
void printSummary(const RunOptions &O, const std::string &Entry,
                  const ComputeShader &S, const std::vector<Image> &Images,
                  raw_ostream &Out) {
  const ComputeInfo &Info = S.info();
  const auto &WG = Info.WorkgroupSize;
  uint64_t PerGroup = uint64_t(WG[0]) * WG[1] * WG[2];
  uint64_t Groups = uint64_t(O.Groups[0]) * O.Groups[1] * O.Groups[2];
  Out << "shader:    " << O.Shader << "\n";
  Out << "entry:     " << Entry << " (width " << S.width() << ", -O"
      << O.JitOptLevel << (O.T.RobustBufferAccess ? ", robust" : "") << ")\n";
  Out << "threads:   ";
  if (O.Threads)
    Out << O.Threads << "\n";
  else
    Out << "all cores (" << std::max(1u, std::thread::hardware_concurrency())
        << ")\n";
  Out << "workgroup: " << WG[0] << "x" << WG[1] << "x" << WG[2] << " ("
      << PerGroup << " invocations" << (Info.HasBarriers ? ", barriers" : "")
      << "), dispatch " << O.Groups[0] << "x" << O.Groups[1] << "x"
      << O.Groups[2] << " = " << Groups * PerGroup << " invocations\n";
  for (const RunBuffer &B : O.Buffers) {
    const ComputeInfo::Binding *SB = findBinding(Info, B.Set, B.Binding);
    Out << "binding:   " << bindingName(B.Set, B.Binding, B.Index) << " "
        << (!SB                       ? "unused"
            : !isBufferKind(SB->Kind) ? kindName(SB->Kind)
            : SB->IsUniform           ? "uniform"
                                      : "storage")
        << ", " << B.Size << " bytes, init=" << B.Init.Text << "\n";
  }
  for (size_t I = 0; I < O.Images.size(); ++I) {
    const RunImage &RI = O.Images[I];
    const ComputeInfo::Binding *SB = findBinding(Info, RI.Set, RI.Binding);
    const ImageDesc &D = Images[I].desc();
    Out << "binding:   " << bindingName(RI.Set, RI.Binding, RI.Index) << " "
        << (SB ? kindName(SB->Kind) : "unused") << ", " << D.Width << "x"
        << D.Height;
    if (D.ViewType == S2L_VIEW_3D)
      Out << "x" << D.Depth;
    Out << " " << Images[I].formatInfo().Name << " "
        << viewOptionName(D.ViewType) << ", " << D.Levels << " level"
        << (D.Levels > 1 ? "s" : "");
    if (D.Layers > 1)
      Out << ", " << D.Layers << " layers";
    if (D.Samples > 1)
      Out << ", " << D.Samples << " samples";
    Out << ", " << (RI.PngPath.empty() ? "init=" + RI.Init.Text : RI.PngPath)
        << "\n";
  }
  for (const RunSampler &RS : O.Samplers) {
    const ComputeInfo::Binding *SB = findBinding(Info, RS.Set, RS.Binding);
    auto [Ref, Settings] = StringRef(RS.Spec).split(':');
    Out << "binding:   " << bindingName(RS.Set, RS.Binding, RS.Index) << " "
        << (SB ? kindName(SB->Kind) : "unused") << ", sampler "
        << (Settings.empty() ? StringRef("defaults") : Settings) << "\n";
  }
  if (Info.Bindings.empty() && O.Buffers.empty() && O.Images.empty() &&
      O.Samplers.empty())
    Out << "binding:   none\n";
  Out << "push:      " << O.PushConstants.size() << " bytes (shader reads "
      << Info.PushConstantSize << ")\n";
  Out << "repeat:    ";
  if (O.Repeat)
    Out << "1 warm-up + " << *O.Repeat << " timed dispatches\n";
  else
    Out << "1 dispatch\n";
}

/// Binds the images and samplers: a combined image sampler binding takes
/// the --image and the --sampler of the same binding (and element).
void bindImagesAndSamplers(const RunOptions &O, const ComputeInfo &Info,
                           const std::vector<Image> &Images,
                           DispatchResources &R) {
  auto IsCombined = [&](uint32_t Set, uint32_t Binding) {
    const ComputeInfo::Binding *B = findBinding(Info, Set, Binding);
    return B && B->Kind == DescriptorKind::CombinedImageSampler;
  };
  for (size_t I = 0; I < O.Images.size(); ++I) {
    const RunImage &RI = O.Images[I];
    const s2l_image *Desc = &Images[I].descriptor();
    if (IsCombined(RI.Set, RI.Binding)) {
      const RunSampler *RS = O.findSampler(RI.Set, RI.Binding, RI.Index);
      const s2l_sampler *Smp = RS ? &RS->Sampler : nullptr;
      if (RI.Index)
        R.bindCombinedImageSamplerArrayElement(RI.Set, RI.Binding, *RI.Index,
                                               Desc, Smp);
      else
        R.bindCombinedImageSampler(RI.Set, RI.Binding, Desc, Smp);
    } else if (RI.Index) {
      R.bindImageArrayElement(RI.Set, RI.Binding, *RI.Index, Desc);
    } else {
      R.bindImage(RI.Set, RI.Binding, Desc);
    }
  }
  for (const RunSampler &RS : O.Samplers) {
    if (IsCombined(RS.Set, RS.Binding))
      continue;
    if (RS.Index)
      R.bindSamplerArrayElement(RS.Set, RS.Binding, *RS.Index, &RS.Sampler);
    else
      R.bindSampler(RS.Set, RS.Binding, &RS.Sampler);
  }
}

/// Median of \p Ms, which it sorts.
double median(std::vector<double> &Ms) {
  std::sort(Ms.begin(), Ms.end());
  size_t N = Ms.size();
  return N % 2 ? Ms[N / 2] : (Ms[N / 2 - 1] + Ms[N / 2]) / 2;
}

double msSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now() - Start)
      .count();
}

} // namespace

const RunBuffer *RunOptions::findBuffer(uint32_t Set, uint32_t Binding,
                                        std::optional<uint32_t> Index) const {
  for (const RunBuffer &B : Buffers)
    if (B.Set == Set && B.Binding == Binding && B.Index == Index)
      return &B;
  return nullptr;
}

const RunImage *RunOptions::findImage(uint32_t Set, uint32_t Binding,
                                      std::optional<uint32_t> Index) const {
  for (const RunImage &I : Images)
    if (I.Set == Set && I.Binding == Binding && I.Index == Index)
      return &I;
  return nullptr;
}

const RunSampler *RunOptions::findSampler(uint32_t Set, uint32_t Binding,
                                          std::optional<uint32_t> Index) const {
  for (const RunSampler &S : Samplers)
    if (S.Set == Set && S.Binding == Binding && S.Index == Index)
      return &S;
  return nullptr;
}

bool RunOptions::hasElements(uint32_t Set, uint32_t Binding) const {
  for (const GivenResource &G : givenResources(*this))
    if (G.Set == Set && G.Binding == Binding && G.Index)
      return true;
  return false;
}

bool RunOptions::mentions(uint32_t Set, uint32_t Binding) const {
  for (const GivenResource &G : givenResources(*this))
    if (G.Set == Set && G.Binding == Binding)
      return true;
  return false;
}

std::optional<std::string> parseRunArgs(ArrayRef<std::string> Args,
                                        RunOptions &O) {
  // The JIT optimizes; translating at -O0 keeps it from optimizing twice.
  O.T.OptLevel = 0;
  // The module only goes to the JIT: no value names (TranslateOptions).
  O.T.ValueNames = false;
  O.T.Width = defaultComputeWidth();
  bool WidthGiven = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    // "--flag=value" or "--flag value" for options that take a value;
    // -1 when the value is missing.
    auto Value = [&](StringRef Flag, std::string &Out) {
      return takeOptionValue(Args, I, Flag, Out);
    };
    std::string V;
    int R;
    auto Quoted = [&](StringRef Flag) { return (Flag + " '" + V + "'").str(); };
    if (A == "--help" || A == "-h") {
      O.Help = true;
    } else if (A == "-q" || A == "--quiet") {
      O.Quiet = true;
    } else if (A.size() == 3 && A.starts_with("-O") && A[2] >= '0' &&
               A[2] <= '3') {
      O.JitOptLevel = unsigned(A[2] - '0');
    } else if ((R = Value("--buffer", V))) {
      if (R < 0)
        return "--buffer needs [SET.]BINDING[[INDEX]]:SIZE[:init=KIND]";
      auto B = parseBufferSpec(V);
      if (!B)
        return Quoted("--buffer") + ": " + toString(B.takeError());
      if (O.findBuffer(B->Set, B->Binding, B->Index))
        return Quoted("--buffer") + ": binding " +
               bindingName(B->Set, B->Binding, B->Index) +
               " already has a buffer";
      O.Buffers.push_back(std::move(*B));
    } else if ((R = Value("--image", V))) {
      if (R < 0)
        return "--image needs [SET.]BINDING[[INDEX]]:WxH[:FORMAT][:...] or "
               "[SET.]BINDING[[INDEX]]:FILE.png";
      auto Img = parseImageSpec(V);
      if (!Img)
        return Quoted("--image") + ": " + toString(Img.takeError());
      if (O.findImage(Img->Set, Img->Binding, Img->Index))
        return Quoted("--image") + ": binding " +
               bindingName(Img->Set, Img->Binding, Img->Index) +
               " already has an image";
      O.Images.push_back(std::move(*Img));
    } else if ((R = Value("--sampler", V))) {
      if (R < 0)
        return "--sampler needs [SET.]BINDING[[INDEX]][:KEY=VALUE,...]";
      auto Smp = parseSamplerSpec(V);
      if (!Smp)
        return Quoted("--sampler") + ": " + toString(Smp.takeError());
      if (O.findSampler(Smp->Set, Smp->Binding, Smp->Index))
        return Quoted("--sampler") + ": binding " +
               bindingName(Smp->Set, Smp->Binding, Smp->Index) +
               " already has a sampler";
      O.Samplers.push_back(std::move(*Smp));
    } else if ((R = Value("--push", V))) {
      if (R < 0 || V.empty())
        return "--push needs hexadecimal bytes, for example --push 0a000000";
      if (V.size() % 2 || !all_of(V, isHexDigit))
        return Quoted("--push") +
               ": malformed bytes (an even number of hexadecimal digits)";
      for (size_t J = 0; J < V.size(); J += 2)
        O.PushConstants.push_back(
            uint8_t(hexDigitValue(V[J]) * 16 + hexDigitValue(V[J + 1])));
    } else if ((R = Value("--push-u32", V)) || (R = Value("--push-i32", V)) ||
               (R = Value("--push-f32", V))) {
      StringRef Flag = A.take_front(10);
      if (R < 0 || V.empty())
        return (Flag + " needs a comma-separated list of values").str();
      std::string Bad;
      bool Ok = Flag == "--push-u32"
                    ? appendWords<uint32_t>(V, parseU32, O.PushConstants, Bad)
                : Flag == "--push-i32"
                    ? appendWords<int32_t>(V, parseI32, O.PushConstants, Bad)
                    : appendWords<float>(V, parseF32, O.PushConstants, Bad);
      if (!Ok)
        return Quoted(Flag) + ": malformed number '" + Bad + "'";
    } else if ((R = Value("--dispatch", V))) {
      SmallVector<StringRef, 3> Items;
      StringRef(V).split(Items, ',');
      if (R < 0 || Items.size() > 3)
        return Quoted("--dispatch") + ": expected X[,Y[,Z]]";
      O.Groups = {1, 1, 1};
      for (size_t J = 0; J < Items.size(); ++J)
        if (!parseU32(Items[J].trim(), O.Groups[J]) || O.Groups[J] == 0)
          return Quoted("--dispatch") + ": malformed number '" +
                 Items[J].str() + "' (a positive workgroup count)";
    } else if ((R = Value("--entry", V))) {
      if (R < 0 || V.empty())
        return "--entry needs a name";
      O.T.EntryPoint = V;
    } else if ((R = Value("--threads", V))) {
      uint32_t N;
      if (R < 0 || !parseU32(V, N))
        return Quoted("--threads") +
               ": malformed number (a thread count, 0 for all cores)";
      O.Threads = N;
    } else if ((R = Value("--width", V))) {
      if (R < 0 || (V != "4" && V != "8" && V != "16"))
        return Quoted("--width") + ": --width takes 4, 8 or 16";
      O.T.Width = unsigned(std::stoul(V));
      WidthGiven = true;
    } else if ((R = Value("--backend", V))) {
      std::optional<Backend> Bk = parseBackend(V);
      if (R < 0 || !Bk)
        return Quoted("--backend") +
               ": --backend takes simd, invocation, scalar or dxil";
      O.T.Backend = *Bk;
    } else if (A == "--dxil-native-vectors") {
      O.T.DxilNativeVectors = true;
    } else if ((R = Value("--spec", V))) {
      auto [IdText, ValueText] = StringRef(V).split('=');
      uint32_t Id;
      if (R < 0 || !StringRef(V).contains('=') || ValueText.empty() ||
          !parseU32(IdText, Id))
        return Quoted("--spec") + ": --spec takes ID=VALUE, for example "
                                  "--spec 3=16";
      O.T.SpecValues.emplace_back(Id, ValueText.str());
    } else if (int C = takeCacheFlag(Args, I, O.Cache, V)) {
      if (C < 0)
        return V;
    } else if (parseTranslationFlag(A, O.T)) {
      // --no-validate, --no-canonicalize, ... (ArgParse.h)
    } else if ((R = Value("--repeat", V))) {
      uint32_t N;
      if (R < 0 || !parseU32(V, N) || N == 0)
        return Quoted("--repeat") + ": malformed number (a positive count)";
      O.Repeat = N;
    } else if ((R = Value("--timeout", V))) {
      double Seconds = 0;
      if (R < 0 || StringRef(V).getAsDouble(Seconds) || !(Seconds > 0) ||
          Seconds > 1e6)
        return Quoted("--timeout") +
               ": malformed time (positive seconds, for example 2 or 0.5)";
      O.Timeout = std::chrono::nanoseconds(int64_t(Seconds * 1e9));
    } else if ((R = Value("--dump", V))) {
      RunDump D;
      auto [Ref, Path] = StringRef(V).split(':');
      if (R < 0 || !StringRef(V).contains(':') || Path.empty())
        return Quoted("--dump") + ": expected [SET.]BINDING:PATH";
      if (!parseBindingRef(Ref, D.Set, D.Binding, D.Index))
        return Quoted("--dump") + ": malformed binding '" + Ref.str() +
               "' (expected [SET.]BINDING or [SET.]BINDING[INDEX])";
      D.Path = Path.str();
      O.Dumps.push_back(std::move(D));
    } else if (!A.starts_with("-") || A == "-") {
      if (!O.Shader.empty())
        return "more than one shader ('" + O.Shader + "' and '" + A.str() +
               "')";
      O.Shader = A.str();
    } else {
      return "unknown option '" + A.str() + "'";
    }
  }
  if (O.Help)
    return std::nullopt;
  if (O.Shader.empty())
    return "no shader file";
  if (std::optional<std::string> E = checkBackendOptions(O.T, WidthGiven))
    return E;
  // Checked after the loop so that --dump may come before its --buffer.
  for (const RunDump &D : O.Dumps)
    if (!O.findBuffer(D.Set, D.Binding, D.Index) &&
        !O.findImage(D.Set, D.Binding, D.Index))
      return "--dump '" + bindingName(D.Set, D.Binding, D.Index) + ":" +
             D.Path + "': no --buffer or --image gives binding " +
             bindingName(D.Set, D.Binding, D.Index) +
             (O.findSampler(D.Set, D.Binding, D.Index)
                  ? " (a sampler has no contents to dump)"
                  : "");
  return std::nullopt;
}

int runCommand(ArrayRef<std::string> Args, raw_ostream &Out, raw_ostream &Err) {
  RunOptions O;
  auto Usage = [&](const Twine &Msg) {
    Err << ErrorPrefix << Msg << "\n(run 'spirv2llvm run --help' for usage)\n";
    return 2;
  };
  auto Fail = [&](const Twine &Msg) {
    Err << ErrorPrefix << Msg << "\n";
    return 1;
  };
  if (auto Msg = parseRunArgs(Args, O))
    return Usage(*Msg);
  if (O.Help) {
    Out << HelpText;
    return 0;
  }

  // The buffers first: a file that cannot be read is bad usage, whatever
  // the shader.
  std::vector<GuardedBuffer> Data;
  for (size_t I = 0; I < O.Buffers.size(); ++I) {
    const RunBuffer &B = O.Buffers[I];
    Data.emplace_back(B.Size);
    if (!Data[I].data())
      return Fail("--buffer '" + B.Spec + "': cannot allocate " +
                  Twine(B.Size) + " bytes");
    if (Error E = fillBuffer(B.Init, {Data[I].data(), Data[I].size()}))
      return Usage("--buffer '" + B.Spec + "': " + toString(std::move(E)));
  }

  const char *const WarningPrefix = "spirv2llvm run: ";
  std::shared_ptr<CompileCache> Cache = openCache(O.Cache, Err, WarningPrefix);
  bool UseCache = Cache && Cache->enabled();
  auto CompileStart = std::chrono::steady_clock::now();
  auto Buf = MemoryBuffer::getFileOrSTDIN(O.Shader, /*IsText=*/false);
  if (!Buf)
    return Fail(O.Shader + ": cannot read: " + Buf.getError().message());
  ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()),
      (*Buf)->getBufferSize());
  // A hit skips translation: the key is computed from the input and the
  // options, and the entry holds the reflection checkResources needs.
  std::string Key;
  std::unique_ptr<ComputeShader> S;
  if (UseCache) {
    Key = translationCacheKey(Bytes, O.Shader, O.T);
    S = ComputeShader::load(*Cache, Key, O.JitOptLevel);
  }
  if (!S) {
    auto T = translateBytes(Bytes, O.Shader, O.T);
    if (!T)
      return Fail(toString(T.takeError()));
    if (T->EntryStage != Stage::Compute)
      return Fail(O.Shader + ": entry point '" + T->EntryName +
                  "' is not a GLCompute shader");
    // Reflection comes with the translation, so mismatched buffers are
    // reported before paying for the JIT.
    if (auto Msg = checkResources(O, T->Compute))
      return Usage(*Msg);
    auto C = ComputeShader::create(std::move(*T), O.JitOptLevel,
                                   UseCache ? Cache.get() : nullptr, Key);
    if (!C)
      return Fail(O.Shader + ": " + C.status().message());
    S = std::move(*C);
  }
  double CompileMs = msSince(CompileStart);
  reportCacheProblems(Cache.get(), Err, WarningPrefix);
  if (auto Msg = checkResources(O, S->info()))
    return Usage(*Msg);
  std::string Entry = S->entryName();
  // Images take their view and format from the shader when the options
  // leave them out, so they are made once its reflection is known (from
  // the translation or the cache entry).
  std::vector<Image> Images;
  for (const RunImage &I : O.Images) {
    auto Img = createRunImage(I, findBinding(S->info(), I.Set, I.Binding));
    if (!Img)
      return Usage("--image '" + I.Spec + "': " + toString(Img.takeError()));
    Images.push_back(std::move(*Img));
  }

  DispatchResources R;
  for (size_t I = 0; I < O.Buffers.size(); ++I)
    if (O.Buffers[I].Index)
      R.bindArrayElement(O.Buffers[I].Set, O.Buffers[I].Binding,
                         *O.Buffers[I].Index, Data[I].data(), Data[I].size());
    else
      R.bind(O.Buffers[I].Set, O.Buffers[I].Binding, Data[I].data(),
             Data[I].size());
  bindImagesAndSamplers(O, S->info(), Images, R);
  R.PushConstants = O.PushConstants;
  R.Timeout = O.Timeout;

  if (!O.Quiet) {
    printSummary(O, Entry, *S, Images, Out);
    Out.flush();
  }

  // Every dispatch starts from the initial contents, so a shader that
  // accumulates (x += 1) shows one dispatch's effect in --dump and does
  // the same work each time. The copy back is not timed.
  unsigned Timed = O.Repeat.value_or(1);
  unsigned Total = O.Repeat ? Timed + 1 : 1;
  std::vector<std::vector<uint8_t>> Initial, InitialImages;
  if (Total > 1) {
    for (const GuardedBuffer &B : Data)
      Initial.emplace_back(B.data(), B.data() + B.size());
    for (const Image &I : Images)
      InitialImages.emplace_back(I.bytes().begin(), I.bytes().end());
  }
  std::vector<double> Ms;
  for (unsigned D = 0; D < Total; ++D) {
    if (D > 0) {
      for (size_t I = 0; I < Data.size(); ++I)
        std::memcpy(Data[I].data(), Initial[I].data(), Data[I].size());
      for (size_t I = 0; I < Images.size(); ++I)
        std::memcpy(Images[I].bytes().data(), InitialImages[I].data(),
                    InitialImages[I].size());
    }
    auto Start = std::chrono::steady_clock::now();
    if (Status E = S->dispatch(O.Groups, R, O.Threads); !E.ok())
      return Fail(O.Shader + ": " + E.message());
    double Elapsed = msSince(Start);
    bool WarmUp = O.Repeat && D == 0;
    if (!WarmUp)
      Ms.push_back(Elapsed);
  }

  for (const RunDump &D : O.Dumps) {
    if (const RunImage *RI = O.findImage(D.Set, D.Binding, D.Index)) {
      if (Error E = dumpImage(Images[RI - O.Images.data()], D.Path))
        return Fail(toString(std::move(E)));
      continue;
    }
    size_t I = O.findBuffer(D.Set, D.Binding, D.Index) - O.Buffers.data();
    std::error_code EC;
    raw_fd_ostream OS(D.Path, EC, sys::fs::OF_None);
    if (!EC) {
      OS.write(reinterpret_cast<const char *>(Data[I].data()), Data[I].size());
      OS.close();
      EC = OS.error();
    }
    if (EC)
      return Fail(D.Path + ": cannot write: " + EC.message());
  }

  const auto &WG = S->info().WorkgroupSize;
  uint64_t Invocations =
      uint64_t(O.Groups[0]) * O.Groups[1] * O.Groups[2] * WG[0] * WG[1] * WG[2];
  double MinMs = *std::min_element(Ms.begin(), Ms.end());
  double MaxMs = *std::max_element(Ms.begin(), Ms.end());
  double MedianMs = median(Ms);
  // Invocations per microsecond at the median is millions per second.
  double MinvPerS = MedianMs > 0 ? double(Invocations) / (MedianMs * 1e3) : 0;
  Out << "RESULT invocations=" << Invocations << " dispatches=" << Timed
      << format(" median_ms=%.4f min_ms=%.4f max_ms=%.4f", MedianMs, MinMs,
                MaxMs)
      << format(" minv_per_s=%.2f compile_ms=%.2f", MinvPerS, CompileMs);
  if (Cache)
    Out << " cache="
        << (!UseCache ? "disabled" : S->fromCache() ? "hit" : "miss");
  Out << "\n";
  return 0;
}

} // namespace spirv2llvm
