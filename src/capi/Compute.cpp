//===- Compute.cpp - C API: compute shaders and their resources -----------===//
#include "capi/Handles.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <new>

using namespace spirv2llvm;
using spirv2llvm::capi::fail;
using spirv2llvm::capi::succeed;

s2l_result s2l_compute_shader_create(s2l_context C, s2l_translation T,
                                     unsigned OptLevel,
                                     s2l_compute_shader *Out) {
  // The translation is consumed whatever happens, as the header promises.
  std::unique_ptr<s2l_translation_s> Owned(T);
  if (!Out || !T || !T->T.IR || OptLevel > 3)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_compute_shader_create: null translation or output, or "
                "an optimization level above 3");
  *Out = nullptr;
  auto S = ComputeShader::create(std::move(T->T), OptLevel);
  if (!S)
    return fail(C, S.status());
  *Out = new s2l_compute_shader_s{std::move(*S)};
  return succeed(C);
}

unsigned s2l_compute_shader_width(s2l_compute_shader S) {
  return S ? S->Shader->width() : 0;
}

void s2l_compute_shader_workgroup_size(s2l_compute_shader S, uint32_t Size[3]) {
  for (int K = 0; K < 3; ++K)
    Size[K] = S ? S->Shader->info().WorkgroupSize[K] : 0;
}

void s2l_compute_shader_destroy(s2l_compute_shader S) { delete S; }

s2l_resources s2l_resources_create(void) {
  return new (std::nothrow) s2l_resources_s;
}
void s2l_resources_destroy(s2l_resources R) { delete R; }

s2l_result s2l_resources_bind_buffer(s2l_resources R, uint32_t Set,
                                     uint32_t Binding, void *Data,
                                     uint64_t Size) {
  if (!R || (!Data && Size))
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.bind(Set, Binding, Data, Size);
  return S2L_SUCCESS;
}

s2l_result s2l_resources_bind_array_element(s2l_resources R, uint32_t Set,
                                            uint32_t Binding, uint32_t Index,
                                            void *Data, uint64_t Size) {
  if (!R || (!Data && Size))
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.bindArrayElement(Set, Binding, Index, Data, Size);
  return S2L_SUCCESS;
}

s2l_result s2l_resources_set_push_constants(s2l_resources R, const void *Data,
                                            size_t Size) {
  if (!R || (!Data && Size))
    return S2L_ERROR_INVALID_ARGUMENT;
  const auto *P = static_cast<const uint8_t *>(Data);
  R->R.PushConstants.assign(P, P + Size);
  return S2L_SUCCESS;
}

s2l_result s2l_resources_set_timeout(s2l_resources R, double Seconds) {
  // Up to a year: beyond that nanoseconds overflow nothing but mean nothing.
  if (!R || !std::isfinite(Seconds) || Seconds < 0 || Seconds > 3.2e7)
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.Timeout = std::chrono::nanoseconds(int64_t(Seconds * 1e9));
  return S2L_SUCCESS;
}

s2l_result s2l_resources_set_cancel_flag(s2l_resources R,
                                         const volatile uint32_t *Flag) {
  if (!R)
    return S2L_ERROR_INVALID_ARGUMENT;
  // The runtime reads the flag as a std::atomic<uint32_t>, which is a
  // lock-free uint32_t here (as generated code reads abi.h's cancel).
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t) &&
                alignof(std::atomic<uint32_t>) == alignof(uint32_t) &&
                std::atomic<uint32_t>::is_always_lock_free);
  R->R.Cancel = reinterpret_cast<const std::atomic<uint32_t> *>(
      const_cast<const uint32_t *>(Flag));
  return S2L_SUCCESS;
}

s2l_result s2l_resources_set_catch_faults(s2l_resources R, int On) {
  if (!R)
    return S2L_ERROR_INVALID_ARGUMENT;
  R->R.CatchFaults = On != 0;
  return S2L_SUCCESS;
}

s2l_result s2l_compute_shader_dispatch(s2l_context C, s2l_compute_shader S,
                                       s2l_resources R, uint32_t X,
                                       uint32_t Y, uint32_t Z,
                                       unsigned Threads) {
  if (!S || !R)
    return fail(C, S2L_ERROR_INVALID_ARGUMENT,
                "s2l_compute_shader_dispatch: null shader or resources");
  Status D = S->Shader->dispatch({X, Y, Z}, R->R, Threads);
  if (!D.ok())
    return fail(C, D);
  return succeed(C);
}
