//===- DifferentialTest.cpp - spirv2llvm against lavapipe -----------------===//
//
// Every compute shader in shaders/compute runs twice from the same SPIR-V
// words and the same deterministic inputs: on Mesa's lavapipe (the Vulkan
// reference, VulkanComputeRunner) and on spirv2llvm's JIT (translate +
// ComputeShader::dispatch) at W = 4, 8 and 16. Then every buffer is
// compared, inputs included (a stray store shows up there):
//
//   Exact      bytes, shown as 32-bit words (Exact64: as 64-bit words)
//   F32, F64   |a - b| <= Abs + Rel * max(|a|, |b|); NaN only equals NaN.
//              Vulkan allows lavapipe to reassociate and contract a * b + c
//              when the shader does not say NoContraction, so compound
//              float expressions are compared with F32 (Rel 1e-5, Abs 1e-6)
//              or F64 (Rel 1e-12, Abs 1e-12); single operations are
//              correctly rounded on both sides and compared exactly.
//   Sorted32/Sorted64
//              multisets of words, per chunk of Chunk words (0: the whole
//              buffer): for values that depend on the order in which
//              invocations reach an atomic (returned tickets, exchanges).
//   None       not compared (order-dependent, e.g. which invocation won).
//
// A buffer marked SubgroupSized holds values that depend on the subgroup
// size, which is W for spirv2llvm and lavapipe's vector width for lavapipe.
// differential.cmake runs the W = 4/8/16 tests with LP_NATIVE_VECTOR_WIDTH
// = 128/256/512 so that both agree, and lavapipe is asked for
// RequiredSubgroupSize = W. Without that variable (running the binary by
// hand) such buffers are compared only where W equals lavapipe's size.
//
// A buffer with a Reference is compared with a C++ reference instead of
// lavapipe, where lavapipe is known to be wrong (LavapipeIssue says how; the
// test prints a note if lavapipe ever agrees with the reference):
//   - lavapipe's subgroups for workgroups whose x size is not a multiple of
//     its subgroup size (lanes numbered per x row, NumSubgroups rounded
//     down);
//   - lavapipe's OpSMod, which it computes as OpSRem.
//
// A case with Pending set names a diagnostic spirv2llvm gives today for a
// feature it does not implement yet: while translation fails with that
// message the test is skipped (and says so); once it translates, the case
// is compared like any other. Any other translation error fails.
// ValidatorIssue is the same for spirv2llvm's validator rejecting a valid
// module: noted, then translated without validation.
//
// Everything per process is created once: the Vulkan runner, and per case
// the SPIR-V words and lavapipe's results (which do not depend on W).
//
//===----------------------------------------------------------------------===//
#include "VulkanComputeRunner.h"

#include "frontend/Frontend.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"
#include "spirv2llvm/Passes.h"

#include "llvm/IR/Verifier.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>

using namespace spirv2llvm;
using namespace spirv2llvm::vk;

namespace {

//===----------------------------------------------------------------------===//
// The table's vocabulary
//===----------------------------------------------------------------------===//

/// Initial contents; element i (a 32-bit word, or 64-bit for the *64 kinds)
/// is a function of i and Seed only.
enum class Init {
  Zero,
  Fill,   ///< every word = Seed
  Iota,   ///< word i = i
  Hash,   ///< word i = 32 well-mixed bits
  Small,  ///< word i = hash % 1000 (sums do not overflow)
  F32,    ///< float in [-1, 1) with 23 random bits
  Dyadic, ///< float k / 4 for k in [-8, 8]: products and sums stay exact
  F64,    ///< double in [-1, 1) with 52 random bits
  Hash64, ///< 64-bit element i = 64 well-mixed bits
  Words,  ///< the Words list, repeated
};

enum class Check { Exact, Exact64, F32, F64, Sorted32, Sorted64, None };

struct Case;
/// Expected contents of one buffer computed in C++, from the case, every
/// buffer's initial contents and W.
using ReferenceFn = std::vector<uint8_t> (*)(
    const Case &, const std::vector<std::vector<uint8_t>> &Initial, unsigned W);

struct Buffer {
  uint32_t Binding = 0;
  uint32_t Bytes = 0;
  Init Pattern = Init::Zero;
  uint32_t Seed = 0;
  Check Compare = Check::Exact;
  bool Uniform = false;
  uint32_t Set = 0;
  /// Sorted32/Sorted64: compare multisets of this many elements at a time.
  uint32_t Chunk = 0;
  /// Holds values that depend on the subgroup size.
  bool SubgroupSized = false;
  std::vector<uint32_t> Words = {};
  /// Where lavapipe is known to be wrong, the expected contents come from
  /// this C++ reference instead, and LavapipeIssue says what lavapipe gets
  /// wrong.
  ReferenceFn Reference = nullptr;
  const char *LavapipeIssue = nullptr;
};

struct Case {
  const char *Name;
  /// In shaders/compute: .comp (GLSL, compiled with glslang) or .spvasm.
  const char *File;
  std::vector<Buffer> Buffers;
  std::array<uint32_t, 3> Groups = {1, 1, 1};
  /// Push constant words from offset 0.
  std::vector<uint32_t> Push = {};
  /// SpecId -> 32-bit unsigned value.
  std::vector<std::pair<uint32_t, uint32_t>> Spec = {};
  /// Target of glslang / the assembler, and spirv2llvm's --target-env.
  spv_target_env Env = SPV_ENV_VULKAN_1_2;
  /// lavapipe features the shader needs (VulkanComputeRunner::hasFeature).
  std::vector<const char *> Features = {};
  /// Substring of the diagnostic spirv2llvm gives while it does not
  /// implement what this case needs (see the file comment).
  const char *Pending = nullptr;
  /// Substring of the message spirv2llvm's SPIR-V validator gives for this
  /// valid module (it validates with spirv-val's default options, which
  /// reject what device features allow, e.g. scalar block layout). While
  /// it does, the test says so and translates with Validate = false (and
  /// so without canonicalization) to test the code generation anyway.
  const char *ValidatorIssue = nullptr;
  /// Translate with --no-inline: function calls stay calls.
  bool NoInline = false;
};

// Builders for the table. Every buffer is in set 0 and compared exactly
// unless the row says otherwise; inputs are compared too.
//   in(binding, bytes, init[, seed])   storage buffer with initial contents
//   ubo(binding, bytes, init[, seed])  uniform buffer
//   out(binding, bytes[, check])       storage buffer of 0xdeadbeef words
//   words(binding, bytes, {w...}[, check])  storage buffer, words repeated
//   sorted(buffer, check[, chunk])     compared as multisets
//   subgroupSized(buffer)              values depend on the subgroup size
//   reference(buffer, fn, why)         compared with a C++ reference
Buffer in(uint32_t Binding, uint32_t Bytes, Init P, uint32_t Seed = 1) {
  return {.Binding = Binding, .Bytes = Bytes, .Pattern = P, .Seed = Seed};
}
Buffer ubo(uint32_t Binding, uint32_t Bytes, Init P, uint32_t Seed = 1) {
  return {.Binding = Binding,
          .Bytes = Bytes,
          .Pattern = P,
          .Seed = Seed,
          .Uniform = true};
}
/// An output buffer starts as 0xdeadbeef words, so unwritten parts show.
Buffer out(uint32_t Binding, uint32_t Bytes, Check C = Check::Exact) {
  return {.Binding = Binding,
          .Bytes = Bytes,
          .Pattern = Init::Fill,
          .Seed = 0xdeadbeef,
          .Compare = C};
}
Buffer words(uint32_t Binding, uint32_t Bytes, std::vector<uint32_t> W,
             Check C = Check::Exact) {
  return {.Binding = Binding,
          .Bytes = Bytes,
          .Pattern = Init::Words,
          .Compare = C,
          .Words = std::move(W)};
}
Buffer sorted(Buffer B, Check C, uint32_t Chunk = 0) {
  B.Compare = C;
  B.Chunk = Chunk;
  return B;
}
Buffer subgroupSized(Buffer B) {
  B.SubgroupSized = true;
  return B;
}
Buffer reference(Buffer B, ReferenceFn F, const char *LavapipeIssue) {
  B.Reference = F;
  B.LavapipeIssue = LavapipeIssue;
  return B;
}
uint32_t f32(float F) { return std::bit_cast<uint32_t>(F); }
constexpr uint32_t Ones = 0xffffffffu;

//===----------------------------------------------------------------------===//
// C++ references, for buffers where lavapipe is known to be wrong
//===----------------------------------------------------------------------===//

template <typename T> std::vector<T> elements(const std::vector<uint8_t> &B) {
  std::vector<T> V(B.size() / sizeof(T));
  if (!V.empty())
    std::memcpy(V.data(), B.data(), V.size() * sizeof(T));
  return V;
}

template <typename T>
void store(std::vector<uint8_t> &B, size_t Index, T Value) {
  std::memcpy(B.data() + Index * sizeof(T), &Value, sizeof(T));
}

uint32_t specValue(const Case &C, uint32_t Id, uint32_t Default);

/// subgroup_builtins.comp, binding 0: (SubgroupSize, SubgroupInvocationId,
/// NumSubgroups, SubgroupId) for the subgroups docs/compute.md defines: W
/// consecutive LocalInvocationIndex values each, the last one partial. Any
/// Vulkan implementation may do this. lavapipe does not: in workgroups
/// whose x size is not a multiple of its vector width it numbers lanes per
/// x row, so two invocations of one subgroup share an id (5x3x2: indices 0
/// and 5 are both lane 0 of subgroup 0), and its NumSubgroups rounds down
/// (100 invocations at width 8: 12, while SubgroupId goes up to 12).
std::vector<uint8_t>
subgroupRaw(const Case &C, const std::vector<std::vector<uint8_t>> &Initial,
            unsigned W) {
  std::vector<uint8_t> Out = Initial[0];
  uint32_t Size = specValue(C, 0, 1) * specValue(C, 1, 1) * specValue(C, 2, 1);
  for (uint32_t G = 0; G < C.Groups[0] * Size; ++G) {
    uint32_t L = G % Size;
    store<uint32_t>(Out, G * 4 + 0, W);
    store<uint32_t>(Out, G * 4 + 1, L % W);
    store<uint32_t>(Out, G * 4 + 2, (Size + W - 1) / W);
    store<uint32_t>(Out, G * 4 + 3, L / W);
  }
  return Out;
}

/// subgroup_builtins.comp, binding 1: every relation holds (1, 1, 7, G).
std::vector<uint8_t>
subgroupRelations(const Case &C,
                  const std::vector<std::vector<uint8_t>> &Initial, unsigned) {
  std::vector<uint8_t> Out = Initial[1];
  uint32_t Size = specValue(C, 0, 1) * specValue(C, 1, 1) * specValue(C, 2, 1);
  for (uint32_t G = 0; G < C.Groups[0] * Size; ++G) {
    store<uint32_t>(Out, G * 4 + 0, 1);
    store<uint32_t>(Out, G * 4 + 1, 1);
    store<uint32_t>(Out, G * 4 + 2, 7);
    store<uint32_t>(Out, G * 4 + 3, G);
  }
  return Out;
}

/// OpSMod: the remainder with the sign of the divisor.
template <typename T> T smod(T A, T B) {
  T R = A % B; // C++: sign of the dividend, as OpSRem
  return R != 0 && ((R < 0) != (B < 0)) ? R + B : R;
}

/// signed_div_mod.spvasm's divisor for element I.
int32_t divisorOf(const std::vector<std::vector<uint8_t>> &Initial, size_t I) {
  int32_t D = int32_t(elements<uint32_t>(Initial[1])[I]) - 500;
  return D == 0 ? 3 : D;
}

/// signed_div_mod.spvasm, binding 3: 32-bit OpSMod. lavapipe returns OpSRem
/// (the sign of the dividend) when the signs differ.
std::vector<uint8_t> smod32(const Case &,
                            const std::vector<std::vector<uint8_t>> &Initial,
                            unsigned) {
  std::vector<uint8_t> Out = Initial[3];
  std::vector<int32_t> A = elements<int32_t>(Initial[0]);
  for (size_t I = 0; I < A.size(); ++I)
    store<int32_t>(Out, I, smod<int64_t>(A[I], divisorOf(Initial, I)));
  return Out;
}

/// signed_div_mod.spvasm, binding 5: 64-bit OpSMod; lavapipe as for 32 bits.
std::vector<uint8_t> smod64(const Case &,
                            const std::vector<std::vector<uint8_t>> &Initial,
                            unsigned) {
  std::vector<uint8_t> Out = Initial[5];
  std::vector<int32_t> A = elements<int32_t>(Initial[0]);
  for (size_t I = 0; I < A.size(); ++I) {
    // Wrapping products, as OpIMul.
    int64_t LA = int64_t(uint64_t(int64_t(A[I])) * 0x100000007ull);
    int64_t LD = int64_t(uint64_t(int64_t(divisorOf(Initial, I))) * 65537ull);
    store<int64_t>(Out, I, smod<int64_t>(LA, LD));
  }
  return Out;
}

constexpr const char *LavapipeSubgroups =
    "lavapipe numbers subgroup lanes per x row when the workgroup's x size "
    "is not a multiple of its subgroup size, and rounds NumSubgroups down";
constexpr const char *LavapipeSMod =
    "lavapipe computes OpSMod as OpSRem (sign of the dividend)";

//===----------------------------------------------------------------------===//
// The cases
//===----------------------------------------------------------------------===//

/// One row per dispatch:
///   {Name, shader file, {buffers}, {groups x, y, z}, {push constant words},
///    {{SpecId, value}}, target env (default Vulkan 1.2), {lavapipe
///    features}, Pending diagnostic, ValidatorIssue, NoInline}
/// Buffer sizes are written as elements x bytes per element; each
/// shader's header comment says what it covers.
// clang-format off
const std::vector<Case> &cases() {
  static const std::vector<Case> Cases = {
      // --- Built-ins and workgroup shapes ---------------------------------
      // 17 invocations per workgroup, 3x2x2 workgroups: 204 invocations, 4
      // uvec4 records each.
      {"Builtins1D", "builtins_1d.comp", {out(0, 204 * 64)}, {3, 2, 2}},
      // 8x4x2 workgroups of 64, 2x3x2 of them: 768 invocations, 5 records.
      {"Builtins3D", "builtins_3d.comp", {out(0, 768 * 80)}, {2, 3, 2}},
      // Spec-constant workgroup sizes (the WorkgroupSize built-in).
      {"SpecSize3", "builtins_spec_size.comp", {out(0, 180 * 64)}, {5, 4, 3},
       {}, {{0, 3}, {1, 1}, {2, 1}}},
      {"SpecSize100", "builtins_spec_size.comp", {out(0, 600 * 64)}, {3, 2, 1},
       {}, {{0, 100}, {1, 1}, {2, 1}}},
      {"SpecSize5x3x2", "builtins_spec_size.comp", {out(0, 240 * 64)},
       {2, 2, 2}, {}, {{0, 5}, {1, 3}, {2, 2}}},
      // The same for Vulkan 1.3: glslang emits LocalSizeId.
      {"SpecSize5x3x2Vk13", "builtins_spec_size.comp", {out(0, 240 * 64)},
       {2, 2, 2}, {}, {{0, 5}, {1, 3}, {2, 2}}, SPV_ENV_VULKAN_1_3},
      {"SpecSize17Vk13", "builtins_spec_size.comp", {out(0, 136 * 64)},
       {4, 1, 2}, {}, {{0, 17}, {1, 1}, {2, 1}}, SPV_ENV_VULKAN_1_3},
      // LocalSizeId with a constant, a spec constant and a spec-constant op:
      // 7x2x3 and, with SpecId 5 = 4, 7x4x5.
      {"LocalSizeId", "local_size_id.spvasm", {out(0, 504 * 32)}, {3, 2, 2},
       {}, {}, SPV_ENV_VULKAN_1_3},
      {"LocalSizeIdSpec", "local_size_id.spvasm", {out(0, 1680 * 32)},
       {3, 2, 2}, {}, {{5, 4}}, SPV_ENV_VULKAN_1_3},
      // Subgroup built-ins: raw values (size-dependent) and relations that
      // hold at any size. Against lavapipe where its subgroups are sound
      // (x a multiple of 16, or a single subgroup)...
      {"Subgroup64", "subgroup_builtins.comp",
       {subgroupSized(out(0, 192 * 16)), out(1, 192 * 16)}, {3, 1, 1}, {},
       {{0, 64}, {1, 1}, {2, 1}}},
      {"Subgroup16x2x2", "subgroup_builtins.comp",
       {subgroupSized(out(0, 128 * 16)), out(1, 128 * 16)}, {2, 1, 1}, {},
       {{0, 16}, {1, 2}, {2, 2}}},
      {"Subgroup3", "subgroup_builtins.comp",
       {subgroupSized(out(0, 12 * 16)), out(1, 12 * 16)}, {4, 1, 1}, {},
       {{0, 3}, {1, 1}, {2, 1}}},
      // ... and against the C++ reference where they are not.
      {"Subgroup5x3x2", "subgroup_builtins.comp",
       {reference(out(0, 90 * 16), subgroupRaw, LavapipeSubgroups),
        reference(out(1, 90 * 16), subgroupRelations, LavapipeSubgroups)},
       {3, 1, 1}, {}, {{0, 5}, {1, 3}, {2, 2}}},
      {"Subgroup100", "subgroup_builtins.comp",
       {reference(out(0, 200 * 16), subgroupRaw, LavapipeSubgroups),
        reference(out(1, 200 * 16), subgroupRelations, LavapipeSubgroups)},
       {2, 1, 1}, {}, {{0, 100}, {1, 1}, {2, 1}}},

      // --- Buffer layouts ---------------------------------------------------
      // 64 std430 Items of 64 bytes after an 80-byte header.
      {"Std430Layout", "std430_layout.comp",
       {in(0, 80 + 64 * 64, Init::F32), out(1, 64 * 16, Check::F32),
        out(2, 64 * 8), out(3, 64 * 64)},
       {2, 1, 1}},
      // Scalar layout: 48 records of 40 bytes after a 16-byte header.
      {"ScalarLayout", "scalar_layout.comp",
       {in(0, 16 + 48 * 40, Init::F32), out(1, 48 * 24, Check::F32),
        out(2, 48 * 12)},
       {2, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_2, {"scalarBlockLayout"},
       nullptr, "relaxed storage buffer layout rules"},
      // std140 uniform block of 368 bytes.
      {"UboStd140", "ubo_std140.comp",
       {ubo(0, 368, Init::F32, 7), in(1, 32 * 16, Init::F32, 2),
        out(2, 32 * 64, Check::F32)},
       {2, 1, 1}},
      // Row- and column-major matrices; OutR/OutC are layout conversions.
      {"MatrixLayouts", "matrix_layouts.comp",
       {in(0, 1088, Init::F32, 3), in(1, 32 * 16, Init::F32, 4),
        out(2, 32 * 64, Check::F32), out(3, 32 * 64), out(4, 32 * 64)},
       {2, 1, 1}},
      // Matrix operators and GLSL.std.450 functions on those matrices.
      {"MatrixOps", "matrix_ops.comp",
       {in(0, 1088, Init::F32, 5), in(1, 32 * 16, Init::F32, 6),
        out(2, 32 * 96, Check::F32), out(3, 32 * 64, Check::F32)},
       {2, 1, 1}},
      // Descriptor sizes that are not whole elements: lengths 37, 5, 7, 30.
      {"RuntimeArrayLength", "runtime_array_length.comp",
       {in(0, 4 + 4 * 37, Init::Small), in(1, 16 + 16 * 5 + 8, Init::F32),
        in(2, 12 * 7 + 4, Init::Small), out(3, 30 * 4)},
       {1, 1, 1}},
      // 72 bytes of push constants: N = 55 of 60 invocations run.
      {"PushConstants", "push_constants.comp",
       {in(0, 60 * 4, Init::F32), out(1, 60 * 16, Check::F32),
        out(2, 60 * 16)},
       {3, 1, 1},
       {55, uint32_t(-7), f32(1.5f), 0, f32(0.25f), f32(-2.0f), f32(3.5f), 0,
        0x5a5a, 0xff0f, 11, 22, 33, 44, f32(1.0f), f32(2.0f), f32(3.0f),
        f32(4.0f)}},

      // --- Memory classes and access patterns -------------------------------
      {"SharedZeroInit", "shared_zero_init.comp",
       {in(0, 4 * 120 * 4, Init::Hash), out(1, 4 * 88 * 4)}, {4, 1, 1},
       {}, {}, SPV_ENV_VULKAN_1_2, {"shaderZeroInitializeWorkgroupMemory"}},
      {"PrivateFunctionVars", "private_function_vars.comp",
       {in(0, 32 * 4, Init::Hash), out(1, 32 * 12), out(2, 32 * 16, Check::F32)},
       {2, 1, 1}},
      // N = 256 invocations; In has 4096 words, Scatter N + 1.
      {"AccessPatterns", "access_patterns.comp",
       {in(0, 4096 * 4, Init::Hash, 5), in(1, 256 * 16, Init::Hash, 6),
        out(2, 256 * 32), out(3, 257 * 4)},
       {4, 1, 1}, {1234, 256}},
      // 64 Particles: std430 stride 64, std140 stride 96.
      {"StructCopy", "struct_copy.comp",
       {in(0, 64 * 64, Init::F32), out(1, 64 * 96), out(2, 128 * 64)},
       {4, 1, 1}},
      // Vectors in structs, arrays and struct-returning intrinsics: the
      // aggregate paths of the scalar and DXIL pipelines. Dyadic floats,
      // so every result is exact.
      {"AggregateVectors", "aggregate_vectors.comp",
       {in(0, 128 * 48, Init::Dyadic, 3), out(1, 128 * 48),
        out(2, 128 * 48)},
       {2, 1, 1}},
      {"CopyMemory", "copy_memory.spvasm",
       {in(0, 64 * 32, Init::F32, 9), out(1, 64 * 32), out(2, 64 * 32),
        out(3, 64 * 32)},
       {4, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_3},

      // --- 64-bit types -----------------------------------------------------
      {"Int64", "int64_arith.comp",
       {in(0, 128 * 8, Init::Hash64), in(1, 64 * 16, Init::Hash64, 2),
        out(2, 64 * 13 * 8, Check::Exact64)},
       {4, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_2, {"shaderInt64"}},
      // 8- and 16-bit storage and arithmetic; halves from Dyadic floats'
      // words (finite: normal values and zeros).
      {"Storage8And16", "storage_8_16.comp",
       {in(0, 128, Init::Hash), in(7, 64, Init::Hash, 3),
        in(1, 256, Init::Hash, 2), in(2, 256, Init::Dyadic),
        out(3, 256), out(4, 512), out(5, 512), out(6, 1024)},
       {4, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_2,
       {"shaderInt8", "shaderInt16", "shaderFloat16",
        "storageBuffer8BitAccess", "storageBuffer16BitAccess"}},
      // Lane masks and the ARB/KHR ballot and vote operations: raw values
      // (subgroup-sized) and relations that hold at any subgroup size, a
      // subgroup of one (the one-invocation back ends) included.
      {"SubgroupMasks", "subgroup_masks.comp",
       {subgroupSized(out(0, 64 * 4 * 16)), out(1, 64 * 4)}, {2, 1, 1}, {}, {},
       SPV_ENV_VULKAN_1_2, {"shaderInt64"}},
      // Bitcasts between different component counts; push constant K.
      {"BitcastRepack", "bitcast_repack.comp",
       {in(0, 128 * 4, Init::Hash), out(1, 64 * 12 * 4)},
       {4, 1, 1}, {0x89abcdefu}, {}, SPV_ENV_VULKAN_1_2,
       {"shaderInt64", "shaderInt16", "shaderFloat16", "shaderFloat64"}},
      // Push constants: double 0.75, float 2.5.
      {"Float64", "float64_arith.comp",
       {in(0, 128 * 8, Init::F64), in(1, 64 * 32, Init::F64, 2),
        out(2, 64 * 8 * 8, Check::F64), out(3, 64 * 16)},
       {4, 1, 1},
       {uint32_t(std::bit_cast<uint64_t>(0.75)),
        uint32_t(std::bit_cast<uint64_t>(0.75) >> 32), f32(2.5f)},
       {}, SPV_ENV_VULKAN_1_2, {"shaderFloat64"}},

      // 64 invocations; divisors in [-500, 499] without 0. SDiv and SRem
      // against lavapipe, SMod against C++.
      {"SignedDivMod", "signed_div_mod.spvasm",
       {in(0, 64 * 4, Init::Hash, 21), in(1, 64 * 4, Init::Small, 22),
        out(2, 64 * 8), reference(out(3, 64 * 4), smod32, LavapipeSMod),
        out(4, 64 * 16, Check::Exact64),
        reference(out(5, 64 * 8, Check::Exact64), smod64, LavapipeSMod)},
       {2, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_3, {"shaderInt64"}},

      // --- Atomics ----------------------------------------------------------
      // 256 invocations. Binding 0: counters every invocation hits, 1: 8
      // slots of 8 counters, 8 invocations each (both exact, initialized
      // to each operation's identity); 2: tickets and 3: exchanged values
      // (multisets, the last word is the counter / exchange target); 4:
      // CompSwap claims (who wins depends on the order; the number of
      // winners is in binding 0).
      {"Atomics32", "atomics32.comp",
       {words(0, 20 * 4,
              {0, 0, Ones, 0, Ones, 0, 0, 0, 0, 0, 0, 0, // uint counters
               0, 0, 0x7fffffff, 0x80000000, Ones, 0, 0, 0}),
        words(1, 64 * 4, {0, Ones, 0, 0, 0, Ones, Ones, 0}),
        sorted(out(2, 257 * 4), Check::Sorted32),
        sorted(in(3, 257 * 4, Init::Iota), Check::Sorted32),
        {.Binding = 4, .Bytes = 16 * 4, .Compare = Check::None}},
       {4, 1, 1}},
      // The same in 64 bits, 128 invocations, 4 slots of 4.
      {"Atomics64", "atomics64.comp",
       {words(0, 14 * 8,
              {0, 0, Ones, Ones, 0, 0, Ones, Ones, 0, 0, 0, 0, 0, 0, 0, 0,
               0, 0, Ones, 0x7fffffff, 0, 0x80000000, Ones, Ones, 0, 0, 0, 0},
              Check::Exact64),
        words(1, 16 * 8, {0, 0, Ones, Ones, 0, 0, 0, 0}, Check::Exact64),
        sorted(in(2, 129 * 8, Init::Hash64), Check::Sorted64),
        {.Binding = 3, .Bytes = 8 * 8, .Compare = Check::None}},
       {4, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_2,
       {"shaderInt64", "shaderBufferInt64Atomics"}, "Int64Atomics"},
      // Workgroups of 100: 16 results each; tickets sorted per workgroup.
      {"AtomicsShared", "atomics_shared.comp",
       {out(0, 3 * 16 * 4), sorted(out(1, 300 * 4), Check::Sorted32, 100)},
       {3, 1, 1}},
      {"AtomicsShared64", "atomics_shared64.comp",
       {out(0, 3 * 6 * 8, Check::Exact64)}, {3, 1, 1}, {}, {},
       SPV_ENV_VULKAN_1_2, {"shaderInt64", "shaderSharedInt64Atomics"},
       "Int64Atomics"},
      // 144 invocations: C = {inc 0, dec 1000, sub 5000000}; tickets as a
      // multiset; IO holds In (read atomically) and Out (stored atomically).
      {"AtomicsSubInc", "atomics_sub_inc.spvasm",
       {words(0, 4 * 4, {0, 1000, 5000000, 7}),
        sorted(out(2, 144 * 4), Check::Sorted32),
        in(3, (1000 + 144) * 4, Init::Hash, 3)},
       {3, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_3},
      {"AtomicsSubInc64", "atomics_sub_inc64.spvasm",
       {words(0, 4 * 8, {5, 1, 1000, 0, 0, 0x1000, 0, 0x7000}, Check::Exact64),
        sorted(out(1, 144 * 8), Check::Sorted64),
        {.Binding = 2, .Bytes = (200 + 144) * 8, .Pattern = Init::Hash64,
         .Seed = 4, .Compare = Check::Exact64}},
       {3, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_3,
       {"shaderInt64", "shaderBufferInt64Atomics"}, "Int64Atomics"},

      // --- Barriers in uniform loops ----------------------------------------
      {"Reduction3", "reduction.comp",
       {in(0, 21 * 4, Init::F32), in(1, 21 * 4, Init::Small),
        out(2, 7 * 4, Check::F32), out(3, 7 * 8)},
       {7, 1, 1}, {}, {{0, 3}}},
      {"Reduction17", "reduction.comp",
       {in(0, 85 * 4, Init::F32), in(1, 85 * 4, Init::Small),
        out(2, 5 * 4, Check::F32), out(3, 5 * 8)},
       {5, 1, 1}, {}, {{0, 17}}},
      {"Reduction100", "reduction.comp",
       {in(0, 300 * 4, Init::F32), in(1, 300 * 4, Init::Small),
        out(2, 3 * 4, Check::F32), out(3, 3 * 8)},
       {3, 1, 1}, {}, {{0, 100}}},
      {"Reduction256", "reduction.comp",
       {in(0, 512 * 4, Init::F32), in(1, 512 * 4, Init::Small),
        out(2, 2 * 4, Check::F32), out(3, 2 * 8)},
       {2, 1, 1}, {}, {{0, 256}}},
      {"PrefixSum64", "prefix_sum.comp",
       {in(0, 192 * 4, Init::Small), out(1, 192 * 4), out(2, 3 * 4)},
       {3, 1, 1}, {}, {{0, 64}}},
      {"PrefixSum100", "prefix_sum.comp",
       {in(0, 200 * 4, Init::Small), out(1, 200 * 4), out(2, 2 * 4)},
       {2, 1, 1}, {}, {{0, 100}}},
      // C(20x28) = A(20x36) B(36x28): 4x3 workgroups of 8x8.
      {"MatmulTiled", "matmul_tiled.comp",
       {in(0, 20 * 36 * 4, Init::Dyadic), in(1, 36 * 28 * 4, Init::Dyadic, 2),
        out(2, 20 * 28 * 4, Check::F32)},
       {4, 3, 1}, {20, 28, 36}},
      // Two 16x24 matrices of vec2.
      {"TransposeShared", "transpose_shared.comp",
       {in(0, 2 * 16 * 24 * 8, Init::F32), out(1, 2 * 16 * 24 * 8)},
       {3, 2, 1}, {16, 24}},

      // --- Divergent control flow -------------------------------------------
      {"DivergentLoops", "divergent_loops.comp",
       {in(0, 96 * 4, Init::Hash, 11), out(1, 96 * 20)}, {3, 1, 1}},
      {"LoopContinueBreak", "loop_continue_break.comp", {out(0, 32 * 4)},
       {4, 1, 1}},
      {"SwitchFlow", "switch_flow.comp",
       {in(0, 64 * 4, Init::Hash, 12), out(1, 64 * 12)}, {4, 1, 1}},
      {"EarlyReturn", "early_return.comp",
       {in(0, 72 * 4, Init::Hash, 13), out(1, 72 * 16)}, {3, 1, 1}},
      {"FunctionReturnInLoop", "function_return_in_loop.comp",
       {in(0, 48 * 4, Init::Hash, 14), out(1, 48 * 8)}, {2, 1, 1}},

      // --- Function calls kept as calls (--no-inline) -----------------------
      {"FunctionCallsNoInline", "function_calls.comp",
       {in(0, 48 * 4, Init::Hash, 15), out(1, 48 * 24)}, {3, 1, 1}, {}, {},
       SPV_ENV_VULKAN_1_2, {}, nullptr, nullptr, /*NoInline=*/true},
      {"FunctionReturnInLoopNoInline", "function_return_in_loop.comp",
       {in(0, 48 * 4, Init::Hash, 14), out(1, 48 * 8)}, {2, 1, 1}, {}, {},
       SPV_ENV_VULKAN_1_2, {}, nullptr, nullptr, /*NoInline=*/true},
      {"PrivateFunctionVarsNoInline", "private_function_vars.comp",
       {in(0, 32 * 4, Init::Hash), out(1, 32 * 12), out(2, 32 * 16, Check::F32)},
       {2, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_2, {}, nullptr, nullptr,
       /*NoInline=*/true},
      // OpPtrAccessChain on Workgroup memory, and a function stepping
      // through Workgroup and StorageBuffer pointer parameters.
      // Functions taking and returning vectors, matrices and a struct of
      // vectors: in the Scalar and DxilData groups their signatures become
      // arrays of scalars (dxil-scalarize-signatures).
      {"MatrixLayoutsNoInline", "matrix_layouts.comp",
       {in(0, 1088, Init::F32, 3), in(1, 32 * 16, Init::F32, 4),
        out(2, 32 * 64, Check::F32), out(3, 32 * 64), out(4, 32 * 64)},
       {2, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_2, {}, nullptr, nullptr,
       /*NoInline=*/true},
      {"AggregateVectorsNoInline", "aggregate_vectors.comp",
       {in(0, 128 * 48, Init::Dyadic, 3), out(1, 128 * 48),
        out(2, 128 * 48)},
       {2, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_2, {}, nullptr, nullptr,
       /*NoInline=*/true},
      {"PointerParamsNoInline", "pointer_params.spvasm",
       {in(0, 64 * 4, Init::Hash, 16), out(1, 64 * 16)}, {2, 1, 1}, {}, {},
       SPV_ENV_VULKAN_1_3, {"variablePointers"}, nullptr, nullptr,
       /*NoInline=*/true},
      // The same with the call inlined: OpPtrAccessChain alone.
      {"PointerParams", "pointer_params.spvasm",
       {in(0, 64 * 4, Init::Hash, 16), out(1, 64 * 16)}, {2, 1, 1}, {}, {},
       SPV_ENV_VULKAN_1_3, {"variablePointers"}},

      // --- Conversions and packing ------------------------------------------
      // GLSL.std.450 Pack*/Unpack*: floats in [-1.5, 1.5), random words.
      {"Packing", "packing.comp",
       {in(0, 64 * 16, Init::F32, 17), in(1, 64 * 4, Init::Hash, 18),
        out(2, 64 * 8 * 4), out(3, 64 * 4 * 16)},
       {2, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_2, {"shaderFloat64"}},
      // OpQuantizeToF16 on edge cases: too large (infinity), too small for
      // a normal half (zero), half's largest value and the values that
      // round to it or past it, infinities, zeros, rounding.
      {"QuantizeToF16", "quantize_f16.spvasm",
       {words(0, 32 * 4,
              {f32(1e-5f), f32(-1e-5f), f32(70000.0f), f32(-70000.0f),
               f32(65504.0f), f32(65519.0f), f32(65520.0f), f32(1.0f / 3.0f),
               f32(-2.5e-3f), f32(0x1p-14f), f32(0x1.ffp-15f), f32(0.1f),
               0x7f800000u, 0xff800000u, 0u, 0x80000000u}),
        out(1, 32 * 3 * 4)},
       {2, 1, 1}, {}, {}, SPV_ENV_VULKAN_1_3},
  };
  return Cases;
}
// clang-format on

uint32_t specValue(const Case &C, uint32_t Id, uint32_t Default) {
  for (const auto &[K, V] : C.Spec)
    if (K == Id)
      return V;
  return Default;
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

uint64_t splitmix(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

std::vector<uint8_t> initialContents(const Buffer &B) {
  std::vector<uint8_t> Bytes(B.Bytes, 0);
  auto Put32 = [&](size_t I, uint32_t V) {
    std::memcpy(Bytes.data() + I * 4, &V, 4);
  };
  auto Put64 = [&](size_t I, uint64_t V) {
    std::memcpy(Bytes.data() + I * 8, &V, 8);
  };
  uint64_t Key = uint64_t(B.Seed) * 0xd1b54a32d192ed03ull;
  size_t N32 = B.Bytes / 4, N64 = B.Bytes / 8;
  for (size_t I = 0; I < N32; ++I) {
    uint32_t H = uint32_t(splitmix(Key + I) >> 32);
    switch (B.Pattern) {
    case Init::Zero:
      break;
    case Init::Fill:
      Put32(I, B.Seed);
      break;
    case Init::Iota:
      Put32(I, uint32_t(I));
      break;
    case Init::Hash:
      Put32(I, H);
      break;
    case Init::Small:
      Put32(I, H % 1000);
      break;
    case Init::F32:
      Put32(I, f32(float(H >> 9) * 0x1p-22f - 1.0f));
      break;
    case Init::Dyadic:
      Put32(I, f32(float(int(H % 17) - 8) * 0.25f));
      break;
    case Init::Words:
      Put32(I, B.Words.empty() ? 0 : B.Words[I % B.Words.size()]);
      break;
    case Init::F64:
    case Init::Hash64:
      break;
    }
  }
  for (size_t I = 0; I < N64; ++I) {
    uint64_t H = splitmix(Key + I);
    if (B.Pattern == Init::Hash64)
      Put64(I, H);
    else if (B.Pattern == Init::F64)
      Put64(I, std::bit_cast<uint64_t>(double(H >> 12) * 0x1p-51 - 1.0));
  }
  return Bytes;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

std::string hex(uint64_t V, unsigned Digits) {
  std::ostringstream S;
  S << "0x" << std::hex;
  S.width(Digits);
  S.fill('0');
  S << V;
  return S.str();
}

template <typename F> bool closeEnough(F A, F B, double Rel, double Abs) {
  if (std::isnan(A) || std::isnan(B))
    return std::isnan(A) && std::isnan(B);
  if (A == B)
    return true;
  double D = std::fabs(double(A) - double(B));
  return D <= Abs + Rel * std::max(std::fabs(double(A)), std::fabs(double(B)));
}

std::string show(Check C, const std::vector<uint8_t> &Bytes, size_t I) {
  std::ostringstream S;
  if (C == Check::F32) {
    float V = elements<float>(Bytes)[I];
    S.precision(9);
    S << V << " (" << hex(std::bit_cast<uint32_t>(V), 8) << ")";
  } else if (C == Check::F64) {
    double V = elements<double>(Bytes)[I];
    S.precision(17);
    S << V << " (" << hex(std::bit_cast<uint64_t>(V), 16) << ")";
  } else if (C == Check::Exact64 || C == Check::Sorted64) {
    uint64_t V = elements<uint64_t>(Bytes)[I];
    S << V << " (" << hex(V, 16) << ")";
  } else {
    uint32_t V = elements<uint32_t>(Bytes)[I];
    S << V << " (" << hex(V, 8) << ", " << int32_t(V) << ")";
  }
  return S.str();
}

template <typename T> void sortChunks(std::vector<T> &V, uint32_t Chunk) {
  size_t Step = Chunk ? Chunk : V.size();
  for (size_t I = 0; I < V.size(); I += Step)
    std::sort(V.begin() + I, V.begin() + std::min(V.size(), I + Step));
}

/// "" when \p Want (lavapipe's, or the reference's: \p WantName) and \p Got
/// (spirv2llvm's) agree under \p B's check, else the differences.
std::string compareBuffer(const Buffer &B, const std::vector<uint8_t> &Want,
                          const std::vector<uint8_t> &Got,
                          const char *WantName = "lavapipe") {
  if (Want.size() != Got.size())
    return "sizes differ: " + std::to_string(Want.size()) + " vs " +
           std::to_string(Got.size());
  Check C = B.Compare;
  std::vector<uint8_t> W = Want, G = Got;
  const char *Unit = "word";
  size_t ElemSize = 4;
  switch (C) {
  case Check::None:
    return "";
  case Check::Sorted32: {
    auto SW = elements<uint32_t>(W), SG = elements<uint32_t>(G);
    sortChunks(SW, B.Chunk);
    sortChunks(SG, B.Chunk);
    std::memcpy(W.data(), SW.data(), SW.size() * 4);
    std::memcpy(G.data(), SG.data(), SG.size() * 4);
    Unit = "sorted word";
    break;
  }
  case Check::Sorted64: {
    auto SW = elements<uint64_t>(W), SG = elements<uint64_t>(G);
    sortChunks(SW, B.Chunk);
    sortChunks(SG, B.Chunk);
    std::memcpy(W.data(), SW.data(), SW.size() * 8);
    std::memcpy(G.data(), SG.data(), SG.size() * 8);
    Unit = "sorted u64";
    ElemSize = 8;
    break;
  }
  case Check::Exact64:
    Unit = "u64";
    ElemSize = 8;
    break;
  case Check::F32:
    Unit = "float";
    break;
  case Check::F64:
    Unit = "double";
    ElemSize = 8;
    break;
  case Check::Exact:
    break;
  }
  size_t N = W.size() / ElemSize;
  std::vector<size_t> Bad;
  for (size_t I = 0; I < N; ++I) {
    bool Same;
    if (C == Check::F32)
      Same =
          closeEnough(elements<float>(W)[I], elements<float>(G)[I], 1e-5, 1e-6);
    else if (C == Check::F64)
      Same = closeEnough(elements<double>(W)[I], elements<double>(G)[I], 1e-12,
                         1e-12);
    else
      Same = std::memcmp(W.data() + I * ElemSize, G.data() + I * ElemSize,
                         ElemSize) == 0;
    if (!Same)
      Bad.push_back(I);
  }
  // Trailing bytes that are not a whole element.
  if (std::memcmp(W.data() + N * ElemSize, G.data() + N * ElemSize,
                  W.size() - N * ElemSize) != 0)
    Bad.push_back(N);
  if (Bad.empty())
    return "";
  std::ostringstream S;
  S << Bad.size() << " of " << N << " " << Unit << "s differ";
  for (size_t K = 0; K < Bad.size() && K < 6; ++K) {
    size_t I = Bad[K];
    if (I == N) {
      S << "\n    trailing bytes differ";
      continue;
    }
    S << "\n    [" << I << "] (byte " << I * ElemSize << "): " << WantName
      << " " << show(C, W, I) << ", spirv2llvm " << show(C, G, I);
  }
  return S.str();
}

//===----------------------------------------------------------------------===//
// The two sides
//===----------------------------------------------------------------------===//

const char *envName(spv_target_env Env) {
  return Env == SPV_ENV_VULKAN_1_3 ? "vulkan1.3" : "vulkan1.2";
}

/// The shader's SPIR-V words, compiled once per process.
llvm::Expected<std::vector<uint32_t>> spirvFor(const Case &C) {
  static std::map<std::string, std::vector<uint32_t>> Cache;
  std::string Key = std::string(C.File) + "@" + envName(C.Env);
  if (auto It = Cache.find(Key); It != Cache.end())
    return It->second;
  std::string Path = std::string(S2L_SOURCE_DIR) + "/shaders/compute/" + C.File;
  auto Text = llvm::MemoryBuffer::getFile(Path);
  if (!Text)
    return llvm::createStringError(Text.getError(), "cannot read " + Path);
  llvm::Expected<std::vector<uint32_t>> Words =
      llvm::StringRef(C.File).ends_with(".spvasm")
          ? frontend::assembleSpirv((*Text)->getBuffer(), C.Env, C.File)
          : [&] {
              frontend::GlslOptions Opts;
              Opts.Stage = frontend::ShaderStage::Compute;
              Opts.TargetEnv = C.Env;
              Opts.FileName = C.File;
              return frontend::compileGlsl((*Text)->getBuffer(), Opts);
            }();
  if (!Words)
    return Words.takeError();
  Cache[Key] = *Words;
  return std::move(*Words);
}

/// One runner per process; lavapipe reads LP_NATIVE_VECTOR_WIDTH once.
VulkanComputeRunner *runner(std::string &Error) {
  static std::unique_ptr<VulkanComputeRunner> R;
  static std::string CreateError;
  static bool Tried = false;
  if (!Tried) {
    Tried = true;
    auto Created = VulkanComputeRunner::create();
    if (Created)
      R = std::move(*Created);
    else
      CreateError = llvm::toString(Created.takeError());
  }
  Error = CreateError;
  return R.get();
}

bool usesSubgroups(const Case &C) {
  return std::any_of(C.Buffers.begin(), C.Buffers.end(),
                     [](const Buffer &B) { return B.SubgroupSized; });
}

/// lavapipe's final buffer contents for \p C (once per case per process).
llvm::Expected<std::vector<std::vector<uint8_t>>>
lavapipeResult(size_t Index, const std::vector<uint32_t> &Words,
               uint32_t SubgroupSize) {
  static std::map<size_t, std::vector<std::vector<uint8_t>>> Cache;
  if (auto It = Cache.find(Index); It != Cache.end())
    return It->second;
  const Case &C = cases()[Index];
  std::string Err;
  VulkanComputeRunner *R = runner(Err);
  VkDispatch D;
  D.Spirv = Words;
  for (const Buffer &B : C.Buffers)
    D.Buffers.push_back({B.Set, B.Binding, B.Uniform, initialContents(B)});
  for (uint32_t W : C.Push)
    for (int K = 0; K < 4; ++K)
      D.PushConstants.push_back(uint8_t(W >> (8 * K)));
  D.SpecConstants = C.Spec;
  D.GroupsX = C.Groups[0];
  D.GroupsY = C.Groups[1];
  D.GroupsZ = C.Groups[2];
  D.RequiredSubgroupSize = SubgroupSize;
  if (llvm::Error E = R->run(D))
    return E;
  std::vector<std::vector<uint8_t>> Result;
  for (VkBufferSpec &B : D.Buffers)
    Result.push_back(std::move(B.Data));
  Cache[Index] = Result;
  return Result;
}

/// What runs on the JIT: a --backend, or --backend=dxil without
/// dxil-op-lower (whose dx.op calls have no CPU implementation):
/// DxilPipeline::DxilData, so the memory rewriting of --backend=dxil is run.
enum class JitConfig { Simd, Invocation, Scalar, DxilWithoutOpLower };

/// Runs the --backend=dxil passes that precede dxil-op-lower on \p M.
llvm::Error runDxilDataPasses(llvm::Module &M) {
  runDxilPipeline(M, DxilPipeline::DxilData);
  std::string Msg;
  llvm::raw_string_ostream OS(Msg);
  if (llvm::verifyModule(M, &OS))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "invalid IR after the DXIL passes: " + Msg);
  return llvm::Error::success();
}

/// spirv2llvm's final buffer contents for \p C at width \p W (SIMD back
/// end) or one invocation per call (the others).
llvm::Expected<std::vector<std::vector<uint8_t>>>
jitResult(const Case &C, const std::vector<uint32_t> &Words, unsigned W,
          JitConfig Config) {
  TranslateOptions Opts;
  Opts.Kind = InputKind::Binary;
  const Backend Bk = Config == JitConfig::Simd       ? Backend::Simd
                     : Config == JitConfig::Scalar ? Backend::Scalar
                                                   : Backend::Invocation;
  Opts.Backend = Bk;
  if (Bk == Backend::Simd)
    Opts.Width = W;
  Opts.TargetEnv = envName(C.Env);
  Opts.Inline = !C.NoInline;
  for (const auto &[Id, Value] : C.Spec)
    Opts.SpecValues.push_back({Id, std::to_string(Value)});
  llvm::ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Words.data()),
                                Words.size() * 4);
  std::string Name = (llvm::StringRef(C.File).rsplit('.').first + ".spv").str();
  auto T = translateBytes(Bytes, Name, Opts);
  if (!T && C.ValidatorIssue) {
    std::string Msg = llvm::toString(T.takeError());
    if (Msg.find(C.ValidatorIssue) == std::string::npos)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
    std::cout << "note: spirv2llvm's validator rejects this valid module ("
              << Msg << "); translating without validation\n";
    Opts.Validate = Opts.Canonicalize = false;
    T = translateBytes(Bytes, Name, Opts);
  }
  if (!T)
    return T.takeError();
  if (Config == JitConfig::DxilWithoutOpLower)
    if (llvm::Error E = runDxilDataPasses(*T->IR))
      return std::move(E);
  auto S = ComputeShader::create(std::move(*T));
  if (!S)
    return llvm::createStringError(S.status().message());
  std::vector<std::vector<uint8_t>> Data;
  for (const Buffer &B : C.Buffers)
    Data.push_back(initialContents(B));
  DispatchResources R;
  for (size_t I = 0; I < C.Buffers.size(); ++I)
    R.bind(C.Buffers[I].Set, C.Buffers[I].Binding, Data[I].data(),
           Data[I].size());
  for (uint32_t Word : C.Push)
    for (int K = 0; K < 4; ++K)
      R.PushConstants.push_back(uint8_t(Word >> (8 * K)));
  if (Status E = (*S)->dispatch(C.Groups, R, /*Threads=*/2); !E.ok())
    return llvm::createStringError(E.message());
  return Data;
}

//===----------------------------------------------------------------------===//
// The test
//===----------------------------------------------------------------------===//

struct Param {
  size_t Index;
  /// SIMD width; 1 for the one-invocation back ends.
  unsigned Width;
  JitConfig Config = JitConfig::Simd;
};

void PrintTo(const Param &P, std::ostream *OS) {
  *OS << cases()[P.Index].Name << " at W = " << P.Width;
  if (P.Config != JitConfig::Simd)
    *OS << " (one invocation per call)";
}

class Differential : public testing::TestWithParam<Param> {};

TEST_P(Differential, SameBuffers) {
  const Case &C = cases()[GetParam().Index];
  const unsigned W = GetParam().Width;
  std::string CreateError;
  VulkanComputeRunner *R = runner(CreateError);
  ASSERT_TRUE(R) << "cannot create the vulkan runner: " << CreateError;
  for (const char *F : C.Features)
    if (!R->hasFeature(F))
      GTEST_SKIP() << "lavapipe lacks " << F;

  llvm::Expected<std::vector<uint32_t>> Words = spirvFor(C);
  ASSERT_TRUE(static_cast<bool>(Words))
      << C.File << ": " << llvm::toString(Words.takeError());

  // Subgroup size: lavapipe's is fixed per process; ask for W explicitly
  // when it is the one lavapipe has, so a mismatch is an error, not a
  // silently different result.
  const VkSubgroupInfo &SI = R->subgroupInfo();
  bool SizesMatch = SI.DefaultSize == W;
  uint32_t Required = 0;
  if (usesSubgroups(C) && SizesMatch && SI.SizeControl && W >= SI.MinSize &&
      W <= SI.MaxSize)
    Required = W;

  auto T0 = std::chrono::steady_clock::now();
  auto Jit = jitResult(C, *Words, W, GetParam().Config);
  auto T1 = std::chrono::steady_clock::now();
  if (!Jit) {
    std::string Msg = llvm::toString(Jit.takeError());
    if (C.Pending && Msg.find(C.Pending) != std::string::npos)
      GTEST_SKIP() << "not supported by spirv2llvm yet: " << Msg;
    FAIL() << "spirv2llvm: " << Msg;
  }
  auto Lvp = lavapipeResult(GetParam().Index, *Words, Required);
  auto T2 = std::chrono::steady_clock::now();
  ASSERT_TRUE(static_cast<bool>(Lvp))
      << "lavapipe: " << llvm::toString(Lvp.takeError());
  RecordProperty(
      "jit_ms",
      std::to_string(
          std::chrono::duration<double, std::milli>(T1 - T0).count()));
  RecordProperty(
      "lavapipe_ms",
      std::to_string(
          std::chrono::duration<double, std::milli>(T2 - T1).count()));

  if (const char *Dump = std::getenv("S2L_DIFF_DUMP")) {
    // S2L_DIFF_DUMP=DIR writes both sides' buffers, for investigations.
    for (size_t I = 0; I < C.Buffers.size(); ++I)
      for (int Side = 0; Side < 2; ++Side) {
        std::string Path =
            std::string(Dump) + "/" + C.Name + "_W" + std::to_string(W) + "_b" +
            std::to_string(C.Buffers[I].Binding) + (Side ? ".jit" : ".lvp");
        const auto &Data = Side ? (*Jit)[I] : (*Lvp)[I];
        if (FILE *F = std::fopen(Path.c_str(), "wb")) {
          std::fwrite(Data.data(), 1, Data.size(), F);
          std::fclose(F);
        }
      }
  }

  std::vector<std::vector<uint8_t>> Initial;
  for (const Buffer &B : C.Buffers)
    Initial.push_back(initialContents(B));
  std::vector<std::string> Skipped;
  for (size_t I = 0; I < C.Buffers.size(); ++I) {
    const Buffer &B = C.Buffers[I];
    if (B.SubgroupSized && !SizesMatch) {
      Skipped.push_back("binding " + std::to_string(B.Binding));
      continue;
    }
    if (B.Reference) {
      std::vector<uint8_t> Want = B.Reference(C, Initial, W);
      std::string Diff = compareBuffer(B, Want, (*Jit)[I], "reference");
      if (!Diff.empty())
        ADD_FAILURE() << C.File << " (" << envName(C.Env) << ") at W = " << W
                      << ": set " << B.Set << " binding " << B.Binding
                      << " (against the C++ reference):\n  " << Diff;
      // Say so when lavapipe stops disagreeing with the reference.
      // (Only at a SIMD width: a subgroup of one agrees trivially.)
      if (GetParam().Config == JitConfig::Simd &&
          compareBuffer(B, Want, (*Lvp)[I]).empty() &&
          (!B.SubgroupSized || SizesMatch))
        std::cout << "note: " << C.Name << " binding " << B.Binding
                  << ": lavapipe now agrees with the C++ reference (was: "
                  << B.LavapipeIssue << ")\n";
      continue;
    }
    std::string Diff = compareBuffer(B, (*Lvp)[I], (*Jit)[I]);
    if (!Diff.empty())
      ADD_FAILURE() << C.File << " (" << envName(C.Env) << ") at W = " << W
                    << ": set " << B.Set << " binding " << B.Binding << ":\n  "
                    << Diff;
  }
  if (!Skipped.empty())
    std::cout << "note: lavapipe's subgroup size is " << SI.DefaultSize
              << ", not " << W
              << "; not compared: " << llvm::join(Skipped, ", ")
              << " (run with LP_NATIVE_VECTOR_WIDTH=" << W * 32 << ")\n";
}

std::vector<Param> paramsFor(unsigned W,
                             JitConfig Config = JitConfig::Simd) {
  std::vector<Param> P;
  for (size_t I = 0; I < cases().size(); ++I)
    P.push_back({I, W, Config});
  return P;
}

std::string caseName(const testing::TestParamInfo<Param> &Info) {
  return cases()[Info.param.Index].Name;
}

// Test names are W4/Differential.SameBuffers/Builtins1D and so on;
// differential.cmake selects each width with "W4/*".
INSTANTIATE_TEST_SUITE_P(W4, Differential, testing::ValuesIn(paramsFor(4)),
                         caseName);
INSTANTIATE_TEST_SUITE_P(W8, Differential, testing::ValuesIn(paramsFor(8)),
                         caseName);
INSTANTIATE_TEST_SUITE_P(W16, Differential, testing::ValuesIn(paramsFor(16)),
                         caseName);
// --backend=invocation: one invocation per call, so a subgroup of one;
// buffers that depend on the subgroup size are not compared (lavapipe's is
// at least 4) and the test says so.
INSTANTIATE_TEST_SUITE_P(Invocation, Differential,
                         testing::ValuesIn(paramsFor(1, JitConfig::Invocation)),
                         caseName);
// --backend=scalar: the same, after the scalar pipeline (no vector left).
INSTANTIATE_TEST_SUITE_P(Scalar, Differential,
                         testing::ValuesIn(paramsFor(1, JitConfig::Scalar)),
                         caseName);
// --backend=dxil up to dxil-op-lower (see JitConfig).
INSTANTIATE_TEST_SUITE_P(
    DxilData, Differential,
    testing::ValuesIn(paramsFor(1, JitConfig::DxilWithoutOpLower)), caseName);

} // namespace
