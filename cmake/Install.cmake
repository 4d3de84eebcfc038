# cmake --install: the shared library with its CMake package
# (find_package(spirv2llvm) -> spirv2llvm::spirv2llvm) and pkg-config file,
# the public headers, the spirv2llvm command and the opt plugin.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS spirv2llvm_shared EXPORT spirv2llvmTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS spirv2llvm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS Spirv2llvmPasses
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/spirv2llvm)

set(s2l_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/spirv2llvm)
install(EXPORT spirv2llvmTargets NAMESPACE spirv2llvm::
        DESTINATION ${s2l_cmake_dir})
configure_package_config_file(
  ${CMAKE_SOURCE_DIR}/cmake/spirv2llvmConfig.cmake.in
  ${CMAKE_BINARY_DIR}/spirv2llvmConfig.cmake
  INSTALL_DESTINATION ${s2l_cmake_dir})
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/spirv2llvmConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/spirv2llvmConfig.cmake
              ${CMAKE_BINARY_DIR}/spirv2llvmConfigVersion.cmake
        DESTINATION ${s2l_cmake_dir})

# pkg-config: relocatable (the prefix is found from the .pc file's own
# place), so `cmake --install --prefix` anywhere works.
set(s2l_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH s2l_pc_to_prefix /${s2l_pc_dir} /)
string(REGEX REPLACE "/$" "" s2l_pc_to_prefix "${s2l_pc_to_prefix}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/spirv2llvm.pc.in
               ${CMAKE_BINARY_DIR}/spirv2llvm.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/spirv2llvm.pc DESTINATION ${s2l_pc_dir})
