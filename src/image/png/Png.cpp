//===- image/Png.cpp - PNG through libpng ---------------------------------===//
//
// libpng's classic API with its own transformations (expand, strip/scale
// 16, grey to RGB, filler) rather than the simplified png_image API, whose
// 16-bit output is premultiplied linear light: we want the file's values
// unchanged.
//
// libpng reports errors by longjmp. Each function keeps every object with
// a destructor outside the setjmp region's scope or constructed before
// setjmp, so a longjmp skips no destructor, and the error callback copies
// the message into a State that outlives the jump.
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm/PngImage.h"

#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>

namespace spirv2llvm {

namespace {

constexpr uint64_t MaxTexels = uint64_t(1) << 28;

struct State {
  std::string Name;
  std::string Error;
  // Input from memory.
  std::span<const uint8_t> Bytes;
  size_t Pos = 0;
};

void onError(png_structp Png, png_const_charp Message) {
  auto *S = static_cast<State *>(png_get_error_ptr(Png));
  if (S->Error.empty())
    S->Error = Message;
  png_longjmp(Png, 1);
}

void onWarning(png_structp, png_const_charp) {
  // Warnings (an unknown chunk, a bad gamma) do not stop a read.
}

void readFromMemory(png_structp Png, png_bytep Data, png_size_t Length) {
  auto *S = static_cast<State *>(png_get_io_ptr(Png));
  if (S->Pos + Length > S->Bytes.size())
    png_error(Png, "unexpected end of data");
  std::memcpy(Data, S->Bytes.data() + S->Pos, Length);
  S->Pos += Length;
}

struct FileCloser {
  void operator()(FILE *F) const { std::fclose(F); }
};
using FilePtr = std::unique_ptr<FILE, FileCloser>;

Status pngError(const State &S, const char *What) {
  return Status::error(std::string(What) + " " + S.Name + ": " +
                           (S.Error.empty() ? "libpng failed" : S.Error),
                       StatusCode::InvalidInput);
}

/// Decodes with the read struct set up (input already attached).
/// Returns false after a libpng error (message in S.Error).
bool decode(png_structp Png, png_infop Info, Rgba8Image &Img,
            std::vector<png_bytep> &Rows) {
  if (setjmp(png_jmpbuf(Png)))
    return false;
  png_read_info(Png, Info);
  png_uint_32 W = png_get_image_width(Png, Info);
  png_uint_32 H = png_get_image_height(Png, Info);
  // A corrupt or hostile header must not make us allocate gigabytes.
  if (uint64_t(W) * H > MaxTexels)
    png_error(Png, "image too large (more than 2^28 texels)");
  int Type = png_get_color_type(Png, Info);
  // Palettes, grey below 8 bits and tRNS to 8-bit RGB(A)...
  png_set_expand(Png);
  // ...16 bits to 8 with rounding (not truncation)...
  png_set_scale_16(Png);
  if (Type == PNG_COLOR_TYPE_GRAY || Type == PNG_COLOR_TYPE_GRAY_ALPHA)
    png_set_gray_to_rgb(Png);
  // ...and an opaque alpha where the file has none.
  png_set_add_alpha(Png, 0xff, PNG_FILLER_AFTER);
  png_set_interlace_handling(Png);
  png_read_update_info(Png, Info);
  if (png_get_rowbytes(Png, Info) != size_t(W) * 4)
    png_error(Png, "unexpected row size after conversion to RGBA8");
  Img.Width = W;
  Img.Height = H;
  Img.Texels.resize(size_t(W) * H * 4);
  Rows.resize(H);
  for (png_uint_32 Y = 0; Y < H; ++Y)
    Rows[Y] = Img.Texels.data() + size_t(Y) * W * 4;
  png_read_image(Png, Rows.data());
  png_read_end(Png, nullptr);
  return true;
}

Result<Rgba8Image> readWith(State &S, FILE *File) {
  png_structp Png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &S, onError, onWarning);
  if (!Png)
    return Status::error("cannot create a PNG reader for " + S.Name,
                         StatusCode::InvalidInput);
  png_infop Info = png_create_info_struct(Png);
  if (File)
    png_init_io(Png, File);
  else
    png_set_read_fn(Png, &S, readFromMemory);
  Rgba8Image Img;
  std::vector<png_bytep> Rows;
  bool Ok = Info && decode(Png, Info, Img, Rows);
  png_destroy_read_struct(&Png, Info ? &Info : nullptr, nullptr);
  if (!Ok)
    return pngError(S, "cannot read PNG");
  return Img;
}

template <typename T>
bool encode(png_structp Png, png_infop Info, FILE *File, uint32_t W, uint32_t H,
            std::span<const T> Texels, std::vector<png_bytep> &Rows) {
  if (setjmp(png_jmpbuf(Png)))
    return false;
  png_init_io(Png, File);
  png_set_IHDR(Png, Info, W, H, sizeof(T) * 8, PNG_COLOR_TYPE_RGBA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(Png, Info);
  if constexpr (sizeof(T) == 2)
    png_set_swap(Png); // PNG is big-endian; our uint16_t are native.
  Rows.resize(H);
  for (uint32_t Y = 0; Y < H; ++Y)
    Rows[Y] = reinterpret_cast<png_bytep>(
        const_cast<T *>(Texels.data() + size_t(Y) * W * 4));
  png_write_image(Png, Rows.data());
  png_write_end(Png, nullptr);
  return true;
}

template <typename T>
Status writePng(const std::string &Path, uint32_t W, uint32_t H,
                std::span<const T> Texels) {
  if (W == 0 || H == 0 || W > 0x7fffffff || H > 0x7fffffff)
    return Status::error("cannot write PNG " + Path + ": size " +
                         std::to_string(W) + "x" + std::to_string(H) +
                         " is not a PNG size");
  if (Texels.size() != size_t(W) * H * 4)
    return Status::error("cannot write PNG " + Path + ": " + std::to_string(W) +
                         "x" + std::to_string(H) + " RGBA needs " +
                         std::to_string(size_t(W) * H * 4) + " values, got " +
                         std::to_string(Texels.size()));
  FilePtr File(std::fopen(Path.c_str(), "wb"));
  if (!File)
    return Status::error("cannot write PNG " + Path + ": " +
                             std::strerror(errno),
                         StatusCode::InvalidArgument);
  State S;
  S.Name = Path;
  png_structp Png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &S, onError, onWarning);
  if (!Png)
    return Status::error("cannot create a PNG writer for " + Path);
  png_infop Info = png_create_info_struct(Png);
  std::vector<png_bytep> Rows;
  bool Ok = Info && encode(Png, Info, File.get(), W, H, Texels, Rows);
  png_destroy_write_struct(&Png, Info ? &Info : nullptr);
  if (!Ok)
    return pngError(S, "cannot write PNG");
  if (std::fflush(File.get()) != 0)
    return Status::error("cannot write PNG " + Path + ": " +
                         std::strerror(errno));
  return Status::success();
}

} // namespace

Result<Rgba8Image> readPng(const std::string &Path) {
  FilePtr File(std::fopen(Path.c_str(), "rb"));
  if (!File)
    return Status::error("cannot read PNG " + Path + ": " +
                             std::strerror(errno),
                         StatusCode::InvalidInput);
  uint8_t Signature[8];
  size_t N = std::fread(Signature, 1, 8, File.get());
  if (N < 8 || png_sig_cmp(Signature, 0, 8) != 0)
    return Status::error("cannot read PNG " + Path +
                             ": not a PNG file (bad signature)",
                         StatusCode::InvalidInput);
  std::rewind(File.get());
  State S;
  S.Name = Path;
  return readWith(S, File.get());
}

Result<Rgba8Image> readPngBytes(std::span<const uint8_t> Bytes,
                                const std::string &Name) {
  if (Bytes.size() < 8 || png_sig_cmp(Bytes.data(), 0, 8) != 0)
    return Status::error("cannot read PNG " + Name +
                             ": not a PNG file (bad signature)",
                         StatusCode::InvalidInput);
  State S;
  S.Name = Name;
  S.Bytes = Bytes;
  return readWith(S, nullptr);
}

Status writePngRGBA8(const std::string &Path, uint32_t Width, uint32_t Height,
                     std::span<const uint8_t> Texels) {
  return writePng(Path, Width, Height, Texels);
}

Status writePngRGBA16(const std::string &Path, uint32_t Width, uint32_t Height,
                      std::span<const uint16_t> Texels) {
  return writePng(Path, Width, Height, Texels);
}

} // namespace spirv2llvm
