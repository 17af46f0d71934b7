//===- version.cpp - The project version and commit -----------------------===//

#include "onnx_tosa/version.h"

#include "onnx_tosa/version_commit.h" // generated: ONNX_TOSA_COMMIT

namespace onnx_tosa {

const char *projectVersion() { return ONNX_TOSA_VERSION; }
const char *projectCommit() { return ONNX_TOSA_COMMIT; }
const char *projectVersionString() {
  return "onnx-tosa " ONNX_TOSA_VERSION " (commit " ONNX_TOSA_COMMIT ")";
}

} // namespace onnx_tosa
