/*===- CApiGraphicsSafety.c - Draw time limits, cancel, faults, from C ----===*
 *
 * What docs/robustness.md promises for draws, reached through the C API
 * the same way as for dispatches: an endless fragment shader
 * (tests/unit/shaders/capi_endless.frag) stops at the resources' time
 * limit (s2l_resources_set_timeout) and when the embedder's cancel flag
 * is set (s2l_resources_set_cancel_flag); a write past the storage
 * buffer, into a PROT_NONE page, returns S2L_ERROR_EXECUTION_FAILED
 * naming the stage and the binding; and the pipeline then draws normally.
 * LibraryApiTest.cpp calls the entry point.
 *
 *===----------------------------------------------------------------------===*/
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "spirv2llvm-c/spirv2llvm.h"

#include "capi_endless_frag.h"
#include "capi_safety_vert.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum {
  FORMAT_R8G8B8A8_UNORM = 37,
  FORMAT_R32G32_SFLOAT = 103,
  TOPOLOGY_TRIANGLE_LIST = 3,
  SIZE = 8,
  /* Words of the storage buffer: Stop, Count, then 14 of Words[]. */
  BUFFER_WORDS = 16
};

static int failf(char *msg, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, size, fmt, ap);
  va_end(ap);
  return 1;
}

/* The whole 8x8 framebuffer as two triangles. */
static const float Positions[12] = {-1, -1, 1, -1, -1, 1, 1, -1, 1, 1, -1, 1};

/* Draws and expects S2L_ERROR_EXECUTION_FAILED with a message holding
   every string of \p want (NULL-terminated). */
static int expect_failure(s2l_context ctx, s2l_graphics_pipeline p,
                          const s2l_framebuffer *fb, s2l_resources res,
                          const char *what, const char *const *want,
                          char *msg, size_t size) {
  s2l_result r = s2l_graphics_pipeline_draw(ctx, p, fb, res, 6, 1, 0, 0, 2);
  const char *err = s2l_context_error(ctx);
  if (r != S2L_ERROR_EXECUTION_FAILED)
    return failf(msg, size, "%s: result %d (%s)", what, (int)r, err);
  for (; *want; ++want)
    if (!strstr(err, *want))
      return failf(msg, size, "%s: '%s' does not say '%s'", what, err, *want);
  return 0;
}

int s2l_test_capi_graphics_safety(char *msg, size_t size) {
  static const s2l_vertex_binding binding = {0, 8, 0};
  static const s2l_vertex_attribute attribute = {0, 0, FORMAT_R32G32_SFLOAT,
                                                 0};
  static const uint32_t color_format = FORMAT_R8G8B8A8_UNORM;
  static const char *const timed_out[] = {"timed out after 0.2 s", NULL};
  static const char *const cancelled[] = {"cancelled", NULL};
  static const char *const fault[] = {
      "fragment shader: the shader accessed memory outside its resources: a "
      "write",
      "of the buffer at set 0, binding 0 (64 bytes)", NULL};
  s2l_context ctx = s2l_context_create();
  s2l_resources res = s2l_resources_create();
  s2l_graphics_pipeline p = NULL;
  s2l_owned_image img = NULL;
  s2l_graphics_pipeline_desc d;
  s2l_image_info info;
  s2l_framebuffer fb;
  const s2l_image *color;
  const unsigned char *texels;
  long page = sysconf(_SC_PAGESIZE);
  unsigned char *map;
  uint32_t *buf;
  uint32_t cancel = 0;
  int32_t index = 0;
  int rc = 1;

  /* The buffer ends where a PROT_NONE page begins: Words[14] and beyond
     fault. */
  map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED || mprotect(map + page, page, PROT_NONE) != 0) {
    failf(msg, size, "cannot map the guarded buffer");
    map = NULL;
    goto done;
  }
  buf = (uint32_t *)(map + page - BUFFER_WORDS * 4);
  memset(buf, 0, BUFFER_WORDS * 4);

  memset(&d, 0, sizeof d);
  d.vertex.code = capi_safety_vert;
  d.vertex.word_count = sizeof capi_safety_vert / sizeof(uint32_t);
  d.fragment.code = capi_endless_frag;
  d.fragment.word_count = sizeof capi_endless_frag / sizeof(uint32_t);
  d.vertex_bindings = &binding;
  d.vertex_binding_count = 1;
  d.vertex_attributes = &attribute;
  d.vertex_attribute_count = 1;
  d.topology = TOPOLOGY_TRIANGLE_LIST;
  d.color_formats = &color_format;
  d.color_format_count = 1;
  if (s2l_graphics_pipeline_create(ctx, &d, 2, &p) != S2L_SUCCESS) {
    failf(msg, size, "create: %s", s2l_context_error(ctx));
    goto done;
  }
  memset(&info, 0, sizeof info);
  info.format = FORMAT_R8G8B8A8_UNORM;
  info.view_type = S2L_VIEW_2D;
  info.width = info.height = SIZE;
  if (s2l_image_create(ctx, &info, &img) != S2L_SUCCESS) {
    failf(msg, size, "image: %s", s2l_context_error(ctx));
    goto done;
  }
  color = s2l_image_descriptor(img);
  memset(&fb, 0, sizeof fb);
  fb.color = &color;
  fb.color_count = 1;
  if (s2l_resources_bind_vertex_buffer(res, 0, Positions, sizeof Positions) !=
          S2L_SUCCESS ||
      s2l_resources_bind_buffer(res, 0, 0, buf, BUFFER_WORDS * 4) !=
          S2L_SUCCESS ||
      s2l_resources_set_push_constants(res, &index, sizeof index) !=
          S2L_SUCCESS ||
      s2l_resources_set_timeout(res, 0.2) != S2L_SUCCESS ||
      s2l_resources_set_cancel_flag(NULL, &cancel) !=
          S2L_ERROR_INVALID_ARGUMENT) {
    failf(msg, size, "binding the resources failed");
    goto done;
  }

  /* Stop is 0: the shader loops until the time limit. */
  if (expect_failure(ctx, p, &fb, res, "endless draw", timed_out, msg, size))
    goto done;
  if (buf[1] == 0) {
    failf(msg, size, "the endless shader did not run");
    goto done;
  }

  /* The cancel flag, already set: stopped before any shader runs. */
  cancel = 1;
  if (s2l_resources_set_timeout(res, 0) != S2L_SUCCESS ||
      s2l_resources_set_cancel_flag(res, &cancel) != S2L_SUCCESS) {
    failf(msg, size, "setting the cancel flag failed");
    goto done;
  }
  buf[1] = 0;
  if (expect_failure(ctx, p, &fb, res, "cancelled draw", cancelled, msg,
                     size))
    goto done;
  if (buf[1] != 0) {
    failf(msg, size, "a shader ran in a draw cancelled before it began");
    goto done;
  }
  cancel = 0;

  /* Words[100]: 344 bytes into the PROT_NONE page. */
  buf[0] = 1;
  index = 100;
  if (s2l_resources_set_push_constants(res, &index, sizeof index) !=
      S2L_SUCCESS)
    goto done;
  if (expect_failure(ctx, p, &fb, res, "faulting draw", fault, msg, size))
    goto done;

  /* The process is intact: the same pipeline draws. */
  index = 0;
  if (s2l_resources_set_push_constants(res, &index, sizeof index) !=
          S2L_SUCCESS ||
      s2l_resources_set_cancel_flag(res, NULL) != S2L_SUCCESS)
    goto done;
  if (s2l_graphics_pipeline_draw(ctx, p, &fb, res, 6, 1, 0, 0, 2) !=
      S2L_SUCCESS) {
    failf(msg, size, "draw after the fault: %s", s2l_context_error(ctx));
    goto done;
  }
  texels = s2l_image_data(img, NULL);
  if (texels[0] != 255 || buf[2] != 7) {
    failf(msg, size, "the draw after the fault did not draw (%u, %u)",
          (unsigned)texels[0], (unsigned)buf[2]);
    goto done;
  }
  rc = 0;
done:
  s2l_resources_destroy(res);
  s2l_image_destroy(img);
  s2l_graphics_pipeline_destroy(p);
  s2l_context_destroy(ctx);
  if (map)
    munmap(map, 2 * page);
  return rc;
}
