//===- test_util.h - Shared helpers for the runtime tests -------*- C++ -*-===//
#ifndef ONNX_TOSA_TEST_RUNTIME_TEST_UTIL_H
#define ONNX_TOSA_TEST_RUNTIME_TEST_UTIL_H

#include "onnx_tosa/artifact.h"
#include "onnx_tosa/runtime.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace onnx_tosa::test {

/// A status turned into plain values; frees the C status.
struct StatusResult {
  ot_status_code code = OT_STATUS_OK;
  std::string message;
  bool ok() const { return code == OT_STATUS_OK; }
};
StatusResult take(ot_status status);

/// A fresh, empty directory under the system temporary directory.
std::string makeTempDir();
std::vector<uint8_t> readFileBytes(const std::string &path);
void writeFileBytes(const std::string &path, const std::vector<uint8_t> &b);

/// The assembled SPIR-V of test kernel `name` (see kernels/); empty if the
/// kernels were not built (no SPIR-V assembler at configure time).
std::vector<uint8_t> loadTestKernel(const std::string &name);

/// The artifact the Vulkan and CUDA execution tests share:
///   c = a + b   (a: input "a" float32 [1000], b: a constant)
///   d = c * c   (second launch, reads the first one's result)
/// Outputs "d" and then "c". `module` holds the kernels: SPIR-V with entry
/// points add/square, or PTX with vadd/vsquare.
Artifact makeAddSquareArtifact(Target target, std::vector<uint8_t> module,
                               const std::string &addEntry,
                               const std::string &squareEntry);
constexpr size_t kAddSquareN = 1000;
/// Input "a" for a given run, and the constant "b".
std::vector<float> addSquareInput(int run);
std::vector<float> addSquareConstant();

/// RAII owners for C handles used by the tests.
struct DeviceHandle {
  ot_device *ptr = nullptr;
  ~DeviceHandle() { ot_device_release(ptr); }
};
struct SessionHandle {
  ot_session *ptr = nullptr;
  ~SessionHandle() { ot_session_release(ptr); }
};

/// A host tensor naming `name` over a float vector.
ot_host_tensor floatTensor(const char *name, std::vector<float> &data,
                           const std::vector<int64_t> &shape);

} // namespace onnx_tosa::test

#endif // ONNX_TOSA_TEST_RUNTIME_TEST_UTIL_H
