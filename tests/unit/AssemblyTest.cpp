//===- AssemblyTest.cpp - Index reading and primitive assembly ------------===//
//
// readIndices and assemble against hand-worked expectations from Vulkan
// 1.3 "Drawing Commands" and "Primitive Topologies" (the table at the top
// of src/graphics/Assembly.cpp): each topology in both provoking-vertex
// modes, restarts in strips, fans and lists, 8/16/32-bit indices with a
// vertex offset, and index ranges beyond the buffer.
//
//===----------------------------------------------------------------------===//
#include "graphics/Assembly.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace spirv2llvm;
using namespace spirv2llvm::graphics;

namespace {

constexpr uint32_t R = RestartIndex;

/// A primitive as "p0 p1 p2 /k" (k: the provoking position), for readable
/// comparisons.
std::string str(const std::vector<Primitive> &Ps) {
  std::string S;
  for (const Primitive &P : Ps) {
    if (!S.empty())
      S += ", ";
    for (unsigned I = 0; I < P.N; ++I) {
      S += std::to_string(P.V[I]);
      S += ' ';
    }
    S += '/';
    S += std::to_string(P.Provoking);
  }
  return S;
}

std::string assembled(PrimitiveTopology T, bool First,
                      const std::vector<uint32_t> &Indices) {
  std::vector<Primitive> Out = {{{9, 9, 9}, 3, 0}}; // replaced, not kept
  assemble(T, First, Indices, Out);
  for (const Primitive &P : Out)
    EXPECT_LT(P.Provoking, P.N);
  return str(Out);
}

std::vector<uint32_t> iota(uint32_t N) {
  std::vector<uint32_t> V(N);
  for (uint32_t I = 0; I < N; ++I)
    V[I] = 100 + I; // values differ from positions
  return V;
}

TEST(Assembly, PointList) {
  EXPECT_EQ(assembled(PrimitiveTopology::PointList, true, iota(3)),
            "0 /0, 1 /0, 2 /0");
  EXPECT_EQ(assembled(PrimitiveTopology::PointList, false, {7, R, 8}),
            "0 /0, 2 /0");
}

TEST(Assembly, LineList) {
  // Five vertices: the fifth is an incomplete line, dropped.
  EXPECT_EQ(assembled(PrimitiveTopology::LineList, true, iota(5)),
            "0 1 /0, 2 3 /0");
  EXPECT_EQ(assembled(PrimitiveTopology::LineList, false, iota(5)),
            "0 1 /1, 2 3 /1");
}

TEST(Assembly, LineStrip) {
  EXPECT_EQ(assembled(PrimitiveTopology::LineStrip, true, iota(4)),
            "0 1 /0, 1 2 /0, 2 3 /0");
  EXPECT_EQ(assembled(PrimitiveTopology::LineStrip, false, iota(4)),
            "0 1 /1, 1 2 /1, 2 3 /1");
  EXPECT_EQ(assembled(PrimitiveTopology::LineStrip, true, iota(1)), "");
}

TEST(Assembly, TriangleList) {
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleList, true, iota(8)),
            "0 1 2 /0, 3 4 5 /0");
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleList, false, iota(6)),
            "0 1 2 /2, 3 4 5 /2");
}

TEST(Assembly, TriangleStripOrderAndProvoking) {
  // Triangle i: (i, i+1+i%2, i+2-i%2); last mode provokes with v_i+2,
  // the second vertex of odd triangles.
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleStrip, true, iota(6)),
            "0 1 2 /0, 1 3 2 /0, 2 3 4 /0, 3 5 4 /0");
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleStrip, false, iota(6)),
            "0 1 2 /2, 1 3 2 /1, 2 3 4 /2, 3 5 4 /1");
  std::vector<Primitive> Out;
  assemble(PrimitiveTopology::TriangleStrip, false, iota(6), Out);
  for (uint32_t I = 0; I < Out.size(); ++I)
    EXPECT_EQ(Out[I].V[Out[I].Provoking], I + 2) << "triangle " << I;
}

TEST(Assembly, TriangleStripKeepsWinding) {
  // A zig-zag strip over a row of quads (vertex i at (i/2, i%2)): every
  // triangle the spec's order gives has the winding of the first.
  std::vector<uint32_t> Indices = iota(12);
  std::vector<Primitive> Out;
  assemble(PrimitiveTopology::TriangleStrip, true, Indices, Out);
  ASSERT_EQ(Out.size(), 10u);
  auto Area = [](const Primitive &P) {
    auto X = [&](unsigned K) { return double(P.V[K] / 2); };
    auto Y = [&](unsigned K) { return double(P.V[K] % 2); };
    return (X(1) - X(0)) * (Y(2) - Y(0)) - (X(2) - X(0)) * (Y(1) - Y(0));
  };
  double First = Area(Out[0]);
  ASSERT_NE(First, 0);
  for (const Primitive &P : Out)
    EXPECT_GT(Area(P) * First, 0) << str({P});
}

TEST(Assembly, TriangleFan) {
  // Triangle i: (i+1, i+2, 0); provoking v_i+1 first, v_i+2 last.
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleFan, true, iota(5)),
            "1 2 0 /0, 2 3 0 /0, 3 4 0 /0");
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleFan, false, iota(5)),
            "1 2 0 /1, 2 3 0 /1, 3 4 0 /1");
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleFan, true, iota(2)), "");
}

TEST(Assembly, RestartEndsAStrip) {
  // The strip after the restart starts at position 5, even again: its
  // first triangle is not swapped.
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleStrip, true,
                      {0, 1, 2, 3, R, 4, 5, 6, 7}),
            "0 1 2 /0, 1 3 2 /0, 5 6 7 /0, 6 8 7 /0");
  // Leading, doubled and trailing restarts; a two-vertex strip makes
  // nothing.
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleStrip, false,
                      {R, R, 0, 1, 2, R, 3, 4, R}),
            "2 3 4 /2");
  EXPECT_EQ(
      assembled(PrimitiveTopology::LineStrip, true, {0, 1, R, 2, R, 3, 4}),
      "0 1 /0, 5 6 /0");
}

TEST(Assembly, RestartStartsANewFanCentre) {
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleFan, true,
                      {10, 11, 12, 13, R, 20, 21, 22, 23}),
            "1 2 0 /0, 2 3 0 /0, 6 7 5 /0, 7 8 5 /0");
}

TEST(Assembly, RestartInListsDropsTheIncompletePrimitive) {
  EXPECT_EQ(assembled(PrimitiveTopology::TriangleList, true,
                      {0, 1, 2, 3, 4, R, 5, 6, 7, 8}),
            "0 1 2 /0, 6 7 8 /0");
  EXPECT_EQ(assembled(PrimitiveTopology::LineList, false, {0, R, 1, 2, 3}),
            "2 3 /1");
}

TEST(Assembly, UnknownTopologyGivesNothing) {
  EXPECT_EQ(assembled(PrimitiveTopology(6), true, iota(9)), "");
  EXPECT_EQ(verticesPerPrimitive(PrimitiveTopology(6)), 0u);
}

// --- readIndices ----------------------------------------------------------

std::vector<uint32_t> read(const DrawResources &Res, const DrawCommand &Cmd,
                           bool Restart) {
  std::vector<uint32_t> Out = {42}; // replaced
  Status S = readIndices(Res, Cmd, Restart, Out);
  EXPECT_TRUE(S.ok()) << S.message();
  return Out;
}

TEST(ReadIndices, NonIndexedCountsFromFirstAndWraps) {
  DrawResources Res;
  DrawCommand Cmd;
  Cmd.Count = 4;
  Cmd.First = 5;
  EXPECT_EQ(read(Res, Cmd, true), (std::vector<uint32_t>{5, 6, 7, 8}));
  Cmd.Count = 3;
  Cmd.First = 0xfffffffe;
  // Restart never applies to non-indexed draws.
  EXPECT_EQ(read(Res, Cmd, true),
            (std::vector<uint32_t>{0xfffffffe, 0xffffffff, 0}));
  Cmd.Count = 0;
  EXPECT_EQ(read(Res, Cmd, false), (std::vector<uint32_t>{}));
}

TEST(ReadIndices, EightBit) {
  const uint8_t Data[] = {9, 3, 0xff, 7, 0};
  DrawResources Res;
  Res.IndexData = Data;
  Res.IndexSize = sizeof(Data);
  Res.Index = IndexType::UInt8;
  DrawCommand Cmd;
  Cmd.Indexed = true;
  Cmd.First = 1;
  Cmd.Count = 4;
  Cmd.VertexOffset = -2;
  EXPECT_EQ(read(Res, Cmd, true), (std::vector<uint32_t>{1, R, 5, 0xfffffffe}));
  EXPECT_EQ(read(Res, Cmd, false),
            (std::vector<uint32_t>{1, 253, 5, 0xfffffffe}));
}

TEST(ReadIndices, SixteenBitUnaligned) {
  // Little-endian 16-bit indices at an odd address: 0, 1, 0xffff, 0x1234.
  uint8_t Buf[9] = {0xee, 0, 0, 1, 0, 0xff, 0xff, 0x34, 0x12};
  DrawResources Res;
  Res.IndexData = Buf + 1;
  Res.IndexSize = 8;
  Res.Index = IndexType::UInt16;
  DrawCommand Cmd;
  Cmd.Indexed = true;
  Cmd.Count = 4;
  Cmd.VertexOffset = 10;
  EXPECT_EQ(read(Res, Cmd, true), (std::vector<uint32_t>{10, 11, R, 0x123e}));
  // Without restart 0xffff is an ordinary index (plus the offset).
  EXPECT_EQ(read(Res, Cmd, false),
            (std::vector<uint32_t>{10, 11, 0x10009, 0x123e}));
}

TEST(ReadIndices, ThirtyTwoBit) {
  const uint32_t Data[] = {2, 0xffffffffu, 5, 0};
  DrawResources Res;
  Res.IndexData = Data;
  Res.IndexSize = sizeof(Data);
  Res.Index = IndexType::UInt32;
  DrawCommand Cmd;
  Cmd.Indexed = true;
  Cmd.Count = 4;
  Cmd.VertexOffset = -1;
  EXPECT_EQ(read(Res, Cmd, true),
            (std::vector<uint32_t>{1, R, 4, 0xffffffffu}));
  EXPECT_EQ(read(Res, Cmd, false),
            (std::vector<uint32_t>{1, 0xfffffffeu, 4, 0xffffffffu}));
  Cmd.First = 2;
  Cmd.Count = 2;
  Cmd.VertexOffset = 0x7fffffff;
  EXPECT_EQ(read(Res, Cmd, false),
            (std::vector<uint32_t>{0x80000004u, 0x7fffffffu}));
}

TEST(ReadIndices, RangeBeyondTheBufferIsAnError) {
  const uint16_t Data[] = {0, 1, 2, 3};
  DrawResources Res;
  Res.IndexData = Data;
  Res.IndexSize = sizeof(Data);
  Res.Index = IndexType::UInt16;
  DrawCommand Cmd;
  Cmd.Indexed = true;
  Cmd.First = 1;
  Cmd.Count = 3; // the last three: fine
  EXPECT_EQ(read(Res, Cmd, false), (std::vector<uint32_t>{1, 2, 3}));
  Cmd.First = 2;
  std::vector<uint32_t> Out;
  Status S = readIndices(Res, Cmd, false, Out);
  ASSERT_FALSE(S.ok());
  EXPECT_EQ(S.message(), "indices 2 to 5 (exclusive) are beyond the index "
                         "buffer of 8 bytes (4 16-bit indices)");
  // First + Count beyond 32 bits does not wrap into range.
  Cmd.First = 0xffffffff;
  Cmd.Count = 2;
  EXPECT_FALSE(readIndices(Res, Cmd, false, Out).ok());

  Res.IndexData = nullptr;
  Cmd.First = 0;
  S = readIndices(Res, Cmd, false, Out);
  ASSERT_FALSE(S.ok());
  EXPECT_EQ(S.message(),
            "indexed draw of indices 0 to 2 (exclusive) without an index "
            "buffer");

  Res.IndexData = Data;
  Res.Index = IndexType(7);
  S = readIndices(Res, Cmd, false, Out);
  ASSERT_FALSE(S.ok());
  EXPECT_EQ(S.message(), "unknown index type 7");
}

} // namespace
