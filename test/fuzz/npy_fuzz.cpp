//===- npy_fuzz.cpp - libFuzzer target: the .npy reader -------------------===//
//
// onnx-tosa-run reads its inputs from .npy files users give it: any bytes
// must be refused with a message or read into an array whose elements fill
// its shape exactly and that writes back as a readable file of the same
// array. Built with -fsanitize=fuzzer,address,undefined by scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//
#include "onnx_tosa/npy.h"

#include <cstdlib>

using namespace onnx_tosa;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  NpyArray a;
  std::string error;
  if (!parseNpy(data, size, a, error)) {
    if (error.empty())
      std::abort();
    return 0;
  }
  // The shape's element count is the data's, without overflow (a reader
  // that accepted a count past size_t would have checked nothing).
  size_t elements = 1;
  for (int64_t d : a.shape)
    if (d < 0 ||
        __builtin_mul_overflow(elements, static_cast<size_t>(d), &elements))
      std::abort();
  if (a.data.size() != elements * dtypeSize(a.dtype))
    std::abort();
  std::vector<uint8_t> again;
  if (!serializeNpy(a.dtype, a.shape, a.data.data(), a.data.size(), again,
                    error))
    std::abort();
  NpyArray b;
  if (!parseNpy(again.data(), again.size(), b, error) || b.dtype != a.dtype ||
      b.shape != a.shape || b.data != a.data)
    std::abort();
  return 0;
}
