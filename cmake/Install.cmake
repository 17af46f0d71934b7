# `cmake --install build --prefix P` installs the runtime (shared and static),
# its headers, the tools, a CMake package and a pkg-config file:
#
#   find_package(onnx_tosa CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE onnx_tosa::runtime)   # or runtime_static
#   add_custom_command(... COMMAND onnx_tosa::compiler model.onnx -o m.otsa)
#
#   cc app.c $(pkg-config --cflags --libs onnx-tosa)
include(CMakePackageConfigHelpers)

set(ONNX_TOSA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/onnx_tosa)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/onnx_tosa
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS onnx_tosa_runtime_shared onnx_tosa_runtime onnx_tosa_artifact
        EXPORT onnx_tosaTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

set(tools onnx-tosa-run)
set_target_properties(onnx-tosa-run PROPERTIES EXPORT_NAME run)
if(TARGET onnx-tosa-compile)
  list(APPEND tools onnx-tosa-compile onnx-tosa-opt)
  set_target_properties(onnx-tosa-compile PROPERTIES EXPORT_NAME compiler)
  set_target_properties(onnx-tosa-opt PROPERTIES EXPORT_NAME opt)
endif()
install(TARGETS ${tools} EXPORT onnx_tosaTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(EXPORT onnx_tosaTargets NAMESPACE onnx_tosa::
        DESTINATION ${ONNX_TOSA_CMAKE_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/onnx_tosaConfig.cmake.in
  ${PROJECT_BINARY_DIR}/onnx_tosaConfig.cmake
  INSTALL_DESTINATION ${ONNX_TOSA_CMAKE_DIR})
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/onnx_tosaConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/onnx_tosaConfig.cmake
              ${PROJECT_BINARY_DIR}/onnx_tosaConfigVersion.cmake
        DESTINATION ${ONNX_TOSA_CMAKE_DIR})

# The prefix relative to the .pc file, so that `--prefix` at install time holds.
file(RELATIVE_PATH ONNX_TOSA_PC_TO_PREFIX
     /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" ONNX_TOSA_PC_TO_PREFIX "${ONNX_TOSA_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/onnx-tosa.pc.in
               ${PROJECT_BINARY_DIR}/onnx-tosa.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/onnx-tosa.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
