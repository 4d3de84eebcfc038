//===- DiagnosticsTest.cpp - Malformed input gives a located diagnostic ---===//
//
// A table of malformed binaries (SPIRV-Tools test/binary_parse_test.cpp
// style), each run through the command line in process, once with
// --no-validate (the translator's own decoder and parser see the input) and
// once with the SPIRV-Tools validator in front. Every row must exit 1 with one
// "spirv2llvm: error: FILE: ..." line that says what is wrong and, when the
// input has a location, where ("word N", the opcode, the id). Rows are made
// by corrupting the example module, found by walking word counts, so the
// expected offsets and ids come from the module rather than being copied by
// hand. Bad command lines exit 2 and point at --help.
//
//===----------------------------------------------------------------------===//

#include "Cli.h"
#include "frontend/Frontend.h"
#include "spirv2llvm/spirv2llvm.h"

#include <spirv/unified1/spirv.hpp11>

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace spirv2llvm;

namespace {

using Words = std::vector<uint32_t>;

constexpr size_t HeaderWords = 5;
constexpr uint32_t BoundWord = 3;
const char *const ErrorPrefix = "spirv2llvm: error: ";

//===----------------------------------------------------------------------===//
// The valid module and ways to find and corrupt its instructions.
//===----------------------------------------------------------------------===//

/// kazan-example-valid.spvasm assembled with its own numeric ids. Assembled
/// once; every row corrupts a copy.
const Words &validModule() {
  static const Words Module = [] {
    std::string Path = std::string(S2L_SOURCE_DIR) +
                       "/shaders/examples/kazan-example-valid.spvasm";
    auto Text = llvm::MemoryBuffer::getFile(Path);
    if (!Text) {
      ADD_FAILURE() << "cannot read " << Path;
      return Words();
    }
    auto W = frontend::assembleSpirv((*Text)->getBuffer(),
                                     SPV_ENV_UNIVERSAL_1_0, Path);
    if (!W) {
      ADD_FAILURE() << llvm::toString(W.takeError());
      return Words();
    }
    return std::move(*W);
  }();
  return Module;
}

spv::Op opcodeAt(const Words &W, size_t Offset) {
  return static_cast<spv::Op>(W[Offset] & 0xffff);
}

/// Word offset of the \p Nth instruction with opcode \p Op (0 = first),
/// found by following word counts from the header.
std::optional<uint32_t> instAt(const Words &W, spv::Op Op, unsigned Nth = 0) {
  for (size_t Offset = HeaderWords; Offset < W.size();) {
    uint32_t Count = W[Offset] >> 16;
    if (Count == 0)
      break;
    if (opcodeAt(W, Offset) == Op && Nth-- == 0)
      return uint32_t(Offset);
    Offset += Count;
  }
  return std::nullopt;
}

/// As instAt, but the instruction must exist: fails the test (and returns
/// 0) when it does not.
uint32_t findInst(const Words &W, spv::Op Op, unsigned Nth = 0) {
  if (std::optional<uint32_t> Offset = instAt(W, Op, Nth))
    return *Offset;
  ADD_FAILURE() << "the example module has no such instruction (opcode "
                << uint32_t(Op) << ")";
  return 0;
}

/// The id the instruction at \p Offset defines (result-type instructions
/// have it in word 2, others such as OpLabel and OpTypeX in word 1).
uint32_t resultIdAt(const Words &W, size_t Offset, bool HasResultType) {
  return W[Offset + (HasResultType ? 2 : 1)];
}

/// The label of the block that holds the instruction at \p Offset: the
/// last OpLabel before it.
uint32_t labelOfBlockAt(const Words &W, uint32_t Offset) {
  uint32_t Label = 0;
  for (unsigned N = 0;; ++N) {
    std::optional<uint32_t> At = instAt(W, spv::Op::OpLabel, N);
    if (!At || *At > Offset)
      break;
    Label = resultIdAt(W, *At, /*HasResultType=*/false);
  }
  EXPECT_NE(Label, 0u) << "no block before word " << Offset;
  return Label;
}

uint32_t opWord(uint32_t WordCount, spv::Op Op) {
  return WordCount << 16 | uint32_t(Op);
}

/// A row's input and the facts its expected messages refer to.
struct Input {
  std::vector<uint8_t> Bytes;
  /// Word offset of the offending instruction (or header word): "{W}" in
  /// the expected messages.
  std::optional<uint32_t> Word;
  /// The offending id: "{ID}" in the expected messages.
  uint32_t Id = 0;
};

std::vector<uint8_t> hostBytes(const Words &W) {
  std::vector<uint8_t> Bytes(W.size() * 4);
  if (!W.empty())
    std::memcpy(Bytes.data(), W.data(), Bytes.size());
  return Bytes;
}

Input makeInput(const Words &W, std::optional<uint32_t> Word = std::nullopt,
                uint32_t Id = 0) {
  return Input{hostBytes(W), Word, Id};
}

//===----------------------------------------------------------------------===//
// The table.
//===----------------------------------------------------------------------===//

struct DiagnosticCase {
  const char *Name;
  Input (*Make)();
  /// Arguments before the input file (--no-validate is added for the
  /// unvalidated run).
  std::vector<std::string> ExtraArgs;
  int ExitCode;
  /// Substrings of the message with --no-validate, and with validation.
  /// "{W}" is replaced by Input::Word, "{ID}" by Input::Id.
  std::vector<std::string> NoValidate;
  std::vector<std::string> Validate;
};

// Expected messages spell out the translator's own diagnostics in full
// (what, where: word offset, opcode, id). The validator's text belongs to
// SPIRV-Tools, so with validation the rows check that the message says
// validation failed, where, and the key fact, not its exact wording.
const DiagnosticCase Cases[] = {
    // --- The file as a whole ---------------------------------------------
    {"EmptyFile",
     [] { return Input{}; },
     {},
     1,
     {"empty file"},
     {"empty file"}},
    {"SizeNotMultipleOf4",
     [] {
       Input In = makeInput(validModule());
       In.Bytes.resize(In.Bytes.size() - 2);
       In.Id = uint32_t(In.Bytes.size()); // "{ID}" is the size in bytes here
       return In;
     },
     {},
     1,
     {"size {ID} is not a multiple of 4 bytes"},
     {"size {ID} is not a multiple of 4 bytes"}},
    {"WrongMagic",
     [] {
       Words W = validModule();
       W[0] = 0xdeadbeef;
       return makeInput(W, 0);
     },
     {},
     1,
     {"word {W}: bad magic number 0xdeadbeef"},
     {"word {W}: bad magic number 0xdeadbeef"}},
    {"TruncatedHeader",
     [] {
       Words W(validModule().begin(), validModule().begin() + 3);
       return makeInput(W, 3);
     },
     {},
     1,
     {"word {W}: truncated header: expected 5 words, got 3"},
     {"validation failed", "header"}},
    {"BadVersion",
     [] {
       Words W = validModule();
       W[1] = 0x00020000;
       return makeInput(W, 1);
     },
     {},
     1,
     {"word {W}: unsupported: SPIR-V version word 0x00020000"},
     {"validation failed", "header"}},
    {"IdBoundTooLarge",
     [] {
       Words W = validModule();
       W[BoundWord] = 0x7fffffff;
       return makeInput(W, BoundWord);
     },
     {},
     1,
     {"word {W}: id bound 2147483647 exceeds the limit"},
     {"validation failed", "bound"}},
    {"NonZeroSchema",
     [] {
       Words W = validModule();
       W[4] = 7;
       return makeInput(W, 4);
     },
     {},
     1,
     {"word {W}: reserved schema word is 7, expected 0"},
     {"word {W}: reserved schema word is 7, expected 0"}},
    {"HeaderOnly",
     [] {
       Words W(validModule().begin(), validModule().begin() + HeaderWords);
       return makeInput(W);
     },
     {},
     1,
     {"module has no entry point"},
     {"validation failed", "OpMemoryModel"}},

    // --- Word counts and opcodes -----------------------------------------
    {"TruncatedInstruction",
     [] {
       const Words &V = validModule();
       // Cut the first OpPhi after its result id: the operands are missing.
       uint32_t At = findInst(V, spv::Op::OpPhi);
       return makeInput(Words(V.begin(), V.begin() + At + 3), At);
     },
     {},
     1,
     {"word {W}: end of input reached while decoding OpPhi starting at "
      "word {W}"},
     {"word {W}: validation failed", "OpPhi"}},
    {"WordCountZero",
     [] {
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpLoad);
       W[At] = opWord(0, spv::Op::OpLoad);
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpLoad: invalid instruction word count: 0"},
     {"word {W}: validation failed", "word count: 0"}},
    {"WordCountPastEnd",
     [] {
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpReturn);
       W[At] = opWord(5, spv::Op::OpReturn);
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: invalid instruction OpReturn starting at word {W}",
      "word count is 5"},
     {"word {W}: validation failed", "OpReturn"}},
    {"UnknownOpcode",
     [] {
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpLoad);
       W[At] = (W[At] & 0xffff0000) | 9999;
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: invalid opcode: 9999"},
     {"word {W}: validation failed", "9999"}},

    // --- Ids ----------------------------------------------------------------
    {"ResultIdAtBound",
     [] {
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpLoad);
       W[At + 2] = W[BoundWord];
       return makeInput(W, At, W[BoundWord]);
     },
     {},
     1,
     {"word {W}: OpLoad result id {ID} is not below the id bound {ID}"},
     {"word {W}: validation failed", "{ID}"}},
    {"OperandIdAboveBound",
     [] {
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpLoad);
       W[At + 3] = 1000;
       return makeInput(W, At, 1000);
     },
     {},
     1,
     {"word {W}: OpLoad uses id {ID} which is not below the id bound"},
     {"word {W}: validation failed", "{ID}"}},
    {"OperandIdZero",
     [] {
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpLoad);
       W[At + 3] = 0;
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpLoad: id is 0"},
     {"word {W}: validation failed", "0"}},
    {"UndefinedId",
     [] {
       Words W = validModule();
       // Raise the bound so that an id below it is left undefined.
       uint32_t Unused = W[BoundWord] + 4;
       W[BoundWord] += 8;
       uint32_t At = findInst(W, spv::Op::OpLoad);
       W[At + 3] = Unused;
       return makeInput(W, At, Unused);
     },
     {},
     1,
     {"word {W}: OpLoad: use of undefined id %{ID}"},
     {"word {W}: validation failed", "{ID}"}},
    {"IdDefinedTwice",
     [] {
       Words W = validModule();
       // %17 = OpConvertFToS %int %16 becomes %16 = OpConvertFToS %int %16.
       uint32_t Load = findInst(W, spv::Op::OpLoad);
       uint32_t At = findInst(W, spv::Op::OpConvertFToS);
       W[At + 2] = resultIdAt(W, Load, true);
       return makeInput(W, At, W[At + 2]);
     },
     {},
     1,
     {"word {W}: OpConvertFToS: ", "id {ID} is defined "},
     {"word {W}: validation failed", "{ID}"}},
    {"LoadFromTypeId",
     [] {
       Words W = validModule();
       uint32_t Float = resultIdAt(W, findInst(W, spv::Op::OpTypeFloat), false);
       uint32_t At = findInst(W, spv::Op::OpLoad);
       W[At + 3] = Float;
       return makeInput(W, At, Float);
     },
     {},
     1,
     {"word {W}: OpLoad: operand %float is a type, which is not allowed here"},
     {"word {W}: validation failed", "{ID}"}},
    {"BranchToConstant",
     [] {
       Words W = validModule();
       uint32_t Zero = resultIdAt(W, findInst(W, spv::Op::OpConstant), true);
       uint32_t At = findInst(W, spv::Op::OpBranch);
       W[At + 1] = Zero;
       return makeInput(W, At, Zero);
     },
     {},
     1,
     {"word {W}: OpBranch: operand %int_0 is a constant, which is not allowed "
      "here"},
     {"word {W}: validation failed", "OpBranch"}},
    {"VectorOfNonType",
     [] {
       Words W = validModule();
       // Insert "%new = OpTypeVector %int_0 4" before the first variable.
       uint32_t Zero = resultIdAt(W, findInst(W, spv::Op::OpConstant), true);
       uint32_t New = W[BoundWord]++;
       uint32_t At = findInst(W, spv::Op::OpVariable);
       W.insert(W.begin() + At,
                {opWord(4, spv::Op::OpTypeVector), New, Zero, 4});
       return makeInput(W, At, Zero);
     },
     {},
     1,
     {"word {W}: OpTypeVector: component type %int_0 is not a type"},
     {"word {W}: validation failed", "OpTypeVector"}},
    {"EntryPointNotAFunction",
     [] {
       Words W = validModule();
       // Point OpEntryPoint and OpExecutionMode at the first label.
       uint32_t Label = resultIdAt(W, findInst(W, spv::Op::OpLabel), false);
       uint32_t At = findInst(W, spv::Op::OpEntryPoint);
       W[At + 2] = Label;
       W[findInst(W, spv::Op::OpExecutionMode) + 1] = Label;
       return makeInput(W, At, Label);
     },
     {},
     1,
     {"word {W}: OpEntryPoint: entry point \"main\": %{ID} is not a function"},
     {"word {W}: validation failed", "{ID}"}},

    // --- Capabilities and execution models -------------------------------
    {"UnsupportedCapabilityKernel",
     [] {
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpCapability);
       W[At + 1] = uint32_t(spv::Capability::Kernel);
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpCapability: unsupported: capability Kernel"},
     {"validation failed"}},
    {"UnsupportedCapabilityTessellation",
     [] {
       // Valid (Tessellation is allowed in Vulkan and implies Shader), so the
       // translator's own check must fire after validation too.
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpCapability) + 2;
       W.insert(W.begin() + At, {opWord(2, spv::Op::OpCapability),
                                 uint32_t(spv::Capability::Tessellation)});
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpCapability: unsupported: capability Tessellation"},
     {"word {W}: OpCapability: unsupported: capability Tessellation"}},
    {"UnsupportedModelTessellationEvaluation",
     [] {
       // Shader only, so no capability check fires: the model is rejected
       // by name (the validator wants the Tessellation capability first).
       // Geometry, once here, is supported (docs/graphics.md).
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpEntryPoint);
       W[At + 1] = uint32_t(spv::ExecutionModel::TessellationEvaluation);
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpEntryPoint: entry point \"main\": unsupported: execution "
      "model TessellationEvaluation"},
     {"word {W}: validation failed", "Tessellation"}},
    {"UnsupportedModelTessellationControl",
     [] {
       Words W = validModule();
       uint32_t At = findInst(W, spv::Op::OpEntryPoint);
       W[At + 1] = uint32_t(spv::ExecutionModel::TessellationControl);
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpEntryPoint: entry point \"main\": unsupported: execution "
      "model TessellationControl"},
     {"word {W}: validation failed", "Tessellation"}},
    {"TessellationModelWithItsCapability",
     [] {
       // A valid tessellation control shader (OriginUpperLeft becomes
       // OutputVertices 3). The capability comes first in the module, so it
       // is what the translator names, with or without validation.
       Words W = validModule();
       uint32_t EP = findInst(W, spv::Op::OpEntryPoint);
       W[EP + 1] = uint32_t(spv::ExecutionModel::TessellationControl);
       uint32_t Mode = findInst(W, spv::Op::OpExecutionMode);
       W[Mode] = opWord(4, spv::Op::OpExecutionMode);
       W[Mode + 2] = uint32_t(spv::ExecutionMode::OutputVertices);
       W.insert(W.begin() + Mode + 3, 3);
       uint32_t At = findInst(W, spv::Op::OpCapability) + 2;
       W.insert(W.begin() + At, {opWord(2, spv::Op::OpCapability),
                                 uint32_t(spv::Capability::Tessellation)});
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpCapability: unsupported: capability Tessellation"},
     {"word {W}: OpCapability: unsupported: capability Tessellation"}},

    // --- Functions and blocks --------------------------------------------
    {"FunctionWithoutEnd",
     [] {
       Words W = validModule();
       EXPECT_EQ(opcodeAt(W, W.size() - 1), spv::Op::OpFunctionEnd);
       W.pop_back();
       uint32_t At = findInst(W, spv::Op::OpFunction);
       return makeInput(W, At, resultIdAt(W, At, true));
     },
     {},
     1,
     {"word {W}: OpFunction: function %main has no OpFunctionEnd"},
     {"validation failed", "OpFunctionEnd"}},
    {"BlockWithoutTerminatorAtFunctionEnd",
     [] {
       Words W = validModule();
       uint32_t Return = findInst(W, spv::Op::OpReturn);
       uint32_t Block = labelOfBlockAt(W, Return);
       W.erase(W.begin() + Return);
       // OpFunctionEnd now sits where OpReturn was.
       return makeInput(W, Return, Block);
     },
     {},
     1,
     {"word {W}: OpFunctionEnd: block %{ID} has no terminator"},
     {"word {W}: validation failed", "OpFunctionEnd"}},
    {"BlockWithoutTerminatorBeforeLabel",
     [] {
       Words W = validModule();
       // Drop the one-word-operand branch that ends the block before the
       // last one (the loop's back edge): that block runs into the last
       // OpLabel, which then sits at the branch's offset.
       uint32_t LastLabel = 0;
       for (unsigned N = 0; instAt(W, spv::Op::OpLabel, N); ++N)
         LastLabel = *instAt(W, spv::Op::OpLabel, N);
       uint32_t Term = LastLabel - 2;
       EXPECT_EQ(opcodeAt(W, Term), spv::Op::OpBranch);
       uint32_t Block = labelOfBlockAt(W, Term);
       W.erase(W.begin() + Term, W.begin() + Term + 2);
       return makeInput(W, Term, Block);
     },
     {},
     1,
     {"word {W}: OpLabel: block %{ID} has no terminator"},
     {"word {W}: validation failed", "branch"}},

    // --- Operand and result types (parser/TypeCheck.cpp) ------------------
    {"BranchOnInteger",
     [] {
       Words W = validModule();
       // OpBranchConditional %29 ... branches on %28 = OpBitwiseAnd instead.
       uint32_t And = resultIdAt(W, findInst(W, spv::Op::OpBitwiseAnd), true);
       uint32_t At = findInst(W, spv::Op::OpBranchConditional, 1);
       W[At + 1] = And;
       return makeInput(W, At, And);
     },
     {},
     1,
     {"word {W}: OpBranchConditional: operand %{ID} of type %int is not a "
      "boolean scalar"},
     {"word {W}: validation failed", "OpBranchConditional"}},
    {"FloatOpcodeOnIntegers",
     [] {
       Words W = validModule();
       // %31 = OpBitwiseOr %int %19 %int_1 becomes an OpFRem of integers.
       uint32_t At = findInst(W, spv::Op::OpBitwiseOr);
       W[At] = opWord(5, spv::Op::OpFRem);
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpFRem: result type %int is not a float scalar or vector"},
     {"word {W}: validation failed", "OpFRem"}},
    {"IntegerOpcodeOnFloat",
     [] {
       Words W = validModule();
       // %23 = OpIAdd %int %22 %int_1 adds the float %16 instead of %22.
       uint32_t Float = resultIdAt(W, findInst(W, spv::Op::OpLoad), true);
       uint32_t At = findInst(W, spv::Op::OpIAdd);
       W[At + 3] = Float;
       return makeInput(W, At, Float);
     },
     {},
     1,
     {"word {W}: OpIAdd: operand %{ID} of type %float is not an integer "
      "scalar or vector"},
     {"word {W}: validation failed", "OpIAdd"}},
    {"ConvertFromWrongKind",
     [] {
       Words W = validModule();
       // %17 = OpConvertFToS %int %16 converts %int_1 instead.
       uint32_t One = resultIdAt(W, findInst(W, spv::Op::OpConstant, 1), true);
       uint32_t At = findInst(W, spv::Op::OpConvertFToS);
       W[At + 3] = One;
       return makeInput(W, At, One);
     },
     {},
     1,
     {"word {W}: OpConvertFToS: operand %int_1 of type %int is not a float "
      "scalar or vector"},
     {"word {W}: validation failed", "OpConvertFToS"}},
    {"LoadOfWrongType",
     [] {
       Words W = validModule();
       // %16 = OpLoad %float %in_ claims to load an %int.
       uint32_t Int = resultIdAt(W, findInst(W, spv::Op::OpTypeInt), false);
       uint32_t At = findInst(W, spv::Op::OpLoad);
       W[At + 1] = Int;
       return makeInput(W, At);
     },
     {},
     1,
     {"word {W}: OpLoad: result type %int is not the pointee type %float of "
      "%in_"},
     {"word {W}: validation failed", "OpLoad"}},
    {"StoreOfWrongType",
     [] {
       Words W = validModule();
       // OpStore %out_ %19 stores the float %16.
       uint32_t Float = resultIdAt(W, findInst(W, spv::Op::OpLoad), true);
       uint32_t At = findInst(W, spv::Op::OpStore);
       W[At + 2] = Float;
       return makeInput(W, At, Float);
     },
     {},
     1,
     {"word {W}: OpStore: operand %{ID} of type %float is not of the pointee "
      "type %int of %out_"},
     {"word {W}: validation failed", "OpStore"}},
    {"PhiOfWrongType",
     [] {
       Words W = validModule();
       // %19 = OpPhi %int %int_0 %15 ... takes the float %16 from %15.
       uint32_t Float = resultIdAt(W, findInst(W, spv::Op::OpLoad), true);
       uint32_t At = findInst(W, spv::Op::OpPhi);
       W[At + 3] = Float;
       return makeInput(W, At, Float);
     },
     {},
     1,
     {"word {W}: OpPhi: operand %{ID} of type %float is not of the result "
      "type %int"},
     {"word {W}: validation failed", "OpPhi"}},

    // --- Limits (support/Limits.h; tests/limits has the big modules) -------
    {"IdBoundOverLimit",
     [] {
       Words W = validModule();
       W[BoundWord] = 0x400001;
       return makeInput(W, BoundWord);
     },
     {},
     1,
     {"word {W}: id bound 4194305 exceeds the limit 4194304"},
     {"validation failed", "id bound"}},
    {"TypeLargerThanLimit",
     [] {
       Words W = validModule();
       // Insert %big = OpConstant %int 0x1000000, %a = OpTypeArray %float
       // %big (64 MiB) and %aa = OpTypeArray %a %big (1 PiB) before the
       // first variable. Unused, so canonicalization would drop them.
       uint32_t Int = resultIdAt(W, findInst(W, spv::Op::OpTypeInt), false);
       uint32_t Float = resultIdAt(W, findInst(W, spv::Op::OpTypeFloat), false);
       uint32_t Big = W[BoundWord]++, A = W[BoundWord]++, AA = W[BoundWord]++;
       uint32_t At = findInst(W, spv::Op::OpVariable);
       W.insert(W.begin() + At,
                {opWord(4, spv::Op::OpConstant), Int, Big, 0x1000000,
                 opWord(4, spv::Op::OpTypeArray), A, Float, Big,
                 opWord(4, spv::Op::OpTypeArray), AA, A, Big});
       return makeInput(W, At + 8, AA);
     },
     {"--no-canonicalize"},
     1,
     {"word {W}: OpTypeArray: type %_arr__arr_float",
      "is larger than the limit of 1073741824 bytes"},
     {"word {W}: OpTypeArray: type %_arr__arr_float",
      "is larger than the limit of 1073741824 bytes"}},

    // --- Inputs that must work or fail for other reasons -----------------
    {"ValidModule", [] { return makeInput(validModule()); }, {}, 0, {}, {}},
    {"ByteSwappedModule",
     [] {
       Words W = validModule();
       for (uint32_t &Word : W)
         Word = llvm::byteswap(Word);
       return makeInput(W);
     },
     {},
     0,
     {},
     {}},
    {"NoSuchEntryPoint",
     [] { return makeInput(validModule()); },
     {"--entry", "nosuch"},
     1,
     {"no entry point named \"nosuch\" (the module has: main)"},
     {"no entry point named \"nosuch\" (the module has: main)"}},
};

/// Names the row in gtest's failure output instead of dumping its bytes.
void PrintTo(const DiagnosticCase &C, std::ostream *OS) { *OS << C.Name; }

//===----------------------------------------------------------------------===//
// Running the command line.
//===----------------------------------------------------------------------===//

struct CliResult {
  int Exit;
  std::string Out, Err;
};

CliResult runCommandLine(std::vector<std::string> Args) {
  CliResult R;
  llvm::raw_string_ostream Out(R.Out), Err(R.Err);
  R.Exit = runCli(Args, Out, Err);
  Out.flush();
  Err.flush();
  return R;
}

std::string substitute(std::string S, const Input &In) {
  auto ReplaceAll = [&](llvm::StringRef From, const std::string &To) {
    for (size_t Pos; (Pos = S.find(From.str())) != std::string::npos;)
      S.replace(Pos, From.size(), To);
  };
  if (In.Word)
    ReplaceAll("{W}", std::to_string(*In.Word));
  ReplaceAll("{ID}", std::to_string(In.Id));
  return S;
}

class DiagnosticsTest : public testing::TestWithParam<DiagnosticCase> {
protected:
  static void SetUpTestSuite() {
    llvm::SmallString<128> Dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("s2l-diagnostics", Dir));
    TempDir = Dir.str().str();
  }
  static void TearDownTestSuite() {
    if (!TempDir.empty())
      llvm::sys::fs::remove_directories(TempDir);
  }

  /// Writes \p Bytes to a .spv file named after the row.
  std::string writeInput(const std::vector<uint8_t> &Bytes) {
    llvm::SmallString<128> Path(TempDir);
    llvm::sys::path::append(Path, std::string(GetParam().Name) + ".spv");
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC) << EC.message();
    OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
    return Path.str().str();
  }

  /// Runs the row with or without validation and checks the result.
  void check(bool Validate) {
    const DiagnosticCase &C = GetParam();
    Input In = C.Make();
    std::string Path = writeInput(In.Bytes);
    std::vector<std::string> Args = C.ExtraArgs;
    if (!Validate)
      Args.push_back("--no-validate");
    Args.push_back(Path);
    CliResult R = runCommandLine(Args);
    SCOPED_TRACE(std::string(Validate ? "with" : "without") +
                 " validation; stderr: " + R.Err);

    ASSERT_EQ(R.Exit, C.ExitCode);
    if (C.ExitCode == 0) {
      EXPECT_EQ(R.Err, "");
      EXPECT_NE(R.Out.find("define "), std::string::npos) << R.Out;
      return;
    }
    // One line: prefix, file name, message; lower case, no final period.
    std::string Lead = ErrorPrefix + Path + ": ";
    ASSERT_EQ(R.Err.rfind(Lead, 0), 0u)
        << "message does not start with '" << Lead << "'";
    ASSERT_TRUE(llvm::StringRef(R.Err).ends_with("\n"));
    std::string Msg = R.Err.substr(Lead.size(), R.Err.size() - Lead.size() - 1);
    EXPECT_EQ(Msg.find('\n'), std::string::npos) << "more than one line";
    ASSERT_FALSE(Msg.empty());
    EXPECT_NE(Msg.back(), '.') << "final period";
    EXPECT_FALSE(Msg.size() > 1 &&
                 std::isupper(static_cast<unsigned char>(Msg[0])) &&
                 !std::isupper(static_cast<unsigned char>(Msg[1])))
        << "message starts with a capital";
    EXPECT_EQ(R.Out, "");

    // Where: whenever the input has a location, the translator's own
    // message names its word.
    if (!Validate && In.Word) {
      EXPECT_NE(Msg.find("word " + std::to_string(*In.Word) + ": "),
                std::string::npos)
          << "message does not say where (word " << *In.Word << ")";
    }
    for (const std::string &Want : Validate ? C.Validate : C.NoValidate) {
      std::string S = substitute(Want, In);
      EXPECT_NE(Msg.find(S), std::string::npos)
          << "message '" << Msg << "' lacks '" << S << "'";
    }
  }

  static std::string TempDir;
};

std::string DiagnosticsTest::TempDir;

TEST_P(DiagnosticsTest, WithoutValidation) { check(/*Validate=*/false); }

TEST_P(DiagnosticsTest, WithValidation) { check(/*Validate=*/true); }

// The one-invocation back ends on the same bad inputs: a clear one-line
// error or a translation, never a crash (the messages of the code
// generation rows may differ from the SIMD back end's).
TEST_P(DiagnosticsTest, OneInvocationBackEndsFailCleanly) {
  const DiagnosticCase &C = GetParam();
  if (C.ExitCode == 2)
    return; // usage errors do not reach a back end
  Input In = C.Make();
  std::string Path = writeInput(In.Bytes);
  for (const char *Backend : {"--backend=invocation", "--backend=scalar"})
    for (bool Validate : {false, true}) {
      std::vector<std::string> Args = C.ExtraArgs;
      Args.push_back(Backend);
      if (!Validate)
        Args.push_back("--no-validate");
      Args.push_back(Path);
      CliResult R = runCommandLine(Args);
      SCOPED_TRACE(std::string(Backend) + (Validate ? " with" : " without") +
                   " validation; stderr: " + R.Err);
      ASSERT_TRUE(R.Exit == 0 || R.Exit == 1);
      if (R.Exit == 0) {
        EXPECT_NE(R.Out.find("define "), std::string::npos);
        continue;
      }
      std::string Lead = ErrorPrefix + Path + ": ";
      EXPECT_EQ(R.Err.rfind(Lead, 0), 0u);
      EXPECT_EQ(R.Err.find('\n'), R.Err.size() - 1) << "more than one line";
    }
}

INSTANTIATE_TEST_SUITE_P(
    Diagnostics, DiagnosticsTest, testing::ValuesIn(Cases),
    [](const testing::TestParamInfo<DiagnosticCase> &Info) {
      return std::string(Info.param.Name);
    });

//===----------------------------------------------------------------------===//
// Bad command lines: exit 2, one message, a pointer to --help.
//===----------------------------------------------------------------------===//

struct UsageCase {
  const char *Name;
  std::vector<std::string> Args; ///< "{INPUT}" is a valid module's path
  std::string Message;
};

const UsageCase UsageCases[] = {
    {"UnknownOption",
     {"--frobnicate", "{INPUT}"},
     "unknown option '--frobnicate'"},
    {"BadWidth", {"--width", "5", "{INPUT}"}, "--width takes 4, 8 or 16"},
    {"BadWidthEquals", {"--width=5", "{INPUT}"}, "--width takes 4, 8 or 16"},
    {"BadEmit", {"--emit=xyz", "{INPUT}"}, "--emit takes ll, bc, obj or asm"},
    {"TwoInputs", {"{INPUT}", "other.spv"}, "more than one input file"},
    {"NoInput", {}, "no input file"},
    {"NoInputOnlyOptions", {"--no-validate", "-O2"}, "no input file"},
    {"BadSpec", {"--spec", "bad", "{INPUT}"}, "--spec takes ID=VALUE"},
    {"SpecWithoutValue", {"--spec", "3=", "{INPUT}"}, "--spec takes ID=VALUE"},
    {"SpecWithBadId", {"--spec", "x=1", "{INPUT}"}, "--spec takes ID=VALUE"},
    {"OutputWithoutFile", {"{INPUT}", "-o"}, "-o needs a file name"},
    {"BadStage",
     {"--stage", "geom", "{INPUT}"},
     "--stage takes vert, frag or comp"},
    {"BadPrintCfg",
     {"--print-cfg=svg", "{INPUT}"},
     "--print-cfg takes mermaid or dot"},
    {"BadTargetEnv",
     {"--target-env", "vulkan9", "{INPUT}"},
     "unknown target environment 'vulkan9'"},
};

void PrintTo(const UsageCase &C, std::ostream *OS) { *OS << C.Name; }

class DiagnosticsUsageTest : public testing::TestWithParam<UsageCase> {};

TEST_P(DiagnosticsUsageTest, ExitsWithUsageError) {
  // The input exists and is valid, so only the usage can be at fault.
  llvm::SmallString<128> Path;
  int FD;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("s2l-usage", "spv", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    std::vector<uint8_t> Bytes = hostBytes(validModule());
    OS.write(reinterpret_cast<const char *>(Bytes.data()), Bytes.size());
  }
  std::vector<std::string> Args;
  for (const std::string &A : GetParam().Args)
    Args.push_back(A == "{INPUT}" ? Path.str().str() : A);
  CliResult R = runCommandLine(Args);
  llvm::sys::fs::remove(Path);

  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_EQ(R.Err.rfind(ErrorPrefix, 0), 0u) << R.Err;
  EXPECT_NE(R.Err.find(GetParam().Message), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("run 'spirv2llvm --help' for usage"), std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Out, "");
}

INSTANTIATE_TEST_SUITE_P(Diagnostics, DiagnosticsUsageTest,
                         testing::ValuesIn(UsageCases),
                         [](const testing::TestParamInfo<UsageCase> &Info) {
                           return std::string(Info.param.Name);
                         });

TEST(DiagnosticsMissingFile, CannotRead) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("s2l-missing", Dir));
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "does-not-exist.spv");
  for (bool Validate : {true, false}) {
    std::vector<std::string> Args;
    if (!Validate)
      Args.push_back("--no-validate");
    Args.push_back(Path.str().str());
    CliResult R = runCommandLine(Args);
    EXPECT_EQ(R.Exit, 1) << R.Err;
    EXPECT_EQ(R.Err.rfind(ErrorPrefix + Path.str().str() + ": cannot read", 0),
              0u)
        << R.Err;
    EXPECT_EQ(R.Out, "");
  }
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace

// Fuzz findings whose inputs stay out of tests/lit, so that the fuzz
// targets' seed corpus (built from tests/lit) does not change with them.
// Each assembles, without validation, in both back ends and must fail
// with \p Want (not an internal error).
/// The well-formed counterpart of expectRejectedUnvalidated: both back
/// ends translate \p Asm without validation.
static void expectAcceptedUnvalidated(const std::string &Asm) {
  for (spirv2llvm::Backend Bk :
       {spirv2llvm::Backend::Simd, spirv2llvm::Backend::Invocation}) {
    spirv2llvm::TranslateOptions Opts;
    Opts.Kind = spirv2llvm::InputKind::Assembly;
    Opts.Validate = false;
    Opts.Backend = Bk;
    auto T = spirv2llvm::translateBytes(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Asm.data()),
                                Asm.size()),
        "good.spvasm", Opts);
    EXPECT_TRUE(!!T) << llvm::toString(T.takeError());
  }
}

static void expectRejectedUnvalidated(const char *Asm, const char *Want) {
  for (spirv2llvm::Backend Bk :
       {spirv2llvm::Backend::Simd, spirv2llvm::Backend::Invocation}) {
    spirv2llvm::TranslateOptions Opts;
    Opts.Kind = spirv2llvm::InputKind::Assembly;
    Opts.Validate = false;
    Opts.Backend = Bk;
    auto T = spirv2llvm::translateBytes(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Asm),
                                std::strlen(Asm)),
        "fuzz.spvasm", Opts);
    ASSERT_FALSE(!!T);
    std::string Msg = llvm::toString(T.takeError());
    EXPECT_NE(Msg.find(Want), std::string::npos) << Msg;
    EXPECT_EQ(Msg.find("internal error"), std::string::npos) << Msg;
  }
}

// OpAny of a uint vector (novalidate, seed 1, session 14) went into a
// select of <4 x i32> and <4 x i1>, IR that does not verify: OpAny and
// OpAll now have the BoolReduce operand shape.
TEST(DiagnosticsFuzzFindings, AnyOfAnIntegerVector) {
  const char *Asm = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
     %uint_1 = OpConstant %uint 1
          %v = OpConstantComposite %v3uint %uint_1 %uint_1 %uint_1
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %a = OpAny %bool %v
               OpReturn
               OpFunctionEnd
)";
  expectRejectedUnvalidated(
      Asm, "word 53: OpAny: operand %8 is not a boolean vector");
}

// GLSL.std.450 Distance of a double and a dvec2 (novalidate, seed 1,
// session 14): the one-invocation back end emitted `fsub double, <2 x
// double>`, IR that does not verify. Both back ends now refuse it.
TEST(DiagnosticsFuzzFindings, DistanceOfDifferentTypes) {
  const char *Asm = R"(
               OpCapability Shader
               OpCapability Float64
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
     %double = OpTypeFloat 64
   %v2double = OpTypeVector %double 2
        %one = OpConstant %double 1
        %vec = OpConstantComposite %v2double %one %one
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %d = OpExtInst %double %1 Distance %one %vec
               OpReturn
               OpFunctionEnd
)";
  expectRejectedUnvalidated(Asm, "GLSL.std.450 Distance: operand");
}

// OpSampledImage with a boolean result made of an integer (novalidate,
// seed 1, session 14): its "handle" became a branch condition of the wrong
// type, IR that does not verify. The handle instructions check their types.
TEST(DiagnosticsFuzzFindings, SampledImageOfWrongTypes) {
  const char *Asm = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_8 = OpConstant %uint 8
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %c = OpSampledImage %bool %uint_8 %uint_8
               OpSelectionMerge %end None
               OpBranchConditional %c %end %end
        %end = OpLabel
               OpReturn
               OpFunctionEnd
)";
  expectRejectedUnvalidated(Asm, "OpSampledImage: operands or result are not a sampled "
                       "image");
}

// OpBitcast of a boolean (novalidate, seed 1, session 15): LLVM has no
// bitcast from i1, IR that does not verify. OpBitcast has its own operand
// shape now: integer, float or pointer scalars and vectors.
TEST(DiagnosticsFuzzFindings, BitcastOfABoolean) {
  const char *Asm = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
       %true = OpConstantTrue %bool
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %b = OpBitcast %uint %true
               OpReturn
               OpFunctionEnd
)";
  expectRejectedUnvalidated(Asm, "OpBitcast: operand");
}

// A stage output of 16M vec4s (validate, seed 1, session 15): SPIRV-Tools'
// interface validation allocated more than 3 GB for its locations. Such
// variables are refused before the validator runs, as the translator
// refuses them anyway.
TEST(DiagnosticsFuzzFindings, HugeStageOutputBeforeTheValidator) {
  const char *Asm = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Vertex %main "main" %out
               OpDecorate %out Location 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
       %uint = OpTypeInt 32 0
     %uint_n = OpConstant %uint 16777219
        %arr = OpTypeArray %v4float %uint_n
        %ptr = OpTypePointer Output %arr
        %out = OpVariable %ptr Output
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  spirv2llvm::TranslateOptions Opts;
  Opts.Kind = spirv2llvm::InputKind::Assembly;
  auto T = spirv2llvm::translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Asm),
                              std::strlen(Asm)),
      "fuzz.spvasm", Opts);
  ASSERT_FALSE(!!T);
  std::string Msg = llvm::toString(T.takeError());
  EXPECT_NE(Msg.find("has 67108876 scalars; the limit is 16384"),
            std::string::npos)
      << Msg;
}

// A module ending in an OpTypeStruct of one word (validate, seed 1,
// session 20): the interface-size scan that runs before the validator read
// the struct's result id past the end of the words (ASan: heap overflow;
// the sanitized test run catches it here). The validator's error comes
// back instead.
TEST(DiagnosticsFuzzFindings, OneWordStructAtTheEnd) {
  std::vector<uint32_t> Words = {
      0x07230203, 0x00010000, 0, 16, 0,
      (2u << 16) | uint32_t(spv::Op::OpCapability), 1,
      (3u << 16) | uint32_t(spv::Op::OpMemoryModel), 0, 1,
      (1u << 16) | uint32_t(spv::Op::OpTypeStruct)};
  spirv2llvm::TranslateOptions Opts;
  auto T = spirv2llvm::translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Words.data()),
                              Words.size() * 4),
      "fuzz.spv", Opts);
  ASSERT_FALSE(!!T);
  std::string Msg = llvm::toString(T.takeError());
  EXPECT_NE(Msg.find("fuzz.spv"), std::string::npos) << Msg;
}

// A float array constant with an integer constituent (novalidate, seed 1,
// session 15): a comparison of that element became an fcmp of an integer
// and a float, IR that does not verify. Constituents must have the
// element's type.
TEST(DiagnosticsFuzzFindings, ConstantCompositeOfTheWrongElementType) {
  const char *Asm = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %uint_2 = OpConstant %uint 2
        %arr = OpTypeArray %float %uint_2
    %float_1 = OpConstant %float 1
          %c = OpConstantComposite %arr %float_1 %uint_2
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  expectRejectedUnvalidated(Asm, "constituent %uint_2 has type %uint, not "
                                 "%float");
}

// OpVectorTimesScalar whose "scalar" is a vec4 (novalidate, seed 1, CI of
// session 15): the SIMD back end splatted the vector into <4 x <4 x
// float>>, IR that does not verify. The matrix family was checked only for
// matrix-or-vector operands; now every dimension is checked as spirv-val
// does. One module per wrong shape, all refused by both back ends.
TEST(DiagnosticsFuzzFindings, MatrixAndVectorProductShapes) {
  const char *Head = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
    %v2float = OpTypeVector %float 2
    %v3float = OpTypeVector %float 3
    %v4float = OpTypeVector %float 4
     %mat2v3 = OpTypeMatrix %v3float 2
     %mat3v2 = OpTypeMatrix %v2float 3
     %mat4v4 = OpTypeMatrix %v4float 4
     %mat2v2 = OpTypeMatrix %v2float 2
          %f = OpConstant %float 1
         %v2 = OpConstantComposite %v2float %f %f
         %v3 = OpConstantComposite %v3float %f %f %f
         %v4 = OpConstantComposite %v4float %f %f %f %f
        %m23 = OpConstantComposite %mat2v3 %v3 %v3
        %m44 = OpConstantComposite %mat4v4 %v4 %v4 %v4 %v4
        %m22 = OpConstantComposite %mat2v2 %v2 %v2
       %main = OpFunction %void None %fn
      %entry = OpLabel
)";
  const char *Tail = R"(
               OpReturn
               OpFunctionEnd
)";
  // The opcode with "operand" and the rule broken (between them the
  // operand's name and type).
  struct Case {
    const char *Body, *Op, *Rule;
  } Cases[] = {
      {"%r = OpVectorTimesScalar %v4float %v4 %v4",
       "OpVectorTimesScalar: operand", "is not a scalar %float"},
      {"%r = OpMatrixTimesScalar %mat4v4 %m44 %v4",
       "OpMatrixTimesScalar: operand", "is not a scalar %float"},
      {"%r = OpVectorTimesScalar %v3float %v4 %f",
       "OpVectorTimesScalar: operand", "is not of the result type"},
      {"%r = OpMatrixTimesVector %v3float %m23 %v3",
       "OpMatrixTimesVector: operand", "is not a vector of %float with one "
       "component per matrix column"},
      {"%r = OpVectorTimesMatrix %v2float %v2 %m23",
       "OpVectorTimesMatrix: operand", "is not a vector of %float the size"},
      {"%r = OpMatrixTimesMatrix %mat4v4 %m23 %m44",
       "OpMatrixTimesMatrix: operand", "is not a matrix of %float whose "
       "columns"},
      {"%r = OpTranspose %mat2v3 %m23",
       "OpTranspose: operand", "is not a matrix of %float of the "
       "transposed shape"},
      {"%r = OpOuterProduct %mat2v3 %v3 %v3",
       "OpOuterProduct: operand", "is not a vector of %float with one "
       "component per result column"},
      {"%r = OpMatrixTimesVector %v3float %v3 %v2",
       "OpMatrixTimesVector: operand", "is not a matrix"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Body);
    std::string Asm = std::string(Head) + "          " + C.Body + Tail;
    expectRejectedUnvalidated(Asm.c_str(), C.Op);
    expectRejectedUnvalidated(Asm.c_str(), C.Rule);
  }
  // The right shapes still translate.
  std::string Good = std::string(Head) +
                     "%a = OpMatrixTimesVector %v3float %m23 %v2\n"
                     "%b = OpVectorTimesMatrix %v2float %v3 %m23\n"
                     "%c = OpTranspose %mat3v2 %m23\n"
                     "%d = OpMatrixTimesMatrix %mat2v3 %m23 %m22\n"
                     "%e = OpOuterProduct %mat2v3 %v3 %v2\n"
                     "%g = OpMatrixTimesScalar %mat2v3 %m23 %f\n"
                     "%h = OpVectorTimesScalar %v4float %v4 %f\n" +
                     Tail;
  expectAcceptedUnvalidated(Good);
}

// OpUMulExtended whose result type is a vec4 of floats and whose operands
// are a vec4 and a float (novalidate, session 16): the SIMD back end
// extended a missing component (a null value). The extended-arithmetic
// instructions now check their struct result and operand types.
TEST(DiagnosticsFuzzFindings, ExtendedArithmeticTypes) {
  const char *Head = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
       %uint = OpTypeInt 32 0
     %v2uint = OpTypeVector %uint 2
       %pair = OpTypeStruct %uint %uint
     %pairv2 = OpTypeStruct %v2uint %v2uint
      %mixed = OpTypeStruct %uint %v2uint
          %f = OpConstant %float 1
         %v4 = OpConstantComposite %v4float %f %f %f %f
          %u = OpConstant %uint 7
         %u2 = OpConstantComposite %v2uint %u %u
       %main = OpFunction %void None %fn
      %entry = OpLabel
)";
  const char *Tail = R"(
               OpReturn
               OpFunctionEnd
)";
  struct Case {
    const char *Body, *Want;
  } Cases[] = {
      {"%r = OpUMulExtended %v4float %v4 %f",
       "OpUMulExtended: result type %v4float is not a struct of two members"},
      {"%r = OpIAddCarry %mixed %u %u2",
       "OpIAddCarry: result type %_struct_10 is not a struct of two members"},
      {"%r = OpSMulExtended %pair %u %u2", "is not of the result members' type"},
      {"%r = OpISubBorrow %pairv2 %f %u2", "is not of the result members' type"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Body);
    std::string Asm = std::string(Head) + "          " + C.Body + Tail;
    expectRejectedUnvalidated(Asm.c_str(), C.Want);
  }
  std::string Good = std::string(Head) +
                     "%a = OpUMulExtended %pair %u %u\n"
                     "%b = OpIAddCarry %pairv2 %u2 %u2\n" + Tail;
  expectAcceptedUnvalidated(Good);
}

// A sampled image type of itself (novalidate, session 16): the walk from a
// handle to its image type went round forever (a hang, found as a fuzzer
// timeout). Sampled image types must name an image type declared before
// them, pointers a pointee other than themselves.
TEST(DiagnosticsFuzzFindings, TypesThatNameThemselves) {
  const char *Head = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
)";
  const char *Tail = R"(
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  struct Case {
    const char *Types, *Want;
  } Cases[] = {
      {"%si = OpTypeSampledImage %si\n%p = OpTypePointer UniformConstant %si\n"
       "%v = OpVariable %p UniformConstant",
       "OpTypeSampledImage: image type %5 is not an image type declared "
       "before this instruction"},
      {"%si = OpTypeSampledImage %float",
       "image type %float is not an image type"},
      {"%p = OpTypePointer Function %p", "OpTypePointer: pointer type"
                                         " %_ptr_Function_5 points to itself"},
      {"%img = OpTypeImage %img 2D 0 0 0 1 Unknown",
       "OpTypeImage: sampled type %5 is not a type declared before this "
       "instruction"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Types);
    std::string Asm = std::string(Head) + C.Types + Tail;
    expectRejectedUnvalidated(Asm.c_str(), C.Want);
  }
}

/// A compute module for the session-19 findings: \p Body runs in the entry
/// block of %main, after it the function returns. It declares what the
/// bodies use: scalar and vector types and constants, a storage buffer
/// %buf with a chain %p0 into it, a workgroup %counter, Function variables
/// %fv (uint) and %ff (float).
static std::string findingModule(const std::string &Body) {
  return R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability Float16
               OpCapability VariablePointers
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 4 1 1
               OpDecorate %rt ArrayStride 4
               OpMemberDecorate %blk 0 Offset 0
               OpDecorate %blk Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %v2uint = OpTypeVector %uint 2
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
       %half = OpTypeFloat 16
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %ulong_1 = OpConstant %ulong 1
    %float_1 = OpConstant %float 1
     %half_1 = OpConstant %half 1
         %rt = OpTypeRuntimeArray %uint
        %blk = OpTypeStruct %rt
    %ptr_blk = OpTypePointer StorageBuffer %blk
   %ptr_uint = OpTypePointer StorageBuffer %uint
     %ptr_wg = OpTypePointer Workgroup %uint
  %fptr_uint = OpTypePointer Function %uint
 %fptr_float = OpTypePointer Function %float
        %buf = OpVariable %ptr_blk StorageBuffer
    %counter = OpVariable %ptr_wg Workgroup
       %main = OpFunction %void None %fn
      %entry = OpLabel
         %fv = OpVariable %fptr_uint Function
         %ff = OpVariable %fptr_float Function
         %p0 = OpAccessChain %ptr_uint %buf %uint_0 %uint_0
)" + Body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

/// Each body is refused with a message holding its text.
static void expectFindingsRejected(
    llvm::ArrayRef<std::pair<const char *, const char *>> Cases) {
  for (const auto &[Body, Want] : Cases) {
    std::string Asm = findingModule(Body);
    expectRejectedUnvalidated(Asm.c_str(), Want);
  }
}

// An OpAtomicIAdd whose value operand was an int64 on a uint pointer
// (novalidate, CI of session 18): the SIMD back end merged the 64-bit
// atomicrmw result into an i32 phi, IR that does not verify. Atomics now
// check their result and value types against the pointee, as spirv-val does.
TEST(DiagnosticsFuzzFindings, AtomicTypesDifferFromThePointee) {
  expectFindingsRejected({
      {"%r = OpAtomicIAdd %uint %counter %uint_1 %uint_0 %ulong_1",
       "OpAtomicIAdd: operand %ulong_1 of type %ulong is not of the pointee "
       "type %uint"},
      {"%r = OpAtomicIIncrement %ulong %counter %uint_1 %uint_0",
       "OpAtomicIIncrement: result type %ulong is not the pointee type %uint"},
      {"OpAtomicStore %counter %uint_1 %uint_0 %ulong_1",
       "OpAtomicStore: operand %ulong_1"},
      {"%r = OpAtomicCompareExchange %uint %counter %uint_1 %uint_0 %uint_0 "
       "%uint_1 %ulong_1",
       "OpAtomicCompareExchange: operand %ulong_1"},
  });
  // The well-typed form still translates.
  std::string Good =
      findingModule("%r = OpAtomicIAdd %uint %counter %uint_1 %uint_0 %uint_1");
  spirv2llvm::TranslateOptions Opts;
  Opts.Kind = spirv2llvm::InputKind::Assembly;
  Opts.Validate = false;
  auto T = spirv2llvm::translateBytes(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Good.data()),
                              Good.size()),
      "fuzz.spvasm", Opts);
  EXPECT_TRUE(!!T) << (T ? "" : llvm::toString(T.takeError()));
}

// An OpLoad through an access chain defined in a block that does not
// dominate the load (novalidate, seed 1, session 19): the one-invocation
// back end (and the DXIL pipeline behind it) used the chain's offset
// there, IR that does not verify; the SIMD back end read a slot holding
// another path's offset. Pointers now get the dominance check values have.
TEST(DiagnosticsFuzzFindings, PointerUsedWhereItsChainDoesNotDominate) {
  // "pointer %chain is used in block %then, which its definition in block
  // %else does not dominate" (the assembler may number the ids).
  expectFindingsRejected({{R"(
         %c0 = OpLoad %uint %p0
       %cond = OpIEqual %bool %c0 %uint_0
               OpSelectionMerge %merge None
               OpBranchConditional %cond %then %else
       %else = OpLabel
      %chain = OpAccessChain %ptr_uint %buf %uint_0 %uint_0
               OpStore %chain %uint_0
               OpBranch %merge
       %then = OpLabel
          %x = OpLoad %uint %chain
               OpStore %chain %x
               OpBranch %merge
      %merge = OpLabel)",
                           ", which its definition in block %"}});
}

// An OpSpecConstant inside a function body (novalidate, seed 37, session
// 19): the parser knew the id as a constant but never declared it, and the
// SIMD back end read a null constant. Types and constants inside functions
// are now refused, as spirv-val does; OpUndef stays allowed there.
TEST(DiagnosticsFuzzFindings, ConstantDeclaredInsideAFunction) {
  expectFindingsRejected({{R"(
          %u = OpUndef %uint
               OpStore %fv %u
          %c = OpSpecConstant %uint 18
               OpStore %fv %c)",
                           "OpSpecConstant: type or constant declaration "
                           "inside function"}});
}

// OpQuantizeToF16 with a pointer result type (novalidate, seed 41, session
// 19): it had no operand shape, so the SIMD back end built the conversion
// on a pointer and smashed the stack. It now has the FloatUnary shape and
// must be 32-bit, as spirv-val asks.
TEST(DiagnosticsFuzzFindings, QuantizeToF16OfOtherTypes) {
  expectFindingsRejected({
      {"%q = OpQuantizeToF16 %fptr_uint %uint_1",
       "OpQuantizeToF16: result type"},
      {"%q = OpQuantizeToF16 %half %half_1",
       "is not a 32-bit float scalar or vector"},
      {"%q = OpQuantizeToF16 %float %uint_1", "OpQuantizeToF16: operand"},
  });
}

// The bit-field instructions had no type rule (found while fixing the
// OpQuantizeToF16 finding, session 19): a float base gave `lshr float` in
// the SIMD back end, a float offset `shl i32, float`, and a float result
// was accepted silently. They now check their types as spirv-val does.
TEST(DiagnosticsFuzzFindings, BitFieldOperandTypes) {
  expectFindingsRejected({
      {"%r = OpBitFieldInsert %float %uint_1 %uint_1 %uint_1 %uint_1",
       "OpBitFieldInsert: result type %float is not an integer"},
      {"%r = OpBitFieldUExtract %uint %float_1 %uint_1 %uint_1",
       "OpBitFieldUExtract: operand %float_1"},
      {"%r = OpBitFieldSExtract %v2uint %uint_1 %uint_1 %uint_1",
       "OpBitFieldSExtract: operand %uint_1"},
      {"%r = OpBitFieldInsert %uint %uint_1 %uint_1 %float_1 %uint_1",
       "is not an integer scalar"},
  });
}

// Instructions that take pointers as values had no type rule (found while
// probing the table for opcodes without an operand shape, session 19): a
// pointer comparison with a uint result, an array length of float type
// and a memory copy between different pointee types were accepted. They
// now check their types as spirv-val does.
TEST(DiagnosticsFuzzFindings, PointerOperandTypes) {
  expectFindingsRejected({
      {"%r = OpPtrEqual %uint %p0 %p0",
       "OpPtrEqual: result type %uint is not a boolean"},
      {"%r = OpPtrNotEqual %bool %p0 %fv",
       "is not a pointer of the first operand's type"},
      {"%r = OpArrayLength %float %buf 0",
       "OpArrayLength: result type %float is not a 32-bit unsigned integer"},
      {"OpCopyMemory %fv %ff", "is not a pointer to the target's pointee type"},
      {"OpCopyMemory %uint_1 %fv", "OpCopyMemory: operand %uint_1"},
  });
}
