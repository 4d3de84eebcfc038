//===- BufferParser.cpp - BUFFER and IMAGE declarations -------------------===//
//
// A BUFFER's format (FORMAT image format, or DATA_TYPE with an optional
// STD140/STD430 layout, a STRUCT's included), then its initializer: DATA
// values (over several lines up to END), SIZE with FILL, SERIES_FROM or a
// FILE, FILE PNG for an image, or the deprecated WIDTH/HEIGHT. IMAGE is a
// BUFFER of its size with an image's shape.
//
// MIP_LEVELS: the initializer (or the PNG file) is level 0, the other
// levels are blitted from it as Amber's engine does (fillMipLevels).
//
// A packed format (*_PACK8/16/32) takes one value per element, the packed
// word, as Amber does. Limitation: image formats the library lacks make
// the script SKIP.
//
//===----------------------------------------------------------------------===//
#include "amber/AmberImages.h"
#include "amber/ParserImpl.h"
#include "spirv2llvm/PngImage.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace llvm;

namespace spirv2llvm::amber::detail {

Error Parser::parseBuffer(unsigned Line) {
  return parseBufferArgs(Line, restOfLine(Line));
}

Error Parser::parseBufferArgs(unsigned Line, std::vector<Token> A) {
  if (A.size() < 3)
    return err(Line, "BUFFER needs a name and DATA_TYPE or FORMAT");
  BufferDecl B;
  B.Name = A[0].Text;
  B.Line = Line;
  if (S.findBuffer(B.Name))
    return err(Line, "duplicate buffer name '" + B.Name + "'");
  size_t I = 1;
  if (A[I].Text == "FORMAT") {
    auto F = parseImageFormat(A[I + 1].Text);
    if (!F) {
      StringRef Fmt = A[I + 1].Text;
      consumeError(F.takeError());
      unsupported(Line, "image format '" + Fmt + "'");
      return Error::success();
    }
    B.Format = std::move(*F);
    I += 2;
    // BUFFER b FORMAT f [MIP_LEVELS n] [SAMPLES n] | FILE PNG path
    while (I + 1 < A.size() &&
           (A[I].Text == "MIP_LEVELS" || A[I].Text == "SAMPLES")) {
      uint64_t N;
      if (!parseUnsigned(A[I + 1].Text, N) || N == 0 || N > 64)
        return err(Line, "BUFFER " + B.Name + ": " + A[I].Text +
                             " needs a count from 1 to 64");
      (A[I].Text == "MIP_LEVELS" ? B.MipLevels : B.Samples) = uint32_t(N);
      I += 2;
    }
    if (B.Samples != 1 && B.Samples != 2 && B.Samples != 4 && B.Samples != 8)
      return err(Line, "BUFFER " + B.Name + ": SAMPLES must be 1, 2, 4 or 8");
    if (I + 2 < A.size() && A[I].Text == "FILE" && A[I + 1].Text == "PNG")
      return parseBufferPng(Line, A, I, std::move(B));
  } else if (A[I].Text == "DATA_TYPE") {
    bool Std140 = false;
    size_t TypeAt = I + 1;
    I += 2;
    if (I < A.size() && (A[I].Text == "STD140" || A[I].Text == "STD430")) {
      Std140 = A[I].Text == "STD140";
      ++I;
    }
    auto F =
        Structs.count(A[TypeAt].Text)
            ? layoutStruct(A[TypeAt].Text, Structs.find(A[TypeAt].Text)->second,
                           Std140, Structs)
            : parseDataType(A[TypeAt].Text, Std140);
    if (!F && Structs.count(A[TypeAt].Text))
      return err(Line,
                 "STRUCT " + A[TypeAt].Text + ": " + toString(F.takeError()));
    if (!F) {
      consumeError(F.takeError());
      StringRef T = A[TypeAt].Text;
      if (T.ends_with("_PACK8") || T.ends_with("_PACK16") ||
          T.ends_with("_PACK32")) {
        unsupported(Line, "packed format '" + T + "'"); // not in the library
        return Error::success();
      }
      // Anything else names a STRUCT, which is skipped at its declaration;
      // an undeclared name is a syntax error.
      return err(Line, "unknown data type '" + A[TypeAt].Text + "'");
    }
    B.Format = std::move(*F);
  } else {
    return err(Line, "BUFFER " + B.Name +
                         ": expected DATA_TYPE or FORMAT, got '" + A[I].Text +
                         "'");
  }
  return parseBufferInitializer(Line, A, I, std::move(B));
}

Error Parser::parseBufferPng(unsigned Line, ArrayRef<Token> A, size_t I,
                             BufferDecl B) {
  // A 2D image of the PNG's size, its 8-bit RGBA texels in the
  // buffer's channel order (R8G8B8A8 or B8G8R8A8, UNORM or SRGB).
  B.PngPath = A[I + 2].Text;
  if (I + 3 < A.size())
    return err(Line, "unexpected '" + A[I + 3].Text + "' in BUFFER " + B.Name);
  const BufferFormat &F = B.Format;
  if (F.ElementSize != 4 || F.Components.size() != 4 ||
      llvm::any_of(F.Components, [](const Component &C) {
        return C.Bits != 8 || C.Channel == 0;
      }))
    return err(Line, "BUFFER " + B.Name +
                         ": FILE PNG needs an 8-bit "
                         "RGBA format, not " +
                         F.Name);
  auto Bytes = readFile(Line, B.PngPath);
  if (!Bytes)
    return Bytes.takeError();
  Result<Rgba8Image> Png = readPngBytes(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t *>(Bytes->data()),
                               Bytes->size()),
      B.PngPath);
  if (!Png.ok())
    return err(Line, "BUFFER " + B.Name + ": " + Png.status().message());
  B.Width = Png->Width;
  B.Height = Png->Height;
  B.ImageDim = 2;
  B.Data.assign(size_t(Png->Width) * Png->Height * 4, 0);
  for (size_t T = 0; T * 4 < B.Data.size(); ++T)
    for (const Component &C : F.Components)
      B.Data[T * 4 + C.Offset] =
          Png->Texels[T * 4 + size_t(StringRef("RGBA").find(C.Channel))];
  // The file is level 0; Amber blits the other levels from it.
  if (Error E = fillMipLevels(B))
    return err(Line, toString(std::move(E)));
  S.Buffers.push_back(std::move(B));
  return Error::success();
}

Error Parser::fillBuffer(unsigned Line, BufferDecl &B,
                         const std::vector<std::string> &Values) {
  const BufferFormat &F = B.Format;
  unsigned PerElem = F.valuesPerElement();
  size_t Elems = (Values.size() + PerElem - 1) / PerElem;
  B.Data.assign(Elems * F.ElementSize, 0);
  size_t V = 0;
  for (size_t E = 0; E < Elems; ++E)
    for (const Component &C : F.Components) {
      if (C.Padding || V >= Values.size())
        continue;
      if (Error Er = writeComponent(C, Values[V++],
                                    &B.Data[E * F.ElementSize + C.Offset]))
        return err(Line, "BUFFER " + B.Name + ": " + toString(std::move(Er)));
    }
  return Error::success();
}

Error Parser::parseBufferInitializer(unsigned Line, ArrayRef<Token> A, size_t I,
                                     BufferDecl B) {
  if (I >= A.size()) {
    // BUFFER name FORMAT fmt: an image sized by the pipeline.
    if (!B.Format.IsImage)
      return err(Line, "BUFFER " + B.Name + ": expected DATA, SIZE or FILE");
    S.Buffers.push_back(std::move(B));
    return Error::success();
  }
  StringRef Kw = A[I].Text;
  if (Kw == "DATA") {
    if (Error E = parseBufferData(Line, A, I, B))
      return E;
  } else if (Kw == "SIZE") {
    if (Error E = parseBufferSize(Line, A, I, B))
      return E;
  } else if (Kw == "WIDTH") {
    return parseBufferWidthHeight(Line, A, I, B);
  } else {
    return err(Line, "unexpected '" + Kw + "' in BUFFER");
  }
  S.Buffers.push_back(std::move(B));
  return Error::success();
}

Error Parser::parseBufferData(unsigned Line, ArrayRef<Token> A, size_t I,
                              BufferDecl &B) {
  std::vector<std::string> Values;
  for (++I; I < A.size(); ++I) {
    if (A[I].Text == "END")
      break;
    Values.push_back(A[I].Text);
  }
  if (I >= A.size()) {
    // The list goes on over the following lines.
    bool Ended = false;
    while (!atEnd()) {
      Token T = Toks[Pos++];
      if (T.Text == "END") {
        Ended = true;
        break;
      }
      Values.push_back(T.Text);
    }
    if (!Ended)
      return err(Line, "BUFFER " + B.Name + ": DATA without END");
  } else if (I + 1 < A.size()) {
    return err(Line, "unexpected '" + A[I + 1].Text + "' after END");
  }
  return fillBuffer(Line, B, Values);
}

namespace {

/// The values of a FILE TEXT buffer initializer, read as Amber's tokenizer
/// reads DATA: whitespace-separated values, '#' comments to the end of the
/// line (hexadecimal integers are writeComponent's).
std::vector<std::string> textFileValues(StringRef Content) {
  std::vector<std::string> Values;
  SmallVector<StringRef, 0> Lines;
  Content.split(Lines, '\n');
  for (StringRef Ln : Lines) {
    Ln = Ln.take_until([](char C) { return C == '#'; });
    while (true) {
      Ln = Ln.ltrim();
      if (Ln.empty())
        break;
      StringRef W = Ln.take_until([](char C) { return isSpace(C); });
      Values.push_back(W.str());
      Ln = Ln.drop_front(W.size());
    }
  }
  return Values;
}

} // namespace

Error Parser::parseBufferSize(unsigned Line, ArrayRef<Token> A, size_t I,
                              BufferDecl &B) {
  const BufferFormat &F = B.Format;
  unsigned PerElem = F.valuesPerElement();
  uint64_t N;
  if (I + 1 >= A.size() || !parseUnsigned(A[I + 1].Text, N))
    return err(Line, "BUFFER " + B.Name + ": SIZE needs a count");
  I += 2;
  // Keeps a typo from allocating gigabytes.
  if (N * std::max<uint32_t>(F.ElementSize, 1) > (1ull << 28))
    return err(Line, "BUFFER " + B.Name + ": SIZE too large (over 256 MiB)");
  std::vector<std::string> Values;
  if (I + 1 < A.size() && A[I].Text == "FILL") {
    Values.assign(N * PerElem, A[I + 1].Text);
    I += 2;
  } else if (I + 3 < A.size() && A[I].Text == "SERIES_FROM" &&
             A[I + 2].Text == "INC_BY") {
    double From, Inc;
    if (!parseDouble(A[I + 1].Text, From) || !parseDouble(A[I + 3].Text, Inc))
      return err(Line, "BUFFER " + B.Name + ": malformed SERIES_FROM");
    if (PerElem != 1)
      return err(Line,
                 "BUFFER " + B.Name + ": SERIES_FROM needs a scalar data type");
    bool IsFloat = F.Components[0].Kind == NumKind::Float;
    for (uint64_t K = 0; K < N; ++K) {
      double V = From + Inc * double(K);
      Values.push_back(IsFloat ? formatv("{0:e17}", V).str()
                               : std::to_string(int64_t(V)));
    }
    I += 4;
  } else if (I + 1 < A.size() && A[I].Text == "FILE") {
    // FILE [BINARY|TEXT] path: raw bytes, or values as in DATA.
    bool Binary = false;
    ++I;
    if (A[I].Text == "BINARY" || A[I].Text == "TEXT") {
      Binary = A[I].Text == "BINARY";
      ++I;
    }
    if (I >= A.size())
      return err(Line, "BUFFER " + B.Name + ": FILE needs a path");
    auto Content = readFile(Line, A[I].Text);
    if (!Content)
      return Content.takeError();
    ++I;
    if (Binary) {
      B.Data.assign(Content->begin(), Content->end());
    } else if (Error E = fillBuffer(Line, B, textFileValues(*Content))) {
      return E;
    }
    if (I < A.size())
      return err(Line, "unexpected '" + A[I].Text + "' in BUFFER");
    B.Data.resize(N * F.ElementSize);
    return Error::success();
  } else {
    return err(Line, "BUFFER " + B.Name +
                         ": SIZE needs FILL or SERIES_FROM ... INC_BY");
  }
  if (I < A.size())
    return err(Line, "unexpected '" + A[I].Text + "' in BUFFER");
  if (Error E = fillBuffer(Line, B, Values))
    return E;
  B.Data.resize(N * F.ElementSize);
  return Error::success();
}

Error Parser::parseBufferWidthHeight(unsigned Line, ArrayRef<Token> A, size_t I,
                                     BufferDecl &B) {
  // Deprecated: BUFFER b DATA_TYPE t WIDTH w HEIGHT h initializer, a
  // buffer of w * h elements.
  uint64_t W, H;
  if (I + 3 >= A.size() || A[I + 2].Text != "HEIGHT" ||
      !parseUnsigned(A[I + 1].Text, W) || !parseUnsigned(A[I + 3].Text, H) ||
      W == 0 || H == 0 || W * H > (1u << 28))
    return err(Line, "BUFFER " + B.Name + ": WIDTH w HEIGHT h needs sizes");
  B.Width = uint32_t(W);
  B.Height = uint32_t(H);
  std::vector<Token> Sized(A.begin(), A.begin() + I);
  Sized.push_back({"SIZE", Line});
  Sized.push_back({std::to_string(W * H), Line});
  Sized.insert(Sized.end(), A.begin() + I + 4, A.end());
  if (Sized.size() == I + 2) // no initializer: zeros
    Sized.insert(Sized.end(), {{"FILL", Line}, {"0", Line}});
  else if (Sized[I + 2].Text == "DATA") // DATA takes no SIZE
    Sized.erase(Sized.begin() + I, Sized.begin() + I + 2);
  uint32_t Wd = B.Width, Ht = B.Height;
  if (Error E = parseBufferArgs(Line, std::move(Sized)))
    return E;
  if (BufferDecl *Made = S.findBuffer(B.Name)) {
    Made->Width = Wd;
    Made->Height = Ht;
  }
  return Error::success();
}

Error Parser::parseImage(unsigned Line) {
  // IMAGE name (FORMAT f [MIP_LEVELS n] [SAMPLES n] | DATA_TYPE t [layout])
  //   DIM_1D|DIM_2D|DIM_3D WIDTH w [HEIGHT h [DEPTH d]] [initializer]
  // is a buffer of w * h * d elements with an image's shape; the
  // initializer is BUFFER's.
  std::vector<Token> A = restOfLine(Line);
  if (A.size() < 3 || (A[1].Text != "FORMAT" && A[1].Text != "DATA_TYPE"))
    return err(Line, "IMAGE needs a name and FORMAT or DATA_TYPE");
  std::vector<Token> Head(A.begin(), A.begin() + 3);
  size_t I = 3;
  if (A[1].Text == "DATA_TYPE" && I < A.size() &&
      (A[I].Text == "STD140" || A[I].Text == "STD430"))
    Head.push_back(A[I++]);
  uint32_t Dim = 0;
  uint64_t Size[3] = {0, 1, 1}, Mips = 1, Samples = 1;
  bool Given[3] = {false, false, false};
  for (; I < A.size(); ++I) {
    StringRef K = A[I].Text;
    if (K == "DIM_1D" || K == "DIM_2D" || K == "DIM_3D") {
      Dim = unsigned(K.back() == 'D' ? K[4] - '0' : 0);
      continue;
    }
    int Axis = StringSwitch<int>(K)
                   .Case("WIDTH", 0)
                   .Case("HEIGHT", 1)
                   .Case("DEPTH", 2)
                   .Default(-1);
    uint64_t *Slot = Axis >= 0           ? &Size[Axis]
                     : K == "MIP_LEVELS" ? &Mips
                     : K == "SAMPLES"    ? &Samples
                                         : nullptr;
    if (!Slot)
      break; // the initializer
    if (I + 1 >= A.size() || !parseUnsigned(A[I + 1].Text, *Slot) ||
        *Slot == 0 || *Slot > (1u << 16))
      return err(Line, "IMAGE " + A[0].Text + ": " + K +
                           " needs a number from 1 to 65536");
    if (Axis >= 0)
      Given[Axis] = true;
    ++I;
  }
  if (!Dim)
    return err(Line,
               "IMAGE " + A[0].Text + ": missing DIM_1D, DIM_2D or DIM_3D");
  if (!Given[0] || (Dim >= 2 && !Given[1]) || (Dim == 3 && !Given[2]))
    return err(Line, "IMAGE " + A[0].Text + ": DIM_" + Twine(Dim) +
                         "D needs WIDTH" + (Dim >= 2 ? ", HEIGHT" : "") +
                         (Dim == 3 ? " and DEPTH" : ""));
  if ((Dim < 2 && Given[1]) || (Dim < 3 && Given[2]))
    return err(Line, "IMAGE " + A[0].Text + ": too many sizes for DIM_" +
                         Twine(Dim) + "D");
  if (Samples != 1 && Samples != 2 && Samples != 4 && Samples != 8)
    return err(Line, "IMAGE " + A[0].Text + ": SAMPLES must be 1, 2, 4 or 8");
  if (Samples > 1 && Dim != 2)
    return err(Line, "IMAGE " + A[0].Text +
                         ": only DIM_2D images have "
                         "SAMPLES");
  uint64_t N = Size[0] * Size[1] * Size[2];
  if (N > (1u << 28))
    return err(Line, "IMAGE " + A[0].Text + ": too large");
  // Vulkan's limits on a chain: one level per halving of the largest side,
  // and single-sampled images only.
  uint64_t MaxLevels = 1;
  for (uint64_t Side = std::max({Size[0], Size[1], Size[2]}); Side > 1;
       Side >>= 1)
    ++MaxLevels;
  if (Mips > MaxLevels)
    return err(Line, "IMAGE " + A[0].Text + ": MIP_LEVELS " + Twine(Mips) +
                         ", but a " + Twine(Size[0]) + "x" + Twine(Size[1]) +
                         "x" + Twine(Size[2]) + " image has at most " +
                         Twine(MaxLevels));
  if (Mips > 1 && Samples > 1)
    return err(Line, "IMAGE " + A[0].Text +
                         ": a multisampled image has one mip level");
  bool HasInitializer = I < A.size();
  std::vector<Token> Args = Head;
  if (I < A.size() && A[I].Text == "DATA") {
    Args.insert(Args.end(), A.begin() + I, A.end());
  } else {
    Args.push_back({"SIZE", Line});
    Args.push_back({std::to_string(N), Line});
    if (I < A.size())
      Args.insert(Args.end(), A.begin() + I, A.end());
    else
      Args.insert(Args.end(), {{"FILL", Line}, {"0", Line}});
  }
  if (Error E = parseBufferArgs(Line, std::move(Args)))
    return E;
  BufferDecl *B = S.findBuffer(A[0].Text);
  if (!B) // an unsupported format: already marked
    return Error::success();
  // A DATA_TYPE image is an image of the matching format, as Amber makes
  // it (int32: R32_SINT, vec4<float>: R32G32B32A32_SFLOAT), so that it can
  // be a colour attachment. Types with padding (vec3) stay data.
  const BufferFormat &F = B->Format;
  if (!F.IsImage && !F.Components.empty() && F.Components.size() <= 4 &&
      llvm::none_of(F.Components, [&](const Component &C) {
        return C.Padding || C.Kind != F.Components[0].Kind ||
               C.Bits != F.Components[0].Bits;
      })) {
    std::string Name;
    for (size_t K = 0; K < F.Components.size(); ++K)
      Name += std::string(1, "RGBA"[K]) + std::to_string(F.Components[0].Bits);
    Name += F.Components[0].Kind == NumKind::Int    ? "_SINT"
            : F.Components[0].Kind == NumKind::UInt ? "_UINT"
                                                    : "_SFLOAT";
    if (auto IF = parseImageFormat(Name);
        IF && IF->ElementSize == F.ElementSize)
      B->Format = std::move(*IF);
    else if (!IF)
      consumeError(IF.takeError());
  }
  B->ImageDim = Dim;
  B->Width = uint32_t(Size[0]);
  B->Height = uint32_t(Size[1]);
  B->Depth = uint32_t(Size[2]);
  B->MipLevels = uint32_t(Mips);
  B->Samples = uint32_t(Samples);
  B->Data.resize(N * B->Format.ElementSize);
  if (Samples > 1) {
    // Vulkan cannot copy a buffer into a multisampled image, so a script's
    // initializer has no per-sample form: each texel's value goes to all
    // of its samples, which lie one after the other (BufferDecl::mipLevel).
    size_t Elem = B->Format.ElementSize;
    std::vector<uint8_t> PerSample(B->Data.size() * Samples);
    for (size_t T = 0; T < N; ++T)
      for (size_t K = 0; K < Samples; ++K)
        std::memcpy(&PerSample[(T * Samples + K) * Elem], &B->Data[T * Elem],
                    Elem);
    B->Data = std::move(PerSample);
  }
  if (Mips == 1)
    return Error::success();
  // The initializer fills level 0 and Amber's engine blits the others
  // from it when it uploads the image; without one every level is zero
  // (which is also what blits of zeros give, and integer formats, which
  // cannot be blitted linearly, may have a chain too).
  if (!HasInitializer) {
    B->Data.resize(B->mipChainBytes());
    return Error::success();
  }
  if (Error E = fillMipLevels(*B))
    return err(Line, "IMAGE " + A[0].Text + ": " + toString(std::move(E)));
  return Error::success();
}

} // namespace spirv2llvm::amber::detail
