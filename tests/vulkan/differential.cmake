# Differential tests: every shader in shaders/compute runs on lavapipe and on
# spirv2llvm's JIT at W = 4, 8 and 16, and the output buffers are compared
# (DifferentialTest.cpp has the table of cases).
#
# lavapipe's subgroup size is fixed when the driver loads (its vector width,
# LP_NATIVE_VECTOR_WIDTH), so each width's tests run with the matching
# lavapipe: 128 bits for W = 4, 256 for W = 8, 512 for W = 16. Subgroup
# built-ins are then compared directly. (Run by hand without the variable,
# the binary compares size-dependent buffers only where W equals lavapipe's
# size and says which it skipped.)
add_executable(s2l-differential-tests DifferentialTest.cpp)
target_link_libraries(s2l-differential-tests PRIVATE s2l_vulkan_runner
                      s2l_whitebox GTest::gtest_main)
target_compile_definitions(s2l-differential-tests PRIVATE
  S2L_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
foreach(width_bits 4:128 8:256 16:512)
  string(REPLACE ":" ";" width_bits ${width_bits})
  list(GET width_bits 0 width)
  list(GET width_bits 1 bits)
  s2l_gtest(s2l-differential-tests
    TEST_FILTER "W${width}/*"
    PROPERTIES LABELS vulkan TIMEOUT 300
               ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=${bits}")
endforeach()
# The one-invocation back ends against the same lavapipe results:
# Invocation/* (--backend=invocation), Scalar/* (--backend=scalar) and
# DxilData/* (--backend=dxil without dxil-op-lower, whose dx.op calls the
# JIT cannot run). A subgroup is one invocation there, so buffers that
# depend on the subgroup size are skipped (the test says so).
foreach(config Invocation Scalar DxilData)
  s2l_gtest(s2l-differential-tests
    TEST_FILTER "${config}/*"
    PROPERTIES LABELS vulkan TIMEOUT 300
               ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=128")
endforeach()

# Descriptor arrays, buffer_reference and explicit-layout workgroup blocks
# (BufferDifferentialTest.cpp), at W = 4 and 8 with the matching lavapipe.
add_executable(s2l-buffer-differential-tests BufferDifferentialTest.cpp)
target_link_libraries(s2l-buffer-differential-tests PRIVATE s2l_vulkan_runner
                      s2l_whitebox GTest::gtest_main)
target_compile_definitions(s2l-buffer-differential-tests PRIVATE
  S2L_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
foreach(width_bits 4:128 8:256)
  string(REPLACE ":" ";" width_bits ${width_bits})
  list(GET width_bits 0 width)
  list(GET width_bits 1 bits)
  s2l_gtest(s2l-buffer-differential-tests
    TEST_FILTER "W${width}/*"
    PROPERTIES LABELS vulkan TIMEOUT 300
               ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=${bits}")
endforeach()
# ... and through the one-invocation back ends.
foreach(config Invocation Scalar)
  s2l_gtest(s2l-buffer-differential-tests
    TEST_FILTER "${config}/*"
    PROPERTIES LABELS vulkan TIMEOUT 300
               ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=128")
endforeach()
