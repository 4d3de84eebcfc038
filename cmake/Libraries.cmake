# The libraries of spirv2llvm, bottom to top. Each is a static library
# (position independent, so the shared libspirv2llvm can be made of them)
# with a one-line purpose; it links only the layers below it.
#
#   support -> image -> parser -> frontend -> cfg -> uniformity -> codegen
#   -> passes -> target -> translate -> runtime -> graphics -> capi -> amber
#   -> (tools/spirv2llvm)
#
# The order is also in tests/layering/check_layers.py, which fails when a
# target links or a file includes a layer above its own.

# (CMAKE_INSTALL_INCLUDEDIR and friends, used in install interfaces below.)
include(GNUInstallDirs)

# s2l_library(NAME DIR DEPS...): the .cpp files of src/DIR, src/ as a
# PRIVATE include path (headers under src/ are never exported), include/
# as the public one.
function(s2l_library name dir)
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/${dir}/*.cpp)
  add_library(${name} STATIC ${srcs})
  target_include_directories(${name}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
    PRIVATE ${CMAKE_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARGN})
endfunction()

# support: error helpers and resource limits (headers only).
add_library(s2l_support INTERFACE)
target_link_libraries(s2l_support INTERFACE ${SPIRV2LLVM_LLVM_LIBS})

# image: texel formats and their conversions (ImageFormat.h), PNG in and
# out through libpng (PngImage.h); no LLVM.
s2l_library(s2l_image image)
if(SPIRV2LLVM_WITH_PNG)
  find_package(PNG REQUIRED)
  target_sources(s2l_image PRIVATE ${CMAKE_SOURCE_DIR}/src/image/png/Png.cpp)
  target_link_libraries(s2l_image PUBLIC PNG::PNG)
else()
  target_sources(s2l_image PRIVATE ${CMAKE_SOURCE_DIR}/src/image/png/NoPng.cpp)
endif()

# parser: the SPIR-V model: decodes words into a checked Module.
s2l_library(s2l_parser parser s2l_support SPIRV-Tools-static)
# Enumerant names come from the SPIR-V grammar of the installed SPIRV-Headers.
find_package(Python3 REQUIRED COMPONENTS Interpreter)
find_path(SPIRV_GRAMMAR_DIR spirv.core.grammar.json
          PATHS /usr/include/spirv/unified1 REQUIRED)
add_custom_command(
  OUTPUT ${CMAKE_BINARY_DIR}/gen/SpirvNames.inc
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/src/parser/gen_spirv_names.py
          ${SPIRV_GRAMMAR_DIR}/spirv.core.grammar.json
          ${SPIRV_GRAMMAR_DIR}/extinst.glsl.std.450.grammar.json
          ${CMAKE_BINARY_DIR}/gen/SpirvNames.inc
  DEPENDS ${CMAKE_SOURCE_DIR}/src/parser/gen_spirv_names.py
  COMMENT "Generating SPIR-V name tables")
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/gen)
# The opcode property table: the grammar joined with OpcodeProperties.txt.
add_custom_command(
  OUTPUT ${CMAKE_BINARY_DIR}/gen/OpcodeTable.inc
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/src/parser/gen_opcode_table.py
          ${SPIRV_GRAMMAR_DIR}/spirv.core.grammar.json
          ${SPIRV_GRAMMAR_DIR}/extinst.glsl.std.450.grammar.json
          ${CMAKE_SOURCE_DIR}/src/parser/OpcodeProperties.txt
          ${CMAKE_BINARY_DIR}/gen/OpcodeTable.inc
  DEPENDS ${CMAKE_SOURCE_DIR}/src/parser/gen_opcode_table.py
          ${CMAKE_SOURCE_DIR}/src/parser/OpcodeProperties.txt
  COMMENT "Generating the opcode property table")
target_sources(s2l_parser PRIVATE ${CMAKE_BINARY_DIR}/gen/SpirvNames.inc
                                  ${CMAKE_BINARY_DIR}/gen/OpcodeTable.inc)
target_include_directories(s2l_parser PRIVATE ${CMAKE_BINARY_DIR}/gen)

# frontend: SPIRV-Tools (assemble, validate, canonicalize) and glslang.
s2l_library(s2l_frontend frontend s2l_parser SPIRV-Tools-opt SPIRV-Tools-static)
if(SPIRV2LLVM_WITH_GLSLANG)
  target_sources(s2l_frontend PRIVATE
                 ${CMAKE_SOURCE_DIR}/src/frontend/glslang/Glslang.cpp)
  target_link_libraries(s2l_frontend PUBLIC glslang::glslang glslang::SPIRV
                        glslang::glslang-default-resource-limits)
else()
  target_sources(s2l_frontend PRIVATE
                 ${CMAKE_SOURCE_DIR}/src/frontend/glslang/NoGlslang.cpp)
endif()

# cfg, uniformity: the analyses (CFG, dominators, structure tree;
# Constant/Uniform/Varying).
s2l_library(s2l_cfg cfg s2l_parser)
s2l_library(s2l_uniformity uniformity s2l_cfg)

# codegen: the SIMD and one-invocation back ends (SPIR-V to LLVM IR).
s2l_library(s2l_codegen codegen s2l_uniformity)
# src/codegen is split by back end: common/, simd/, invocation/.
file(GLOB s2l_codegen_srcs CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/src/codegen/*/*.cpp)
target_sources(s2l_codegen PRIVATE ${s2l_codegen_srcs})

# passes: the DXIL-shaped LLVM passes (docs/dxil-passes.md); LLVM only.
s2l_library(s2l_passes passes s2l_support)

# target: the host target machine, LLVM's optimization pipeline, object and
# assembly emission.
s2l_library(s2l_target target s2l_support)

# translate: the translate API of spirv2llvm.h (bytes to llvm::Module,
# reflection, emission).
s2l_library(s2l_translate api s2l_frontend s2l_codegen s2l_passes s2l_target)
target_compile_definitions(s2l_translate PRIVATE
  SPIRV2LLVM_VERSION="${PROJECT_VERSION}")

# runtime: JIT and compute dispatch (Jit.h, Compute.h). It needs an
# llvm::Module and the ABI only, not the translator.
s2l_library(s2l_runtime runtime s2l_target s2l_image Threads::Threads)
target_compile_definitions(s2l_runtime PRIVATE
  SPIRV2LLVM_VERSION="${PROJECT_VERSION}")

# graphics: the software rasterizer (Graphics.h), a client of translate
# (it compiles its pipelines' shaders) and runtime.
s2l_library(s2l_graphics graphics s2l_translate s2l_runtime)
# The output merge's specialized paths do exactly the float operations of
# its generic path; GCC would otherwise fuse multiply-adds differently in
# each when FMA is enabled (-march=native). docs/graphics.md, "Output merge".
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/graphics/OutputMerge.cpp
  PROPERTIES COMPILE_OPTIONS -ffp-contract=off)

# capi: the C API (include/spirv2llvm-c), over translate, runtime and
# graphics.
s2l_library(s2l_capi capi s2l_translate s2l_runtime s2l_graphics)

# amber: Amber scripts (spirv2llvm amber), a client of translate and
# runtime.
s2l_library(s2l_amber amber s2l_translate s2l_runtime s2l_graphics)

# The installable shared library: every layer up to the C API (the image
# layer too, so that the installed ImageFormat.h and PngImage.h work),
# third-party static libraries inside with their symbols hidden.
set(s2l_shared_layers s2l_image s2l_parser s2l_frontend s2l_cfg s2l_uniformity
    s2l_codegen s2l_passes s2l_target s2l_translate s2l_runtime s2l_graphics
    s2l_capi)
set(s2l_shared_objects)
foreach(l ${s2l_shared_layers})
  list(APPEND s2l_shared_objects $<TARGET_OBJECTS:${l}>)
endforeach()
add_library(spirv2llvm_shared SHARED ${s2l_shared_objects})
set_target_properties(spirv2llvm_shared PROPERTIES
  OUTPUT_NAME spirv2llvm EXPORT_NAME spirv2llvm
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
target_include_directories(spirv2llvm_shared INTERFACE
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# libpng (the image layer's PNG files) stays a shared library dependency.
set(s2l_third_party SPIRV-Tools-opt SPIRV-Tools-static Threads::Threads)
if(SPIRV2LLVM_WITH_PNG)
  list(APPEND s2l_third_party PNG::PNG)
endif()
if(SPIRV2LLVM_WITH_GLSLANG)
  list(APPEND s2l_third_party glslang::glslang glslang::SPIRV
       glslang::glslang-default-resource-limits)
endif()
target_link_libraries(spirv2llvm_shared PRIVATE ${SPIRV2LLVM_LLVM_LIBS}
                      ${s2l_third_party})
# SPIRV-Tools and glslang are linked in statically; hide their symbols so an
# application with its own copies does not bind to ours.
target_link_options(spirv2llvm_shared PRIVATE "LINKER:--exclude-libs,ALL")
