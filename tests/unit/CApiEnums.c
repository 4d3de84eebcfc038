/*===- CApiEnums.c - Out-of-range enum arguments, passed from C -----------===*
 *
 * C lets a caller pass any int where the C API takes an enum; C++ may not
 * even form such a value, so LibraryApiTest.cpp calls this C function,
 * which returns the number of setters that accepted a bad value.
 *
 *===----------------------------------------------------------------------===*/
#include "spirv2llvm-c/spirv2llvm.h"

#include <string.h>

int s2l_test_out_of_range_enums(void) {
  int bad = 0;
  s2l_options o = s2l_options_create();
  bad += s2l_options_set_backend(o, (s2l_backend)17) !=
         S2L_ERROR_INVALID_ARGUMENT;
  bad += s2l_options_set_stage(o, (s2l_stage)9) != S2L_ERROR_INVALID_ARGUMENT;
  bad += s2l_options_set_input_kind(o, (s2l_input_kind)-1) !=
         S2L_ERROR_INVALID_ARGUMENT;
  bad += strcmp(s2l_result_string((s2l_result)99), "S2L_ERROR_UNKNOWN") != 0;
  s2l_options_destroy(o);
  return bad;
}
