//===- ImageFormatImageOpsTest.cpp - Fetch, read, write, queries ----------===//
//
// The integer-coordinate operations of s2l_image_op (fetch, read, write)
// with robust access, every SPIR-V Dim's coordinate layout, queries, the
// texel pointer of atomics, and the owning Image class: layout, errors.
//
//===----------------------------------------------------------------------===//
#include "ImageOpsTestUtil.h"

using namespace spirv2llvm;
using namespace spirv2llvm::testing;

namespace {

s2l_image_operands intOps(uint32_t Op, uint32_t Dim, uint32_t Kind,
                          std::array<int32_t, 4> C, uint32_t Arrayed = 0) {
  s2l_image_operands O = {};
  O.op = Op;
  O.dim = Dim;
  O.kind = Kind;
  O.arrayed = Arrayed;
  for (int I = 0; I < 4; ++I)
    O.icoord[I] = C[I];
  return O;
}

TEST(ImageOps, FetchEveryLevelAndRobustness) {
  Image I = makeImage({Format::R32G32B32A32_SFLOAT, S2L_VIEW_2D, 4, 2, 1, 1,
                       2});
  fillFloat(I, [](uint32_t L, uint32_t X, uint32_t Y, uint32_t) {
    return Float4{float(L), float(X), float(Y), 7};
  });
  s2l_image_operands O = intOps(S2L_IMAGE_OP_FETCH, Dim2D, S2L_IMAGE_FLOAT,
                                {3, 1, 0, 0});
  EXPECT_EQ(runFloat(O, I, nullptr), (Float4{0, 3, 1, 7}));
  O.ilod = 1;
  O.icoord[0] = 1;
  O.icoord[1] = 0;
  EXPECT_EQ(runFloat(O, I, nullptr), (Float4{1, 1, 0, 7}));
  // Out of range: x beyond level 1's width 2, negative y, level 2, level -1.
  const Float4 Zero{0, 0, 0, 0};
  O.icoord[0] = 2;
  EXPECT_EQ(runFloat(O, I, nullptr), Zero);
  O.icoord[0] = 0;
  O.icoord[1] = -1;
  EXPECT_EQ(runFloat(O, I, nullptr), Zero);
  O.icoord[1] = 0;
  O.ilod = 2;
  EXPECT_EQ(runFloat(O, I, nullptr), Zero);
  O.ilod = -1;
  EXPECT_EQ(runFloat(O, I, nullptr), Zero);
  // A null image reads zero.
  O.ilod = 0;
  EXPECT_EQ(runBits(O, nullptr, nullptr), (UInt4{0, 0, 0, 0}));
}

TEST(ImageOps, CoordinateLayoutOfEachDim) {
  // The layer (or slice, or cube face) is where each Dim puts it.
  struct Case {
    ImageDesc D;
    uint32_t Dim, Arrayed;
    std::array<int32_t, 4> C;
    uint32_t X, Y, Z;
  } Cases[] = {
      {{Format::R32_UINT, S2L_VIEW_1D, 4}, Dim1D, 0, {2, 9, 9, 9}, 2, 0, 0},
      {{Format::R32_UINT, S2L_VIEW_1D_ARRAY, 4, 1, 1, 3},
       Dim1D, 1, {2, 1, 9, 9}, 2, 0, 1},
      {{Format::R32_UINT, S2L_VIEW_2D, 4, 4}, Dim2D, 0, {2, 3, 9, 9}, 2, 3, 0},
      {{Format::R32_UINT, S2L_VIEW_2D_ARRAY, 4, 4, 1, 3},
       Dim2D, 1, {2, 3, 2, 9}, 2, 3, 2},
      {{Format::R32_UINT, S2L_VIEW_3D, 4, 4, 4}, Dim3D, 0, {1, 2, 3, 9}, 1, 2, 3},
      {{Format::R32_UINT, S2L_VIEW_CUBE, 2, 2, 1, 6},
       DimCube, 0, {1, 0, 4, 9}, 1, 0, 4},
      {{Format::R32_UINT, S2L_VIEW_CUBE_ARRAY, 2, 2, 1, 12},
       DimCube, 1, {1, 1, 10, 9}, 1, 1, 10},
      {{Format::R32_UINT, S2L_VIEW_2D, 4, 4}, DimRect, 0, {3, 1, 9, 9}, 3, 1, 0},
      {{Format::R32_UINT, S2L_VIEW_BUFFER, 8}, DimBuffer, 0, {7, 9, 9, 9}, 7, 0, 0},
      {{Format::R32_UINT, S2L_VIEW_2D, 4, 4}, DimSubpass, 0, {1, 2, 9, 9}, 1, 2, 0},
  };
  for (const Case &C : Cases) {
    Image I = makeImage(C.D);
    ASSERT_TRUE(I.writeTexel(0, C.X, C.Y, C.Z, 0, UInt4{42, 0, 0, 1}).ok());
    for (uint32_t Op : {S2L_IMAGE_OP_FETCH, S2L_IMAGE_OP_READ}) {
      s2l_image_operands O = intOps(Op, C.Dim, S2L_IMAGE_UINT, C.C, C.Arrayed);
      EXPECT_EQ(runBits(O, &I.descriptor(), nullptr), (UInt4{42, 0, 0, 1}))
          << "dim " << C.Dim << " arrayed " << C.Arrayed << " op " << Op;
    }
    // A write at the same coordinate lands on the same texel.
    s2l_image_operands W =
        intOps(S2L_IMAGE_OP_WRITE, C.Dim, S2L_IMAGE_UINT, C.C, C.Arrayed);
    W.value[0] = 43;
    runBits(W, &I.descriptor(), nullptr);
    UInt4 V;
    ASSERT_TRUE(I.readTexel(0, C.X, C.Y, C.Z, 0, V).ok());
    EXPECT_EQ(V[0], 43u) << "dim " << C.Dim;
  }
}

TEST(ImageOps, WriteConvertsAndDropsOutOfRange) {
  Image I = makeImage({Format::R8G8B8A8_UNORM, S2L_VIEW_2D_ARRAY, 2, 2, 1, 2});
  s2l_image_operands W = intOps(S2L_IMAGE_OP_WRITE, Dim2D, S2L_IMAGE_FLOAT,
                                {1, 0, 1, 0}, 1);
  const float V[4] = {0.5f, 1.5f, -1.0f, 1.0f};
  std::memcpy(W.value, V, sizeof(V));
  runBits(W, &I.descriptor(), nullptr);
  const uint8_t *P = I.texelAddress(0, 1, 0, 1);
  // UNORM: round(0.5 * 255) = 128 (127.5, ties to even), clamps.
  EXPECT_EQ((std::array<int, 4>{P[0], P[1], P[2], P[3]}),
            (std::array<int, 4>{128, 255, 0, 255}));
  // Out of range (layer 2, x 2, negative): nothing changes.
  std::vector<uint8_t> Before(I.bytes().begin(), I.bytes().end());
  for (std::array<int32_t, 4> C : {std::array<int32_t, 4>{0, 0, 2, 0},
                                   {2, 0, 0, 0}, {0, -1, 0, 0}}) {
    for (int K = 0; K < 4; ++K)
      W.icoord[K] = C[K];
    runBits(W, &I.descriptor(), nullptr);
  }
  EXPECT_TRUE(std::equal(Before.begin(), Before.end(), I.bytes().begin()));
}

TEST(ImageOps, IntegerWritesAndReads) {
  Image I = makeImage({Format::R16G16_SINT, S2L_VIEW_1D, 2});
  s2l_image_operands W = intOps(S2L_IMAGE_OP_WRITE, Dim1D, S2L_IMAGE_SINT,
                                {1, 0, 0, 0});
  W.value[0] = uint32_t(-5);
  W.value[1] = 0x12345; // Keeps the low 16 bits: 0x2345.
  runBits(W, &I.descriptor(), nullptr);
  s2l_image_operands R = intOps(S2L_IMAGE_OP_READ, Dim1D, S2L_IMAGE_SINT,
                                {1, 0, 0, 0});
  EXPECT_EQ(runBits(R, &I.descriptor(), nullptr),
            (UInt4{uint32_t(-5), 0x2345, 0, 1}));
}

TEST(ImageOps, MultisampleFetch) {
  Image I = makeImage({Format::R32_UINT, S2L_VIEW_2D, 2, 2, 1, 1, 1, 4});
  for (uint32_t S = 0; S < 4; ++S)
    ASSERT_TRUE(I.writeTexel(0, 1, 1, 0, S, UInt4{10 + S, 0, 0, 1}).ok());
  s2l_image_operands O = intOps(S2L_IMAGE_OP_FETCH, Dim2D, S2L_IMAGE_UINT,
                                {1, 1, 0, 0});
  O.flags |= S2L_IMAGE_HAS_SAMPLE;
  for (int32_t S = 0; S < 4; ++S) {
    O.sample = S;
    EXPECT_EQ(runBits(O, &I.descriptor(), nullptr)[0], uint32_t(10 + S));
  }
  // Out of range: a zero texel, with alpha 1 inserted for R32_UINT
  // (robustImageAccess2's texel replacement, as lavapipe does).
  O.sample = 4;
  EXPECT_EQ(runBits(O, &I.descriptor(), nullptr), (UInt4{0, 0, 0, 1}));
}

TEST(ImageOps, DepthStencilViews) {
  Image I = makeImage({Format::D24_UNORM_S8_UINT, S2L_VIEW_2D, 1, 1});
  ASSERT_TRUE(I.writeTexel(0, 0, 0, 0, 0, Float4{1, 0, 0, 0}).ok());
  ASSERT_TRUE(I.writeTexel(0, 0, 0, 0, 0, UInt4{77, 0, 0, 0}).ok());
  s2l_image_operands O = intOps(S2L_IMAGE_OP_FETCH, Dim2D, S2L_IMAGE_FLOAT,
                                {0, 0, 0, 0});
  EXPECT_EQ(runFloat(O, I, nullptr), (Float4{1, 0, 0, 1}));
  O.kind = S2L_IMAGE_UINT; // The stencil aspect.
  EXPECT_EQ(runBits(O, &I.descriptor(), nullptr), (UInt4{77, 0, 0, 1}));
}

TEST(ImageOps, CompressedFetch) {
  Image I = makeImage({Format::BC1_RGB_UNORM_BLOCK, S2L_VIEW_2D, 8, 4});
  // Block 1 (texels 4-7 of each row): red and blue endpoints, texel (5, 0)
  // takes index 1.
  const uint8_t Block[8] = {0x00, 0xf8, 0x1f, 0x00, 0x04, 0, 0, 0};
  std::memcpy(I.bytes().data() + 8, Block, 8);
  s2l_image_operands O = intOps(S2L_IMAGE_OP_FETCH, Dim2D, S2L_IMAGE_FLOAT,
                                {4, 0, 0, 0});
  EXPECT_EQ(runFloat(O, I, nullptr), (Float4{1, 0, 0, 1}));
  O.icoord[0] = 5;
  EXPECT_EQ(runFloat(O, I, nullptr), (Float4{0, 0, 1, 1}));
  // Block 0 is zero: colour 0 = colour 1 = black, three-colour mode.
  O.icoord[0] = 1;
  EXPECT_EQ(runFloat(O, I, nullptr), (Float4{0, 0, 0, 1}));
}

TEST(ImageOps, QuerySize) {
  struct Case {
    ImageDesc D;
    uint32_t Dim, Arrayed;
    int32_t Lod;
    UInt4 Expected;
  } Cases[] = {
      {{Format::R8_UNORM, S2L_VIEW_1D, 8, 1, 1, 1, 3}, Dim1D, 0, 1, {4, 0, 0, 0}},
      {{Format::R8_UNORM, S2L_VIEW_1D_ARRAY, 8, 1, 1, 5}, Dim1D, 1, 0, {8, 5, 0, 0}},
      {{Format::R8_UNORM, S2L_VIEW_2D, 8, 4, 1, 1, 3}, Dim2D, 0, 2, {2, 1, 0, 0}},
      {{Format::R8_UNORM, S2L_VIEW_2D_ARRAY, 8, 4, 1, 3, 2}, Dim2D, 1, 1, {4, 2, 3, 0}},
      {{Format::R8_UNORM, S2L_VIEW_3D, 8, 4, 2, 1, 2}, Dim3D, 0, 1, {4, 2, 1, 0}},
      {{Format::R8_UNORM, S2L_VIEW_CUBE, 8, 8, 1, 6, 2}, DimCube, 0, 1, {4, 4, 0, 0}},
      {{Format::R8_UNORM, S2L_VIEW_CUBE_ARRAY, 8, 8, 1, 12}, DimCube, 1, 0, {8, 8, 2, 0}},
      {{Format::R8_UNORM, S2L_VIEW_BUFFER, 100}, DimBuffer, 0, 0, {100, 0, 0, 0}},
      // A level beyond the image: zeros.
      {{Format::R8_UNORM, S2L_VIEW_2D, 8, 4, 1, 1, 3}, Dim2D, 0, 3, {0, 0, 0, 0}},
  };
  for (const Case &C : Cases) {
    Image I = makeImage(C.D);
    s2l_image_operands O = {};
    O.op = S2L_IMAGE_OP_QUERY_SIZE;
    O.dim = C.Dim;
    O.arrayed = C.Arrayed;
    O.ilod = C.Lod;
    EXPECT_EQ(runBits(O, &I.descriptor(), nullptr), C.Expected)
        << "view " << C.D.ViewType << " lod " << C.Lod;
  }
}

TEST(ImageOps, QueryLevelsAndSamples) {
  Image I = makeImage({Format::R8_UNORM, S2L_VIEW_2D, 16, 16, 1, 1, 5});
  s2l_image_operands O = {};
  O.op = S2L_IMAGE_OP_QUERY_LEVELS;
  EXPECT_EQ(runBits(O, &I.descriptor(), nullptr), (UInt4{5, 0, 0, 0}));
  Image M = makeImage({Format::R8_UNORM, S2L_VIEW_2D, 4, 4, 1, 1, 1, 8});
  O.op = S2L_IMAGE_OP_QUERY_SAMPLES;
  EXPECT_EQ(runBits(O, &M.descriptor(), nullptr), (UInt4{8, 0, 0, 0}));
}

TEST(ImageOps, QueryLod) {
  Image I = makeImage({Format::R8_UNORM, S2L_VIEW_2D, 8, 8, 1, 1, 4});
  s2l_sampler S = makeSampler(Linear);
  S.mip_lod_bias = 0.5f;
  s2l_image_operands O = sampleOps(Dim2D, 0.5f, 0.5f);
  O.op = S2L_IMAGE_OP_QUERY_LOD;
  O.flags |= S2L_IMAGE_HAS_GRAD;
  O.grad_x[0] = 4.0f / 8; // rho = 4: lambda_base = 2, lambda' = 2.5
  Float4 R = runFloat(O, I, &S);
  EXPECT_FLOAT_EQ(R[0], 2.5f);
  EXPECT_FLOAT_EQ(R[1], 2.5f);
  // The level is clamped by maxLod and by the levels; lambda' is not.
  S.max_lod = 2;
  R = runFloat(O, I, &S);
  EXPECT_FLOAT_EQ(R[0], 2.0f);
  EXPECT_FLOAT_EQ(R[1], 2.5f);
  S.max_lod = 1000;
  O.grad_x[0] = 64.0f / 8; // lambda' = 6.5, q = 3
  R = runFloat(O, I, &S);
  EXPECT_FLOAT_EQ(R[0], 3.0f);
  EXPECT_FLOAT_EQ(R[1], 6.5f);
}

TEST(ImageOps, TexelPointer) {
  Image I = makeImage({Format::R32_UINT, S2L_VIEW_2D_ARRAY, 4, 4, 1, 2});
  uint32_t Scratch = 0;
  const int32_t In[4] = {3, 2, 1, 0};
  EXPECT_EQ(s2l_image_texel_pointer(&I.descriptor(), In, Dim2D, 1, 0, &Scratch),
            I.texelAddress(0, 3, 2, 1));
  const int32_t Out[4] = {4, 2, 1, 0};
  EXPECT_EQ(s2l_image_texel_pointer(&I.descriptor(), Out, Dim2D, 1, 0,
                                    &Scratch),
            &Scratch);
  const int32_t Layer[4] = {0, 0, 2, 0};
  EXPECT_EQ(s2l_image_texel_pointer(&I.descriptor(), Layer, Dim2D, 1, 0,
                                    &Scratch),
            &Scratch);
  EXPECT_EQ(s2l_image_texel_pointer(nullptr, In, Dim2D, 1, 0, &Scratch),
            &Scratch);
  // 64-bit texels too; not 8-bit ones.
  Image L = makeImage({Format::R32G32_UINT, S2L_VIEW_BUFFER, 8});
  const int32_t B[4] = {5, 0, 0, 0};
  EXPECT_EQ(s2l_image_texel_pointer(&L.descriptor(), B, DimBuffer, 0, 0,
                                    &Scratch),
            L.texelAddress(0, 5, 0, 0));
  Image Small = makeImage({Format::R8_UINT, S2L_VIEW_1D, 8});
  EXPECT_EQ(s2l_image_texel_pointer(&Small.descriptor(), B, Dim1D, 0, 0,
                                    &Scratch),
            &Scratch);
}

TEST(ImageStorage, LayoutIsTight) {
  Image I = makeImage({Format::R16G16B16A16_SFLOAT, S2L_VIEW_2D_ARRAY, 5, 3, 1,
                       2, 3});
  const s2l_image &D = I.descriptor();
  EXPECT_EQ(D.data, I.bytes().data());
  EXPECT_EQ(D.format, uint32_t(Format::R16G16B16A16_SFLOAT));
  // Level sizes 5x3, 2x1, 1x1; 8-byte texels; 2 layers each.
  EXPECT_EQ(D.level[0].row_pitch, 40u);
  EXPECT_EQ(D.level[0].slice_pitch, 120u);
  EXPECT_EQ(D.level[1].offset, 240u);
  EXPECT_EQ(D.level[1].width, 2u);
  EXPECT_EQ(D.level[1].height, 1u);
  EXPECT_EQ(D.level[2].offset, 240u + 32u);
  EXPECT_EQ(I.bytes().size(), 240u + 32u + 16u);
  EXPECT_EQ(I.texelAddress(1, 1, 0, 1), I.bytes().data() + 240 + 16 + 8);
  EXPECT_EQ(I.texelAddress(1, 2, 0, 0), nullptr);
  // Blocks: a 5x5 BC1 image has 2x2 blocks of 8 bytes.
  Image B = makeImage({Format::BC1_RGB_UNORM_BLOCK, S2L_VIEW_2D, 5, 5});
  EXPECT_EQ(B.descriptor().level[0].row_pitch, 16u);
  EXPECT_EQ(B.bytes().size(), 32u);
}

TEST(ImageStorage, MoveKeepsDescriptorValid) {
  Image A = makeImage({Format::R32_UINT, S2L_VIEW_1D, 4});
  ASSERT_TRUE(A.writeTexel(0, 2, 0, 0, 0, UInt4{9, 0, 0, 1}).ok());
  const s2l_image *Desc = &A.descriptor();
  Image B = std::move(A);
  EXPECT_EQ(&B.descriptor(), Desc);
  EXPECT_EQ(B.descriptor().data, B.bytes().data());
  s2l_image_operands O = {};
  O.op = S2L_IMAGE_OP_READ;
  O.kind = S2L_IMAGE_UINT;
  O.icoord[0] = 2;
  EXPECT_EQ(runBits(O, Desc, nullptr)[0], 9u);
}

TEST(ImageStorage, CreateErrors) {
  const std::pair<ImageDesc, const char *> Cases[] = {
      {{Format(12345), S2L_VIEW_2D, 4, 4}, "image: unknown format 12345"},
      {{Format::R64_UINT, S2L_VIEW_2D, 4, 4},
       "image: format R64_UINT has 64-bit components: it is a vertex format "
       "only"},
      {{Format::R8_UNORM, 9, 4, 4}, "image: unknown view type 9"},
      {{Format::R8_UNORM, S2L_VIEW_2D, 0, 4}, "image: width is 0"},
      {{Format::R8_UNORM, S2L_VIEW_2D, 4, 4, 1, 1, 0}, "image: levels is 0"},
      {{Format::R8_UNORM, S2L_VIEW_1D, 4, 2}, "image: a 1D view has height 1, not 2"},
      {{Format::R8_UNORM, S2L_VIEW_2D, 4, 4, 2}, "image: a 2D view has depth 1, not 2"},
      {{Format::R8_UNORM, S2L_VIEW_2D, 4, 4, 1, 2}, "image: a 2D view has 1 layer, not 2"},
      {{Format::R8_UNORM, S2L_VIEW_CUBE, 4, 2, 1, 6}, "image: a cube is square, not 4x2"},
      {{Format::R8_UNORM, S2L_VIEW_CUBE, 4, 4, 1, 12}, "image: a cube view has 6 layers, not 12"},
      {{Format::R8_UNORM, S2L_VIEW_CUBE_ARRAY, 4, 4, 1, 8},
       "image: a cube array has a multiple of 6 layers, not 8"},
      {{Format::R8_UNORM, S2L_VIEW_BUFFER, 4, 2}, "image: a texel buffer view has height 1, not 2"},
      {{Format::R8_UNORM, S2L_VIEW_BUFFER, 4, 1, 1, 1, 2}, "image: a texel buffer has 1 level and 1 sample"},
      {{Format::BC1_RGB_UNORM_BLOCK, S2L_VIEW_BUFFER, 4},
       "image: a texel buffer cannot have the block-compressed format BC1_RGB_UNORM_BLOCK"},
      {{Format::R8_UNORM, S2L_VIEW_2D, 8, 3, 1, 1, 5},
       "image: 5 levels, but a 8x3 image has at most 4"},
      {{Format::R8_UNORM, S2L_VIEW_3D, 2, 2, 16, 1, 6},
       "image: 6 levels, but a 2x2x16 image has at most 5"},
      {{Format::R8_UNORM, S2L_VIEW_2D, 20000, 4}, "image: width 20000 exceeds the limit of 16384 for a 2D view"},
      {{Format::R8_UNORM, S2L_VIEW_3D, 4, 4, 4096}, "image: depth 4096 exceeds the limit of 2048 for a 3D view"},
      {{Format::R8_UNORM, S2L_VIEW_2D_ARRAY, 4, 4, 1, 4096}, "image: 4096 layers exceed the limit of 2048"},
      {{Format::R8_UNORM, S2L_VIEW_2D, 4, 4, 1, 1, 1, 3},
       "image: sample count 3 is not a power of two up to 64"},
      {{Format::R8_UNORM, S2L_VIEW_3D, 4, 4, 4, 1, 1, 4},
       "image: a multisampled image is 2D or a 2D array, not 3D"},
      {{Format::R8_UNORM, S2L_VIEW_2D, 4, 4, 1, 1, 2, 4},
       "image: a multisampled image has 1 level, not 2"},
      {{Format::R32G32B32A32_SFLOAT, S2L_VIEW_2D_ARRAY, 16384, 16384, 1, 2},
       "image: needs more than 1024 MiB"},
  };
  for (const auto &[D, Message] : Cases) {
    auto R = Image::create(D);
    ASSERT_FALSE(R) << Message;
    EXPECT_EQ(R.status().message(), Message);
  }
}

TEST(ImageStorage, TexelAccessErrors) {
  Image I = makeImage({Format::R8_UNORM, S2L_VIEW_2D, 4, 4});
  Float4 F;
  EXPECT_EQ(I.readTexel(0, 4, 0, 0, 0, F).message(),
            "image: texel (4, 0, 0) sample 0 is outside level 0 (4x4x1, 1 "
            "samples)");
  UInt4 U;
  EXPECT_EQ(I.readTexel(0, 0, 0, 0, 0, U).message(),
            "format R8_UNORM has no uint view (it reads as float4)");
  Image B = makeImage({Format::BC1_RGB_UNORM_BLOCK, S2L_VIEW_2D, 4, 4});
  EXPECT_EQ(B.writeTexel(0, 0, 0, 0, 0, Float4{}).message(),
            "image: cannot write texels of the block-compressed format "
            "BC1_RGB_UNORM_BLOCK");
}

} // namespace

namespace {

TEST(ImageOps, MalformedDescriptorsReadZero) {
  // Zero sizes, an unknown format, no levels: every operation reads zero
  // (and does not divide by zero or loop).
  uint8_t Texels[64] = {1, 2, 3, 4};
  s2l_image Bad = {};
  Bad.data = Texels;
  Bad.format = uint32_t(Format::R8G8B8A8_UNORM);
  Bad.view_type = S2L_VIEW_CUBE;
  Bad.layers = 6;
  Bad.levels = 1;
  Bad.samples = 1;
  s2l_sampler S = makeSampler(Linear, Repeat);
  S.max_anisotropy = 1e30f;
  for (uint32_t Dim : {Dim1D, Dim2D, Dim3D, DimCube}) {
    s2l_image_operands O = sampleOps(Dim, 0.3f, 0.6f, 0.2f);
    O.flags |= S2L_IMAGE_HAS_GRAD;
    O.grad_x[0] = 1e20f;
    O.grad_y[1] = 1;
    for (uint32_t Op : {S2L_IMAGE_OP_SAMPLE, S2L_IMAGE_OP_GATHER,
                        S2L_IMAGE_OP_FETCH, S2L_IMAGE_OP_READ}) {
      O.op = Op;
      EXPECT_EQ(runBits(O, &Bad, &S), (UInt4{0, 0, 0, 0})) << "op " << Op;
    }
  }
  Bad.format = 99999;
  Bad.level[0] = {0, 4, 4, 1, 1, 1, 0};
  s2l_image_operands O = sampleOps(Dim2D, 0.3f, 0.6f);
  EXPECT_EQ(runBits(O, &Bad, &S), (UInt4{0, 0, 0, 0}));
}

TEST(ImageOps, HugeAnisotropyIsBounded) {
  // maxAnisotropy beyond Vulkan's 16 acts as 16: a 4096:1 footprint takes
  // 16 probes, at u = 32 + 64 * ((k + 0.5) / 16 - 0.5) = 2 + 4k; the image
  // has one level, so probe k reads texel 2 + 4k.
  Image I = makeImage({Format::R32_SFLOAT, S2L_VIEW_2D, 64, 1});
  fillFloat(I, [](uint32_t, uint32_t X, uint32_t, uint32_t) {
    return Float4{float(X), 0, 0, 1};
  });
  s2l_sampler S = makeSampler(Nearest);
  S.max_anisotropy = 1000;
  s2l_image_operands O = sampleOps(Dim2D, 0.5f, 0.5f);
  O.flags |= S2L_IMAGE_HAS_GRAD;
  O.grad_x[0] = 1;         // 64 texels
  O.grad_y[1] = 1.0f / 64; // 1/64 texel
  float Sum = 0;
  for (int K = 0; K < 16; ++K)
    Sum += float(2 + 4 * K);
  EXPECT_FLOAT_EQ(runFloat(O, I, &S)[0], Sum / 16);
}

} // namespace
