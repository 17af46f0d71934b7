//===- npy.h - Reading and writing numpy .npy files -------------*- C++ -*-===//
//
// Supports format versions 1.0, 2.0 and 3.0, little-endian (or byte-order
// free) data in C order, with the dtypes float16/32/64, int8/16/32/64,
// uint8/16/32/64 and bool. Anything else is rejected with a message that
// says what was found; malformed files never crash the reader.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_NPY_H
#define ONNX_TOSA_NPY_H

#include "onnx_tosa/artifact.h"

#include <cstdint>
#include <string>
#include <vector>

namespace onnx_tosa {

struct NpyArray {
  DType dtype = DType::F32;
  std::vector<int64_t> shape; ///< empty for a 0-d (scalar) array
  std::vector<uint8_t> data;  ///< C-order element bytes, little-endian
};

bool parseNpy(const uint8_t *bytes, size_t size, NpyArray &out,
              std::string &error);
bool readNpy(const std::string &path, NpyArray &out, std::string &error);

/// Fails for a dtype numpy cannot store (bfloat16) or when `dataBytes` does
/// not match the shape.
bool serializeNpy(DType dtype, const std::vector<int64_t> &shape,
                  const void *data, size_t dataBytes, std::vector<uint8_t> &out,
                  std::string &error);
bool writeNpy(const std::string &path, DType dtype,
              const std::vector<int64_t> &shape, const void *data,
              size_t dataBytes, std::string &error);

} // namespace onnx_tosa

#endif // ONNX_TOSA_NPY_H
