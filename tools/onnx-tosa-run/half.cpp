//===- half.cpp - 16-bit float conversions for onnx-tosa-run --------------===//
//
// Apart from host_tensors.cpp so that the input readers (and their fuzzer)
// need nothing of the runtime's C API.
//
//===----------------------------------------------------------------------===//
#include "host_tensors.h"

#include <cmath>
#include <cstring>

namespace onnx_tosa::run {
namespace {

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

} // namespace

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  if (exp == 0) { // zero or subnormal: mant * 2^-24
    float v = std::ldexp(float(mant), -24);
    return sign ? -v : v;
  }
  if (exp == 31)
    return bitsFloat(sign | 0x7f800000 | (mant << 13));
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

uint16_t floatToHalf(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t a = x & 0x7fffffff;
  if (a >= 0x7f800000) // inf or NaN (kept quiet)
    return sign | 0x7c00 | (a > 0x7f800000 ? 0x200 : 0);
  if (a >= 0x477ff000) // rounds past the largest half (65504)
    return sign | 0x7c00;
  if (a < 0x38800000) // below the smallest normal half: scale and round
    return sign |
           static_cast<uint16_t>(std::nearbyint(bitsFloat(a) * 16777216.0f));
  uint32_t h = ((((a >> 23) - 112) << 10) | ((a & 0x7fffff) >> 13));
  uint32_t rest = a & 0x1fff; // round to nearest, ties to even
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h;
  return sign | static_cast<uint16_t>(h);
}

float bf16ToFloat(uint16_t b) {
  return bitsFloat(static_cast<uint32_t>(b) << 16);
}

uint16_t floatToBf16(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffff) > 0x7f800000)
    return static_cast<uint16_t>((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>(x >> 16);
}

} // namespace onnx_tosa::run
