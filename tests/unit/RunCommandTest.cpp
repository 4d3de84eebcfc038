//===- RunCommandTest.cpp - `spirv2llvm run` ------------------------------===//
//
// The run command in process: its option syntax and usage errors, the
// buffer initialization patterns (word by word, against an implementation
// of splitmix64 written here from the formula in BufferInit.h), and whole
// runs that dump buffers.
//
// Tests that dispatch a shader, or that need the shader's reflection
// (bindings, push-constant size), need the compute runtime; they skip only
// while ComputeShader::create still answers "not implemented".
//
//===----------------------------------------------------------------------===//
#include "RunCommand.h"
#include "BufferInit.h"
#include "Cli.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <fstream>
#include <regex>

using namespace spirv2llvm;

namespace {

//===----------------------------------------------------------------------===//
// An independent reference for the random patterns.
//===----------------------------------------------------------------------===//

uint64_t refSplitmix64(uint64_t X) {
  X += 0x9E3779B97F4A7C15ull;
  X = (X ^ (X >> 30)) * 0xBF58476D1CE4E5B9ull;
  X = (X ^ (X >> 27)) * 0x94D049BB133111EBull;
  return X ^ (X >> 31);
}

uint32_t refRandomU32(uint64_t Seed, uint64_t I) {
  return uint32_t(refSplitmix64(Seed * 0xD1B54A32D192ED03ull + I) >> 32);
}

float refRandomF32(uint64_t Seed, uint64_t I) {
  return float(refRandomU32(Seed, I) >> 8) / 16777216.0f;
}

uint32_t wordAt(const std::vector<uint8_t> &Bytes, size_t I) {
  uint32_t W;
  std::memcpy(&W, Bytes.data() + 4 * I, 4);
  return W;
}

std::vector<uint8_t> fill(llvm::StringRef Kind, size_t Size) {
  auto Init = parseBufferInit(Kind);
  EXPECT_TRUE(bool(Init)) << llvm::toString(Init.takeError());
  std::vector<uint8_t> Bytes(Size, 0xAB);
  if (Init) {
    EXPECT_FALSE(bool(fillBuffer(*Init, Bytes)));
  }
  return Bytes;
}

//===----------------------------------------------------------------------===//
// Buffer initialization.
//===----------------------------------------------------------------------===//

TEST(BufferInitTest, Splitmix64KnownValues) {
  // The first outputs of the reference SplitMix64 generator seeded with 0
  // (state advances by the golden gamma before each mix), also recomputed
  // with Python's big integers.
  EXPECT_EQ(splitmix64(0), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(splitmix64(0x9E3779B97F4A7C15ull), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(splitmix64(0x3C6EF372FE94F82Aull), 0x06C45D188009454Full);
  for (uint64_t X :
       {0ull, 1ull, 42ull, 0xFFFFFFFFFFFFFFFFull, 0x0123456789ABCDEFull})
    EXPECT_EQ(splitmix64(X), refSplitmix64(X)) << X;
}

TEST(BufferInitTest, RandomU32KnownValues) {
  // Seed 0: word i is the upper half of splitmix64(i).
  EXPECT_EQ(randomU32(0, 0), 0xE220A839u);
  EXPECT_EQ(randomU32(0, 1), 0x910A2DECu);
  // Seed 7, computed with Python from the formula.
  EXPECT_EQ(randomU32(7, 0), 0x10CE1320u);
  EXPECT_EQ(randomU32(7, 1), 0xC7CA6420u);
  EXPECT_EQ(randomU32(7, 2), 0x518BE2A2u);
  EXPECT_EQ(randomU32(7, 3), 0x7F1C48CEu);
}

TEST(BufferInitTest, RandomU32WordByWord) {
  for (uint64_t Seed : {0ull, 1ull, 7ull, 0xFFFFFFFFFFFFFFFFull}) {
    std::vector<uint8_t> B =
        fill("random_u32:" + std::to_string(Seed), 4 * 1000);
    for (size_t I = 0; I < 1000; ++I)
      ASSERT_EQ(wordAt(B, I), refRandomU32(Seed, I))
          << "seed " << Seed << " word " << I;
  }
  // Seeds in hexadecimal.
  EXPECT_EQ(fill("random_u32:0x10", 64), fill("random_u32:16", 64));
}

TEST(BufferInitTest, RandomF32WordByWord) {
  std::vector<uint8_t> B = fill("random_f32:12345", 4 * 1000);
  for (size_t I = 0; I < 1000; ++I) {
    float F = std::bit_cast<float>(wordAt(B, I));
    ASSERT_EQ(F, refRandomF32(12345, I)) << "word " << I;
    ASSERT_GE(F, 0.0f);
    ASSERT_LT(F, 1.0f);
  }
  EXPECT_EQ(std::bit_cast<float>(wordAt(fill("random_f32:7", 4), 0)),
            float(0x10CE1320u >> 8) / 16777216.0f);
}

TEST(BufferInitTest, Patterns) {
  std::vector<uint8_t> Z = fill("zero", 64);
  EXPECT_EQ(Z, std::vector<uint8_t>(64, 0));

  std::vector<uint8_t> U = fill("iota_u32", 64);
  std::vector<uint8_t> F = fill("iota_f32", 64);
  std::vector<uint8_t> FU = fill("fill_u32:0xDEADBEEF", 64);
  std::vector<uint8_t> FD = fill("fill_u32:17", 64);
  std::vector<uint8_t> FF = fill("fill_f32:-2.5", 64);
  for (size_t I = 0; I < 16; ++I) {
    EXPECT_EQ(wordAt(U, I), I);
    EXPECT_EQ(std::bit_cast<float>(wordAt(F, I)), float(I));
    EXPECT_EQ(wordAt(FU, I), 0xDEADBEEFu);
    EXPECT_EQ(wordAt(FD, I), 17u);
    EXPECT_EQ(std::bit_cast<float>(wordAt(FF, I)), -2.5f);
  }
}

TEST(BufferInitTest, TrailingPartialWordIsZero) {
  for (const char *Kind :
       {"iota_u32", "random_u32:3", "fill_u32:0xFFFFFFFF", "fill_f32:1"}) {
    std::vector<uint8_t> B = fill(Kind, 10);
    EXPECT_NE(wordAt(B, 1), 0u) << Kind;
    EXPECT_EQ(B[8], 0) << Kind;
    EXPECT_EQ(B[9], 0) << Kind;
  }
}

TEST(BufferInitTest, KindErrors) {
  struct {
    const char *Kind, *Message;
  } Cases[] = {
      {"ones", "unknown init kind 'ones'"},
      {"", "unknown init kind ''"},
      {"random_u32", "init kind 'random_u32' needs seed"},
      {"random_f32:", "init kind 'random_f32' needs seed"},
      {"random_u32:x", "malformed seed 'x'"},
      {"random_u32:-1", "malformed seed '-1'"},
      {"fill_u32:4294967296", "malformed value '4294967296'"},
      {"fill_u32:1.5", "malformed value '1.5'"},
      {"fill_f32:one", "malformed value 'one'"},
      {"file", "init kind 'file' needs path"},
      {"zero:1", "init kind 'zero' takes no argument"},
      {"iota_u32:1", "init kind 'iota_u32' takes no argument"},
  };
  for (const auto &C : Cases) {
    auto Init = parseBufferInit(C.Kind);
    ASSERT_FALSE(bool(Init)) << C.Kind;
    std::string Msg = llvm::toString(Init.takeError());
    EXPECT_NE(Msg.find(C.Message), std::string::npos) << C.Kind << ": " << Msg;
  }
}

TEST(BufferInitTest, ByteSizes) {
  struct {
    const char *Text;
    uint64_t Bytes;
  } Good[] = {{"16", 16},
              {"0x40", 64},
              {"4K", 4096},
              {"3M", 3ull << 20},
              {"2G", 2ull << 30},
              {"0K", 0},
              {"017", 17}, // decimal, not octal
              {"17179869183G", 17179869183ull << 30}};
  for (const auto &C : Good) {
    uint64_t N = 1;
    EXPECT_TRUE(parseByteSize(C.Text, N)) << C.Text;
    EXPECT_EQ(N, C.Bytes) << C.Text;
  }
  for (const char *Bad : {"", "K", "4k", "4KB", "4KiB", "-4", "1.5K", "4 ",
                          "4T", "17179869184G", "99999999999999999999"}) {
    uint64_t N;
    EXPECT_FALSE(parseByteSize(Bad, N)) << Bad;
  }
}

//===----------------------------------------------------------------------===//
// Option parsing.
//===----------------------------------------------------------------------===//

RunOptions parseOk(std::vector<std::string> Args) {
  RunOptions O;
  auto Msg = parseRunArgs(Args, O);
  EXPECT_FALSE(Msg) << *Msg;
  return O;
}

TEST(RunArgsTest, PushConstantsAppendInMemoryOrder) {
  RunOptions O =
      parseOk({"s.comp", "--push", "01020304", "--push-u32", "0x05060708,9",
               "--push-i32=-2", "--push", "aBcD", "--push-f32", "1.5,-0"});
  std::vector<uint8_t> Want = {
      0x01, 0x02, 0x03, 0x04, // --push: bytes as written
      0x08, 0x07, 0x06, 0x05, // --push-u32: little-endian words
      0x09, 0x00, 0x00, 0x00, //
      0xFE, 0xFF, 0xFF, 0xFF, // --push-i32 -2
      0xAB, 0xCD,             // --push again: no alignment is added
      0x00, 0x00, 0xC0, 0x3F, // 1.5f
      0x00, 0x00, 0x00, 0x80, // -0.0f
  };
  EXPECT_EQ(O.PushConstants, Want);
}

TEST(RunArgsTest, ImagesAndSamplers) {
  RunOptions O =
      parseOk({"s.comp", "--image",
               "1.2[3]:16x8x2:R32_SFLOAT:levels=2:view=3d:"
               "init=file:a:b.bin",
               "--image=4:in.png", "--image",
               "5:6x6:layers=12:view=cubearray:samples=1", "--image",
               "6:8x8:samples=4", "--sampler", "1.2[3]", "--sampler",
               "7:filter=linear,mipmap=linear,address=repeat,address-w=border,"
               "border=int-opaque-white,unnormalized,compare=greater-or-equal,"
               "lod=0.5:3,bias=-1.25,min=nearest,anisotropy=8"});
  ASSERT_EQ(O.Images.size(), 4u);
  const RunImage &A = O.Images[0];
  EXPECT_EQ(A.Set, 1u);
  EXPECT_EQ(A.Binding, 2u);
  EXPECT_EQ(A.Index, 3u);
  EXPECT_EQ(A.Width, 16u);
  EXPECT_EQ(A.Height, 8u);
  EXPECT_EQ(A.Depth, 2u);
  EXPECT_EQ(A.Fmt, Format::R32_SFLOAT);
  EXPECT_EQ(A.Levels, 2u);
  EXPECT_EQ(A.ViewType, uint32_t(S2L_VIEW_3D));
  EXPECT_FALSE(A.Layers);
  EXPECT_EQ(A.Init.Kind, BufferInitKind::File);
  EXPECT_EQ(A.Init.Path, "a:b.bin");
  EXPECT_EQ(O.Images[1].PngPath, "in.png");
  EXPECT_FALSE(O.Images[1].Fmt);
  EXPECT_FALSE(O.Images[1].ViewType);
  EXPECT_EQ(O.Images[2].Layers, 12u);
  EXPECT_EQ(O.Images[2].ViewType, uint32_t(S2L_VIEW_CUBE_ARRAY));
  EXPECT_EQ(O.Images[2].Samples, 1u);
  EXPECT_EQ(O.Images[3].Samples, 4u);
  EXPECT_EQ(O.Images[0].Samples, 1u);
  EXPECT_EQ(O.findImage(1, 2, 3u), &O.Images[0]);
  EXPECT_EQ(O.findImage(1, 2), nullptr);

  ASSERT_EQ(O.Samplers.size(), 2u);
  // Defaults: nearest, clamp to edge, LOD [0, 1000], no comparison.
  const s2l_sampler &D = O.Samplers[0].Sampler;
  EXPECT_EQ(O.Samplers[0].Index, 3u);
  EXPECT_EQ(D.mag_filter, 0u);
  EXPECT_EQ(D.min_filter, 0u);
  EXPECT_EQ(D.mipmap_mode, 0u);
  for (uint32_t M : D.address_mode)
    EXPECT_EQ(M, 2u);
  EXPECT_EQ(D.min_lod, 0.0f);
  EXPECT_EQ(D.max_lod, 1000.0f);
  EXPECT_EQ(D.max_anisotropy, 1.0f);
  EXPECT_EQ(D.compare_enable, 0u);
  EXPECT_EQ(D.unnormalized_coordinates, 0u);
  const s2l_sampler &S = O.Samplers[1].Sampler;
  EXPECT_EQ(S.mag_filter, 1u);
  EXPECT_EQ(S.min_filter, 0u); // min= after filter= wins
  EXPECT_EQ(S.mipmap_mode, 1u);
  EXPECT_EQ(S.address_mode[0], 0u);
  EXPECT_EQ(S.address_mode[1], 0u);
  EXPECT_EQ(S.address_mode[2], 3u);
  EXPECT_EQ(S.border_color, 5u);
  EXPECT_EQ(S.unnormalized_coordinates, 1u);
  EXPECT_EQ(S.compare_enable, 1u);
  EXPECT_EQ(S.compare_op, 6u);
  EXPECT_EQ(S.min_lod, 0.5f);
  EXPECT_EQ(S.max_lod, 3.0f);
  EXPECT_EQ(S.mip_lod_bias, -1.25f);
  EXPECT_EQ(S.max_anisotropy, 8.0f);
}

TEST(RunArgsTest, BuffersAndDefaults) {
  RunOptions O = parseOk({"s.comp", "--buffer", "3:4K", "--buffer",
                          "1.2:16:init=random_u32:9", "--buffer=0:1M",
                          "--buffer", "5:8:init=file:a:b.bin"});
  ASSERT_EQ(O.Buffers.size(), 4u);
  EXPECT_EQ(O.Buffers[0].Set, 0u);
  EXPECT_EQ(O.Buffers[0].Binding, 3u);
  EXPECT_EQ(O.Buffers[0].Size, 4096u);
  EXPECT_EQ(O.Buffers[0].Init.Kind, BufferInitKind::Zero);
  EXPECT_EQ(O.Buffers[1].Set, 1u);
  EXPECT_EQ(O.Buffers[1].Binding, 2u);
  EXPECT_EQ(O.Buffers[1].Init.Kind, BufferInitKind::RandomU32);
  EXPECT_EQ(O.Buffers[1].Init.Seed, 9u);
  EXPECT_EQ(O.Buffers[2].Size, 1u << 20);
  EXPECT_EQ(O.Buffers[3].Init.Kind, BufferInitKind::File);
  EXPECT_EQ(O.Buffers[3].Init.Path, "a:b.bin");

  EXPECT_EQ(O.Groups, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_FALSE(O.Repeat);
  EXPECT_EQ(O.JitOptLevel, 2u);
  EXPECT_EQ(O.T.OptLevel, 0u);
  EXPECT_EQ(O.Threads, 0u);
  EXPECT_FALSE(O.Quiet);
}

TEST(RunArgsTest, DescriptorArrayElements) {
  RunOptions O = parseOk({"s.comp", "--buffer", "2[0]:16", "--buffer",
                          "1.2[3]:32:init=iota_u32", "--buffer", "1.2:8",
                          "--dump", "1.2[3]:out.bin"});
  ASSERT_EQ(O.Buffers.size(), 3u);
  EXPECT_EQ(O.Buffers[0].Set, 0u);
  EXPECT_EQ(O.Buffers[0].Binding, 2u);
  EXPECT_EQ(O.Buffers[0].Index, 0u);
  EXPECT_EQ(O.Buffers[1].Set, 1u);
  EXPECT_EQ(O.Buffers[1].Index, 3u);
  EXPECT_EQ(O.Buffers[1].Size, 32u);
  EXPECT_EQ(O.Buffers[1].Init.Kind, BufferInitKind::IotaU32);
  EXPECT_FALSE(O.Buffers[2].Index);
  EXPECT_EQ(O.findBuffer(1, 2, 3u), &O.Buffers[1]);
  EXPECT_EQ(O.findBuffer(1, 2), &O.Buffers[2]);
  EXPECT_EQ(O.findBuffer(1, 2, 0u), nullptr);
  EXPECT_TRUE(O.hasElements(1, 2));
  EXPECT_FALSE(O.hasElements(0, 3));
  ASSERT_EQ(O.Dumps.size(), 1u);
  EXPECT_EQ(O.Dumps[0].Index, 3u);
}

TEST(RunArgsTest, DispatchOptions) {
  RunOptions O = parseOk({"--dispatch", "8,2", "s.comp", "--entry", "main2",
                          "--threads", "3", "--width=16", "--spec", "4=2.5",
                          "--robust-buffer-access", "--repeat", "10", "-O1",
                          "-q", "--buffer", "0:4", "--dump", "0:out:x.bin"});
  EXPECT_EQ(O.Shader, "s.comp");
  EXPECT_EQ(O.Groups, (std::array<uint32_t, 3>{8, 2, 1}));
  EXPECT_EQ(O.T.EntryPoint, "main2");
  EXPECT_EQ(O.Threads, 3u);
  EXPECT_EQ(O.T.Width, 16u);
  ASSERT_EQ(O.T.SpecValues.size(), 1u);
  EXPECT_EQ(O.T.SpecValues[0].first, 4u);
  EXPECT_EQ(O.T.SpecValues[0].second, "2.5");
  EXPECT_TRUE(O.T.RobustBufferAccess);
  EXPECT_EQ(O.Repeat, 10u);
  EXPECT_EQ(O.JitOptLevel, 1u);
  EXPECT_TRUE(O.Quiet);
  ASSERT_EQ(O.Dumps.size(), 1u);
  EXPECT_EQ(O.Dumps[0].Path, "out:x.bin");
  EXPECT_EQ(parseOk({"s.comp", "--dispatch", "1,2,3"}).Groups,
            (std::array<uint32_t, 3>{1, 2, 3}));
}

//===----------------------------------------------------------------------===//
// Whole command lines.
//===----------------------------------------------------------------------===//

struct RunResult {
  int Exit;
  std::string Out, Err;
};

/// Runs `spirv2llvm run ARGS` through the top-level CLI.
RunResult runRun(std::vector<std::string> Args) {
  Args.insert(Args.begin(), "run");
  RunResult R;
  llvm::raw_string_ostream Out(R.Out), Err(R.Err);
  R.Exit = runCli(Args, Out, Err);
  Out.flush();
  Err.flush();
  return R;
}

const char *const CopyShader = R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; } src;
layout(set = 0, binding = 1) buffer Out { uint b[]; } dst;
layout(push_constant) uniform PC { uint add; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  dst.b[i] = src.a[i] + pc.add;
}
)";

const char *const AccumulateShader = R"(#version 450
layout(local_size_x = 8, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Data { uint d[]; } data;
void main() {
  data.d[gl_GlobalInvocationID.y * 16 + gl_GlobalInvocationID.x] += 1u;
}
)";

const char *const PushShader = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint w[]; } dst;
layout(push_constant) uniform PC { uvec4 v; uint tail[3]; } pc;
void main() {
  dst.w[0] = pc.v.x; dst.w[1] = pc.v.y; dst.w[2] = pc.v.z; dst.w[3] = pc.v.w;
  dst.w[4] = pc.tail[0]; dst.w[5] = pc.tail[1]; dst.w[6] = pc.tail[2];
}
)";

const char *const UniformShader = R"(#version 450
layout(local_size_x = 1) in;
layout(set = 1, binding = 0) uniform U { uint k; } u;
layout(set = 0, binding = 0) buffer Out { uint o[16]; } dst;
void main() { dst.o[3] = u.k; }
)";

const char *const FragmentShader = R"(#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0); }
)";

const char *const BrokenShader = R"(#version 450
layout(local_size_x = 1) in;
void main() { this is not glsl; }
)";

class RunCommandTest : public testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("s2l-run", Dir));
    TempDir = Dir.str().str();
  }
  static void TearDownTestSuite() {
    if (!TempDir.empty())
      llvm::sys::fs::remove_directories(TempDir);
  }

  static std::string path(llvm::StringRef Name) {
    llvm::SmallString<128> P(TempDir);
    llvm::sys::path::append(P, Name);
    return P.str().str();
  }

  static std::string writeFile(llvm::StringRef Name, llvm::StringRef Text) {
    std::string P = path(Name);
    std::ofstream(P, std::ios::binary) << Text.str();
    return P;
  }

  static std::vector<uint8_t> readFile(const std::string &P) {
    auto B = llvm::MemoryBuffer::getFile(P, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
    EXPECT_TRUE(bool(B)) << P;
    if (!B)
      return {};
    return std::vector<uint8_t>((*B)->getBufferStart(), (*B)->getBufferEnd());
  }

  /// Skips the test while the compute runtime answers "not implemented"
  /// (and only then); anything else that goes wrong fails the test.
  void requireRuntime() {
    TranslateOptions Opts;
    auto T = translateFile(writeFile("probe.comp", CopyShader), Opts);
    ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
    auto S = ComputeShader::create(std::move(*T));
    if (!S) {
      std::string Msg = S.status().message();
      if (Msg.find("not implemented") != std::string::npos)
        GTEST_SKIP() << "compute runtime: " << Msg;
      FAIL() << "ComputeShader::create failed: " << Msg;
    }
  }

  /// Checks the RESULT line (the last line of \p Out) and returns its
  /// invocations and dispatches.
  static std::pair<uint64_t, uint64_t> checkResult(const std::string &Out) {
    static const std::regex Line(
        R"((?:^|\n)RESULT invocations=(\d+) dispatches=(\d+) )"
        R"(median_ms=(\d+\.\d+) min_ms=(\d+\.\d+) max_ms=(\d+\.\d+) )"
        R"(minv_per_s=(\d+\.\d+|inf) compile_ms=(\d+\.\d+)\n$)");
    std::smatch M;
    if (!std::regex_search(Out, M, Line)) {
      ADD_FAILURE() << "no RESULT line at the end of:\n" << Out;
      return {0, 0};
    }
    double Median = std::stod(M[3]), Min = std::stod(M[4]),
           Max = std::stod(M[5]);
    EXPECT_LE(Min, Median) << Out;
    EXPECT_LE(Median, Max) << Out;
    return {std::stoull(M[1]), std::stoull(M[2])};
  }

  static std::string TempDir;
};

std::string RunCommandTest::TempDir;

// GTEST_SKIP and ASSERT in a helper return from the helper only.
#define REQUIRE_RUNTIME()                                                      \
  do {                                                                         \
    requireRuntime();                                                          \
    if (IsSkipped() || HasFatalFailure())                                      \
      return;                                                                  \
  } while (0)

TEST_F(RunCommandTest, HelpMentionsRun) {
  std::string Out, Err;
  llvm::raw_string_ostream OS(Out), ES(Err);
  EXPECT_EQ(runCli({"--help"}, OS, ES), 0);
  EXPECT_NE(OS.str().find("spirv2llvm run SHADER"), std::string::npos);

  RunResult R = runRun({"--help"});
  EXPECT_EQ(R.Exit, 0);
  EXPECT_NE(R.Out.find("usage: spirv2llvm run SHADER [options]"),
            std::string::npos);
  EXPECT_NE(R.Out.find("--buffer [SET.]BINDING[[INDEX]]:SIZE[:init=KIND]"),
            std::string::npos);
}

//===----------------------------------------------------------------------===//
// Usage errors found on the command line alone: exit 2, one message that
// names the option and the value, and a pointer to --help.
//===----------------------------------------------------------------------===//

struct UsageCase {
  const char *Name;
  std::vector<std::string> Args; ///< "{SHADER}": a valid compute shader
  std::string Message;
};

const UsageCase UsageCases[] = {
    {"ElementIndexMalformed",
     {"{SHADER}", "--buffer", "0[x]:16"},
     "malformed binding '0[x]' (expected [SET.]BINDING or "
     "[SET.]BINDING[INDEX])"},
    {"ElementIndexUnclosed",
     {"{SHADER}", "--buffer", "0[1:16"},
     "malformed binding"},
    {"ElementGivenTwice",
     {"{SHADER}", "--buffer", "0.1[2]:16", "--buffer", "0.1[2]:32"},
     "binding 0.1[2] already has a buffer"},
    {"ElementOfSingleBlock",
     {"{SHADER}", "--buffer", "0[0]:16", "--buffer", "1:16"},
     "--buffer 0.0[...]: the shader's binding 0.0 is a single storage "
     "buffer, not an array"},
    {"DumpOfMissingElement",
     {"{SHADER}", "--buffer", "0:16", "--buffer", "1:16", "--dump",
      "1[3]:{DIR}/x.bin"},
     "no --buffer or --image gives binding 0.1[3]"},
    {"SizeNotMultipleOf4",
     {"{SHADER}", "--buffer", "0:10"},
     "--buffer '0:10': size 10 is not a positive multiple of 4"},
    {"SizeZero",
     {"{SHADER}", "--buffer", "0:0"},
     "--buffer '0:0': size 0 is not a positive multiple of 4"},
    {"MalformedSize",
     {"{SHADER}", "--buffer", "0:12Q"},
     "--buffer '0:12Q': malformed size '12Q'"},
    {"LowerCaseSuffix",
     {"{SHADER}", "--buffer", "0:4k"},
     "--buffer '0:4k': malformed size '4k'"},
    {"MissingSize",
     {"{SHADER}", "--buffer", "0"},
     "--buffer '0': expected [SET.]BINDING[[INDEX]]:SIZE[:init=KIND]"},
    {"MalformedBinding",
     {"{SHADER}", "--buffer", "x.1:16"},
     "--buffer 'x.1:16': malformed binding 'x.1'"},
    {"UnknownKind",
     {"{SHADER}", "--buffer", "0:16:init=ones"},
     "--buffer '0:16:init=ones': unknown init kind 'ones'"},
    {"NotInit",
     {"{SHADER}", "--buffer", "0:16:zero"},
     "--buffer '0:16:zero': expected 'init=KIND' after the size"},
    {"MalformedSeed",
     {"{SHADER}", "--buffer", "0:16:init=random_u32:abc"},
     "--buffer '0:16:init=random_u32:abc': malformed seed 'abc'"},
    {"MissingSeed",
     {"{SHADER}", "--buffer", "0:16:init=random_f32"},
     "--buffer '0:16:init=random_f32': init kind 'random_f32' needs seed"},
    {"MalformedFillU32",
     {"{SHADER}", "--buffer", "0:16:init=fill_u32:-1"},
     "--buffer '0:16:init=fill_u32:-1': malformed value '-1'"},
    {"MalformedFillF32",
     {"{SHADER}", "--buffer", "0:16:init=fill_f32:1.0f"},
     "--buffer '0:16:init=fill_f32:1.0f': malformed value '1.0f'"},
    {"UnreadableFile",
     {"{SHADER}", "--buffer", "0:16:init=file:{DIR}/missing.bin"},
     "--buffer '0:16:init=file:{DIR}/missing.bin': {DIR}/missing.bin: "
     "cannot read"},
    {"DuplicateBuffer",
     {"{SHADER}", "--buffer", "0.1:16", "--buffer", "1:32"},
     "--buffer '1:32': binding 0.1 already has a buffer"},
    {"MissingBufferValue", {"{SHADER}", "--buffer"}, "--buffer needs"},
    {"OddPushHex",
     {"{SHADER}", "--push", "abc"},
     "--push 'abc': malformed bytes"},
    {"NonHexPush",
     {"{SHADER}", "--push", "0x01"},
     "--push '0x01': malformed bytes"},
    {"MalformedPushU32",
     {"{SHADER}", "--push-u32", "1,x"},
     "--push-u32 '1,x': malformed number 'x'"},
    {"PushU32Overflow",
     {"{SHADER}", "--push-u32", "4294967296"},
     "--push-u32 '4294967296': malformed number '4294967296'"},
    {"PushU32Empty",
     {"{SHADER}", "--push-u32", "1,,2"},
     "--push-u32 '1,,2': malformed number ''"},
    {"MalformedPushI32",
     {"{SHADER}", "--push-i32=3000000000"},
     "--push-i32 '3000000000': malformed number '3000000000'"},
    {"MalformedPushF32",
     {"{SHADER}", "--push-f32", "1.5,two"},
     "--push-f32 '1.5,two': malformed number 'two'"},
    {"MalformedDispatch",
     {"{SHADER}", "--dispatch", "4,a"},
     "--dispatch '4,a': malformed number 'a'"},
    {"ZeroDispatch",
     {"{SHADER}", "--dispatch", "0"},
     "--dispatch '0': malformed number '0'"},
    {"FourDimensionalDispatch",
     {"{SHADER}", "--dispatch", "1,1,1,1"},
     "--dispatch '1,1,1,1': expected X[,Y[,Z]]"},
    {"MalformedThreads",
     {"{SHADER}", "--threads", "-1"},
     "--threads '-1': malformed number"},
    {"MalformedRepeat",
     {"{SHADER}", "--repeat", "ten"},
     "--repeat 'ten': malformed number"},
    {"ZeroRepeat",
     {"{SHADER}", "--repeat", "0"},
     "--repeat '0': malformed number"},
    {"BadWidth",
     {"{SHADER}", "--width", "5"},
     "--width '5': --width takes 4, 8 or 16"},
    {"BadSpec",
     {"{SHADER}", "--spec", "x=1"},
     "--spec 'x=1': --spec takes ID=VALUE"},
    {"DumpWithoutBuffer",
     {"{SHADER}", "--buffer", "0:16", "--dump", "0.3:{DIR}/out.bin"},
     "--dump '0.3:{DIR}/out.bin': no --buffer or --image gives binding 0.3"},
    {"ImageUnknownFormat",
     {"{SHADER}", "--image", "0:4x4:RGBA8"},
     "--image '0:4x4:RGBA8': unknown format 'RGBA8'"},
    {"ImageZeroSize",
     {"{SHADER}", "--image", "0:4x0"},
     "--image '0:4x0': size '4x0' has a zero side"},
    {"ImageTwoFormats",
     {"{SHADER}", "--image", "0:4x4:R32_UINT:R32_SFLOAT"},
     "--image '0:4x4:R32_UINT:R32_SFLOAT': more than one format ('R32_UINT' "
     "and 'R32_SFLOAT')"},
    {"ImagePngInit",
     {"{SHADER}", "--image", "0:a.png:init=zero"},
     "--image '0:a.png:init=zero': init= does not apply to a PNG image"},
    {"MissingImageValue", {"{SHADER}", "--image"}, "--image needs"},
    {"SamplerBadMipmap",
     {"{SHADER}", "--sampler", "0:mipmap=cubic"},
     "--sampler '0:mipmap=cubic': bad mipmap 'cubic' (nearest or linear)"},
    {"SamplerBadBorder",
     {"{SHADER}", "--sampler", "0:border=red"},
     "--sampler '0:border=red': bad border 'red'"},
    {"SamplerBadBias",
     {"{SHADER}", "--sampler", "0:bias=inf"},
     "--sampler '0:bias=inf': bad bias 'inf' (a finite number)"},
    {"SamplerBadAnisotropy",
     {"{SHADER}", "--sampler", "0:anisotropy=32"},
     "--sampler '0:anisotropy=32': bad anisotropy '32' (a number from 1 "
     "(off) to 16)"},
    {"SamplerNoValue",
     {"{SHADER}", "--sampler", "0:filter"},
     "--sampler '0:filter': malformed sampler option 'filter'"},
    {"MalformedDump", {"{SHADER}", "--dump", "0"}, "--dump '0': expected"},
    {"MalformedDumpBinding",
     {"{SHADER}", "--dump", "a:x.bin"},
     "--dump 'a:x.bin': malformed binding 'a'"},
    {"UnknownOption", {"{SHADER}", "--frobnicate"}, "unknown option"},
    {"NoShader", {"--buffer", "0:16"}, "no shader file"},
    {"TwoShaders", {"{SHADER}", "other.comp"}, "more than one shader"},
};

void PrintTo(const UsageCase &C, std::ostream *OS) { *OS << C.Name; }

class RunUsageTest : public RunCommandTest,
                     public testing::WithParamInterface<UsageCase> {};

TEST_P(RunUsageTest, ExitsWithUsageError) {
  std::string Shader = writeFile("usage.comp", CopyShader);
  auto Subst = [&](std::string S) {
    for (auto [From, To] :
         {std::pair<std::string, std::string>{"{SHADER}", Shader},
          {"{DIR}", TempDir}})
      for (size_t Pos; (Pos = S.find(From)) != std::string::npos;)
        S.replace(Pos, From.size(), To);
    return S;
  };
  std::vector<std::string> Args;
  for (const std::string &A : GetParam().Args)
    Args.push_back(Subst(A));
  RunResult R = runRun(Args);
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_EQ(R.Err.rfind("spirv2llvm run: error: ", 0), 0u) << R.Err;
  EXPECT_NE(R.Err.find(Subst(GetParam().Message)), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("run 'spirv2llvm run --help' for usage"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Out, "");
}

INSTANTIATE_TEST_SUITE_P(Run, RunUsageTest, testing::ValuesIn(UsageCases),
                         [](const testing::TestParamInfo<UsageCase> &Info) {
                           return std::string(Info.param.Name);
                         });

//===----------------------------------------------------------------------===//
// Shader errors: exit 1.
//===----------------------------------------------------------------------===//

TEST_F(RunCommandTest, MissingShaderFile) {
  RunResult R = runRun({path("nonexistent.comp")});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(R.Err.rfind("spirv2llvm run: error: ", 0), 0u) << R.Err;
  EXPECT_NE(R.Err.find("nonexistent.comp"), std::string::npos) << R.Err;
  EXPECT_EQ(R.Out, "");
}

TEST_F(RunCommandTest, ShaderDoesNotCompile) {
  RunResult R = runRun({writeFile("broken.comp", BrokenShader)});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_EQ(R.Err.rfind("spirv2llvm run: error: ", 0), 0u) << R.Err;
  EXPECT_NE(R.Err.find("broken.comp"), std::string::npos) << R.Err;
  EXPECT_EQ(R.Out, "");
}

TEST_F(RunCommandTest, NotAComputeShader) {
  RunResult R = runRun({writeFile("color.frag", FragmentShader)});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Err.find("is not a GLCompute shader"), std::string::npos)
      << R.Err;
}

TEST_F(RunCommandTest, UnknownEntryPoint) {
  RunResult R =
      runRun({writeFile("entry.comp", CopyShader), "--entry", "nothere"});
  EXPECT_EQ(R.Exit, 1) << R.Err;
  EXPECT_NE(R.Err.find("nothere"), std::string::npos) << R.Err;
}

//===----------------------------------------------------------------------===//
// Usage errors found against the shader's reflection: exit 2.
//===----------------------------------------------------------------------===//

TEST_F(RunCommandTest, BindingWithoutBuffer) {
  REQUIRE_RUNTIME();
  RunResult R = runRun({writeFile("copy.comp", CopyShader), "--buffer", "0:64",
                        "--push-u32", "1"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("spirv2llvm run: error: the shader uses binding 0.1 "
                       "(storage buffer"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("but no --buffer gives it"), std::string::npos) << R.Err;
}

TEST_F(RunCommandTest, TooFewPushConstantBytes) {
  REQUIRE_RUNTIME();
  std::string Shader = writeFile("copy.comp", CopyShader);
  for (std::vector<std::string> Push :
       {std::vector<std::string>{}, {"--push", "010203"}}) {
    std::vector<std::string> Args = {Shader, "--buffer", "0:64", "--buffer",
                                     "1:64"};
    Args.insert(Args.end(), Push.begin(), Push.end());
    RunResult R = runRun(Args);
    EXPECT_EQ(R.Exit, 2) << R.Err;
    EXPECT_NE(R.Err.find("spirv2llvm run: error: the shader reads 4 bytes "
                         "of push constants but --push"),
              std::string::npos)
        << R.Err;
    EXPECT_NE(R.Err.find(" give " + std::to_string(Push.empty() ? 0 : 3)),
              std::string::npos)
        << R.Err;
  }
}

TEST_F(RunCommandTest, BufferSmallerThanItsType) {
  REQUIRE_RUNTIME();
  RunResult R = runRun({writeFile("uniform.comp", UniformShader), "--buffer",
                        "1.0:16", "--buffer", "0:32"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("--buffer 0.0: 32 bytes, but the shader's storage "
                       "buffer at 0.0 needs at least 64"),
            std::string::npos)
      << R.Err;
}

const char *const ArrayShader = R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { uint n; uint v[]; } src[3];
layout(set = 0, binding = 1) buffer Out { uint o[8]; } dst;
void main() {
  uint i = gl_LocalInvocationIndex;
  dst.o[i] = src[nonuniformEXT(i % 3u)].v[i] + src[1].n;
  dst.o[4u + i] = uint(src[nonuniformEXT(i)].v.length());
}
)";

TEST_F(RunCommandTest, DescriptorArrayNeedsElements) {
  REQUIRE_RUNTIME();
  std::string Shader = writeFile("array.comp", ArrayShader);
  RunResult R = runRun({Shader, "--buffer", "0:64", "--buffer", "1:32"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("--buffer 0.0: the shader's binding 0.0 is an array "
                       "of 3 storage buffers; give its elements as "
                       "--buffer 0.0[INDEX]:SIZE"),
            std::string::npos)
      << R.Err;
  R = runRun({Shader, "--buffer", "0[3]:64", "--buffer", "1:32"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("--buffer 0.0[3]: index out of range (the shader's "
                       "array at 0.0 has 3 elements)"),
            std::string::npos)
      << R.Err;
  R = runRun({Shader, "--buffer", "1:32"});
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("no --buffer 0.0[INDEX] gives an element"),
            std::string::npos)
      << R.Err;
}

TEST_F(RunCommandTest, DescriptorArrayRun) {
  REQUIRE_RUNTIME();
  std::string Out = path("array-out.bin");
  // Element 2 is not given: reads through it are zero, length 0.
  RunResult R = runRun({writeFile("array2.comp", ArrayShader), "--buffer",
                        "0[0]:32:init=iota_u32", "--buffer",
                        "0[1]:64:init=fill_u32:7", "--buffer", "1:32",
                        "--dump", "1:" + Out});
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("0.0[1] storage, 64 bytes, init=fill_u32:7"),
            std::string::npos)
      << R.Out;
  std::vector<uint8_t> Bytes = readFile(Out);
  ASSERT_EQ(Bytes.size(), 32u);
  // Lane i reads element i % 3, word 1 + i; src[1].n is 7.
  uint32_t Want[8] = {1 + 7, 7 + 7, 0 + 7, 4 + 7, 7, 15, 0, 0};
  for (size_t I = 0; I < 8; ++I)
    EXPECT_EQ(wordAt(Bytes, I), Want[I]) << "word " << I;
}

//===----------------------------------------------------------------------===//
// Runs.
//===----------------------------------------------------------------------===//

TEST_F(RunCommandTest, CopyWithRandomInputAndDump) {
  REQUIRE_RUNTIME();
  std::string In = path("copy-in.bin"), Out = path("copy-out.bin");
  RunResult R = runRun({writeFile("copy.comp", CopyShader), "--buffer",
                        "0:256:init=random_u32:7", "--buffer", "1:1K",
                        "--push-u32", "1000", "--dispatch", "16", "--dump",
                        "0:" + In, "--dump", "1:" + Out});
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(R.Err, "");
  auto [Invocations, Dispatches] = checkResult(R.Out);
  EXPECT_EQ(Invocations, 64u);
  EXPECT_EQ(Dispatches, 1u);
  EXPECT_NE(R.Out.find("0.0 storage, 256 bytes, init=random_u32:7"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("0.1 storage, 1024 bytes, init=zero"), std::string::npos)
      << R.Out;

  // --dump writes exactly SIZE bytes, the shader wrote only 256 of them.
  std::vector<uint8_t> InBytes = readFile(In), OutBytes = readFile(Out);
  ASSERT_EQ(InBytes.size(), 256u);
  ASSERT_EQ(OutBytes.size(), 1024u);
  for (size_t I = 0; I < 64; ++I) {
    ASSERT_EQ(wordAt(InBytes, I), refRandomU32(7, I)) << "word " << I;
    ASSERT_EQ(wordAt(OutBytes, I), refRandomU32(7, I) + 1000u) << "word " << I;
  }
  for (size_t I = 64; I < 256; ++I)
    ASSERT_EQ(wordAt(OutBytes, I), 0u) << "word " << I;
}

TEST_F(RunCommandTest, PushConstantByteOrder) {
  REQUIRE_RUNTIME();
  std::string Dump = path("push.bin");
  RunResult R = runRun({writeFile("push.comp", PushShader), "--buffer", "0:28",
                        "--push", "0102030405060708", "--push-u32",
                        "0x0A0B0C0D", "--push-i32", "-2", "--push-f32", "1.5,2",
                        "--push", "ffeeddcc", "--dump", "0:" + Dump, "-q"});
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::vector<uint8_t> Want = {
      0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // --push
      0x0D, 0x0C, 0x0B, 0x0A,                         // --push-u32
      0xFE, 0xFF, 0xFF, 0xFF,                         // --push-i32 -2
      0x00, 0x00, 0xC0, 0x3F, 0x00, 0x00, 0x00, 0x40, // 1.5f, 2.0f
      0xFF, 0xEE, 0xDD, 0xCC,                         // --push
  };
  EXPECT_EQ(readFile(Dump), Want);
}

TEST_F(RunCommandTest, RepeatRestoresBuffers) {
  REQUIRE_RUNTIME();
  std::string Shader = writeFile("acc.comp", AccumulateShader);
  std::string Dump = path("acc.bin");
  // 16x2 invocations per group, 2x1 groups: words 0..31 of a 2x16 grid
  // are incremented once per dispatch.
  RunResult R =
      runRun({Shader, "--buffer", "0:128:init=iota_u32", "--dispatch", "2",
              "--repeat", "5", "--dump", "0:" + Dump, "--threads", "2"});
  ASSERT_EQ(R.Exit, 0) << R.Err;
  auto [Invocations, Dispatches] = checkResult(R.Out);
  EXPECT_EQ(Invocations, 32u);
  EXPECT_EQ(Dispatches, 5u);
  EXPECT_NE(R.Out.find("workgroup: 8x2x1"), std::string::npos) << R.Out;
  std::vector<uint8_t> Bytes = readFile(Dump);
  ASSERT_EQ(Bytes.size(), 128u);
  for (size_t I = 0; I < 32; ++I)
    EXPECT_EQ(wordAt(Bytes, I), I + 1) << "word " << I;
}

TEST_F(RunCommandTest, QuietPrintsOnlyTheResultLine) {
  REQUIRE_RUNTIME();
  RunResult R = runRun({writeFile("acc.comp", AccumulateShader), "--buffer",
                        "0:128", "-q", "--repeat", "2", "--width", "8"});
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(R.Out.rfind("RESULT ", 0), 0u) << R.Out;
  EXPECT_EQ(std::count(R.Out.begin(), R.Out.end(), '\n'), 1) << R.Out;
  auto [Invocations, Dispatches] = checkResult(R.Out);
  EXPECT_EQ(Invocations, 16u);
  EXPECT_EQ(Dispatches, 2u);
}

TEST_F(RunCommandTest, UniformBufferFromFile) {
  REQUIRE_RUNTIME();
  // A 2-byte file: the rest of the 16-byte uniform buffer stays zero.
  std::string File = writeFile("k.bin", llvm::StringRef("\x2A\x01", 2));
  std::string Dump = path("uniform.bin");
  RunResult R = runRun({writeFile("uniform.comp", UniformShader), "--buffer",
                        "1.0:16:init=file:" + File, "--buffer",
                        "0:64:init=fill_u32:7", "--dump", "0.0:" + Dump});
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("1.0 uniform, 16 bytes"), std::string::npos) << R.Out;
  checkResult(R.Out);
  std::vector<uint8_t> Bytes = readFile(Dump);
  ASSERT_EQ(Bytes.size(), 64u);
  for (size_t I = 0; I < 16; ++I)
    EXPECT_EQ(wordAt(Bytes, I), I == 3 ? 0x12Au : 7u) << "word " << I;
}

} // namespace
