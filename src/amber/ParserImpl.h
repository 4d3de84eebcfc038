//===- ParserImpl.h - The AmberScript parser's internals --------*- C++ -*-===//
//
// Shared by AmberParser.cpp (top-level commands), BufferParser.cpp (BUFFER
// and IMAGE), PipelineParser.cpp (PIPELINE and DERIVE_PIPELINE blocks) and
// DeviceFeatures.cpp. Not part of the amber library's interface: use
// parseScript (AmberParser.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_PARSERIMPL_H
#define SPIRV2LLVM_AMBER_PARSERIMPL_H

#include "amber/AmberScript.h"
#include "support/Diagnostic.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace spirv2llvm::amber::detail {

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
  // The parts of BUFFER after its format: \p A are BUFFER's arguments, \p I
  // the index of the part's keyword in them, \p B the buffer so far.
  /// FILE PNG path: the image read, then the buffer added.
  llvm::Error parseBufferPng(unsigned Line, llvm::ArrayRef<Token> A, size_t I,
                             BufferDecl B);
  /// The initializer (none, DATA, SIZE or WIDTH), then the buffer added.
  llvm::Error parseBufferInitializer(unsigned Line, llvm::ArrayRef<Token> A,
                                     size_t I, BufferDecl B);
  llvm::Error parseBufferData(unsigned Line, llvm::ArrayRef<Token> A, size_t I,
                              BufferDecl &B);
  /// SIZE n FILL v | SERIES_FROM a INC_BY b | FILE [BINARY|TEXT] path.
  llvm::Error parseBufferSize(unsigned Line, llvm::ArrayRef<Token> A, size_t I,
                              BufferDecl &B);
  /// The deprecated WIDTH w HEIGHT h: BUFFER again with SIZE w * h (which
  /// adds the buffer), then its width and height set.
  llvm::Error parseBufferWidthHeight(unsigned Line, llvm::ArrayRef<Token> A,
                                     size_t I, BufferDecl &B);
  /// B.Data from \p Values, element by element in B's format (padding
  /// skipped; a short list leaves zeros).
  llvm::Error fillBuffer(unsigned Line, BufferDecl &B,
                         const std::vector<std::string> &Values);
  /// STRUCT name (\p A: the rest of the line), its members up to END.
  llvm::Error parseStruct(unsigned Line, llvm::ArrayRef<Token> A);
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
  /// The commands of a PIPELINE block up to its END into \p P, which is
  /// added to the script unless a command hit an unsupported feature.
  llvm::Error parsePipelineBody(unsigned Line, PipelineDecl P);

  // The PIPELINE commands. Each takes the command's line, its name and the
  // rest of its line (\p Args) and parses it into \p P. One that hits an
  // unsupported feature calls unsupported() and returns success: the
  // callers stop when S.Unsupported is set (nothing sets it before a
  // PIPELINE is parsed, as parse() stops there).
  using PipelineCommandFn = llvm::Error (Parser::*)(unsigned Line,
                                                    llvm::StringRef Cmd,
                                                    llvm::ArrayRef<Token> Args,
                                                    PipelineDecl &P);
  /// Dispatches one command by name (tables of the commands in
  /// PipelineParser.cpp), checking the number of arguments first.
  llvm::Error parsePipelineCommand(unsigned Line, llvm::StringRef Cmd,
                                   llvm::ArrayRef<Token> Args, PipelineDecl &P);
  llvm::Error parseAttach(unsigned Line, llvm::StringRef Cmd,
                          llvm::ArrayRef<Token> Args, PipelineDecl &P);
  /// ATTACH's SPECIALIZE id AS type value, starting at Args[\p I].
  llvm::Error parseSpecialization(unsigned Line, llvm::ArrayRef<Token> Args,
                                  size_t I, AttachDecl &At);
  /// BIND SAMPLER[_ARRAY] or BIND BUFFER[_ARRAY]; a later BIND of the same
  /// slot replaces the earlier one.
  llvm::Error parseBind(unsigned Line, llvm::StringRef Cmd,
                        llvm::ArrayRef<Token> Args, PipelineDecl &P);
  llvm::Error parseBindSampler(unsigned Line, llvm::ArrayRef<Token> Args,
                               PipelineDecl &P);
  llvm::Error parseBindBuffer(unsigned Line, llvm::ArrayRef<Token> Args,
                              PipelineDecl &P);
  /// The descriptor kind after BIND BUFFER ... AS (\p Kind, without
  /// _dynamic) into \p Bd; \p I moves past a combined_image_sampler's
  /// SAMPLER s.
  llvm::Error parseBindKind(unsigned Line, llvm::StringRef Kind,
                            llvm::ArrayRef<Token> Args, size_t &I,
                            BindDecl &Bd);
  /// BIND BUFFER's options from Args[\p I] on (DESCRIPTOR_SET, BINDING,
  /// LOCATION, BASE_MIP_LEVEL, and per descriptor OFFSET (\p Dynamic
  /// only), DESCRIPTOR_OFFSET and DESCRIPTOR_RANGE).
  llvm::Error parseBindOptions(unsigned Line, llvm::ArrayRef<Token> Args,
                               size_t I, bool Dynamic, BindDecl &Bd);
  llvm::Error parseVertexData(unsigned Line, llvm::StringRef Cmd,
                              llvm::ArrayRef<Token> Args, PipelineDecl &P);
  llvm::Error parseIndexData(unsigned Line, llvm::StringRef Cmd,
                             llvm::ArrayRef<Token> Args, PipelineDecl &P);
  llvm::Error parseViewport(unsigned Line, llvm::StringRef Cmd,
                            llvm::ArrayRef<Token> Args, PipelineDecl &P);
  llvm::Error parseFramebufferSize(unsigned Line, llvm::StringRef Cmd,
                                   llvm::ArrayRef<Token> Args, PipelineDecl &P);
  /// SUBGROUP ... END (nothing to configure).
  llvm::Error parseSubgroup(unsigned Line, llvm::StringRef Cmd,
                            llvm::ArrayRef<Token> Args, PipelineDecl &P);
  llvm::Error parseBlendConstantsOrScissor(unsigned Line, llvm::StringRef Cmd,
                                           llvm::ArrayRef<Token> Args,
                                           PipelineDecl &P);
  /// SHADER_OPTIMIZATION shader / spirv-opt flags / END into the shader's
  /// attachment.
  llvm::Error parseShaderOptimization(unsigned Line, llvm::StringRef Cmd,
                                      llvm::ArrayRef<Token> Args,
                                      PipelineDecl &P);
  /// MULTISAMPLE ... END into P.State.
  llvm::Error parseMultisample(unsigned Line, llvm::StringRef Cmd,
                               llvm::ArrayRef<Token> Args, PipelineDecl &P);
  /// DEPTH, STENCIL face or BLEND ... END into P.State.
  llvm::Error parseStateBlock(unsigned Line, llvm::StringRef Cmd,
                              llvm::ArrayRef<Token> Args, PipelineDecl &P);
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
