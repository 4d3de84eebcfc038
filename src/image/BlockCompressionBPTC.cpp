//===- image/BlockCompressionBPTC.cpp - BC6H and BC7 decoding -------------===//
//
// BC7 as the Khronos Data Format Specification 1.3 defines it ("BPTC
// Compressed Texture Image Formats"): the mode is the position of the
// first set bit; then partition, rotation, index-selection bits, endpoints
// (all R, then G, B, A), P-bits, and the index fields where each subset's
// anchor texel has one bit fewer. Everything is integer arithmetic, so the
// result is exact (lavapipe agrees bit for bit; ImageFormatLavapipeTest).
//
// BC6H (decodeBC6H) follows the same specification: the mode's bit layout
// (a table of fields below), sign extension and delta transform of the
// endpoints, unquantization to 16 bits, BC7's weights and partitions, and
// the final scaling to half-float bits.
//
//===----------------------------------------------------------------------===//
#include "image/BlockDecoders.h"

#include <utility>

namespace spirv2llvm::image {

namespace {

struct ModeInfo {
  uint8_t Subsets, PartitionBits, RotationBits, IndexSelectionBits;
  uint8_t ColorBits, AlphaBits, EndpointPBits, SharedPBits;
  uint8_t IndexBits, SecondaryIndexBits;
};

constexpr ModeInfo Modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
    {3, 6, 0, 0, 5, 0, 0, 0, 2, 0}, {2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
    {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0}};

// clang-format off
/// Two-subset partitions: bit i set when texel i is in subset 1.
constexpr uint16_t Partitions2[64] = {
    0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80,
    0xc800, 0xffec, 0xfe80, 0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000,
    0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310, 0x3100, 0x8cce,
    0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c,
    0xaaaa, 0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a,
    0x73ce, 0x13c8, 0x324c, 0x3bdc, 0x6996, 0xc33c, 0x9966, 0x0660,
    0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6, 0x639c,
    0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22};

/// Three-subset partitions: texel i's subset, row-major.
constexpr uint8_t Partitions3[64][16] = {
    {0, 0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 1, 2, 2, 2, 2},
    {0, 0, 0, 1, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 2, 1},
    {0, 0, 0, 0, 2, 0, 0, 1, 2, 2, 1, 1, 2, 2, 1, 1},
    {0, 2, 2, 2, 0, 0, 2, 2, 0, 0, 1, 1, 0, 1, 1, 1},
    {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2},
    {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 2, 2},
    {0, 0, 2, 2, 0, 0, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1},
    {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1},
    {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2},
    {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2},
    {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2},
    {0, 0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2},
    {0, 1, 1, 2, 0, 1, 1, 2, 0, 1, 1, 2, 0, 1, 1, 2},
    {0, 1, 2, 2, 0, 1, 2, 2, 0, 1, 2, 2, 0, 1, 2, 2},
    {0, 0, 1, 1, 0, 1, 1, 2, 1, 1, 2, 2, 1, 2, 2, 2},
    {0, 0, 1, 1, 2, 0, 0, 1, 2, 2, 0, 0, 2, 2, 2, 0},
    {0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 1, 2, 1, 1, 2, 2},
    {0, 1, 1, 1, 0, 0, 1, 1, 2, 0, 0, 1, 2, 2, 0, 0},
    {0, 0, 0, 0, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2},
    {0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 1, 1, 1, 1},
    {0, 1, 1, 1, 0, 1, 1, 1, 0, 2, 2, 2, 0, 2, 2, 2},
    {0, 0, 0, 1, 0, 0, 0, 1, 2, 2, 2, 1, 2, 2, 2, 1},
    {0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 2, 2, 0, 1, 2, 2},
    {0, 0, 0, 0, 1, 1, 0, 0, 2, 2, 1, 0, 2, 2, 1, 0},
    {0, 1, 2, 2, 0, 1, 2, 2, 0, 0, 1, 1, 0, 0, 0, 0},
    {0, 0, 1, 2, 0, 0, 1, 2, 1, 1, 2, 2, 2, 2, 2, 2},
    {0, 1, 1, 0, 1, 2, 2, 1, 1, 2, 2, 1, 0, 1, 1, 0},
    {0, 0, 0, 0, 0, 1, 1, 0, 1, 2, 2, 1, 1, 2, 2, 1},
    {0, 0, 2, 2, 1, 1, 0, 2, 1, 1, 0, 2, 0, 0, 2, 2},
    {0, 1, 1, 0, 0, 1, 1, 0, 2, 0, 0, 2, 2, 2, 2, 2},
    {0, 0, 1, 1, 0, 1, 2, 2, 0, 1, 2, 2, 0, 0, 1, 1},
    {0, 0, 0, 0, 2, 0, 0, 0, 2, 2, 1, 1, 2, 2, 2, 1},
    {0, 0, 0, 0, 0, 0, 0, 2, 1, 1, 2, 2, 1, 2, 2, 2},
    {0, 2, 2, 2, 0, 0, 2, 2, 0, 0, 1, 2, 0, 0, 1, 1},
    {0, 0, 1, 1, 0, 0, 1, 2, 0, 0, 2, 2, 0, 2, 2, 2},
    {0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0},
    {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0},
    {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0},
    {0, 1, 2, 0, 2, 0, 1, 2, 1, 2, 0, 1, 0, 1, 2, 0},
    {0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1},
    {0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1},
    {0, 1, 0, 1, 0, 1, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2},
    {0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1},
    {0, 0, 2, 2, 1, 1, 2, 2, 0, 0, 2, 2, 1, 1, 2, 2},
    {0, 0, 2, 2, 0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 1, 1},
    {0, 2, 2, 0, 1, 2, 2, 1, 0, 2, 2, 0, 1, 2, 2, 1},
    {0, 1, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 0, 1, 0, 1},
    {0, 0, 0, 0, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1},
    {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 2, 2, 2},
    {0, 2, 2, 2, 0, 1, 1, 1, 0, 2, 2, 2, 0, 1, 1, 1},
    {0, 0, 0, 2, 1, 1, 1, 2, 0, 0, 0, 2, 1, 1, 1, 2},
    {0, 0, 0, 0, 2, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2},
    {0, 2, 2, 2, 0, 1, 1, 1, 0, 1, 1, 1, 0, 2, 2, 2},
    {0, 0, 0, 2, 1, 1, 1, 2, 1, 1, 1, 2, 0, 0, 0, 2},
    {0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 2, 2},
    {0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1, 2, 2, 1, 1, 2},
    {0, 1, 1, 0, 0, 1, 1, 0, 2, 2, 2, 2, 2, 2, 2, 2},
    {0, 0, 2, 2, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 2, 2},
    {0, 0, 2, 2, 1, 1, 2, 2, 1, 1, 2, 2, 0, 0, 2, 2},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1, 2},
    {0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1},
    {0, 2, 2, 2, 1, 2, 2, 2, 0, 2, 2, 2, 1, 2, 2, 2},
    {0, 1, 0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2},
    {0, 1, 1, 1, 2, 0, 1, 1, 2, 2, 0, 1, 2, 2, 2, 0}};

/// Anchor texels: of subset 1 in two-subset partitions, and of subsets 1
/// and 2 in three-subset partitions (subset 0's is always texel 0).
constexpr uint8_t Anchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 2,  8,  2,  2,  8,  8,  15, 2,  8,  2,  2,  8,  8,  2,  2,
    15, 15, 6,  8,  2,  8,  15, 15, 2,  8,  2,  2,  2,  15, 15, 6,
    6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2,  15};
constexpr uint8_t Anchor3a[64] = {
    3,  3,  15, 15, 8,  3,  15, 15, 8,  8,  6,  6,  6,  5,  3,  3,
    3,  3,  8,  15, 3,  3,  6,  10, 5,  8,  8,  6,  8,  5,  15, 15,
    8,  15, 3,  5,  6,  10, 8,  15, 15, 3,  15, 5,  15, 15, 15, 15,
    3,  15, 5,  5,  5,  8,  5,  10, 5,  10, 8,  13, 15, 12, 3,  3};
constexpr uint8_t Anchor3b[64] = {
    15, 8,  8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,
    15, 8,  15, 3,  15, 8,  15, 8,  3,  15, 6,  10, 15, 15, 10, 8,
    15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15, 3,  6,  6,  8,
    15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8};

// clang-format on

// The anchor of a subset is one of its texels (a typo in the tables above
// would most likely break this).
constexpr bool anchorsAreInTheirSubsets() {
  for (int P = 0; P < 64; ++P)
    if (!((Partitions2[P] >> Anchor2[P]) & 1) ||
        Partitions3[P][Anchor3a[P]] != 1 || Partitions3[P][Anchor3b[P]] != 2)
      return false;
  return true;
}
static_assert(anchorsAreInTheirSubsets(), "BC7 anchor tables");

constexpr uint8_t Weights2[4] = {0, 21, 43, 64};
constexpr uint8_t Weights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t Weights4[16] = {0,  4,  9,  13, 17, 21, 26, 30,
                                  34, 38, 43, 47, 51, 55, 60, 64};

/// Reads the block's bits from the least significant bit of byte 0 up.
struct BitReader {
  const uint8_t *P;
  unsigned Pos = 0;
  uint32_t read(unsigned N) {
    uint32_t V = 0;
    for (unsigned I = 0; I < N; ++I, ++Pos)
      V |= uint32_t((P[Pos / 8] >> (Pos % 8)) & 1) << I;
    return V;
  }
};

unsigned subsetOf(const ModeInfo &M, unsigned Partition, unsigned Texel) {
  if (M.Subsets == 2)
    return (Partitions2[Partition] >> Texel) & 1;
  if (M.Subsets == 3)
    return Partitions3[Partition][Texel];
  return 0;
}

bool isAnchor(const ModeInfo &M, unsigned Partition, unsigned Texel) {
  if (Texel == 0)
    return true;
  if (M.Subsets == 2)
    return Texel == Anchor2[Partition];
  if (M.Subsets == 3)
    return Texel == Anchor3a[Partition] || Texel == Anchor3b[Partition];
  return false;
}

uint32_t interpolate(uint32_t E0, uint32_t E1, unsigned IndexBits,
                     uint32_t Index) {
  uint32_t W = IndexBits == 2   ? Weights2[Index]
               : IndexBits == 3 ? Weights3[Index]
                                : Weights4[Index];
  return ((64 - W) * E0 + W * E1 + 32) >> 6;
}

/// Expands an endpoint of N bits (P-bit included) to 8 by bit replication.
uint32_t expand(uint32_t V, unsigned N) {
  V <<= 8 - N;
  return V | (V >> N);
}

} // namespace

void decodeBC7(const uint8_t *Block, std::span<Float4> Out) {
  unsigned Mode = 0;
  while (Mode < 8 && !((Block[0] >> Mode) & 1))
    ++Mode;
  if (Mode == 8) { // Reserved: transparent black.
    for (Float4 &T : Out.first(16))
      T = {0, 0, 0, 0};
    return;
  }
  const ModeInfo &M = Modes[Mode];
  BitReader R{Block, Mode + 1};
  unsigned Partition = R.read(M.PartitionBits);
  unsigned Rotation = R.read(M.RotationBits);
  unsigned IndexSelection = R.read(M.IndexSelectionBits);
  // Endpoints[subset * 2 + end][channel].
  uint32_t E[6][4] = {};
  unsigned NumEnds = M.Subsets * 2;
  for (unsigned C = 0; C < 3; ++C)
    for (unsigned I = 0; I < NumEnds; ++I)
      E[I][C] = R.read(M.ColorBits);
  for (unsigned I = 0; I < NumEnds; ++I)
    E[I][3] = M.AlphaBits ? R.read(M.AlphaBits) : 255;
  unsigned ColorBits = M.ColorBits, AlphaBits = M.AlphaBits;
  if (M.EndpointPBits || M.SharedPBits) {
    uint32_t P[6];
    for (unsigned I = 0; I < NumEnds; ++I)
      P[I] = M.EndpointPBits ? R.read(1) : (I % 2 == 0 ? R.read(1) : P[I - 1]);
    for (unsigned I = 0; I < NumEnds; ++I) {
      for (unsigned C = 0; C < 3; ++C)
        E[I][C] = E[I][C] << 1 | P[I];
      if (M.AlphaBits)
        E[I][3] = E[I][3] << 1 | P[I];
    }
    ++ColorBits;
    if (AlphaBits)
      ++AlphaBits;
  }
  for (unsigned I = 0; I < NumEnds; ++I) {
    for (unsigned C = 0; C < 3; ++C)
      E[I][C] = expand(E[I][C], ColorBits);
    if (AlphaBits)
      E[I][3] = expand(E[I][3], AlphaBits);
  }
  uint32_t Primary[16], Secondary[16] = {};
  for (unsigned T = 0; T < 16; ++T)
    Primary[T] = R.read(M.IndexBits - (isAnchor(M, Partition, T) ? 1 : 0));
  if (M.SecondaryIndexBits)
    for (unsigned T = 0; T < 16; ++T)
      Secondary[T] = R.read(M.SecondaryIndexBits - (T == 0 ? 1 : 0));

  for (unsigned T = 0; T < 16; ++T) {
    unsigned S = subsetOf(M, Partition, T);
    const uint32_t *E0 = E[2 * S], *E1 = E[2 * S + 1];
    uint32_t Texel[4];
    if (M.SecondaryIndexBits) {
      // Modes 4 and 5: colour and alpha have their own indices; the
      // index-selection bit swaps which set is which.
      unsigned CBits = M.IndexBits, ABits = M.SecondaryIndexBits;
      uint32_t CI = Primary[T], AI = Secondary[T];
      if (IndexSelection) {
        std::swap(CBits, ABits);
        std::swap(CI, AI);
      }
      for (unsigned C = 0; C < 3; ++C)
        Texel[C] = interpolate(E0[C], E1[C], CBits, CI);
      Texel[3] = interpolate(E0[3], E1[3], ABits, AI);
    } else {
      for (unsigned C = 0; C < 4; ++C)
        Texel[C] = interpolate(E0[C], E1[C], M.IndexBits, Primary[T]);
    }
    if (Rotation) // 1, 2, 3: swap alpha with red, green, blue.
      std::swap(Texel[3], Texel[Rotation - 1]);
    for (unsigned C = 0; C < 4; ++C)
      Out[T][C] = unormToFloat(Texel[C], 8);
  }
}

namespace {

// BC6H: 14 modes. Each mode's header is a list of fields in stream order;
// field {F, A, B} is the doc's "x[A:B]": bits B, B±1, ..., A of value F,
// read one at a time (so "r0[10:15]" of modes 13 and 14 fills bit 15
// first). F is 3 * endpoint + channel (endpoint 0..3 = w, x, y, z of the
// format specification's table; channel r, g, b), or 12 for the partition.
struct BC6Field {
  uint8_t Value, A, B;
};

struct BC6Mode {
  uint8_t Regions;  // 2 (partitioned, 3-bit indices) or 1 (4-bit)
  bool Transformed; // endpoints after the first are deltas
  uint8_t EndpointBits;
  uint8_t DeltaBits[3];
};

// Modes 1..14 of the format specification, indexed from 0.
constexpr BC6Mode BC6Modes[14] = {
    {2, true, 10, {5, 5, 5}},     {2, true, 7, {6, 6, 6}},
    {2, true, 11, {5, 4, 4}},     {2, true, 11, {4, 5, 4}},
    {2, true, 11, {4, 4, 5}},     {2, true, 9, {5, 5, 5}},
    {2, true, 8, {6, 5, 5}},      {2, true, 8, {5, 6, 5}},
    {2, true, 8, {5, 5, 6}},      {2, false, 6, {6, 6, 6}},
    {1, false, 10, {10, 10, 10}}, {1, true, 11, {9, 9, 9}},
    {1, true, 12, {8, 8, 8}},     {1, true, 16, {4, 4, 4}}};

// clang-format off
constexpr BC6Field BC6Fields[14][24] = {
    // Mode 1
    {{7, 4, 4}, {8, 4, 4}, {11, 4, 4}, {0, 9, 0}, {1, 9, 0}, {2, 9, 0},
     {3, 4, 0}, {10, 4, 4}, {7, 3, 0}, {4, 4, 0}, {11, 0, 0}, {10, 3, 0},
     {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0},
     {11, 3, 3}, {12, 4, 0}},
    // Mode 2
    {{7, 5, 5}, {10, 4, 4}, {10, 5, 5}, {0, 6, 0}, {11, 0, 0}, {11, 1, 1},
     {8, 4, 4}, {1, 6, 0}, {8, 5, 5}, {11, 2, 2}, {7, 4, 4}, {2, 6, 0},
     {11, 3, 3}, {11, 5, 5}, {11, 4, 4}, {3, 5, 0}, {7, 3, 0}, {4, 5, 0},
     {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 5, 0}, {9, 5, 0}, {12, 4, 0}},
    // Mode 3
    {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 4, 0}, {0, 10, 10}, {7, 3, 0},
     {4, 3, 0}, {1, 10, 10}, {11, 0, 0}, {10, 3, 0}, {5, 3, 0}, {2, 10, 10},
     {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0}, {11, 3, 3},
     {12, 4, 0}},
    // Mode 4
    {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 10}, {10, 4, 4},
     {7, 3, 0}, {4, 4, 0}, {1, 10, 10}, {10, 3, 0}, {5, 3, 0}, {2, 10, 10},
     {11, 1, 1}, {8, 3, 0}, {6, 3, 0}, {11, 0, 0}, {11, 2, 2}, {9, 3, 0},
     {7, 4, 4}, {11, 3, 3}, {12, 4, 0}},
    // Mode 5
    {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 10}, {8, 4, 4},
     {7, 3, 0}, {4, 3, 0}, {1, 10, 10}, {11, 0, 0}, {10, 3, 0}, {5, 4, 0},
     {2, 10, 10}, {8, 3, 0}, {6, 3, 0}, {11, 1, 1}, {11, 2, 2}, {9, 3, 0},
     {11, 4, 4}, {11, 3, 3}, {12, 4, 0}},
    // Mode 6
    {{0, 8, 0}, {8, 4, 4}, {1, 8, 0}, {7, 4, 4}, {2, 8, 0}, {11, 4, 4},
     {3, 4, 0}, {10, 4, 4}, {7, 3, 0}, {4, 4, 0}, {11, 0, 0}, {10, 3, 0},
     {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0}, {11, 2, 2}, {9, 4, 0},
     {11, 3, 3}, {12, 4, 0}},
    // Mode 7
    {{0, 7, 0}, {10, 4, 4}, {8, 4, 4}, {1, 7, 0}, {11, 2, 2}, {7, 4, 4},
     {2, 7, 0}, {11, 3, 3}, {11, 4, 4}, {3, 5, 0}, {7, 3, 0}, {4, 4, 0},
     {11, 0, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 5, 0},
     {9, 5, 0}, {12, 4, 0}},
    // Mode 8
    {{0, 7, 0}, {11, 0, 0}, {8, 4, 4}, {1, 7, 0}, {7, 5, 5}, {7, 4, 4},
     {2, 7, 0}, {10, 5, 5}, {11, 4, 4}, {3, 4, 0}, {10, 4, 4}, {7, 3, 0},
     {4, 5, 0}, {10, 3, 0}, {5, 4, 0}, {11, 1, 1}, {8, 3, 0}, {6, 4, 0},
     {11, 2, 2}, {9, 4, 0}, {11, 3, 3}, {12, 4, 0}},
    // Mode 9
    {{0, 7, 0}, {11, 1, 1}, {8, 4, 4}, {1, 7, 0}, {8, 5, 5}, {7, 4, 4},
     {2, 7, 0}, {11, 5, 5}, {11, 4, 4}, {3, 4, 0}, {10, 4, 4}, {7, 3, 0},
     {4, 4, 0}, {11, 0, 0}, {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 4, 0},
     {11, 2, 2}, {9, 4, 0}, {11, 3, 3}, {12, 4, 0}},
    // Mode 10
    {{0, 5, 0}, {10, 4, 4}, {11, 0, 0}, {11, 1, 1}, {8, 4, 4}, {1, 5, 0},
     {7, 5, 5}, {8, 5, 5}, {11, 2, 2}, {7, 4, 4}, {2, 5, 0}, {10, 5, 5},
     {11, 3, 3}, {11, 5, 5}, {11, 4, 4}, {3, 5, 0}, {7, 3, 0}, {4, 5, 0},
     {10, 3, 0}, {5, 5, 0}, {8, 3, 0}, {6, 5, 0}, {9, 5, 0}, {12, 4, 0}},
    // Mode 11
    {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 9, 0}, {4, 9, 0}, {5, 9, 0}},
    // Mode 12
    {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 8, 0}, {0, 10, 10}, {4, 8, 0},
     {1, 10, 10}, {5, 8, 0}, {2, 10, 10}},
    // Mode 13
    {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 7, 0}, {0, 10, 11}, {4, 7, 0},
     {1, 10, 11}, {5, 7, 0}, {2, 10, 11}},
    // Mode 14
    {{0, 9, 0}, {1, 9, 0}, {2, 9, 0}, {3, 3, 0}, {0, 10, 15}, {4, 3, 0},
     {1, 10, 15}, {5, 3, 0}, {2, 10, 15}},
};
// clang-format on

int32_t signExtend(uint32_t V, unsigned Bits) {
  uint32_t Sign = 1u << (Bits - 1);
  return int32_t((V & ((1u << Bits) - 1)) ^ Sign) - int32_t(Sign);
}

int32_t unquantize(int32_t V, unsigned Bits, bool Signed) {
  if (!Signed) {
    if (Bits >= 15)
      return V;
    if (V == 0)
      return 0;
    if (V == int32_t((1u << Bits) - 1))
      return 0xffff;
    return ((V << 16) + 0x8000) >> Bits;
  }
  if (Bits >= 16)
    return V;
  bool Negative = V < 0;
  int32_t A = Negative ? -V : V;
  int32_t U;
  if (A == 0)
    U = 0;
  else if (A >= int32_t((1u << (Bits - 1)) - 1))
    U = 0x7fff;
  else
    U = ((A << 15) + 0x4000) >> (Bits - 1);
  return Negative ? -U : U;
}

/// The interpolated value scaled to a half's bits (the format
/// specification's "finish_unquantize").
uint16_t finishUnquantize(int32_t V, bool Signed) {
  if (!Signed)
    return uint16_t((V * 31) >> 6);
  if (V < 0)
    return uint16_t(0x8000 | (((-V) * 31) >> 5));
  return uint16_t((V * 31) >> 5);
}

/// The mode index 0..13 of a block, or -1 for the reserved modes.
int bc6Mode(const uint8_t *Block) {
  unsigned Low2 = Block[0] & 3;
  if (Low2 < 2)
    return int(Low2);
  static constexpr int8_t Five[32] = {
      -1, -1, 2, 10, -1, -1, 3, 11, -1, -1, 4, 12, -1, -1, 5, 13,
      -1, -1, 6, -1, -1, -1, 7, -1, -1, -1, 8, -1, -1, -1, 9, -1};
  return Five[Block[0] & 31];
}

} // namespace

void decodeBC6H(const uint8_t *Block, bool Signed, std::span<Float4> Out) {
  int ModeIndex = bc6Mode(Block);
  if (ModeIndex < 0) { // Reserved: black (alpha stays 1).
    for (Float4 &T : Out.first(16))
      T = {0, 0, 0, 1};
    return;
  }
  const BC6Mode &M = BC6Modes[ModeIndex];
  BitReader R{Block, ModeIndex < 2 ? 2u : 5u};
  uint32_t Raw[13] = {};
  for (const BC6Field &F : BC6Fields[ModeIndex]) {
    if (F.A == 0 && F.B == 0 && F.Value == 0)
      break; // The padding after the last field (r0[0] alone never occurs).
    int Step = F.A >= F.B ? 1 : -1;
    for (int Bit = F.B;; Bit += Step) {
      Raw[F.Value] |= R.read(1) << Bit;
      if (Bit == F.A)
        break;
    }
  }
  unsigned Partition = Raw[12];
  unsigned NumEnds = M.Regions * 2;
  int32_t E[4][3];
  for (unsigned C = 0; C < 3; ++C) {
    uint32_t Mask = (1u << M.EndpointBits) - 1;
    int32_t Base =
        Signed ? signExtend(Raw[C], M.EndpointBits) : int32_t(Raw[C]);
    E[0][C] = Base;
    for (unsigned I = 1; I < NumEnds; ++I) {
      uint32_t V = Raw[3 * I + C];
      if (M.Transformed) {
        int32_t Delta = signExtend(V, M.DeltaBits[C]);
        uint32_t Sum = uint32_t(Base + Delta) & Mask;
        E[I][C] = Signed ? signExtend(Sum, M.EndpointBits) : int32_t(Sum);
      } else {
        E[I][C] = Signed ? signExtend(V, M.EndpointBits) : int32_t(V);
      }
    }
    for (unsigned I = 0; I < NumEnds; ++I)
      E[I][C] = unquantize(E[I][C], M.EndpointBits, Signed);
  }
  unsigned IndexBits = M.Regions == 2 ? 3 : 4;
  for (unsigned T = 0; T < 16; ++T) {
    bool Anchor = T == 0 || (M.Regions == 2 && T == Anchor2[Partition]);
    uint32_t Index = R.read(IndexBits - (Anchor ? 1 : 0));
    unsigned S = M.Regions == 2 ? (Partitions2[Partition] >> T) & 1 : 0;
    uint32_t W = IndexBits == 3 ? Weights3[Index] : Weights4[Index];
    for (unsigned C = 0; C < 3; ++C) {
      int32_t V =
          (E[2 * S][C] * int32_t(64 - W) + E[2 * S + 1][C] * int32_t(W) + 32) >>
          6;
      Out[T][C] = halfToFloat(finishUnquantize(V, Signed));
    }
    Out[T][3] = 1.0f;
  }
}

} // namespace spirv2llvm::image
