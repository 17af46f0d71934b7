# Writes the commit onnx-tosa is built from into ${OUT} (cmake -P, at every
# build): only a changed commit rewrites the file and recompiles version.cpp.
# Outside a git checkout (a source archive) the commit is "unknown".
execute_process(
  COMMAND git -C "${SRC}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE ONNX_TOSA_COMMIT
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR ONNX_TOSA_COMMIT STREQUAL "")
  set(ONNX_TOSA_COMMIT unknown)
endif()
configure_file("${SRC}/cmake/version_commit.h.in" "${OUT}" @ONLY)
