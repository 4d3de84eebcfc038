//===- FrontendTest.cpp - glslang and SPIRV-Tools wrappers ----------------===//
//
// Runs the real libraries on the example shaders: compiling, assembling,
// decoding, validating, canonicalizing and naming. The canonicalization tests
// check the promise the rest of the translator relies on: a module that needs
// no change keeps its ids and names, so dumps match the design document.
//
//===----------------------------------------------------------------------===//

#include "frontend/Frontend.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SwapByteOrder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace spirv2llvm::frontend;

namespace {

std::string examplePath(llvm::StringRef Name) {
  return (llvm::Twine(S2L_SOURCE_DIR) + "/shaders/examples/" + Name).str();
}

std::string readExample(llvm::StringRef Name) {
  auto Buffer = llvm::MemoryBuffer::getFile(examplePath(Name));
  if (!Buffer) {
    ADD_FAILURE() << "cannot read " << examplePath(Name);
    return "";
  }
  return (*Buffer)->getBuffer().str();
}

/// Unwraps an Expected, failing the test (with the message) on an error.
template <typename T> T unwrap(llvm::Expected<T> Value) {
  if (!Value) {
    ADD_FAILURE() << llvm::toString(Value.takeError());
    return T();
  }
  return std::move(*Value);
}

std::string errorText(llvm::Error E) {
  EXPECT_TRUE(static_cast<bool>(E)) << "expected an error";
  return llvm::toString(std::move(E));
}

template <typename T> std::string errorText(llvm::Expected<T> Value) {
  if (Value) {
    ADD_FAILURE() << "expected an error";
    return "";
  }
  return llvm::toString(Value.takeError());
}

/// The validator's message, or "" for a valid module.
std::string validationMessage(llvm::ArrayRef<uint32_t> Words,
                              spv_target_env Env) {
  return llvm::toString(validateSpirv(Words, Env));
}

std::vector<uint32_t> assembleExample(llvm::StringRef Name) {
  return unwrap(assembleSpirv(readExample(Name), SPV_ENV_UNIVERSAL_1_0, Name));
}

/// One instruction of a module, seen through its words.
struct Inst {
  size_t Offset;
  spv::Op Opcode;
  llvm::ArrayRef<uint32_t> Operands; ///< Words after the opcode word.
};

std::vector<Inst> instructions(llvm::ArrayRef<uint32_t> Words) {
  std::vector<Inst> Result;
  for (size_t Offset = 5; Offset < Words.size();) {
    uint32_t Count = Words[Offset] >> 16;
    if (Count == 0 || Offset + Count > Words.size()) {
      ADD_FAILURE() << "malformed module at word " << Offset;
      break;
    }
    Result.push_back({Offset, static_cast<spv::Op>(Words[Offset] & 0xffff),
                      Words.slice(Offset + 1, Count - 1)});
    Offset += Count;
  }
  return Result;
}

size_t countOpcode(llvm::ArrayRef<uint32_t> Words, spv::Op Opcode) {
  size_t N = 0;
  for (const Inst &I : instructions(Words))
    N += I.Opcode == Opcode;
  return N;
}

size_t countFunctionVariables(llvm::ArrayRef<uint32_t> Words) {
  size_t N = 0;
  for (const Inst &I : instructions(Words))
    if (I.Opcode == spv::Op::OpVariable &&
        I.Operands[2] == static_cast<uint32_t>(spv::StorageClass::Function))
      ++N;
  return N;
}

std::string disassemble(llvm::ArrayRef<uint32_t> Words) {
  return unwrap(disassembleSpirv(Words, SPV_ENV_UNIVERSAL_1_6));
}

//===----------------------------------------------------------------------===//
// Names of target environments and stages
//===----------------------------------------------------------------------===//

TEST(FrontendTest, ParseTargetEnv) {
  struct {
    const char *Name;
    spv_target_env Env;
  } Cases[] = {
      {"vulkan1.0", SPV_ENV_VULKAN_1_0},
      {"vulkan1.1", SPV_ENV_VULKAN_1_1},
      {"vulkan1.1spv1.4", SPV_ENV_VULKAN_1_1_SPIRV_1_4},
      {"vulkan1.2", SPV_ENV_VULKAN_1_2},
      {"vulkan1.3", SPV_ENV_VULKAN_1_3},
      {"spv1.0", SPV_ENV_UNIVERSAL_1_0},
      {"spv1.3", SPV_ENV_UNIVERSAL_1_3},
      {"spv1.6", SPV_ENV_UNIVERSAL_1_6},
      {"universal1.0", SPV_ENV_UNIVERSAL_1_0},
      {"universal1.5", SPV_ENV_UNIVERSAL_1_5},
      {"opengl4.5", SPV_ENV_OPENGL_4_5},
  };
  for (const auto &C : Cases) {
    llvm::Expected<spv_target_env> Env = parseTargetEnv(C.Name);
    ASSERT_TRUE(static_cast<bool>(Env))
        << C.Name << ": " << llvm::toString(Env.takeError());
    EXPECT_EQ(*Env, C.Env) << C.Name;
  }
}

TEST(FrontendTest, ParseTargetEnvRejectsUnknownNames) {
  EXPECT_EQ(errorText(parseTargetEnv("vulkan9")),
            "unknown target environment 'vulkan9' (expected "
            "vulkan1.0..vulkan1.3, spv1.0..spv1.6, opengl4.5, "
            "universal1.0..universal1.6)");
  // spvParseTargetEnv alone would read these as vulkan1.0 and spv1.6.
  EXPECT_NE(errorText(parseTargetEnv("vulkan1.0x")), "");
  EXPECT_NE(errorText(parseTargetEnv("universal1.6 ")), "");
  EXPECT_NE(errorText(parseTargetEnv("universal")), "");
  EXPECT_NE(errorText(parseTargetEnv("")), "");
}

TEST(FrontendTest, StageFromExtension) {
  EXPECT_EQ(stageFromExtension("a/b/shader.vert"), ShaderStage::Vertex);
  EXPECT_EQ(stageFromExtension("shader.frag"), ShaderStage::Fragment);
  EXPECT_EQ(stageFromExtension("x.y.comp"), ShaderStage::Compute);
  EXPECT_EQ(stageFromExtension("shader.glsl"), std::nullopt);
  EXPECT_EQ(stageFromExtension("shader.hlsl"), std::nullopt);
  EXPECT_EQ(stageFromExtension("frag"), std::nullopt);
}

TEST(FrontendTest, ParseStage) {
  for (const char *Name : {"vert", "vertex"})
    EXPECT_EQ(unwrap(parseStage(Name)), ShaderStage::Vertex) << Name;
  for (const char *Name : {"frag", "fragment"})
    EXPECT_EQ(unwrap(parseStage(Name)), ShaderStage::Fragment) << Name;
  for (const char *Name : {"comp", "compute"})
    EXPECT_EQ(unwrap(parseStage(Name)), ShaderStage::Compute) << Name;
  for (const char *Name : {"geom", "geometry"})
    EXPECT_EQ(unwrap(parseStage(Name)), ShaderStage::Geometry) << Name;
  EXPECT_EQ(errorText(parseStage("tesc")),
            "unknown shader stage 'tesc' (expected vert, frag, comp or geom)");
}

//===----------------------------------------------------------------------===//
// glslang
//===----------------------------------------------------------------------===//

GlslOptions fragmentOptions(spv_target_env Env = SPV_ENV_VULKAN_1_2) {
  GlslOptions Opts;
  Opts.Stage = ShaderStage::Fragment;
  Opts.TargetEnv = Env;
  Opts.FileName = "bitreverse.frag";
  return Opts;
}

TEST(FrontendTest, CompileValidateCanonicalizeBitreverse) {
  std::vector<uint32_t> Words =
      unwrap(compileGlsl(readExample("bitreverse.frag"), fragmentOptions()));
  ASSERT_FALSE(Words.empty());
  EXPECT_EQ(Words[0], spv::MagicNumber);
  EXPECT_EQ(Words[1], 0x00010500u) << "vulkan1.2 means SPIR-V 1.5";
  EXPECT_EQ(validationMessage(Words, SPV_ENV_VULKAN_1_2), "");
  // glslang keeps locals in Function variables, without phis.
  EXPECT_GT(countFunctionVariables(Words), 0u);

  std::vector<uint32_t> Canonical =
      unwrap(canonicalizeSpirv(Words, SPV_ENV_VULKAN_1_2, {}));
  EXPECT_EQ(countFunctionVariables(Canonical), 0u) << disassemble(Canonical);
  EXPECT_GT(countOpcode(Canonical, spv::Op::OpPhi), 0u)
      << disassemble(Canonical);
  EXPECT_EQ(validationMessage(Canonical, SPV_ENV_VULKAN_1_2), "");
}

TEST(FrontendTest, CompileForEachTargetEnv) {
  struct {
    spv_target_env Env;
    uint32_t Version;
  } Cases[] = {
      {SPV_ENV_VULKAN_1_0, 0x00010000}, {SPV_ENV_VULKAN_1_1, 0x00010300},
      {SPV_ENV_VULKAN_1_3, 0x00010600}, {SPV_ENV_UNIVERSAL_1_4, 0x00010400},
      {SPV_ENV_OPENGL_4_5, 0x00010000},
  };
  for (const auto &C : Cases) {
    std::vector<uint32_t> Words = unwrap(
        compileGlsl(readExample("bitreverse.frag"), fragmentOptions(C.Env)));
    ASSERT_GT(Words.size(), 1u) << spvTargetEnvDescription(C.Env);
    EXPECT_EQ(Words[1], C.Version) << spvTargetEnvDescription(C.Env);
    llvm::Error E = validateSpirv(Words, C.Env);
    EXPECT_FALSE(static_cast<bool>(E)) << spvTargetEnvDescription(C.Env) << ": "
                                       << llvm::toString(std::move(E));
  }
}

TEST(FrontendTest, CompileRejectsUnsupportedTargetEnv) {
  EXPECT_EQ(errorText(compileGlsl(readExample("bitreverse.frag"),
                                  fragmentOptions(SPV_ENV_OPENCL_1_2))),
            "bitreverse.frag: cannot compile for target environment "
            "'SPIR-V 1.0 (under OpenCL 1.2 Full Profile semantics)' "
            "(expected a vulkan, spv or opengl environment)");
}

TEST(FrontendTest, GlslSyntaxErrorNamesFileAndLine) {
  const char *Source = "#version 450\n"
                       "layout(location = 0) out vec4 Color;\n"
                       "void main() {\n"
                       "  Color = vec4(undeclared);\n"
                       "}\n";
  GlslOptions Opts = fragmentOptions();
  Opts.FileName = "broken.frag";
  std::string Msg = errorText(compileGlsl(Source, Opts));
  EXPECT_NE(Msg.find("broken.frag:4: error: 'undeclared' : undeclared "
                     "identifier"),
            std::string::npos)
      << Msg;
  // glslang's closing summary is dropped, and no line ends with a period.
  EXPECT_EQ(Msg.find("compilation errors"), std::string::npos) << Msg;
  EXPECT_NE(Msg.back(), '.') << Msg;
}

TEST(FrontendTest, GlslLinkErrorNamesFile) {
  GlslOptions Opts = fragmentOptions();
  Opts.FileName = "nomain.frag";
  std::string Msg = errorText(compileGlsl("#version 450\nvoid f() {}\n", Opts));
  EXPECT_EQ(Msg.rfind("nomain.frag: error: ", 0), 0u) << Msg;
  EXPECT_NE(Msg.find("Missing entry point"), std::string::npos) << Msg;
}

TEST(FrontendTest, GlslEntryPointMustBeMain) {
  GlslOptions Opts = fragmentOptions();
  Opts.EntryPoint = "foo";
  EXPECT_EQ(errorText(compileGlsl(readExample("bitreverse.frag"), Opts)),
            "bitreverse.frag: error: the entry point of a GLSL shader must be "
            "'main', not 'foo'");
}

TEST(FrontendTest, CompileVertexAndComputeGlsl) {
  GlslOptions Vert;
  Vert.Stage = ShaderStage::Vertex;
  Vert.FileName = "pos.vert";
  std::vector<uint32_t> V =
      unwrap(compileGlsl("#version 450\nlayout(location = 0) in vec4 P;\n"
                         "void main() { gl_Position = P * 2.0; }\n",
                         Vert));
  EXPECT_EQ(validationMessage(V, SPV_ENV_VULKAN_1_2), "");

  GlslOptions Comp;
  Comp.Stage = ShaderStage::Compute;
  Comp.FileName = "double.comp";
  std::vector<uint32_t> C = unwrap(compileGlsl(
      "#version 450\nlayout(local_size_x = 4) in;\n"
      "layout(set = 0, binding = 0) buffer B { uint Data[]; };\n"
      "void main() { uint I = gl_GlobalInvocationID.x; Data[I] = I * 2u; }\n",
      Comp));
  EXPECT_EQ(validationMessage(C, SPV_ENV_VULKAN_1_2), "");
  size_t ComputeEntryPoints = 0;
  for (const Inst &I : instructions(C))
    ComputeEntryPoints +=
        I.Opcode == spv::Op::OpEntryPoint &&
        I.Operands[0] == static_cast<uint32_t>(spv::ExecutionModel::GLCompute);
  EXPECT_EQ(ComputeEntryPoints, 1u);
}

const char *HlslCompute =
    "RWStructuredBuffer<uint> Buf : register(u0);\n"
    "[numthreads(4, 1, 1)]\n"
    "void CSMain(uint3 Id : SV_DispatchThreadID) { Buf[Id.x] = Id.x * 2; }\n";

TEST(FrontendTest, CompileHlslCompute) {
  for (spv_target_env Env : {SPV_ENV_VULKAN_1_0, SPV_ENV_VULKAN_1_2}) {
    GlslOptions Opts;
    Opts.Language = SourceLanguage::Hlsl;
    Opts.Stage = ShaderStage::Compute;
    Opts.EntryPoint = "CSMain";
    Opts.TargetEnv = Env;
    Opts.FileName = "double.hlsl";
    std::vector<uint32_t> Words = unwrap(compileGlsl(HlslCompute, Opts));
    ASSERT_FALSE(Words.empty());
    // The entry point keeps its HLSL name.
    std::string Text = disassemble(Words);
    EXPECT_NE(Text.find("OpEntryPoint GLCompute %CSMain \"CSMain\""),
              std::string::npos)
        << Text;
    EXPECT_NE(Text.find("OpExecutionMode %CSMain LocalSize 4 1 1"),
              std::string::npos)
        << Text;
    // SPIR-V 1.5 has no BufferBlock; see the workaround in Glslang.cpp.
    llvm::Error E = validateSpirv(Words, Env);
    EXPECT_FALSE(static_cast<bool>(E)) << spvTargetEnvDescription(Env) << ": "
                                       << llvm::toString(std::move(E)) << "\n"
                                       << Text;
    std::vector<uint32_t> Canonical = unwrap(canonicalizeSpirv(Words, Env, {}));
    EXPECT_EQ(countOpcode(Canonical, spv::Op::OpFunction), 1u)
        << disassemble(Canonical);
  }
}

TEST(FrontendTest, HlslWrongEntryPointFails) {
  GlslOptions Opts;
  Opts.Language = SourceLanguage::Hlsl;
  Opts.Stage = ShaderStage::Compute;
  Opts.EntryPoint = "NotThere";
  Opts.FileName = "double.hlsl";
  // glslang itself only warns and emits an empty function.
  EXPECT_EQ(errorText(compileGlsl(HlslCompute, Opts)),
            "double.hlsl: error: entry point 'NotThere' not found");
}

//===----------------------------------------------------------------------===//
// Assembler and binary decoding
//===----------------------------------------------------------------------===//

TEST(FrontendTest, AssemblePreservesNumericIds) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  ASSERT_GT(Words.size(), 5u);
  EXPECT_EQ(Words[3], 41u) << "bound is the largest id (%40) plus one";
  bool SawLabel40 = false;
  for (const Inst &I : instructions(Words))
    SawLabel40 |= I.Opcode == spv::Op::OpLabel && I.Operands[0] == 40;
  EXPECT_TRUE(SawLabel40);
}

TEST(FrontendTest, AssembleErrorNamesLineAndColumn) {
  EXPECT_EQ(errorText(assembleSpirv("OpCapability Shader\n%1 = OpFoo\n",
                                    SPV_ENV_UNIVERSAL_1_0, "bad.spvasm")),
            "bad.spvasm:2:6: Invalid Opcode name 'OpFoo'");
}

std::vector<uint8_t> toBytes(llvm::ArrayRef<uint32_t> Words, bool Swap) {
  std::vector<uint8_t> Bytes;
  for (uint32_t W : Words) {
    uint32_t V = Swap ? llvm::byteswap(W) : W;
    const auto *P = reinterpret_cast<const uint8_t *>(&V);
    Bytes.insert(Bytes.end(), P, P + 4);
  }
  return Bytes;
}

TEST(FrontendTest, DecodeBinaryInEitherByteOrder) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  EXPECT_EQ(unwrap(decodeBinary(toBytes(Words, false), "a.spv")), Words);
  EXPECT_EQ(unwrap(decodeBinary(toBytes(Words, true), "a.spv")), Words);
}

TEST(FrontendTest, DecodeBinaryErrors) {
  EXPECT_EQ(errorText(decodeBinary({}, "empty.spv")), "empty.spv: empty file");
  std::vector<uint8_t> Odd = {0x03, 0x02, 0x23, 0x07, 0x00, 0x00};
  EXPECT_EQ(errorText(decodeBinary(Odd, "odd.spv")),
            "odd.spv: size 6 is not a multiple of 4 bytes");
  std::vector<uint8_t> Bad = toBytes({0xdeadbeef, 0x00010000, 0, 1, 0}, false);
  EXPECT_EQ(errorText(decodeBinary(Bad, "bad.spv")),
            "bad.spv: word 0: bad magic number 0xdeadbeef (expected "
            "0x07230203 in either byte order)");
}

//===----------------------------------------------------------------------===//
// Validator
//===----------------------------------------------------------------------===//

TEST(FrontendTest, ValidateAcceptsValidExample) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  llvm::Error E = validateSpirv(Words, SPV_ENV_VULKAN_1_0);
  EXPECT_FALSE(static_cast<bool>(E)) << llvm::toString(std::move(E));
}

TEST(FrontendTest, ValidateRejectsDocumentExample) {
  // The document's own module merges the selection in %26 at the loop's
  // continue target %21, which current rules forbid.
  std::vector<uint32_t> Words = assembleExample("kazan-example.spvasm");
  std::string Msg = errorText(validateSpirv(Words, SPV_ENV_VULKAN_1_0));
  // The validator reports the instruction's ordinal; the message must turn
  // it into the word offset of the OpLabel of %26.
  size_t Label26 = 0;
  for (const Inst &I : instructions(Words))
    if (I.Opcode == spv::Op::OpLabel && I.Operands[0] == 26)
      Label26 = I.Offset;
  ASSERT_NE(Label26, 0u);
  EXPECT_EQ(Msg, "word " + std::to_string(Label26) +
                     ": validation failed: Header block '26[%26]' is "
                     "contained in the loop construct headed by '18[%18]', "
                     "but its merge block '21[%21]' is not: '%26 = OpLabel'");
}

TEST(FrontendTest, ValidateReportsBinaryErrorsByWord) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  // Give the instruction after the header an opcode that does not exist.
  Words[5] = (Words[5] & 0xffff0000u) | 0xfff0u;
  EXPECT_EQ(errorText(validateSpirv(Words, SPV_ENV_VULKAN_1_0)),
            "word 5: validation failed: Invalid opcode: 65520");
}

//===----------------------------------------------------------------------===//
// Canonicalization
//===----------------------------------------------------------------------===//

TEST(FrontendTest, CanonicalizeKeepsIdsAndNamesOfCleanModule) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  std::vector<uint32_t> Canonical =
      unwrap(canonicalizeSpirv(Words, SPV_ENV_VULKAN_1_0, {}));
  std::vector<std::string> Before =
      friendlyNames(Words, Words[3], SPV_ENV_VULKAN_1_0);
  std::vector<std::string> After =
      friendlyNames(Canonical, Canonical[3], SPV_ENV_VULKAN_1_0);
  ASSERT_EQ(After.size(), Before.size()) << disassemble(Canonical);
  for (uint32_t Id = 15; Id <= 40; ++Id)
    EXPECT_EQ(After[Id], Before[Id]) << "id " << Id;
  for (uint32_t Id : {15u, 18u, 19u, 21u, 22u, 25u, 26u, 32u, 40u})
    EXPECT_EQ(After[Id], std::to_string(Id));
  EXPECT_EQ(After[2], "main");
  EXPECT_EQ(After[3], "in_");
  EXPECT_EQ(After[4], "out_");
  // Nothing to do means nothing done, word for word.
  EXPECT_EQ(Canonical, Words) << disassemble(Canonical);
}

/// A shader with a helper function and a specialization constant.
const char *SpecSource = "#version 450\n"
                         "layout(constant_id = 3) const int Scale = 2;\n"
                         "layout(location = 0) in flat int In;\n"
                         "layout(location = 0) out int Out;\n"
                         "int twice(int X) { return X * Scale; }\n"
                         "void main() { Out = twice(In) + Scale; }\n";

/// The literal values of the module's OpConstant instructions.
std::vector<uint32_t> constantValues(llvm::ArrayRef<uint32_t> Words) {
  std::vector<uint32_t> Values;
  for (const Inst &I : instructions(Words))
    if (I.Opcode == spv::Op::OpConstant)
      Values.push_back(I.Operands[2]);
  return Values;
}

TEST(FrontendTest, CanonicalizeSpecializesAndInlines) {
  std::vector<uint32_t> Words =
      unwrap(compileGlsl(SpecSource, fragmentOptions()));
  ASSERT_EQ(countOpcode(Words, spv::Op::OpSpecConstant), 1u);
  ASSERT_EQ(countOpcode(Words, spv::Op::OpFunction), 2u);

  CanonicalizeOptions Opts;
  Opts.SpecValues = {{3, "5"}, {3, "7"}}; // The last value wins.
  std::vector<uint32_t> Canonical =
      unwrap(canonicalizeSpirv(Words, SPV_ENV_VULKAN_1_2, Opts));
  EXPECT_EQ(countOpcode(Canonical, spv::Op::OpSpecConstant), 0u)
      << disassemble(Canonical);
  std::vector<uint32_t> Values = constantValues(Canonical);
  EXPECT_NE(std::find(Values.begin(), Values.end(), 7u), Values.end())
      << disassemble(Canonical);
  EXPECT_EQ(countOpcode(Canonical, spv::Op::OpFunction), 1u)
      << disassemble(Canonical);
  EXPECT_EQ(countOpcode(Canonical, spv::Op::OpFunctionCall), 0u);
  EXPECT_EQ(countFunctionVariables(Canonical), 0u) << disassemble(Canonical);
  EXPECT_EQ(validationMessage(Canonical, SPV_ENV_VULKAN_1_2), "");
}

TEST(FrontendTest, CanonicalizeWithoutSpecValuesFreezesDefaults) {
  std::vector<uint32_t> Words =
      unwrap(compileGlsl(SpecSource, fragmentOptions()));
  CanonicalizeOptions Opts;
  Opts.Inline = false;
  std::vector<uint32_t> Canonical =
      unwrap(canonicalizeSpirv(Words, SPV_ENV_VULKAN_1_2, Opts));
  EXPECT_EQ(countOpcode(Canonical, spv::Op::OpSpecConstant), 0u);
  std::vector<uint32_t> Values = constantValues(Canonical);
  EXPECT_NE(std::find(Values.begin(), Values.end(), 2u), Values.end())
      << disassemble(Canonical);
  // Without inlining the helper and its call stay.
  EXPECT_EQ(countOpcode(Canonical, spv::Op::OpFunction), 2u)
      << disassemble(Canonical);
  EXPECT_EQ(countOpcode(Canonical, spv::Op::OpFunctionCall), 1u);
}

TEST(FrontendTest, CanonicalizeTurnsPrivateGlobalsIntoValues) {
  const char *Source = "#version 450\n"
                       "layout(location = 0) in float In;\n"
                       "layout(location = 0) out float Out;\n"
                       "float G;\n"
                       "void set() { G = In * 2.0; }\n"
                       "void main() { set(); Out = G; }\n";
  std::vector<uint32_t> Words = unwrap(compileGlsl(Source, fragmentOptions()));
  auto CountPrivate = [](llvm::ArrayRef<uint32_t> M) {
    size_t N = 0;
    for (const Inst &I : instructions(M))
      N += I.Opcode == spv::Op::OpVariable &&
           I.Operands[2] == static_cast<uint32_t>(spv::StorageClass::Private);
    return N;
  };
  ASSERT_EQ(CountPrivate(Words), 1u);
  std::vector<uint32_t> Canonical =
      unwrap(canonicalizeSpirv(Words, SPV_ENV_VULKAN_1_2, {}));
  EXPECT_EQ(CountPrivate(Canonical), 0u) << disassemble(Canonical);
  EXPECT_EQ(countFunctionVariables(Canonical), 0u) << disassemble(Canonical);
}

TEST(FrontendTest, CanonicalizeMergesReturns) {
  const char *Source =
      "#version 450\n"
      "layout(location = 0) in float In;\n"
      "layout(location = 0) out float Out;\n"
      "float f(float X) { if (X > 0.0) return X; return -X; }\n"
      "void main() { Out = f(In); }\n";
  std::vector<uint32_t> Words = unwrap(compileGlsl(Source, fragmentOptions()));
  CanonicalizeOptions Opts;
  Opts.Inline = false;
  std::vector<uint32_t> Canonical =
      unwrap(canonicalizeSpirv(Words, SPV_ENV_VULKAN_1_2, Opts));
  EXPECT_EQ(countOpcode(Canonical, spv::Op::OpReturnValue), 1u)
      << disassemble(Canonical);
}

TEST(FrontendTest, CanonicalizeRejectsGarbage) {
  std::vector<uint32_t> Words = {spv::MagicNumber, 0x00010000, 0, 10, 0,
                                 0xffffffff};
  std::string Msg =
      errorText(canonicalizeSpirv(Words, SPV_ENV_UNIVERSAL_1_0, {}));
  EXPECT_NE(Msg.find("canonicalization failed: "), std::string::npos) << Msg;
}

//===----------------------------------------------------------------------===//
// Disassembler and friendly names
//===----------------------------------------------------------------------===//

TEST(FrontendTest, DisassembleLikeSpirvDis) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  std::string Text = unwrap(disassembleSpirv(Words, SPV_ENV_UNIVERSAL_1_0));
  EXPECT_EQ(Text.rfind("; SPIR-V\n; Version: 1.0\n", 0), 0u) << Text;
  EXPECT_NE(Text.find("; Bound: 41\n"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\n      %int_0 = OpConstant %int 0\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("\n         %19 = OpPhi %int %int_0 %15 %20 %40\n"),
            std::string::npos)
      << Text;
}

TEST(FrontendTest, DisassembleErrorNamesWord) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  Words[5] = (Words[5] & 0xffff0000u) | 0xfff0u;
  EXPECT_EQ(errorText(disassembleSpirv(Words, SPV_ENV_UNIVERSAL_1_0)),
            "word 5: disassembly failed: Invalid opcode: 65520");
}

TEST(FrontendTest, FriendlyNamesOfExample) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  std::vector<std::string> Names =
      friendlyNames(Words, Words[3], SPV_ENV_UNIVERSAL_1_0);
  ASSERT_EQ(Names.size(), 41u);
  EXPECT_EQ(Names[0], "");
  EXPECT_EQ(Names[1], "1");
  EXPECT_EQ(Names[2], "main");
  EXPECT_EQ(Names[3], "in_");
  EXPECT_EQ(Names[7], "int");
  EXPECT_EQ(Names[10], "_ptr_Input_float");
  EXPECT_EQ(Names[12], "int_0");
  EXPECT_EQ(Names[16], "16");
  EXPECT_EQ(Names[40], "40");
  for (uint32_t Id = 33; Id < 40; ++Id)
    EXPECT_EQ(Names[Id], "") << "id " << Id << " is not defined";
}

TEST(FrontendTest, FriendlyNamesOnlyBelowBound) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  std::vector<std::string> Names =
      friendlyNames(Words, 13, SPV_ENV_UNIVERSAL_1_0);
  ASSERT_EQ(Names.size(), 13u);
  EXPECT_EQ(Names[12], "int_0");
}

TEST(FrontendTest, FriendlyNamesFallBackToNumbers) {
  std::vector<uint32_t> Words = assembleExample("kazan-example-valid.spvasm");
  // An unknown opcode: the walk still finds the results, the disassembler
  // fails, so every result is named by its number.
  std::vector<uint32_t> BadOpcode = Words;
  BadOpcode[5] = (BadOpcode[5] & 0xffff0000u) | 0xfff0u;
  std::vector<std::string> Names =
      friendlyNames(BadOpcode, 41, SPV_ENV_UNIVERSAL_1_0);
  ASSERT_EQ(Names.size(), 41u);
  EXPECT_EQ(Names[3], "3");
  EXPECT_EQ(Names[12], "12");
  EXPECT_EQ(Names[33], "");

  // The last instruction claims more words than there are: which ids are
  // results is unknown, so all ids are named by number.
  std::vector<uint32_t> Truncated = Words;
  Truncated.back() += 1u << 16;
  Names = friendlyNames(Truncated, 41, SPV_ENV_UNIVERSAL_1_0);
  ASSERT_EQ(Names.size(), 41u);
  EXPECT_EQ(Names[0], "");
  EXPECT_EQ(Names[12], "12");
  EXPECT_EQ(Names[33], "33");
}

} // namespace
