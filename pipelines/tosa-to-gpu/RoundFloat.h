//===- RoundFloat.h - f32 bit patterns rounded to 16-bit floats -----------===//
//
// What --precision=fp16 / bf16 does to every f32 weight: round it to IEEE
// half or bfloat16, to nearest with ties to even, as APFloat::convert does,
// by bit arithmetic (BERT-base has 110 million weights; APFloat took about
// 80 ns each). NaN is left to APFloat, whose way of keeping a payload these
// do not copy.
//
//===----------------------------------------------------------------------===//
#ifndef ONNX_TOSA_PIPELINES_ROUNDFLOAT_H
#define ONNX_TOSA_PIPELINES_ROUNDFLOAT_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

namespace onnx_tosa {

/// The half-precision bits nearest the f32 `bits` (ties to even; past
/// 65520 in magnitude, infinity), or none for NaN.
inline std::optional<uint16_t> roundF32ToHalf(uint32_t bits) {
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude > 0x7f800000)
    return std::nullopt; // NaN
  if (magnitude >= 0x477ff000) // 65520: halfway from 65504 up, even is inf
    return static_cast<uint16_t>(sign | 0x7c00);
  if (magnitude < 0x38800000) {
    // Below 2^-14, half's subnormals: multiples of 2^-24. Scaling by 2^24 is
    // exact, and nearbyint rounds ties to even (the default mode); 1024 is
    // the smallest normal's bits.
    float f;
    std::memcpy(&f, &magnitude, sizeof f);
    auto q = static_cast<uint32_t>(std::nearbyint(f * 16777216.0f));
    return static_cast<uint16_t>(sign | q);
  }
  // Rebias the exponent (127 to 15), keep 10 of the 23 fraction bits, and
  // round on the 13 dropped (a carry may move into the exponent).
  uint32_t half = (((magnitude >> 23) - 112) << 10) | ((magnitude >> 13) & 0x3ff);
  uint32_t dropped = magnitude & 0x1fff;
  if (dropped > 0x1000 || (dropped == 0x1000 && (half & 1)))
    ++half;
  return static_cast<uint16_t>(sign | half);
}

/// The bfloat16 bits nearest the f32 `bits` (ties to even; the same
/// exponent range, so rounding the bit pattern is rounding the value), or
/// none for NaN.
inline std::optional<uint16_t> roundF32ToBf16(uint32_t bits) {
  if ((bits & 0x7fffffff) > 0x7f800000)
    return std::nullopt; // NaN
  uint32_t odd = (bits >> 16) & 1;
  return static_cast<uint16_t>((bits + 0x7fff + odd) >> 16);
}

} // namespace onnx_tosa

#endif
