//===- LibraryApiTest.cpp - The library surface of issue 14 ---------------===//
//
// What the translate API offers beyond translation (reflection without code
// generation, emission of object code and assembly), the Status/Result
// types of the runtime headers, and the C API's handling of bad arguments
// and bad input (codes and messages, never a crash).
//
//===----------------------------------------------------------------------===//
#include "spirv2llvm-c/spirv2llvm.h"
#include "spirv2llvm/Compute.h"
#include "spirv2llvm/spirv2llvm.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

using namespace spirv2llvm;

extern "C" int s2l_test_out_of_range_enums(void);
extern "C" int s2l_test_capi_images(char *Msg, size_t Size);
extern "C" int s2l_test_capi_graphics_draw(char *Msg, size_t Size);
extern "C" int s2l_test_capi_graphics_errors(char *Msg, size_t Size);
extern "C" int s2l_test_capi_graphics_safety(char *Msg, size_t Size);
extern "C" int s2l_test_capi_graphics_cache(const char *Dir, char *Msg,
                                            size_t Size);

namespace {

llvm::ArrayRef<uint8_t> bytesOf(const std::string &S) {
  return {reinterpret_cast<const uint8_t *>(S.data()), S.size()};
}

const char *const FragmentSource = R"(#version 450
layout(location = 0) in vec2 uv;
layout(location = 3) flat in ivec2 cell;
layout(location = 0) out vec4 color;
layout(set = 1, binding = 2) uniform Params { vec4 tint; float scale; };
layout(set = 0, binding = 5) buffer Counts { uint count[]; };
layout(push_constant) uniform Push { float bias; };
void main() {
  color = tint * scale * vec4(uv, float(cell.x), bias);
  count[cell.y] = 1u;
}
)";

TEST(ReflectionApi, FragmentInterfaceAndBindingsWithoutCodegen) {
  TranslateOptions Opts;
  Opts.Width = 8;
  auto R = reflectBytes(bytesOf(FragmentSource), "shader.frag", Opts);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->EntryName, "main");
  EXPECT_EQ(R->EntryStage, Stage::Fragment);
  ASSERT_EQ(R->EntryPoints.size(), 1u);
  EXPECT_EQ(R->Layout.Width, 8u);
  const InterfaceVariable *UV = R->Layout.findInputLocation(0);
  const InterfaceVariable *Cell = R->Layout.findInputLocation(3);
  const InterfaceVariable *Color = R->Layout.findOutputLocation(0);
  ASSERT_TRUE(UV && Cell && Color);
  EXPECT_EQ(UV->Components.size(), 2u);
  EXPECT_FALSE(UV->Flat);
  EXPECT_TRUE(Cell->Flat);
  EXPECT_EQ(Cell->Components[0].Kind, ScalarKind::Int);
  EXPECT_EQ(Color->Components.size(), 4u);
  // Two bindings (set 1 binding 2 uniform; set 0 binding 5 storage) and a
  // float of push constants, whatever the stage.
  ASSERT_EQ(R->Compute.Bindings.size(), 2u);
  bool SawUniform = false, SawStorage = false;
  for (const ComputeInfo::Binding &B : R->Compute.Bindings) {
    if (B.Set == 1 && B.Binding == 2) {
      SawUniform = true;
      EXPECT_TRUE(B.IsUniform);
      EXPECT_EQ(B.MinSize, 20u);
    }
    if (B.Set == 0 && B.Binding == 5) {
      SawStorage = true;
      EXPECT_FALSE(B.IsUniform);
      EXPECT_TRUE(B.HasRuntimeArray);
    }
  }
  EXPECT_TRUE(SawUniform && SawStorage);
  EXPECT_EQ(R->Compute.PushConstantSize, 4u);

  // The same layout as the translation reports.
  auto T = translateBytes(bytesOf(FragmentSource), "shader.frag", Opts);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  EXPECT_EQ(T->Layout.InputSize, R->Layout.InputSize);
  EXPECT_EQ(T->Layout.OutputSize, R->Layout.OutputSize);
  EXPECT_EQ(T->Layout.Inputs.size(), R->Layout.Inputs.size());
}

TEST(ReflectionApi, BadInputIsAnError) {
  TranslateOptions Opts;
  auto R = reflectBytes(bytesOf("#version 450\nvoid main() { x = 1; }\n"),
                        "broken.comp", Opts);
  ASSERT_FALSE(bool(R));
  std::string Msg = llvm::toString(R.takeError());
  EXPECT_NE(Msg.find("broken.comp"), std::string::npos) << Msg;
}

TEST(EmitApi, ObjectAndAssemblyForTheHost) {
  TranslateOptions Opts;
  Opts.OptLevel = 2;
  auto T = translateFile(S2L_SOURCE_DIR "/shaders/examples/saxpy.comp", Opts);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  std::string Obj, Asm, Ir;
  llvm::raw_string_ostream ObjOS(Obj), AsmOS(Asm), IrOS(Ir);
  ASSERT_FALSE(bool(emitTranslation(*T, OutputKind::Object, ObjOS)));
  ASSERT_FALSE(bool(emitTranslation(*T, OutputKind::Assembly, AsmOS)));
  ASSERT_FALSE(bool(emitTranslation(*T, OutputKind::IRText, IrOS)));
  ObjOS.flush();
  AsmOS.flush();
  IrOS.flush();
  ASSERT_GE(Obj.size(), 4u);
  EXPECT_EQ(Obj.substr(0, 4), "\x7f"
                              "ELF");
  EXPECT_NE(Asm.find(T->EntrySymbol + ":"), std::string::npos);
  EXPECT_NE(Ir.find("define"), std::string::npos);
}

TEST(StatusApi, ResultAndStatus) {
  Status Ok = Status::success();
  EXPECT_TRUE(Ok.ok());
  EXPECT_EQ(Ok.message(), "");
  Status Bad = Status::error("no buffer bound at set 0, binding 1");
  EXPECT_FALSE(Bad.ok());
  EXPECT_EQ(Bad.code(), StatusCode::InvalidArgument);
  Result<int> V(42), E(Status::error("bad", StatusCode::InvalidInput));
  ASSERT_TRUE(bool(V));
  EXPECT_EQ(*V, 42);
  EXPECT_FALSE(bool(E));
  EXPECT_EQ(E.status().code(), StatusCode::InvalidInput);
  EXPECT_EQ(E.status().message(), "bad");
}

TEST(StatusApi, ComputeShaderRejectsAFragmentShader) {
  TranslateOptions Opts;
  auto T = translateBytes(bytesOf(FragmentSource), "shader.frag", Opts);
  ASSERT_TRUE(bool(T));
  auto S = ComputeShader::create(std::move(*T));
  ASSERT_FALSE(bool(S));
  EXPECT_NE(S.status().message().find("is not a compute shader"),
            std::string::npos);
}

TEST(CApi, BadArgumentsGiveCodesNotCrashes) {
  s2l_context C = s2l_context_create();
  s2l_options O = s2l_options_create();
  EXPECT_EQ(s2l_options_set_width(O, 5), S2L_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(s2l_options_set_opt_level(O, 4), S2L_ERROR_INVALID_ARGUMENT);
  // Enum values no enumerator names, passed from C (CApiEnums.c).
  EXPECT_EQ(s2l_test_out_of_range_enums(), 0);
  EXPECT_EQ(s2l_options_set_width(nullptr, 8), S2L_ERROR_INVALID_ARGUMENT);
  s2l_translation T = nullptr;
  EXPECT_EQ(s2l_translate(C, O, nullptr, 4, "x.spv", &T),
            S2L_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(s2l_context_error(C)), "");
  EXPECT_EQ(s2l_translate_file(C, O, "/no/such/file.comp", &T),
            S2L_ERROR_INVALID_INPUT);
  EXPECT_NE(std::string(s2l_context_error(C)).find("/no/such/file.comp"),
            std::string::npos);
  EXPECT_EQ(T, nullptr);
  EXPECT_EQ(s2l_compute_shader_dispatch(C, nullptr, nullptr, 1, 1, 1, 1),
            S2L_ERROR_INVALID_ARGUMENT);
  s2l_compute_shader S = nullptr;
  EXPECT_EQ(s2l_compute_shader_create(C, nullptr, 2, &S),
            S2L_ERROR_INVALID_ARGUMENT);
  EXPECT_STREQ(s2l_result_string(S2L_ERROR_EXECUTION_FAILED),
               "S2L_ERROR_EXECUTION_FAILED");
  // Destroying null handles is allowed, as free(NULL) is.
  s2l_translation_destroy(nullptr);
  s2l_compute_shader_destroy(nullptr);
  s2l_options_destroy(O);
  s2l_context_destroy(C);
}

TEST(CApi, TranslateEmitAndFailedJitOfAFragmentShader) {
  s2l_context C = s2l_context_create();
  s2l_translation T = nullptr;
  ASSERT_EQ(s2l_translate(C, nullptr, FragmentSource,
                          std::strlen(FragmentSource), "f.frag", &T),
            S2L_SUCCESS)
      << s2l_context_error(C);
  EXPECT_STREQ(s2l_context_error(C), "");
  const void *Data = nullptr;
  size_t Size = 0;
  ASSERT_EQ(s2l_translation_emit(C, T, S2L_OUTPUT_BITCODE, &Data, &Size),
            S2L_SUCCESS);
  ASSERT_GE(Size, 4u);
  EXPECT_EQ(std::memcmp(Data, "BC\xc0\xde", 4), 0);
  // A fragment shader is not a compute shader: the handle is consumed and
  // the error says why.
  s2l_compute_shader S = nullptr;
  EXPECT_EQ(s2l_compute_shader_create(C, T, 2, &S),
            S2L_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(S, nullptr);
  EXPECT_NE(std::string(s2l_context_error(C)).find("not a compute shader"),
            std::string::npos);
  s2l_context_destroy(C);
}

} // namespace

namespace {

// An endless loop unless a[0] != 0, and a write far past b's end when
// push constant "far" is set.
const char *const EndlessOrWild = R"(#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(push_constant) uniform P { int far; };
void main() {
  if (far != 0) {
    a[far + int(gl_LocalInvocationID.x)] = 7u;
    return;
  }
  uint i = 0u;
  while (a[0] == 0u)
    a[1u + gl_LocalInvocationID.x] = i++;
}
)";

TEST(CApi, TimeoutAndFaultsAreExecutionErrors) {
  s2l_context C = s2l_context_create();
  s2l_translation T = nullptr;
  ASSERT_EQ(s2l_translate(C, nullptr, EndlessOrWild,
                          std::strlen(EndlessOrWild), "e.comp", &T),
            S2L_SUCCESS)
      << s2l_context_error(C);
  s2l_compute_shader S = nullptr;
  ASSERT_EQ(s2l_compute_shader_create(C, T, 1, &S), S2L_SUCCESS)
      << s2l_context_error(C);
  std::vector<uint32_t> Data(64, 0);
  int32_t Far = 0;
  s2l_resources R = s2l_resources_create();
  s2l_resources_bind_buffer(R, 0, 0, Data.data(), Data.size() * 4);
  s2l_resources_set_push_constants(R, &Far, sizeof Far);
  EXPECT_EQ(s2l_resources_set_timeout(R, -1), S2L_ERROR_INVALID_ARGUMENT);
  ASSERT_EQ(s2l_resources_set_timeout(R, 0.2), S2L_SUCCESS);
  EXPECT_EQ(s2l_compute_shader_dispatch(C, S, R, 2, 1, 1, 2),
            S2L_ERROR_EXECUTION_FAILED);
  EXPECT_NE(std::string(s2l_context_error(C)).find("timed out"),
            std::string::npos)
      << s2l_context_error(C);
  // Ending in time is not affected by the limit.
  Data[0] = 1;
  EXPECT_EQ(s2l_compute_shader_dispatch(C, S, R, 2, 1, 1, 2), S2L_SUCCESS)
      << s2l_context_error(C);
  // A write 256 MiB past the buffer: an error, not a crash.
  Far = 64 << 20;
  s2l_resources_set_push_constants(R, &Far, sizeof Far);
  EXPECT_EQ(s2l_compute_shader_dispatch(C, S, R, 1, 1, 1, 1),
            S2L_ERROR_EXECUTION_FAILED);
  EXPECT_NE(std::string(s2l_context_error(C)).find("outside its resources"),
            std::string::npos)
      << s2l_context_error(C);
  s2l_resources_destroy(R);
  s2l_compute_shader_destroy(S);
  s2l_context_destroy(C);
}

// Images and samplers created and bound through the C API, from C
// (CApiImages.c): the shader's results and the argument errors.
TEST(CApi, ImagesAndSamplersFromC) {
  char Msg[512] = "";
  EXPECT_EQ(s2l_test_capi_images(Msg, sizeof Msg), 0) << Msg;
}

// A graphics pipeline created and drawn with through the C API, from C
// (CApiGraphics.c): a triangle's pixels, then a scissored indexed draw
// after changing the dynamic state.
TEST(CApi, GraphicsPipelineDrawsFromC) {
  char Msg[512] = "";
  EXPECT_EQ(s2l_test_capi_graphics_draw(Msg, sizeof Msg), 0) << Msg;
}

// The graphics part's argument errors: codes and messages, never a crash.
TEST(CApi, GraphicsPipelineBadArgumentsFromC) {
  char Msg[512] = "";
  EXPECT_EQ(s2l_test_capi_graphics_errors(Msg, sizeof Msg), 0) << Msg;
}

// Draw time limits, the cancel flag and shader faults through the C API,
// from C (CApiGraphicsSafety.c), as for dispatches.
TEST(CApi, GraphicsDrawTimeoutCancelAndFaultFromC) {
  char Msg[512] = "";
  EXPECT_EQ(s2l_test_capi_graphics_safety(Msg, sizeof Msg), 0) << Msg;
}

// A pipeline's shaders stored in and loaded from a compile cache given in
// the C description.
TEST(CApi, GraphicsPipelineThroughACacheFromC) {
  char Dir[] = "/tmp/s2l-capi-graphics-cache-XXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  char Msg[512] = "";
  EXPECT_EQ(s2l_test_capi_graphics_cache(Dir, Msg, sizeof Msg), 0) << Msg;
  std::filesystem::remove_all(Dir);
}

} // namespace
