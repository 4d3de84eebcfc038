//===- CompileCacheTest.cpp - The persistent compile cache ----------------===//
//
// In process: `spirv2llvm run` with --cache-dir (hit after miss, results
// the same), the key (every translate option, specialization, width, opt
// level change it), damaged entries (truncated, flipped bytes, another
// format version, another key's file) rejected and replaced, eviction
// under the size bound, least recently used first, and an unusable
// directory. Several processes writing one key are tested from the
// command line (cache_cli_test.py); the C API in CApiCacheTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "RunCommand.h"
#include "runtime/CacheEntry.h"
#include "spirv2llvm/CompileCache.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <set>
#include <regex>
#include <sys/stat.h>

using namespace spirv2llvm;

namespace {

const std::string Saxpy = S2L_SOURCE_DIR "/shaders/examples/saxpy.spvasm";
const std::string SpecShader =
    S2L_SOURCE_DIR "/tests/lit/Inputs/spec-workgroup-size.comp";

/// A fresh directory under the system temporary directory, removed after.
struct TempDir {
  std::string Path;
  TempDir() {
    llvm::SmallString<128> P;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("s2l-cache-test", P));
    Path = std::string(P);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
  std::string sub(const std::string &Name) const { return Path + "/" + Name; }
};

std::vector<uint8_t> readFile(const std::string &Path) {
  std::ifstream F(Path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(F), {});
}

void writeFile(const std::string &Path, const std::vector<uint8_t> &Bytes) {
  std::ofstream F(Path, std::ios::binary | std::ios::trunc);
  F.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
}

/// The entry files (*.s2lc) of \p Dir.
std::vector<std::string> entries(const std::string &Dir) {
  std::vector<std::string> Out;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    if (llvm::StringRef(I->path()).ends_with(".s2lc"))
      Out.push_back(I->path());
  return Out;
}

struct RunOutput {
  int Status;
  std::string Out, Err;
  /// "hit", "miss", "disabled" or "" (no cache= field).
  std::string cache() const {
    std::smatch M;
    if (std::regex_search(Out, M, std::regex(" cache=(\\w+)\\n")))
      return M[1];
    return "";
  }
};

RunOutput run(std::vector<std::string> Args) {
  RunOutput R;
  llvm::raw_string_ostream Out(R.Out), Err(R.Err);
  R.Status = runCommand(Args, Out, Err);
  return R;
}

/// saxpy with a = 2 over 1024 floats x[i] = i, y[i] = i (y becomes 3i),
/// y dumped to \p Dump.
std::vector<std::string> saxpyArgs(const std::string &CacheDir,
                                   const std::string &Dump) {
  std::vector<std::string> A = {Saxpy,
                                "--buffer",
                                "0:4096:init=iota_f32",
                                "--buffer",
                                "1:4096:init=iota_f32",
                                "--push-f32",
                                "2",
                                "--push-u32",
                                "1024",
                                "--dispatch",
                                "16",
                                "-q",
                                "--dump",
                                "1:" + Dump};
  if (!CacheDir.empty()) {
    A.push_back("--cache-dir");
    A.push_back(CacheDir);
  }
  return A;
}

void expectSaxpyResult(const std::string &Dump) {
  std::vector<uint8_t> Y = readFile(Dump);
  ASSERT_EQ(Y.size(), 4096u);
  for (size_t I = 0; I < 1024; ++I) {
    float V;
    std::memcpy(&V, Y.data() + 4 * I, 4);
    ASSERT_EQ(V, 3.0f * float(I)) << "element " << I;
  }
}

TEST(CompileCache, SecondRunHitsAndSkipsCompiling) {
  TempDir D;
  std::string Cache = D.sub("cache");
  RunOutput First = run(saxpyArgs(Cache, D.sub("y1.bin")));
  ASSERT_EQ(First.Status, 0) << First.Err;
  EXPECT_EQ(First.cache(), "miss");
  expectSaxpyResult(D.sub("y1.bin"));
  ASSERT_EQ(entries(Cache).size(), 1u);

  RunOutput Second = run(saxpyArgs(Cache, D.sub("y2.bin")));
  ASSERT_EQ(Second.Status, 0) << Second.Err;
  EXPECT_EQ(Second.cache(), "hit");
  EXPECT_EQ(Second.Err, "");
  expectSaxpyResult(D.sub("y2.bin"));
  EXPECT_EQ(entries(Cache).size(), 1u);

  // Without --cache-dir the RESULT line is unchanged.
  RunOutput NoCache = run(saxpyArgs("", D.sub("y3.bin")));
  ASSERT_EQ(NoCache.Status, 0) << NoCache.Err;
  EXPECT_EQ(NoCache.cache(), "");
  EXPECT_EQ(NoCache.Out.find("cache="), std::string::npos);
}

TEST(CompileCache, ApiLoadFindsWhatCreateStored) {
  TempDir D;
  auto Cache = CompileCache::open(D.sub("c"));
  ASSERT_TRUE(Cache->enabled()) << Cache->warning();
  auto Bytes = readFile(Saxpy);
  TranslateOptions Opts;
  std::string Key = translationCacheKey(Bytes, Saxpy, Opts);
  EXPECT_EQ(ComputeShader::load(*Cache, Key, 1), nullptr);
  auto T = translateBytes(Bytes, Saxpy, Opts);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  ComputeInfo Want = T->Compute;
  auto S = ComputeShader::create(std::move(*T), 1, Cache.get(), Key);
  ASSERT_TRUE(S.ok()) << S.status().message();
  EXPECT_FALSE((*S)->fromCache());

  std::unique_ptr<ComputeShader> L = ComputeShader::load(*Cache, Key, 1);
  ASSERT_NE(L, nullptr);
  EXPECT_TRUE(L->fromCache());
  EXPECT_EQ(L->entryName(), "main");
  EXPECT_EQ(L->width(), (*S)->width());
  // The reflection comes back from the entry, field by field.
  const ComputeInfo &Got = L->info();
  EXPECT_EQ(Got.WorkgroupSize, Want.WorkgroupSize);
  EXPECT_EQ(Got.PushConstantSize, Want.PushConstantSize);
  ASSERT_EQ(Got.Bindings.size(), Want.Bindings.size());
  for (size_t I = 0; I < Got.Bindings.size(); ++I) {
    EXPECT_EQ(Got.Bindings[I].Binding, Want.Bindings[I].Binding);
    EXPECT_EQ(Got.Bindings[I].MinSize, Want.Bindings[I].MinSize);
    EXPECT_EQ(Got.Bindings[I].HasRuntimeArray,
              Want.Bindings[I].HasRuntimeArray);
  }
  // Another opt level is another entry.
  EXPECT_EQ(ComputeShader::load(*Cache, Key, 2), nullptr);
  // A JitShader entry is not a ComputeShader one (ComputeShader changes
  // the module before compiling).
  EXPECT_EQ(JitShader::load(*Cache, Key, 1), nullptr);
  CompileCache::Stats St = Cache->stats();
  EXPECT_EQ(St.Stores, 1u);
  EXPECT_EQ(St.Hits, 1u);
  EXPECT_EQ(St.Misses, 3u);

  // The loaded code runs: y = 2x + y.
  std::vector<float> X(1024), Y(1024);
  for (size_t I = 0; I < 1024; ++I)
    X[I] = Y[I] = float(I);
  DispatchResources R;
  R.bind(0, 0, X.data(), 4096);
  R.bind(0, 1, Y.data(), 4096);
  float A = 2;
  uint32_t N = 1024;
  R.PushConstants.resize(8);
  std::memcpy(R.PushConstants.data(), &A, 4);
  std::memcpy(R.PushConstants.data() + 4, &N, 4);
  ASSERT_TRUE(L->dispatch({16, 1, 1}, R).ok());
  for (size_t I = 0; I < 1024; ++I)
    ASSERT_EQ(Y[I], 3.0f * float(I));
}

TEST(CompileCache, MetadataRoundTripsEveryField) {
  // Every field set to something other than its default, so that a field
  // the serialization forgets comes back different.
  ShaderInfo I;
  I.EntrySymbol = "s2l_main";
  I.EntryName = "entry";
  I.EntryStage = Stage::Vertex;
  I.Layout.Width = 8;
  I.Layout.InputSize = 96;
  I.Layout.OutputSize = 64;
  InterfaceVariable V;
  V.Id = 7;
  V.Name = "color";
  V.IsInput = false;
  V.Location = 3;
  V.BuiltIn = 15;
  V.Flat = true;
  V.NoPerspective = true;
  V.Offset = 32;
  V.Components = {{ScalarKind::UInt, 16}, {ScalarKind::Bool, 32}};
  V.ComponentOffsets = {32, 48};
  V.ComponentLocations = {{3, 2}, {4, 1}};
  I.Layout.Outputs = {V};
  V.IsInput = true;
  V.Name = "in";
  I.Layout.Inputs.assign(7, V);
  I.Compute.WorkgroupSize = {8, 4, 2};
  ComputeInfo::Binding B;
  B.Set = 1;
  B.Binding = 5;
  B.Kind = ComputeInfo::DescriptorKind::StorageImage;
  B.ImageDim = 2;
  B.ImageArrayed = true;
  B.ImageMultisampled = true;
  B.ImageFormat = 37;
  B.IsUniform = true;
  B.MinSize = 1ull << 40;
  B.HasRuntimeArray = true;
  B.IsArray = true;
  B.ArraySize = 9;
  // Many bindings and variables: a count check that assumed more bytes per
  // item than they take would reject large entries only.
  I.Compute.Bindings.assign(9, B);
  I.Compute.Bindings[0] = B;
  I.Compute.PushConstantSize = 12;
  I.Compute.WorkgroupMemorySize = 4096;
  I.Compute.HasBarriers = true;

  std::string Bytes = serializeShaderInfo(I);
  ShaderInfo O;
  ASSERT_TRUE(deserializeShaderInfo(Bytes, O));
  EXPECT_EQ(O.EntrySymbol, I.EntrySymbol);
  EXPECT_EQ(O.EntryName, I.EntryName);
  EXPECT_EQ(O.EntryStage, I.EntryStage);
  EXPECT_EQ(O.Layout.Width, 8u);
  EXPECT_EQ(O.Layout.InputSize, 96u);
  EXPECT_EQ(O.Layout.OutputSize, 64u);
  ASSERT_EQ(O.Layout.Inputs.size(), 7u);
  ASSERT_EQ(O.Layout.Outputs.size(), 1u);
  for (const InterfaceVariable *G :
       {&O.Layout.Outputs[0], &O.Layout.Inputs[1]}) {
    EXPECT_EQ(G->Id, 7u);
    EXPECT_EQ(G->Location, 3);
    EXPECT_EQ(G->BuiltIn, 15);
    EXPECT_TRUE(G->Flat);
    EXPECT_TRUE(G->NoPerspective);
    EXPECT_EQ(G->Offset, 32u);
    ASSERT_EQ(G->Components.size(), 2u);
    EXPECT_EQ(G->Components[0].Kind, ScalarKind::UInt);
    EXPECT_EQ(G->Components[0].Bits, 16u);
    EXPECT_EQ(G->Components[1].Kind, ScalarKind::Bool);
    EXPECT_EQ(G->ComponentOffsets, (std::vector<uint32_t>{32, 48}));
    ASSERT_EQ(G->ComponentLocations.size(), 2u);
    EXPECT_EQ(G->ComponentLocations[0].Location, 3u);
    EXPECT_EQ(G->ComponentLocations[0].Component, 2u);
    EXPECT_EQ(G->ComponentLocations[1].Location, 4u);
    EXPECT_EQ(G->ComponentLocations[1].Component, 1u);
  }
  EXPECT_EQ(O.Layout.Outputs[0].Name, "color");
  EXPECT_FALSE(O.Layout.Outputs[0].IsInput);
  EXPECT_TRUE(O.Layout.Inputs[1].IsInput);
  EXPECT_EQ(O.Compute.WorkgroupSize, I.Compute.WorkgroupSize);
  ASSERT_EQ(O.Compute.Bindings.size(), 9u);
  const ComputeInfo::Binding &G = O.Compute.Bindings[8];
  EXPECT_EQ(G.Set, 1u);
  EXPECT_EQ(G.Binding, 5u);
  EXPECT_EQ(G.Kind, ComputeInfo::DescriptorKind::StorageImage);
  EXPECT_EQ(G.ImageDim, 2u);
  EXPECT_TRUE(G.ImageArrayed);
  EXPECT_TRUE(G.ImageMultisampled);
  EXPECT_EQ(G.ImageFormat, 37u);
  EXPECT_TRUE(G.IsUniform);
  EXPECT_EQ(G.MinSize, 1ull << 40);
  EXPECT_TRUE(G.HasRuntimeArray);
  EXPECT_TRUE(G.IsArray);
  EXPECT_EQ(G.ArraySize, 9u);
  EXPECT_EQ(O.Compute.PushConstantSize, 12u);
  EXPECT_EQ(O.Compute.WorkgroupMemorySize, 4096u);
  EXPECT_TRUE(O.Compute.HasBarriers);

  // Every strict prefix and one byte more are rejected.
  for (size_t N = 0; N < Bytes.size(); ++N)
    EXPECT_FALSE(deserializeShaderInfo(llvm::StringRef(Bytes).take_front(N), O))
        << N;
  EXPECT_FALSE(deserializeShaderInfo(Bytes + "x", O));
}

TEST(CompileCache, KeyCoversEveryTranslateOption) {
  auto Bytes = readFile(Saxpy);
  TranslateOptions Base;
  std::string K0 = translationCacheKey(Bytes, "a.spvasm", Base);
  EXPECT_EQ(K0, translationCacheKey(Bytes, "a.spvasm", Base));
  // The file name counts only for its extension (InputKind::Auto).
  EXPECT_EQ(K0, translationCacheKey(Bytes, "other/b.spvasm", Base));
  EXPECT_NE(K0, translationCacheKey(Bytes, "a.spv", Base));
  std::vector<std::pair<const char *, std::function<void(TranslateOptions &)>>>
      Changes = {
          {"Kind", [](auto &O) { O.Kind = InputKind::Assembly; }},
          {"ShaderStage", [](auto &O) { O.ShaderStage = Stage::Compute; }},
          {"EntryPoint", [](auto &O) { O.EntryPoint = "main"; }},
          {"TargetEnv", [](auto &O) { O.TargetEnv = "vulkan1.2"; }},
          {"Validate", [](auto &O) { O.Validate = false; }},
          {"Canonicalize", [](auto &O) { O.Canonicalize = false; }},
          {"Inline", [](auto &O) { O.Inline = false; }},
          {"Backend", [](auto &O) { O.Backend = Backend::Scalar; }},
          {"DxilNativeVectors", [](auto &O) { O.DxilNativeVectors = true; }},
          {"Width", [](auto &O) { O.Width = 8; }},
          {"OptLevel", [](auto &O) { O.OptLevel = 1; }},
          {"RobustBufferAccess", [](auto &O) { O.RobustBufferAccess = true; }},
          {"SpeculateSmallBlocks",
           [](auto &O) { O.SpeculateSmallBlocks = false; }},
          {"SpecValues", [](auto &O) { O.SpecValues = {{3, "16"}}; }},
          {"SpecValues2", [](auto &O) { O.SpecValues = {{3, "17"}}; }},
          {"SpecValues3", [](auto &O) { O.SpecValues = {{4, "16"}}; }},
          {"OptimizerPasses",
           [](auto &O) { O.OptimizerPasses = {"--graphics-robust-access"}; }},
          {"OptimizerPasses2",
           [](auto &O) { O.OptimizerPasses = {"--eliminate-dead-code-aggressive"}; }},
      };
  std::set<std::string> Seen = {K0};
  for (auto &[Name, Change] : Changes) {
    TranslateOptions O = Base;
    Change(O);
    EXPECT_TRUE(Seen.insert(translationCacheKey(Bytes, "a.spvasm", O)).second)
        << Name << " does not change the key";
  }
  // One byte of input.
  Bytes.back() ^= 1;
  EXPECT_NE(K0, translationCacheKey(Bytes, "a.spvasm", Base));
}

TEST(CompileCache, OtherOptionsMissAndGiveTheirOwnResults) {
  TempDir D;
  std::string Cache = D.sub("cache");
  auto Spec = [&](const std::string &Scale, const std::string &Width,
                  const std::string &Dump) {
    return run({SpecShader, "--buffer", "0:256", "--spec", "3=16", "--spec",
                "5=" + Scale, "--width", Width, "--dispatch", "2", "-q",
                "--dump", "0:" + Dump, "--cache-dir", Cache});
  };
  auto Check = [&](const std::string &Dump, uint32_t Scale) {
    std::vector<uint8_t> B = readFile(Dump);
    ASSERT_EQ(B.size(), 256u);
    for (uint32_t I = 0; I < 32; ++I) {
      uint32_t W;
      std::memcpy(&W, B.data() + 4 * I, 4);
      ASSERT_EQ(W, 16000 + Scale * (I % 16)) << "element " << I;
    }
  };
  RunOutput A = Spec("3", "4", D.sub("a.bin"));
  ASSERT_EQ(A.Status, 0) << A.Err;
  EXPECT_EQ(A.cache(), "miss");
  Check(D.sub("a.bin"), 3);
  // Another specialization constant value.
  RunOutput B = Spec("5", "4", D.sub("b.bin"));
  ASSERT_EQ(B.Status, 0) << B.Err;
  EXPECT_EQ(B.cache(), "miss");
  Check(D.sub("b.bin"), 5);
  // Another width.
  RunOutput C = Spec("3", "8", D.sub("c.bin"));
  ASSERT_EQ(C.Status, 0) << C.Err;
  EXPECT_EQ(C.cache(), "miss");
  Check(D.sub("c.bin"), 3);
  // Another opt level.
  RunOutput O1 = run({SpecShader, "--buffer", "0:256", "--spec", "3=16",
                      "--spec", "5=3", "--width", "4", "--dispatch", "2",
                      "-q", "-O1", "--cache-dir", Cache});
  ASSERT_EQ(O1.Status, 0) << O1.Err;
  EXPECT_EQ(O1.cache(), "miss");
  EXPECT_EQ(entries(Cache).size(), 4u);
  // And each of them hits now.
  RunOutput A2 = Spec("3", "4", D.sub("a2.bin"));
  ASSERT_EQ(A2.Status, 0) << A2.Err;
  EXPECT_EQ(A2.cache(), "hit");
  Check(D.sub("a2.bin"), 3);
  RunOutput B2 = Spec("5", "4", D.sub("b2.bin"));
  EXPECT_EQ(B2.cache(), "hit");
  Check(D.sub("b2.bin"), 5);
}

/// Damages the only entry of a fresh cache with \p Damage, then checks that
/// the next run rejects it, recompiles with the right results, replaces it,
/// and that the run after hits.
void checkDamageIsDetected(
    const std::function<void(std::vector<uint8_t> &)> &Damage) {
  TempDir D;
  std::string Cache = D.sub("cache");
  ASSERT_EQ(run(saxpyArgs(Cache, D.sub("y0.bin"))).Status, 0);
  std::vector<std::string> E = entries(Cache);
  ASSERT_EQ(E.size(), 1u);
  std::vector<uint8_t> Good = readFile(E[0]);
  std::vector<uint8_t> Bad = Good;
  Damage(Bad);
  ASSERT_NE(Bad, Good);
  writeFile(E[0], Bad);

  RunOutput R = run(saxpyArgs(Cache, D.sub("y1.bin")));
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(R.cache(), "miss");
  EXPECT_EQ(R.Err, "");
  expectSaxpyResult(D.sub("y1.bin"));
  // Replaced by a good entry (the same bytes: compiling is deterministic).
  EXPECT_EQ(readFile(E[0]), Good);
  RunOutput H = run(saxpyArgs(Cache, D.sub("y2.bin")));
  EXPECT_EQ(H.cache(), "hit");
  expectSaxpyResult(D.sub("y2.bin"));
}

TEST(CompileCache, TruncatedEntryIsRecompiled) {
  checkDamageIsDetected([](auto &B) { B.resize(B.size() - 100); });
  checkDamageIsDetected([](auto &B) { B.resize(20); });
  checkDamageIsDetected([](auto &B) { B.clear(); B.push_back(0); });
}

uint32_t u32At(const std::vector<uint8_t> &B, size_t Offset) {
  uint32_t V;
  std::memcpy(&V, B.data() + Offset, 4);
  return V;
}

TEST(CompileCache, FlippedBytesAreRecompiled) {
  // A letter of the entry point's name in the metadata: the entry still
  // parses and links, only the checksum tells (the header is 40 bytes,
  // then the key, then the symbol and the name, each after its length).
  checkDamageIsDetected([](auto &B) {
    size_t Meta = 40 + u32At(B, 12);
    size_t Name = Meta + 4 + u32At(B, Meta) + 4;
    ASSERT_EQ(u32At(B, Name - 4), 4u); // "main"
    B[Name + 1] ^= 1;
  });
  // In the object code, the key echo and the metadata length.
  checkDamageIsDetected([](auto &B) { B[B.size() - 40] ^= 0x10; });
  checkDamageIsDetected([](auto &B) { B[50] ^= 1; });
  checkDamageIsDetected([](auto &B) { B[16] ^= 1; });
}

TEST(CompileCache, OtherFormatVersionOrMagicIsRecompiled) {
  checkDamageIsDetected([](auto &B) { B[8] += 1; });
  checkDamageIsDetected([](auto &B) { B[0] = 'X'; });
}

TEST(CompileCache, AnotherKeysEntryIsNotUsed) {
  // A whole, valid entry of another key where this key's file should be
  // (a hash collision, or a file copied around): its key echo differs.
  TempDir D;
  std::string Cache = D.sub("cache");
  ASSERT_EQ(run(saxpyArgs(Cache, D.sub("y0.bin"))).Status, 0);
  std::string Mine = entries(Cache)[0];
  std::vector<std::string> O1 = saxpyArgs(Cache, D.sub("y1.bin"));
  O1.push_back("-O1");
  ASSERT_EQ(run(O1).Status, 0);
  std::string Other;
  for (const std::string &E : entries(Cache))
    if (E != Mine)
      Other = E;
  ASSERT_FALSE(Other.empty());
  ASSERT_FALSE(llvm::sys::fs::copy_file(Other, Mine));
  RunOutput R = run(saxpyArgs(Cache, D.sub("y2.bin")));
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(R.cache(), "miss");
  expectSaxpyResult(D.sub("y2.bin"));
}

void setMTime(const std::string &Path, time_t Seconds) {
  struct timespec T[2] = {{Seconds, 0}, {Seconds, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, Path.c_str(), T, 0), 0);
}

uint64_t directoryBytes(const std::string &Dir) {
  uint64_t Total = 0;
  for (const std::string &E : entries(Dir)) {
    uint64_t S = 0;
    llvm::sys::fs::file_size(E, S);
    Total += S;
  }
  return Total;
}

TEST(CompileCache, EvictionKeepsTheBoundAndTheRecentlyUsed) {
  TempDir D;
  const uint64_t Max = 10000;
  auto Cache = CompileCache::open(D.sub("c"), Max);
  ASSERT_TRUE(Cache->enabled());
  std::string Object(1000, 'o');
  // Nine entries of about 1,050 bytes fit, ten do not. Their mtimes are set
  // apart so that the order does not depend on the file system's timestamp
  // resolution.
  for (int I = 0; I < 8; ++I) {
    Cache->store("key" + std::to_string(I), "meta", Object);
    setMTime(Cache->entryPath("key" + std::to_string(I)), 1000000 + I);
  }
  EXPECT_EQ(entries(D.sub("c")).size(), 8u);
  EXPECT_EQ(Cache->stats().Evicted, 0u);
  // Use key0, the oldest: a hit touches it.
  EXPECT_TRUE(Cache->lookup("key0").has_value());
  for (int I = 8; I < 11; ++I)
    Cache->store("key" + std::to_string(I), "meta", Object);
  EXPECT_LE(directoryBytes(D.sub("c")), Max);
  EXPECT_EQ(Cache->stats().Evicted, 2u);
  EXPECT_EQ(entries(D.sub("c")).size(), 9u);
  // The least recently used went: key1 and key2, not key0.
  EXPECT_FALSE(Cache->lookup("key1").has_value());
  EXPECT_FALSE(Cache->lookup("key2").has_value());
  EXPECT_TRUE(Cache->lookup("key0").has_value());
  EXPECT_TRUE(Cache->lookup("key3").has_value());
  EXPECT_TRUE(Cache->lookup("key10").has_value());
  // A single entry larger than the bound does not stay either.
  Cache->store("huge", "meta", std::string(Max, 'x'));
  EXPECT_LE(directoryBytes(D.sub("c")), Max);
}

TEST(CompileCache, CommandLineSizeBound) {
  TempDir D;
  std::string Cache = D.sub("cache");
  // Every saxpy entry is over 1 KiB: with a bound of 1 KiB nothing stays,
  // and the runs still succeed.
  std::vector<std::string> A = saxpyArgs(Cache, D.sub("y.bin"));
  A.push_back("--cache-max-size");
  A.push_back("1K");
  RunOutput R = run(A);
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(entries(Cache).size(), 0u);
  expectSaxpyResult(D.sub("y.bin"));
  A.back() = "lots";
  EXPECT_EQ(run(A).Status, 2);
}

TEST(CompileCache, UnusableDirectoryWarnsOnceAndRuns) {
  TempDir D;
  // A directory below a regular file cannot be created, even by root.
  writeFile(D.sub("file"), {1, 2, 3});
  RunOutput R = run(saxpyArgs(D.sub("file/cache"), D.sub("y.bin")));
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(R.cache(), "disabled");
  expectSaxpyResult(D.sub("y.bin"));
  size_t First = R.Err.find("warning: compile cache disabled");
  ASSERT_NE(First, std::string::npos) << R.Err;
  EXPECT_EQ(R.Err.find("warning", First + 1), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("file/cache"), std::string::npos) << R.Err;

  auto C = CompileCache::open(D.sub("file/cache"));
  EXPECT_FALSE(C->enabled());
  EXPECT_FALSE(C->warning().empty());
  C->store("k", "m", "o"); // no effect, no crash
  EXPECT_FALSE(C->lookup("k").has_value());
}

TEST(CompileCache, DirectoryLostAfterOpenWarnsAndRuns) {
  // The directory goes away (and a file takes its name) between opening
  // the cache and storing: the compile still succeeds, the cache says why
  // nothing was stored, and `run` prints that once.
  TempDir D;
  auto Cache = CompileCache::open(D.sub("c"));
  ASSERT_TRUE(Cache->enabled());
  ASSERT_FALSE(llvm::sys::fs::remove_directories(D.sub("c")));
  writeFile(D.sub("c"), {1});
  auto Bytes = readFile(Saxpy);
  TranslateOptions Opts;
  std::string Key = translationCacheKey(Bytes, Saxpy, Opts);
  auto T = translateBytes(Bytes, Saxpy, Opts);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  auto S = ComputeShader::create(std::move(*T), 2, Cache.get(), Key);
  ASSERT_TRUE(S.ok()) << S.status().message();
  EXPECT_NE(Cache->warning().find("cannot write a cache entry"),
            std::string::npos)
      << Cache->warning();
  EXPECT_EQ(Cache->stats().Stores, 0u);
  EXPECT_EQ(ComputeShader::load(*Cache, Key, 2), nullptr);
}

TEST(CompileCache, EnvironmentVariableAndFlagPrecedence) {
  TempDir D;
  ASSERT_EQ(setenv("SPIRV2LLVM_CACHE_DIR", D.sub("env").c_str(), 1), 0);
  RunOutput R = run(saxpyArgs("", D.sub("y.bin")));
  EXPECT_EQ(R.cache(), "miss");
  EXPECT_EQ(entries(D.sub("env")).size(), 1u);
  EXPECT_EQ(run(saxpyArgs("", D.sub("y.bin"))).cache(), "hit");
  // --cache-dir wins.
  RunOutput F = run(saxpyArgs(D.sub("flag"), D.sub("y.bin")));
  EXPECT_EQ(F.cache(), "miss");
  EXPECT_EQ(entries(D.sub("flag")).size(), 1u);
  unsetenv("SPIRV2LLVM_CACHE_DIR");
  EXPECT_EQ(run(saxpyArgs("", D.sub("y.bin"))).cache(), "");
}

} // namespace
