//===- Translate.cpp - C API: contexts, options, translation, reflection --===//
//
// Thin wrappers over spirv2llvm.h: every entry point checks its handles,
// converts errors to an s2l_result and a message in the context, and never
// lets a C++ exception or LLVM error escape to C.
//
//===----------------------------------------------------------------------===//
#include "capi/Handles.h"

#include "llvm/Support/raw_ostream.h"

#include <new>

using namespace spirv2llvm;
using spirv2llvm::capi::enumValue;
using spirv2llvm::capi::fail;
using spirv2llvm::capi::succeed;

static_assert(int(StatusCode::InvalidInput) == S2L_ERROR_INVALID_INPUT &&
                  int(StatusCode::InvalidArgument) ==
                      S2L_ERROR_INVALID_ARGUMENT &&
                  int(StatusCode::ExecutionFailed) ==
                      S2L_ERROR_EXECUTION_FAILED &&
                  int(StatusCode::CompileFailed) == S2L_ERROR_COMPILE_FAILED,
              "s2l_result and StatusCode must agree");

const char *s2l_version(void) { return spirv2llvm::version(); }

const char *s2l_result_string(s2l_result Result) {
  switch (enumValue(Result)) {
  case S2L_SUCCESS:
    return "S2L_SUCCESS";
  case S2L_ERROR_INVALID_INPUT:
    return "S2L_ERROR_INVALID_INPUT";
  case S2L_ERROR_INVALID_ARGUMENT:
    return "S2L_ERROR_INVALID_ARGUMENT";
  case S2L_ERROR_EXECUTION_FAILED:
    return "S2L_ERROR_EXECUTION_FAILED";
  case S2L_ERROR_COMPILE_FAILED:
    return "S2L_ERROR_COMPILE_FAILED";
  }
  return "S2L_ERROR_UNKNOWN";
}

s2l_context s2l_context_create(void) { return new (std::nothrow) s2l_context_s; }
void s2l_context_destroy(s2l_context C) { delete C; }
const char *s2l_context_error(s2l_context C) {
  return C ? C->Error.c_str() : "";
}

s2l_options s2l_options_create(void) { return new (std::nothrow) s2l_options_s; }
void s2l_options_destroy(s2l_options O) { delete O; }

s2l_result s2l_options_set_input_kind(s2l_options O, s2l_input_kind K) {
  int V = enumValue(K);
  if (!O || V < S2L_INPUT_AUTO || V > S2L_INPUT_HLSL)
    return S2L_ERROR_INVALID_ARGUMENT;
  O->Opts.Kind = InputKind(V);
  return S2L_SUCCESS;
}

s2l_result s2l_options_set_stage(s2l_options O, s2l_stage S) {
  int V = enumValue(S);
  if (!O || V < S2L_STAGE_VERTEX || V > S2L_STAGE_COMPUTE)
    return S2L_ERROR_INVALID_ARGUMENT;
  O->Opts.ShaderStage = Stage(V);
  return S2L_SUCCESS;
}

s2l_result s2l_options_set_entry_point(s2l_options O, const char *Name) {
  if (!O)
    return S2L_ERROR_INVALID_ARGUMENT;
  O->Opts.EntryPoint = Name ? Name : "";
  return S2L_SUCCESS;
}

s2l_result s2l_options_set_target_env(s2l_options O, const char *Env) {
  if (!O || !Env)
    return S2L_ERROR_INVALID_ARGUMENT;
  // Checked when translating (the message names the accepted set).
  O->Opts.TargetEnv = Env;
  return S2L_SUCCESS;
}

s2l_result s2l_options_set_backend(s2l_options O, s2l_backend B) {
  int V = enumValue(B);
  if (!O || V < S2L_BACKEND_SIMD || V > S2L_BACKEND_DXIL)
    return S2L_ERROR_INVALID_ARGUMENT;
  O->Opts.Backend = Backend(V);
  return S2L_SUCCESS;
}

s2l_result s2l_options_set_width(s2l_options O, unsigned W) {
  if (!O || (W != 4 && W != 8 && W != 16))
    return S2L_ERROR_INVALID_ARGUMENT;
  O->Opts.Width = W;
  return S2L_SUCCESS;
}

s2l_result s2l_options_set_opt_level(s2l_options O, unsigned L) {
  if (!O || L > 3)
    return S2L_ERROR_INVALID_ARGUMENT;
  O->Opts.OptLevel = L;
  return S2L_SUCCESS;
}

void s2l_options_set_validate(s2l_options O, int On) {
  if (O)
    O->Opts.Validate = On != 0;
}
void s2l_options_set_canonicalize(s2l_options O, int On) {
  if (O)
    O->Opts.Canonicalize = On != 0;
}
void s2l_options_set_robust_buffer_access(s2l_options O, int On) {
  if (O)
    O->Opts.RobustBufferAccess = On != 0;
}

s2l_result s2l_options_set_spec_constant(s2l_options O, uint32_t Id,
                                         const char *Value) {
  if (!O || !Value || !*Value)
    return S2L_ERROR_INVALID_ARGUMENT;
  O->Opts.SpecValues.emplace_back(Id, Value);
  return S2L_SUCCESS;
}

namespace {

const TranslateOptions &optionsOf(s2l_options O) {
  static const TranslateOptions Defaults;
  return O ? O->Opts : Defaults;
}

/// The Backend/Stage enums of spirv2llvm.h and the C enums use the same
/// order; these keep it true.
static_assert(int(Backend::Dxil) == S2L_BACKEND_DXIL &&
              int(Stage::Compute) == S2L_STAGE_COMPUTE &&
              int(InputKind::Hlsl) == S2L_INPUT_HLSL);

} // namespace

s2l_result s2l_translate(s2l_context C, s2l_options O, const void *Data,
                         size_t Size, const char *Name, s2l_translation *Out) {
  if (!Out || (!Data && Size))
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_translate: null output or data pointer");
  *Out = nullptr;
  llvm::ArrayRef<uint8_t> Bytes(static_cast<const uint8_t *>(Data), Size);
  auto T = translateBytes(Bytes, Name ? Name : "<input>", optionsOf(O));
  if (!T)
    return fail(C, S2L_ERROR_INVALID_INPUT, T.takeError());
  *Out = new s2l_translation_s{std::move(*T), {}};
  return succeed(C);
}

s2l_result s2l_translate_file(s2l_context C, s2l_options O, const char *Path,
                              s2l_translation *Out) {
  if (!Out || !Path)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_translate_file: null path or output pointer");
  *Out = nullptr;
  auto T = translateFile(Path, optionsOf(O));
  if (!T)
    return fail(C, S2L_ERROR_INVALID_INPUT, T.takeError());
  *Out = new s2l_translation_s{std::move(*T), {}};
  return succeed(C);
}

s2l_result s2l_translation_emit(s2l_context C, s2l_translation T,
                                s2l_output_kind Kind, const void **Data,
                                size_t *Size) {
  int K = enumValue(Kind);
  if (!T || !T->T.IR || !Data || !Size || K < S2L_OUTPUT_IR_TEXT ||
      K > S2L_OUTPUT_ASSEMBLY)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_translation_emit: bad translation, kind or output");
  std::string Buffer;
  llvm::raw_string_ostream OS(Buffer);
  if (llvm::Error E = emitTranslation(T->T, OutputKind(K), OS))
    return fail(C, S2L_ERROR_COMPILE_FAILED, std::move(E));
  OS.flush();
  T->Emitted.assign(Buffer.begin(), Buffer.end());
  *Size = T->Emitted.size();
  T->Emitted.push_back('\0');
  *Data = T->Emitted.data();
  return succeed(C);
}

const char *s2l_translation_entry_symbol(s2l_translation T) {
  return T ? T->T.EntrySymbol.c_str() : "";
}

void s2l_translation_destroy(s2l_translation T) { delete T; }

s2l_result s2l_reflect(s2l_context C, s2l_options O, const void *Data,
                       size_t Size, const char *Name, s2l_reflection *Out) {
  if (!Out || (!Data && Size))
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_reflect: null output or data pointer");
  *Out = nullptr;
  llvm::ArrayRef<uint8_t> Bytes(static_cast<const uint8_t *>(Data), Size);
  auto R = reflectBytes(Bytes, Name ? Name : "<input>", optionsOf(O));
  if (!R)
    return fail(C, S2L_ERROR_INVALID_INPUT, R.takeError());
  *Out = new s2l_reflection_s{std::move(*R)};
  return succeed(C);
}

const char *s2l_reflection_entry_name(s2l_reflection R) {
  return R ? R->R.EntryName.c_str() : "";
}

s2l_stage s2l_reflection_stage(s2l_reflection R) {
  return R ? s2l_stage(R->R.EntryStage) : S2L_STAGE_COMPUTE;
}

void s2l_reflection_workgroup_size(s2l_reflection R, uint32_t Size[3]) {
  for (int K = 0; K < 3; ++K)
    Size[K] = R ? R->R.Compute.WorkgroupSize[K] : 0;
}

uint32_t s2l_reflection_push_constant_size(s2l_reflection R) {
  return R ? R->R.Compute.PushConstantSize : 0;
}

uint32_t s2l_reflection_workgroup_memory_size(s2l_reflection R) {
  return R ? R->R.Compute.WorkgroupMemorySize : 0;
}

uint32_t s2l_reflection_binding_count(s2l_reflection R) {
  return R ? uint32_t(R->R.Compute.Bindings.size()) : 0;
}

s2l_result s2l_reflection_binding(s2l_reflection R, uint32_t Index,
                                  s2l_binding_info *Info) {
  if (!R || !Info || Index >= R->R.Compute.Bindings.size())
    return S2L_ERROR_INVALID_ARGUMENT;
  const ComputeInfo::Binding &B = R->R.Compute.Bindings[Index];
  // The C enum lists the kinds in ComputeInfo::DescriptorKind's order.
  using Kind = ComputeInfo::DescriptorKind;
  static_assert(int(Kind::InputAttachment) == S2L_DESCRIPTOR_INPUT_ATTACHMENT &&
                int(Kind::CombinedImageSampler) ==
                    S2L_DESCRIPTOR_COMBINED_IMAGE_SAMPLER &&
                int(Kind::UniformBuffer) == S2L_DESCRIPTOR_UNIFORM_BUFFER);
  *Info = s2l_binding_info{B.Set,
                           B.Binding,
                           B.IsUniform,
                           B.MinSize,
                           B.HasRuntimeArray,
                           B.IsArray,
                           B.ArraySize,
                           s2l_descriptor_kind(B.Kind),
                           B.ImageDim,
                           B.ImageArrayed,
                           B.ImageMultisampled,
                           B.ImageFormat};
  return S2L_SUCCESS;
}

static const std::vector<InterfaceVariable> *variables(s2l_reflection R,
                                                       int Outputs) {
  if (!R)
    return nullptr;
  return Outputs ? &R->R.Layout.Outputs : &R->R.Layout.Inputs;
}

uint32_t s2l_reflection_variable_count(s2l_reflection R, int Outputs) {
  const auto *Vars = variables(R, Outputs);
  return Vars ? uint32_t(Vars->size()) : 0;
}

s2l_result s2l_reflection_variable(s2l_reflection R, int Outputs,
                                   uint32_t Index, s2l_variable_info *Info) {
  const auto *Vars = variables(R, Outputs);
  if (!Vars || !Info || Index >= Vars->size())
    return S2L_ERROR_INVALID_ARGUMENT;
  const InterfaceVariable &V = (*Vars)[Index];
  *Info = s2l_variable_info{V.Name.c_str(),
                            V.Location,
                            V.BuiltIn,
                            uint32_t(V.Components.size()),
                            V.Offset,
                            V.Flat,
                            V.NoPerspective};
  return S2L_SUCCESS;
}

uint32_t s2l_reflection_interface_size(s2l_reflection R, int Outputs) {
  if (!R)
    return 0;
  return Outputs ? R->R.Layout.OutputSize : R->R.Layout.InputSize;
}

void s2l_reflection_destroy(s2l_reflection R) { delete R; }
