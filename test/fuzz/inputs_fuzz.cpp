//===- inputs_fuzz.cpp - libFuzzer target: onnx-tosa-run's other inputs ---===//
//
// onnx-tosa-run also reads .npz archives (--inputs) and values written on
// its command line (--input x=2x8xf32=1). Any bytes, as an archive and as
// such a value, must be refused with a message or read into arrays whose
// elements fill their shapes exactly. Built with
// -fsanitize=fuzzer,address,undefined by scripts/fuzz.sh.
//
//===----------------------------------------------------------------------===//
#include "input_values.h"

#include <cstdlib>

using namespace onnx_tosa;

namespace {
void checkArray(const NpyArray &a) {
  size_t elements = 1;
  for (int64_t d : a.shape)
    if (d < 0 ||
        __builtin_mul_overflow(elements, static_cast<size_t>(d), &elements))
      std::abort();
  if (a.data.size() != elements * dtypeSize(a.dtype))
    std::abort();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<std::pair<std::string, NpyArray>> arrays;
  std::string error;
  if (run::parseNpz(data, size, arrays, error)) {
    for (const auto &entry : arrays)
      checkArray(entry.second);
  } else if (error.empty()) {
    std::abort();
  }
  // The same bytes as an inline value (which makes at most 64 MiB).
  std::string spec(reinterpret_cast<const char *>(data), size);
  NpyArray value;
  error.clear();
  if (run::parseInlineValue(spec, value, error)) {
    checkArray(value);
  } else if (error.empty()) {
    std::abort();
  }
  return 0;
}
