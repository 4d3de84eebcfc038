//===- VkScriptImpl.h - The VkScript parser's internals ---------*- C++ -*-===//
//
// Shared by VkScriptParser.cpp (sections, [require], shaders, vertex data,
// the pipelines) and VkScriptCommands.cpp (the [test] commands). Not part
// of the amber library's interface: use parseVkScript (VkScriptParser.h).
//
// How VkScript maps onto the Script model (as Amber's own VkScript parser
// does): one compute pipeline "compute" when there is a compute shader;
// graphics pipelines "graphics", "graphics.1", ... (a new one whenever a
// pipeline setting such as depthTestEnable changes between draws), all
// drawing into the colour buffer "framebuffer" and the optional depth
// buffer "depthstencil". `ssbo`, `uniform ubo` and `uniform` data go to
// buffers "ssbo S:B", "ubo S:B" and "push_constants" bound to every
// pipeline, written by WriteBuffer/ResizeBuffer commands when the test
// reaches them. Storage data is laid out std430, uniform blocks std140.
//
//===----------------------------------------------------------------------===//
#ifndef SPIRV2LLVM_AMBER_VKSCRIPTIMPL_H
#define SPIRV2LLVM_AMBER_VKSCRIPTIMPL_H

#include "amber/AmberScript.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <array>
#include <set>
#include <string>
#include <vector>

namespace spirv2llvm::amber::vkscript {

/// A logical line of a non-shader section: comment stripped, `\`
/// continuations joined, numbered by its first physical line.
struct VkLine {
  unsigned No = 0;
  std::string Text;
};

/// A `[name]` section and its lines (raw for shaders).
struct Section {
  std::string Name;      ///< between the brackets, spaces collapsed
  unsigned HeaderLine = 0;
  std::vector<std::string> Raw; ///< the physical lines after the header
};

/// The words of a test line; '(' and ')' are words of their own and
/// commas separate words (probe coordinates and colours).
std::vector<std::string> splitWords(llvm::StringRef Line);

/// Amber's DATA_TYPE spelling of a VkScript type name (int, uint8_t, vec3,
/// dvec2, i64vec4, mat3x4, dmat2, ...), or "" when unknown.
std::string amberTypeName(llvm::StringRef T);

class VkParser {
public:
  VkParser(llvm::StringRef Text, llvm::StringRef BaseDir)
      : Text(Text), BaseDir(BaseDir) {}
  llvm::Expected<Script> parse();

private:
  llvm::StringRef Text;
  std::string BaseDir;
  Script S;

  // [require]
  uint32_t FbWidth = 250, FbHeight = 250;
  std::string FbFormat = "B8G8R8A8_UNORM", DepthFormat;
  bool Spirv14 = false;

  // Graphics state for the next draw; DrawPipeline names the pipeline
  // holding it, empty after a change (the next draw or clear makes one).
  PipelineDecl Graphics;
  std::string DrawPipeline;
  unsigned GraphicsCount = 0;
  bool HasCompute = false, HasGraphics = false;
  /// The compute entry point once a `compute` command used it.
  bool ComputeRan = false;

  // [test] state
  std::vector<Tolerance> Tolerances;
  std::array<double, 4> ClearColor = {0, 0, 0, 0};
  double ClearDepth = 1.0;
  uint32_t ClearStencil = 0;
  /// Buffers the test made, bound to every pipeline at the end.
  std::vector<BindDecl> DataBinds;
  /// ResizeBuffer commands (index into S.Commands) and their element
  /// counts: sized in the buffer's final type once the test is parsed.
  std::vector<std::pair<size_t, uint64_t>> Resizes;
  /// Data buffers whose type a subdata or probe has set (until then
  /// Amber's default, char).
  std::set<std::string> TypedBuffers;

  llvm::Error err(unsigned Line, const llvm::Twine &Msg);
  void unsupported(unsigned Line, const llvm::Twine &What);

  llvm::Error splitSections(std::vector<Section> &Out);
  std::vector<VkLine> logicalLines(const Section &Sec);
  llvm::Error parseRequire(const Section &Sec);
  llvm::Error parseShader(const Section &Sec);
  llvm::Error parseVertexData(const Section &Sec);
  llvm::Error parseIndices(const Section &Sec);
  void makePipelines();
  void finish();

  // VkScriptCommands.cpp
  llvm::Error parseTest(const Section &Sec);
  llvm::Error parseCommand(const VkLine &L, llvm::ArrayRef<std::string> W);
  llvm::Error parseProbe(const VkLine &L, llvm::ArrayRef<std::string> W);
  llvm::Error parseProbeSsbo(const VkLine &L, llvm::ArrayRef<std::string> W);
  llvm::Error parseSsbo(const VkLine &L, llvm::ArrayRef<std::string> W);
  llvm::Error parseUniform(const VkLine &L, llvm::ArrayRef<std::string> W);
  llvm::Error parseDraw(const VkLine &L, llvm::ArrayRef<std::string> W);
  llvm::Error parseSetting(const VkLine &L, llvm::ArrayRef<std::string> W,
                           bool &Handled);
  /// The graphics pipeline for the current state (made when needed).
  std::string currentGraphics();
  /// The buffer \p Name (made and bound as \p Kind at \p Set/\p Binding
  /// when new); an error when the binding is taken by another kind.
  llvm::Expected<BufferDecl *> dataBuffer(unsigned Line, BindKind Kind,
                                          uint32_t Set, uint32_t Binding);
  /// Packs \p Values as elements of \p F, from \p Line's command.
  llvm::Expected<std::vector<uint8_t>>
  pack(unsigned Line, const BufferFormat &F,
       llvm::ArrayRef<std::string> Values);
};

} // namespace spirv2llvm::amber::vkscript

#endif
