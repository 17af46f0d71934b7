//===- version.h - Which onnx-tosa this is ----------------------*- C++ -*-===//
//
// The project's release version and the git commit it was built from, shared
// by the tools' --version, the artifact's producer record and the runtime's
// ot_version().
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_VERSION_H
#define ONNX_TOSA_VERSION_H

namespace onnx_tosa {

/// "MAJOR.MINOR.PATCH", from the top-level CMakeLists.txt.
const char *projectVersion();
/// `git describe --always --dirty` of the source tree at build time
/// ("unknown" outside a checkout).
const char *projectCommit();
/// "onnx-tosa 0.1.0 (commit 1a2b3c4d5e6f)".
const char *projectVersionString();

} // namespace onnx_tosa

#endif // ONNX_TOSA_VERSION_H
