//===- ComputeSuite.cpp - Control-flow compute shaders against lavapipe ---===//
//
// Every compute shader of shaders/controlflow (.comp, .comp.spvasm) runs on
// spirv2llvm's JIT in every configuration of Suite.h and its buffers are
// compared word for word with lavapipe's. All shaders share one interface:
//
//   local_size_x_id = 0  the workgroup size: 64 (mask "full": every SIMD
//                        group full at W = 4, 8, 16) or 37 (mask
//                        "partial": 37 = 9*4+1 = 4*8+5 = 2*16+5, so each
//                        workgroup ends with a partial group at every W)
//   3 workgroups         gl_WorkGroupID.x differs, so conditions on it are
//                        uniform in a workgroup yet take both ways
//   binding 0  In        readonly uint[1024], well-mixed hash words
//   binding 1  Out       uint[8] per invocation (Out[gid * 8 + k]), every
//                        word 0xdeadbeef first, so unwritten slots show
//   push constants       uint a = 5, b = 0, c = 3, d = 12: uniform values
//
// lavapipe's results depend on neither W nor the translation mode, so they
// are computed once per shader and mask: by the fixture test
// "CF/lavapipe-references" (--write-lavapipe-references DIR, see Main.cpp),
// whose files the tests read when S2L_CF_LAVAPIPE_DIR is set, or in process
// (once per shader and mask) when running the binary by hand.
//
//===----------------------------------------------------------------------===//
#include "Suite.h"

#include "VulkanComputeRunner.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

using namespace spirv2llvm;
using namespace spirv2llvm::cftest;

namespace {

struct ComputeShaderCase {
  const char *Name;
  const char *File; ///< in shaders/controlflow
};

// One row per shader; each file's header comment says what it covers (and
// docs/control-flow-tests.md has the table).
const ComputeShaderCase ComputeShaders[] = {
    {"if_nested_mixed", "if_nested_mixed.comp"},
    {"if_uniform_in_divergent", "if_uniform_in_divergent.comp"},
    {"region_no_lane_enters", "region_no_lane_enters.comp"},
    {"switch_varying_uniform", "switch_varying_uniform.comp"},
    {"switch_many_cases", "switch_many_cases.comp"},
    {"switch_fallthrough_default_mid", "switch_fallthrough_default_mid.comp"},
    {"switch_selector_widths", "switch_selector_widths.comp.spvasm"},
    {"switch_default_shared", "switch_default_shared.comp.spvasm"},
    {"loops_varying_trip", "loops_varying_trip.comp"},
    {"loop_break_continue_deep", "loop_break_continue_deep.comp"},
    {"loop_switch_break_continue", "loop_switch_break_continue.comp"},
    {"nested_loops_inner_break", "nested_loops_inner_break.comp"},
    {"continue_multi_block", "continue_multi_block.comp.spvasm"},
    {"loop_header_is_selection", "loop_header_is_selection.comp.spvasm"},
    {"loop_degenerate_shapes", "loop_degenerate_shapes.comp.spvasm"},
    {"switch_case_exits_loop", "switch_case_exits_loop.comp.spvasm"},
    {"loop_uniform_in_varying", "loop_uniform_in_varying.comp"},
    {"return_in_loop_and_if", "return_in_loop_and_if.comp"},
    {"return_value_in_loop", "return_value_in_loop.comp.spvasm"},
    {"unreachable_default", "unreachable_default.comp.spvasm"},
    {"func_value_params", "func_value_params.comp"},
    {"func_pointer_params", "func_pointer_params.comp"},
    {"func_private_pointer", "func_private_pointer.comp.spvasm"},
    {"func_early_return_nested", "func_early_return_nested.comp"},
    {"func_calls_divergent", "func_calls_divergent.comp"},
    {"phi_loop_exit", "phi_loop_exit.comp.spvasm"},
    {"select_vector_composite", "select_vector_composite.comp.spvasm"},
    {"live_out_of_loops", "live_out_of_loops.comp"},
    {"do_while_varying", "do_while_varying.comp"},
};

constexpr uint32_t Groups = 3;
constexpr uint32_t OutWordsPerInvocation = 8;
constexpr uint32_t InWords = 1024;
constexpr std::array<uint32_t, 4> PushWords = {5, 0, 3, 12};

uint32_t workgroupSize(Mask M) { return M == Mask::Full ? 64 : 37; }

uint64_t splitmix(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

std::vector<uint8_t> inContents() {
  std::vector<uint8_t> B(InWords * 4);
  for (uint32_t I = 0; I < InWords; ++I) {
    uint32_t H = uint32_t(splitmix(0x5eed0000ull + I) >> 32);
    std::memcpy(&B[I * 4], &H, 4);
  }
  return B;
}

std::vector<uint8_t> outContents(Mask M) {
  std::vector<uint8_t> B(Groups * workgroupSize(M) * OutWordsPerInvocation * 4);
  const uint32_t Dead = 0xdeadbeef;
  for (size_t I = 0; I < B.size(); I += 4)
    std::memcpy(&B[I], &Dead, 4);
  return B;
}

std::vector<uint8_t> pushBytes() {
  std::vector<uint8_t> B(PushWords.size() * 4);
  std::memcpy(B.data(), PushWords.data(), B.size());
  return B;
}

/// lavapipe's Out buffer for one shader and mask, or why there is none.
llvm::Expected<std::vector<uint8_t>> runLavapipe(const ComputeShaderCase &S,
                                                 Mask M) {
  static std::unique_ptr<vk::VulkanComputeRunner> Runner;
  static std::string CreateError;
  if (!Runner && CreateError.empty()) {
    auto R = vk::VulkanComputeRunner::create();
    if (R)
      Runner = std::move(*R);
    else
      CreateError = llvm::toString(R.takeError());
  }
  if (!Runner)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot create the vulkan runner: " +
                                       CreateError);
  auto Words = spirvFor(S.File);
  if (!Words)
    return Words.takeError();
  vk::VkDispatch D;
  D.Spirv = *Words;
  D.Buffers.push_back({0, 0, false, inContents()});
  D.Buffers.push_back({0, 1, false, outContents(M)});
  D.PushConstants = pushBytes();
  D.SpecConstants = {{0, workgroupSize(M)}};
  D.GroupsX = Groups;
  if (llvm::Error E = Runner->run(D))
    return E;
  if (D.Buffers[0].Data != inContents())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "lavapipe changed the readonly input");
  return std::move(D.Buffers[1].Data);
}

std::string referencePath(const std::string &Dir, const ComputeShaderCase &S,
                          Mask M) {
  return Dir + "/" + S.Name + "." + maskName(M);
}

/// lavapipe's result: from the fixture's files when S2L_CF_LAVAPIPE_DIR is
/// set, else computed here once per process.
llvm::Expected<std::vector<uint8_t>> lavapipeResult(const ComputeShaderCase &S,
                                                    Mask M) {
  if (const char *Dir = std::getenv("S2L_CF_LAVAPIPE_DIR")) {
    std::string Base = referencePath(Dir, S, M);
    if (auto Err = llvm::MemoryBuffer::getFile(Base + ".err"))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "lavapipe: " + (*Err)->getBuffer().str());
    auto Data = llvm::MemoryBuffer::getFile(Base + ".bin");
    if (!Data)
      return llvm::createStringError(
          Data.getError(), "no lavapipe reference " + Base +
                               ".bin (the CF/lavapipe-references fixture "
                               "writes it)");
    llvm::StringRef B = (*Data)->getBuffer();
    return std::vector<uint8_t>(B.begin(), B.end());
  }
  static std::map<std::string, std::vector<uint8_t>> Cache;
  std::string Key = std::string(S.Name) + "." + maskName(M);
  if (auto It = Cache.find(Key); It != Cache.end())
    return It->second;
  auto R = runLavapipe(S, M);
  if (!R)
    return R.takeError();
  Cache[Key] = *R;
  return R;
}

/// spirv2llvm's In and Out buffers after the dispatch.
llvm::Expected<std::array<std::vector<uint8_t>, 2>>
runJit(const ComputeShaderCase &S, const Config &C) {
  auto Words = spirvFor(S.File);
  if (!Words)
    return Words.takeError();
  TranslateOptions Opts = optionsFor(C);
  Opts.SpecValues.push_back({0, std::to_string(workgroupSize(C.LaneMask))});
  llvm::ArrayRef<uint8_t> Bytes(
      reinterpret_cast<const uint8_t *>(Words->data()), Words->size() * 4);
  auto T = translateBytes(Bytes, std::string(S.File) + ".spv", Opts);
  if (!T)
    return T.takeError();
  auto Shader = ComputeShader::create(std::move(*T), jitOptLevel(C));
  if (!Shader)
    return llvm::createStringError(Shader.status().message());
  std::array<std::vector<uint8_t>, 2> Data = {inContents(),
                                              outContents(C.LaneMask)};
  DispatchResources R;
  R.bind(0, 0, Data[0].data(), Data[0].size());
  R.bind(0, 1, Data[1].data(), Data[1].size());
  R.PushConstants = pushBytes();
  if (Status E = (*Shader)->dispatch({Groups, 1, 1}, R, /*Threads=*/1);
      !E.ok())
    return llvm::createStringError(E.message());
  return Data;
}

/// "" when equal, else the number of differing words and the first few,
/// each with its invocation, SIMD group and lane at width \p W.
std::string compareOut(const std::vector<uint8_t> &Want,
                       const std::vector<uint8_t> &Got, const Config &C) {
  if (Want.size() != Got.size())
    return "sizes differ: " + std::to_string(Want.size()) + " vs " +
           std::to_string(Got.size());
  const uint32_t Size = workgroupSize(C.LaneMask);
  std::ostringstream S;
  size_t Bad = 0;
  for (size_t I = 0; I < Want.size() / 4; ++I) {
    uint32_t A, B;
    std::memcpy(&A, &Want[I * 4], 4);
    std::memcpy(&B, &Got[I * 4], 4);
    if (A == B)
      continue;
    if (++Bad > 6)
      continue;
    uint32_t Gid = uint32_t(I / OutWordsPerInvocation);
    uint32_t Local = Gid % Size;
    S << "\n    Out[" << I << "] (invocation " << Gid << " slot "
      << I % OutWordsPerInvocation << "; workgroup " << Gid / Size
      << ", group " << Local / C.Width << " lane " << Local % C.Width
      << "): lavapipe " << A << " (0x" << llvm::utohexstr(A) << ", "
      << int32_t(A) << "), spirv2llvm " << B << " (0x" << llvm::utohexstr(B)
      << ", " << int32_t(B) << ")";
  }
  if (!Bad)
    return "";
  return std::to_string(Bad) + " of " + std::to_string(Want.size() / 4) +
         " words differ" + S.str();
}

class ControlFlowCompute : public testing::TestWithParam<Config> {};

TEST_P(ControlFlowCompute, MatchesLavapipe) {
  const Config &C = GetParam();
  const ComputeShaderCase &S = ComputeShaders[C.Shader];
  auto Want = lavapipeResult(S, C.LaneMask);
  ASSERT_TRUE(static_cast<bool>(Want)) << llvm::toString(Want.takeError());
  auto Got = runJit(S, C);
  ASSERT_TRUE(static_cast<bool>(Got))
      << S.File << " (" << modeName(C.Translation)
      << "): " << llvm::toString(Got.takeError());
  EXPECT_EQ((*Got)[0], inContents()) << "the readonly input changed";
  std::string Diff = compareOut(*Want, (*Got)[1], C);
  EXPECT_TRUE(Diff.empty()) << S.File << " at W = " << C.Width << ", "
                            << maskName(C.LaneMask) << " mask (workgroup "
                            << workgroupSize(C.LaneMask) << "), "
                            << modeName(C.Translation) << ", JIT -O"
                            << jitOptLevel(C) << ":\n  " << Diff;
}

INSTANTIATE_TEST_SUITE_P(
    CF, ControlFlowCompute,
    testing::ValuesIn(allConfigs(std::size(ComputeShaders))),
    [](const testing::TestParamInfo<Config> &I) {
      return configName(ComputeShaders[I.param.Shader].Name, I.param);
    });

} // namespace

namespace spirv2llvm::cftest {

std::vector<std::string> computeShaderFiles() {
  std::vector<std::string> Files;
  for (const ComputeShaderCase &S : ComputeShaders)
    Files.push_back(S.File);
  return Files;
}

int writeLavapipeReferences(const std::string &Dir) {
  if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
    llvm::errs() << "cannot create " << Dir << ": " << EC.message() << "\n";
    return 1;
  }
  // A shader lavapipe cannot run gets a .err file: its tests fail with the
  // message, the others still run.
  unsigned Failed = 0;
  for (const ComputeShaderCase &S : ComputeShaders)
    for (Mask M : Masks) {
      std::string Base = referencePath(Dir, S, M);
      llvm::sys::fs::remove(Base + ".bin");
      llvm::sys::fs::remove(Base + ".err");
      auto R = runLavapipe(S, M);
      std::error_code EC;
      if (!R) {
        std::string Msg = llvm::toString(R.takeError());
        llvm::errs() << S.Name << " (" << maskName(M) << "): " << Msg << "\n";
        llvm::raw_fd_ostream(Base + ".err", EC) << Msg;
        ++Failed;
        continue;
      }
      llvm::raw_fd_ostream OS(Base + ".bin", EC);
      OS.write(reinterpret_cast<const char *>(R->data()), R->size());
    }
  llvm::outs() << "lavapipe references for " << std::size(ComputeShaders)
               << " shaders x 2 masks in " << Dir << " (" << Failed
               << " failed)\n";
  return 0;
}

} // namespace spirv2llvm::cftest
