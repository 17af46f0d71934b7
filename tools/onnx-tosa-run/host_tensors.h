//===- host_tensors.h - Host-side tensor helpers for onnx-tosa-run -*- C++
//-*-===//
//
// Small pieces of the CLI that do not touch the runtime: half-precision
// conversion, printing a few values, seeded random inputs and turning tensor
// names into file names.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_RUN_HOST_TENSORS_H
#define ONNX_TOSA_RUN_HOST_TENSORS_H

#include "onnx_tosa/runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace onnx_tosa::run {

float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
float bf16ToFloat(uint16_t b);
uint16_t floatToBf16(float f);

/// Converts a bfloat16 tensor to float32 (for .npy, which has no bfloat16)
/// and back.
std::vector<uint8_t> bf16BytesToF32(const std::vector<uint8_t> &bytes);
std::vector<uint8_t> f32BytesToBf16(const std::vector<uint8_t> &bytes);

/// "[1, 2, 3]".
std::string shapeString(const std::vector<int64_t> &shape);

/// Formats up to `limit` leading elements, e.g. "[0.5, -1, 2, ...]".
std::string formatValues(ot_dtype dtype, const std::vector<uint8_t> &bytes,
                         size_t limit);

/// Fills `bytes` (already sized) deterministically from `seed` and `stream`:
/// floating types uniform in [-1, 1), integers 0 or 1 (safe as indices and
/// masks), bool false/true.
void fillRandom(ot_dtype dtype, uint64_t seed, uint64_t stream,
                std::vector<uint8_t> &bytes);

/// Maps a tensor name onto [A-Za-z0-9_.-]; never empty, "." or "..".
std::string sanitizeFileName(const std::string &name);

} // namespace onnx_tosa::run

#endif // ONNX_TOSA_RUN_HOST_TENSORS_H
