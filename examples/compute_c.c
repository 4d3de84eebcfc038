/*===- compute_c.c - The C API: reflect, translate, JIT, dispatch ---------===*
 *
 * shaders/examples/saxpy.comp from C11: reflect its bindings, translate it,
 * write its IR, JIT it, dispatch it and check y = a * x + y. Exits non-zero
 * with the library's message on any failure; also checks that a malformed
 * module is refused with a message.
 *
 *   s2l-example-c [--shader PATH] [--threads N] [--ir OUT.ll]
 *
 *===----------------------------------------------------------------------===*/
#include "spirv2llvm-c/spirv2llvm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096u

static int check(s2l_context ctx, s2l_result r, const char *what) {
  if (r == S2L_SUCCESS)
    return 1;
  fprintf(stderr, "%s: %s: %s\n", what, s2l_result_string(r),
          s2l_context_error(ctx));
  return 0;
}

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *data;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc(n > 0 ? (size_t)n : 1);
  if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return data;
}

int main(int argc, char **argv) {
#ifdef S2L_SOURCE_DIR
  const char *path = S2L_SOURCE_DIR "/shaders/examples/saxpy.comp";
#else
  const char *path = "saxpy.comp";
#endif
  const char *ir_path = NULL;
  unsigned threads = 0;
  int i, ok = 0;
  size_t size = 0;
  unsigned char *source;
  s2l_context ctx = s2l_context_create();
  s2l_options opts = s2l_options_create();
  s2l_reflection refl = NULL;
  s2l_translation t = NULL;
  s2l_compute_shader cs = NULL;
  s2l_resources res = s2l_resources_create();
  static float x[N], y[N];
  struct {
    float a;
    uint32_t n;
  } push = {2.0f, N};
  uint32_t wg[3];
  s2l_binding_info b;
  const void *ir;
  size_t ir_size;
  static const uint32_t bad[] = {0x07230203u, 0x00010000u, 0, 1 /* no bound */};

  for (i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--shader"))
      path = argv[i + 1];
    else if (!strcmp(argv[i], "--threads"))
      threads = (unsigned)atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--ir"))
      ir_path = argv[i + 1];
  }
  source = read_file(path, &size);
  if (!source) {
    fprintf(stderr, "cannot read %s\n", path);
    return 1;
  }
  if (!check(ctx, s2l_options_set_width(opts, 8), "width"))
    goto done;
  if (s2l_options_set_width(opts, 5) != S2L_ERROR_INVALID_ARGUMENT) {
    fprintf(stderr, "width 5 was accepted\n");
    goto done;
  }

  /* Reflection: two storage buffers and 8 bytes of push constants. */
  if (!check(ctx, s2l_reflect(ctx, opts, source, size, path, &refl),
             "reflect"))
    goto done;
  s2l_reflection_workgroup_size(refl, wg);
  printf("entry %s: workgroup %ux%ux%u, %u bindings, %u push-constant bytes\n",
         s2l_reflection_entry_name(refl), wg[0], wg[1], wg[2],
         s2l_reflection_binding_count(refl),
         s2l_reflection_push_constant_size(refl));
  if (s2l_reflection_stage(refl) != S2L_STAGE_COMPUTE ||
      s2l_reflection_binding_count(refl) != 2 ||
      s2l_reflection_push_constant_size(refl) != 8 || wg[0] != 64) {
    fprintf(stderr, "unexpected reflection\n");
    goto done;
  }
  for (i = 0; i < 2; ++i) {
    if (!check(ctx, s2l_reflection_binding(refl, (uint32_t)i, &b), "binding"))
      goto done;
    printf("  set %u binding %u: %s, runtime array %d\n", b.set, b.binding,
           b.is_uniform ? "uniform" : "storage", b.has_runtime_array);
  }

  /* Bad input: a message, not a crash. */
  if (s2l_translate(ctx, opts, bad, sizeof bad, "bad.spv", &t) !=
          S2L_ERROR_INVALID_INPUT ||
      t != NULL || !*s2l_context_error(ctx)) {
    fprintf(stderr, "a malformed module was not refused\n");
    goto done;
  }
  printf("malformed module refused: %s\n", s2l_context_error(ctx));

  if (!check(ctx, s2l_translate(ctx, opts, source, size, path, &t),
             "translate"))
    goto done;
  if (!check(ctx, s2l_translation_emit(ctx, t, S2L_OUTPUT_IR_TEXT, &ir,
                                       &ir_size),
             "emit"))
    goto done;
  if (!strstr((const char *)ir, s2l_translation_entry_symbol(t))) {
    fprintf(stderr, "the IR lacks the entry function\n");
    goto done;
  }
  if (ir_path) {
    FILE *f = fopen(ir_path, "w");
    if (f) {
      fwrite(ir, 1, ir_size, f);
      fclose(f);
    }
  }
  if (!check(ctx, s2l_compute_shader_create(ctx, t, 2, &cs), "jit"))
    goto done;
  t = NULL; /* consumed */

  for (i = 0; i < (int)N; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }
  s2l_resources_bind_buffer(res, 0, 0, x, sizeof x);
  /* Without y bound the dispatch must fail with a message. */
  if (s2l_compute_shader_dispatch(ctx, cs, res, N / 64, 1, 1, threads) !=
      S2L_ERROR_INVALID_ARGUMENT) {
    fprintf(stderr, "a dispatch with a missing buffer was accepted\n");
    goto done;
  }
  printf("missing binding refused: %s\n", s2l_context_error(ctx));
  s2l_resources_bind_buffer(res, 0, 1, y, sizeof y);
  s2l_resources_set_push_constants(res, &push, sizeof push);
  if (!check(ctx, s2l_compute_shader_dispatch(ctx, cs, res, N / 64, 1, 1,
                                              threads),
             "dispatch"))
    goto done;
  for (i = 0; i < (int)N; ++i) {
    float want = 2.0f * (float)i + 1.0f;
    if (fabsf(y[i] - want) > 1e-3f * fabsf(want)) {
      fprintf(stderr, "y[%d] = %g, expected %g\n", i, y[i], want);
      goto done;
    }
  }
  printf("saxpy from C: %u elements, width %u: ok\n", N,
         s2l_compute_shader_width(cs));
  ok = 1;

done:
  s2l_compute_shader_destroy(cs);
  s2l_translation_destroy(t);
  s2l_reflection_destroy(refl);
  s2l_resources_destroy(res);
  s2l_options_destroy(opts);
  s2l_context_destroy(ctx);
  free(source);
  return ok ? 0 : 1;
}
