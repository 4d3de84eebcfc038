//===- ImageFormatPngTest.cpp - PNG in and out through libpng -------------===//
//
// Round trips through files, conversion of other PNG kinds (grey, palette,
// 16-bit) to RGBA8, and the errors for missing, foreign, truncated and
// corrupt files. The grey and palette files are written with libpng's own
// simplified API, independently of the code under test.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/PngImage.h"

#include <gtest/gtest.h>
#include <png.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

using namespace spirv2llvm;

namespace {

class ImageFormatPng : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = std::filesystem::temp_directory_path() /
          ("s2l-png-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(Dir);
  }
  void TearDown() override { std::filesystem::remove_all(Dir); }
  std::string path(const char *Name) { return (Dir / Name).string(); }
  std::vector<uint8_t> readBytes(const std::string &P) {
    std::ifstream In(P, std::ios::binary);
    return {std::istreambuf_iterator<char>(In), {}};
  }
  void writeBytes(const std::string &P, const std::vector<uint8_t> &B) {
    std::ofstream Out(P, std::ios::binary);
    Out.write(reinterpret_cast<const char *>(B.data()), B.size());
  }
  std::filesystem::path Dir;
};

std::vector<uint8_t> pattern(uint32_t W, uint32_t H) {
  std::vector<uint8_t> T(size_t(W) * H * 4);
  for (size_t I = 0; I < T.size(); ++I)
    T[I] = uint8_t(I * 37 + (I >> 5));
  return T;
}

TEST_F(ImageFormatPng, RoundTripRGBA8) {
  auto T = pattern(13, 7);
  ASSERT_TRUE(writePngRGBA8(path("a.png"), 13, 7, T).ok());
  auto Img = readPng(path("a.png"));
  ASSERT_TRUE(Img.ok()) << Img.status().message();
  EXPECT_EQ(Img->Width, 13u);
  EXPECT_EQ(Img->Height, 7u);
  EXPECT_EQ(Img->Texels, T);
  // The same bytes read from memory.
  auto Mem = readPngBytes(readBytes(path("a.png")));
  ASSERT_TRUE(Mem.ok());
  EXPECT_EQ(Mem->Texels, T);
}

TEST_F(ImageFormatPng, SixteenBitsScaleToEight) {
  // v * 257 is exactly v in 8 bits; 0 and 65535 are the ends.
  auto T8 = pattern(5, 3);
  std::vector<uint16_t> T16(T8.begin(), T8.end());
  for (uint16_t &V : T16)
    V = uint16_t(V * 257);
  ASSERT_TRUE(writePngRGBA16(path("b.png"), 5, 3, T16).ok());
  // The file really is 16-bit, with big-endian samples.
  auto Bytes = readBytes(path("b.png"));
  ASSERT_GT(Bytes.size(), 25u);
  EXPECT_EQ(Bytes[24], 16); // IHDR bit depth
  EXPECT_EQ(Bytes[25], 6);  // colour type RGBA
  auto Img = readPng(path("b.png"));
  ASSERT_TRUE(Img.ok()) << Img.status().message();
  EXPECT_EQ(Img->Texels, T8);
}

TEST_F(ImageFormatPng, GreyAndPaletteExpandToRGBA) {
  png_image G{};
  G.version = PNG_IMAGE_VERSION;
  G.width = 3;
  G.height = 1;
  G.format = PNG_FORMAT_GRAY;
  const uint8_t Grey[3] = {0, 100, 255};
  ASSERT_TRUE(
      png_image_write_to_file(&G, path("g.png").c_str(), 0, Grey, 0, nullptr));
  auto Img = readPng(path("g.png"));
  ASSERT_TRUE(Img.ok()) << Img.status().message();
  EXPECT_EQ(Img->Texels, (std::vector<uint8_t>{0, 0, 0, 255, 100, 100, 100, 255,
                                               255, 255, 255, 255}));

  png_image P{};
  P.version = PNG_IMAGE_VERSION;
  P.width = 2;
  P.height = 2;
  P.format = PNG_FORMAT_RGBA_COLORMAP;
  P.colormap_entries = 2;
  const uint8_t Map[8] = {10, 20, 30, 255, 200, 150, 100, 50};
  const uint8_t Idx[4] = {0, 1, 1, 0};
  ASSERT_TRUE(
      png_image_write_to_file(&P, path("p.png").c_str(), 0, Idx, 0, Map));
  auto Pal = readPng(path("p.png"));
  ASSERT_TRUE(Pal.ok()) << Pal.status().message();
  EXPECT_EQ(readBytes(path("p.png"))[25], 3); // really a palette file
  EXPECT_EQ(Pal->Texels,
            (std::vector<uint8_t>{10, 20, 30, 255, 200, 150, 100, 50, 200, 150,
                                  100, 50, 10, 20, 30, 255}));
}

TEST_F(ImageFormatPng, Errors) {
  auto Missing = readPng(path("missing.png"));
  ASSERT_FALSE(Missing.ok());
  EXPECT_EQ(Missing.status().message(), "cannot read PNG " +
                                            path("missing.png") +
                                            ": No such file or directory");

  writeBytes(path("text.png"), {'h', 'e', 'l', 'l', 'o', ' ', 'w', 'o', 'r'});
  auto Text = readPng(path("text.png"));
  ASSERT_FALSE(Text.ok());
  EXPECT_EQ(Text.status().message(), "cannot read PNG " + path("text.png") +
                                         ": not a PNG file (bad signature)");

  ASSERT_TRUE(writePngRGBA8(path("a.png"), 16, 16, pattern(16, 16)).ok());
  auto Good = readBytes(path("a.png"));
  // Truncated inside the image data.
  std::vector<uint8_t> Cut(Good.begin(), Good.begin() + Good.size() / 2);
  auto C = readPngBytes(Cut, "cut.png");
  ASSERT_FALSE(C.ok());
  EXPECT_EQ(C.status().message().rfind("cannot read PNG cut.png: ", 0), 0u)
      << C.status().message();
  // A flipped bit in the IHDR chunk: its CRC no longer matches.
  std::vector<uint8_t> Bad = Good;
  Bad[20] ^= 0x40;
  writeBytes(path("bad.png"), Bad);
  auto B = readPng(path("bad.png"));
  ASSERT_FALSE(B.ok());
  EXPECT_NE(B.status().message().find("bad.png: "), std::string::npos);
  EXPECT_NE(B.status().message().find("CRC"), std::string::npos)
      << B.status().message();

  // Writes: a wrong texel count, a zero size, a directory that is missing.
  Status W = writePngRGBA8(path("w.png"), 4, 4, pattern(4, 3));
  EXPECT_EQ(W.message(), "cannot write PNG " + path("w.png") +
                             ": 4x4 RGBA needs 64 values, got 48");
  W = writePngRGBA8(path("w.png"), 0, 4, {});
  EXPECT_EQ(W.message(), "cannot write PNG " + path("w.png") +
                             ": size 0x4 is not a PNG size");
  W = writePngRGBA8(path("no/such/dir.png"), 1, 1, pattern(1, 1));
  EXPECT_EQ(W.message(), "cannot write PNG " + path("no/such/dir.png") +
                             ": No such file or directory");
}

// Damaged files (random bytes overwritten, cut at random lengths) either
// read as a consistent image or fail with a message naming the input; they
// never crash (run under ASan/UBSan in CI) or hang. A few thousand
// deterministic mutations of a small valid file.
TEST_F(ImageFormatPng, DamagedFilesFailCleanly) {
  ASSERT_TRUE(writePngRGBA8(path("a.png"), 9, 5, pattern(9, 5)).ok());
  const std::vector<uint8_t> Good = readBytes(path("a.png"));
  std::mt19937 Rng(5);
  unsigned Failed = 0;
  for (int I = 0; I < 3000; ++I) {
    std::vector<uint8_t> B = Good;
    if (I % 3 == 0) {
      B.resize(Rng() % B.size());
    } else {
      for (unsigned K = 0, N = 1 + Rng() % 4; K < N; ++K)
        B[8 + Rng() % (B.size() - 8)] = uint8_t(Rng());
    }
    auto Img = readPngBytes(B, "damaged.png");
    if (Img.ok()) {
      EXPECT_EQ(Img->Texels.size(), size_t(Img->Width) * Img->Height * 4);
      continue;
    }
    ++Failed;
    ASSERT_EQ(Img.status().message().rfind("cannot read PNG damaged.png: ", 0),
              0u)
        << Img.status().message();
  }
  // Most damage is caught (CRCs, zlib checks); the rest hits ancillary
  // data or sample values.
  EXPECT_GT(Failed, 2000u);
}

} // namespace
