//===- ParserImpl.h - The AmberScript parser's internals --------*- C++ -*-===//
//
// Shared by AmberParser.cpp (top-level commands), PipelineParser.cpp
// (PIPELINE and DERIVE_PIPELINE blocks) and DeviceFeatures.cpp. Not part
// of the amber library's interface: use parseScript (AmberParser.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_PARSERIMPL_H
#define SPIRV2LLVM_AMBER_PARSERIMPL_H

#include "amber/AmberScript.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace spirv2llvm::amber::detail {

/// Why some image features SKIP for now: images, samplers and texel
/// buffers are bound (AmberImages.h), but mip chains are not made.
inline constexpr const char *ImagesPending =
    "mip levels: not supported yet";

struct Token {
  std::string Text;
  unsigned Line;
  bool Raw = false; ///< a shader body
};

/// Parses a token list into a Script; see AmberParser.h.
class Parser {
public:
  Parser(std::vector<Token> Toks, llvm::StringRef BaseDir)
      : Toks(std::move(Toks)), BaseDir(BaseDir) {}
  llvm::Expected<Script> parse();

private:
  std::vector<Token> Toks;
  size_t Pos = 0;
  std::string BaseDir;
  Script S;
  StructTable Structs;

  bool atEnd() const { return Pos >= Toks.size(); }
  const Token &peek() const { return Toks[Pos]; }
  llvm::Error err(unsigned Line, const llvm::Twine &Msg) {
    return makeError("line " + llvm::Twine(Line) + ": " + Msg);
  }
  /// The rest of the tokens on line \p Line (consumed).
  std::vector<Token> restOfLine(unsigned Line) {
    std::vector<Token> R;
    while (!atEnd() && peek().Line == Line && !peek().Raw)
      R.push_back(Toks[Pos++]);
    return R;
  }
  void unsupported(unsigned Line, const llvm::Twine &What) {
    if (!S.Unsupported)
      S.Unsupported = ("line " + llvm::Twine(Line) + ": " + What).str();
  }

  llvm::Error parseCommand(std::vector<Command> &Out);
  llvm::Error parseShader(unsigned Line);
  llvm::Error parseBuffer(unsigned Line);
  /// BUFFER's arguments (name first), with the rest of the script after
  /// them (a DATA list may go on over the following lines).
  llvm::Error parseBufferArgs(unsigned Line, std::vector<Token> A);
  llvm::Error parseImage(unsigned Line);
  llvm::Error parseSampler(unsigned Line);
  /// Records something the runner cannot do yet but whose syntax is
  /// parsed: the script goes on being parsed (so a later syntax error is
  /// still reported) and SKIPs with this reason at the end, unless an
  /// earlier unsupported feature stops it first.
  void deferUnsupported(unsigned Line, const llvm::Twine &What) {
    if (!Deferred)
      Deferred = ("line " + llvm::Twine(Line) + ": " + What).str();
  }
  std::optional<std::string> Deferred;
  llvm::Error parsePipeline(unsigned Line);
  llvm::Error parseDerivePipeline(unsigned Line);
  llvm::Error parsePipelineBody(unsigned Line, PipelineDecl P);
  /// DEPTH, STENCIL face or BLEND ... END into \p St (\p Args: the rest
  /// of the opening line); \p Skip when it hit an unsupported feature.
  /// MULTISAMPLE ... END into \p St.
  llvm::Error parseMultisample(unsigned Line, llvm::ArrayRef<Token> Args,
                               GraphicsStateDecl &St);
  llvm::Error parseStateBlock(unsigned Line, llvm::StringRef Cmd,
                              llvm::ArrayRef<Token> Args, GraphicsStateDecl &St,
                              bool &Skip);
  llvm::Error parseExpect(unsigned Line, std::vector<Token> Args,
                    std::vector<Command> &Out);
  llvm::Error parseRun(unsigned Line, std::vector<Token> Args,
                 std::vector<Command> &Out);
  llvm::Expected<std::string> readFile(unsigned Line, llvm::StringRef Path);
};

bool parseDouble(llvm::StringRef T, double &D);
bool parseUnsigned(llvm::StringRef T, uint64_t &U);

/// Whether the runner provides the Vulkan device feature / extension
/// (DEVICE_FEATURE, DEVICE_EXTENSION names as Amber spells them).
bool featureSupported(llvm::StringRef F);
bool extensionSupported(llvm::StringRef E);

} // namespace spirv2llvm::amber::detail

#endif
