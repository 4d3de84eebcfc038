//===- BenchCases.cpp - The shaders of the benchmark suite ----------------===//
#include "BenchCases.h"

#include <cmath>
#include <cstring>
#include <random>

namespace spirv2llvm::bench {

namespace {

template <typename T> void append(std::vector<uint8_t> &Out, T V) {
  uint8_t B[sizeof(T)];
  std::memcpy(B, &V, sizeof(T));
  Out.insert(Out.end(), B, B + sizeof(T));
}

std::vector<uint8_t> randomF32(size_t N, float Lo, float Hi, uint32_t Seed) {
  std::mt19937 G(Seed);
  std::uniform_real_distribution<float> D(Lo, Hi);
  std::vector<uint8_t> Out;
  Out.reserve(N * 4);
  for (size_t I = 0; I < N; ++I)
    append(Out, D(G));
  return Out;
}

std::vector<uint8_t> randomU32(size_t N, uint32_t Seed) {
  std::mt19937 G(Seed);
  std::vector<uint8_t> Out;
  Out.reserve(N * 4);
  for (size_t I = 0; I < N; ++I)
    append(Out, uint32_t(G()));
  return Out;
}

std::vector<uint8_t> zeros(size_t Bytes) { return std::vector<uint8_t>(Bytes); }

std::vector<uint8_t> pushU32(std::initializer_list<uint32_t> Vs) {
  std::vector<uint8_t> Out;
  for (uint32_t V : Vs)
    append(Out, V);
  return Out;
}

BenchCase makeCase(const char *Name, const char *File, const char *Kind) {
  BenchCase C;
  C.Name = Name;
  C.File = File;
  C.Kind = Kind;
  return C;
}

constexpr Compare Exact{Compare::ExactU32};
// Both sides may contract a*b+c into an FMA, or not; sums of products
// differ in the last bits.
constexpr Compare Arith{Compare::Float, 1e-5f, 1e-5f};
// Vulkan's precision for sin/cos/exp/log/pow/atan is a few ULP or an
// absolute 2^-11 near zero; implementations differ within that.
constexpr Compare Transcendental{Compare::Float, 1e-3f, 5e-4f};

} // namespace

std::vector<BenchCase> benchCases(unsigned Scale) {
  std::vector<BenchCase> Cases;
  const uint32_t N = (1u << 20) * Scale; // elements of the 1-D cases

  {
    BenchCase C = makeCase("saxpy", "saxpy.comp", "streaming");
    C.Buffers = {{0, randomF32(N, -1, 1, 1), {}},
                 {1, randomF32(N, -1, 1, 2), {}},
                 {2, zeros(N * 4), Arith}};
    append(C.Push, 2.5f);
    append(C.Push, N);
    C.Groups = {N / 64, 1, 1};
    C.Invocations = N;
    Cases.push_back(std::move(C));
  }
  {
    BenchCase C = makeCase("mandelbrot", "mandelbrot.comp", "divergent loop");
    uint32_t Side = 512 * (Scale == 1 ? 1 : 2);
    C.Buffers = {{0, zeros(size_t(Side) * Side * 4), Exact}};
    C.Push = pushU32({Side, Side, 256});
    C.Groups = {Side / 8, Side / 8, 1};
    C.Invocations = uint64_t(Side) * Side;
    Cases.push_back(std::move(C));
  }
  {
    BenchCase C = makeCase("transform", "transform.comp", "mat4 x vec4");
    C.Buffers = {{0, randomF32(64, -1, 1, 3), {}},
                 {1, randomF32(size_t(N) * 4, -10, 10, 4), {}},
                 {2, zeros(size_t(N) * 16), Arith}};
    C.Push = pushU32({N});
    C.Groups = {N / 64, 1, 1};
    C.Invocations = N;
    Cases.push_back(std::move(C));
  }
  {
    BenchCase C = makeCase("bits", "bits.comp", "integer bits");
    C.Buffers = {{0, randomU32(N, 5), {}}, {1, zeros(N * 4), Exact}};
    C.Push = pushU32({N});
    C.Groups = {N / 64, 1, 1};
    C.Invocations = N;
    Cases.push_back(std::move(C));
  }
  {
    BenchCase C = makeCase("reduce", "reduce.comp", "shared + barriers");
    uint32_t Groups = N / 1024;
    C.Buffers = {{0, randomF32(N, 0, 1, 6), {}},
                 {1, zeros(Groups * 4), Arith}};
    C.Groups = {Groups, 1, 1};
    C.Invocations = uint64_t(Groups) * 256;
    Cases.push_back(std::move(C));
  }
  {
    BenchCase C = makeCase("switch", "switch.comp", "branchy switch");
    C.Buffers = {{0, randomU32(N, 7), {}}, {1, zeros(N * 4), Exact}};
    C.Push = pushU32({N});
    C.Groups = {N / 64, 1, 1};
    C.Invocations = N;
    Cases.push_back(std::move(C));
  }
  {
    BenchCase C = makeCase("vote", "vote.comp", "subgroup-uniform loop");
    C.Buffers = {{0, randomU32(N, 11), {}}, {1, zeros(N * 4), Exact}};
    C.Push = pushU32({N});
    C.Groups = {N / 64, 1, 1};
    C.Invocations = N;
    Cases.push_back(std::move(C));
  }
  {
    BenchCase C = makeCase("transcendental", "transcendental.comp", "sin/exp/pow");
    C.Buffers = {{0, randomF32(N, 0, 1, 8), {}},
                 {1, zeros(size_t(N) * 16), Transcendental}};
    C.Push = pushU32({N});
    C.Groups = {N / 64, 1, 1};
    C.Invocations = N;
    Cases.push_back(std::move(C));
  }
  {
    BenchCase C = makeCase("matmul", "matmul.comp", "tiled, shared");
    uint32_t Side = 256 * Scale;
    size_t Elems = size_t(Side) * Side;
    C.Buffers = {{0, randomF32(Elems, -1, 1, 9), {}},
                 {1, randomF32(Elems, -1, 1, 10), {}},
                 {2, zeros(Elems * 4), Compare{Compare::Float, 1e-4f, 1e-4f}}};
    C.Push = pushU32({Side});
    C.Groups = {Side / 16, Side / 16, 1};
    C.Invocations = Elems;
    Cases.push_back(std::move(C));
  }
  return Cases;
}

std::string compareBuffers(const Compare &C, const std::vector<uint8_t> &Got,
                           const std::vector<uint8_t> &Want) {
  if (Got.size() != Want.size())
    return "sizes differ";
  size_t Bad = 0, First = 0;
  std::string FirstMsg;
  for (size_t I = 0; I + 4 <= Got.size(); I += 4) {
    bool Ok;
    std::string Msg;
    if (C.K == Compare::ExactU32) {
      uint32_t G, W;
      std::memcpy(&G, &Got[I], 4);
      std::memcpy(&W, &Want[I], 4);
      Ok = G == W;
      if (!Ok)
        Msg = std::to_string(G) + " vs " + std::to_string(W);
    } else {
      float G, W;
      std::memcpy(&G, &Got[I], 4);
      std::memcpy(&W, &Want[I], 4);
      Ok = std::fabs(G - W) <= std::max(C.AbsTol, C.RelTol * std::fabs(W));
      if (!Ok)
        Msg = std::to_string(G) + " vs " + std::to_string(W);
    }
    if (!Ok && Bad++ == 0) {
      First = I / 4;
      FirstMsg = Msg;
    }
  }
  if (!Bad)
    return "";
  return std::to_string(Bad) + " differ, first [" + std::to_string(First) +
         "]: " + FirstMsg;
}

} // namespace spirv2llvm::bench
