//===- file_io.h - Reading and writing whole files safely -------*- C++ -*-===//
//
// What the artifact and .npy readers and writers share: reads take only
// regular files (a FIFO, a device such as /dev/zero or a directory would
// hang or grow memory without bound) and never more than the file's size;
// writes go to a temporary file beside the target and are renamed over it,
// so that a full disk leaves no partial file and reports the real error.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUNTIME_FILE_IO_H
#define ONNX_TOSA_RUNTIME_FILE_IO_H

#include <cstdint>
#include <string>
#include <vector>

namespace onnx_tosa {

/// Reads all of the regular file `path` (at most `limit` bytes, its first
/// `limit` bytes when `prefixOnly`). On failure returns false with a
/// message naming `what` and the path.
bool readRegularFile(const std::string &path, const std::string &what,
                     std::vector<uint8_t> &out, std::string &error,
                     uint64_t limit = UINT64_MAX, bool prefixOnly = false);

/// Writes `size` bytes to `path` through a temporary file in its folder.
bool writeFileAtomically(const std::string &path, const void *data,
                         size_t size, std::string &error);

} // namespace onnx_tosa

#endif // ONNX_TOSA_RUNTIME_FILE_IO_H
