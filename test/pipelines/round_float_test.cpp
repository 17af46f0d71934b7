// roundF32ToHalf / roundF32ToBf16 against APFloat::convert (to nearest, ties
// to even), the conversion they stand in for: every exponent with fraction
// patterns around each rounding boundary, and a stride through all 2^32
// bit patterns.
#include "pipelines/tosa-to-gpu/RoundFloat.h"

#include "llvm/ADT/APFloat.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

std::optional<uint16_t> reference(uint32_t bits,
                                  const llvm::fltSemantics &to) {
  llvm::APFloat value(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits));
  if (value.isNaN())
    return std::nullopt;
  bool losesInfo = false;
  value.convert(to, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
}

/// Sign, every exponent, and fractions at and around the halfway points of
/// both formats' dropped bits (13 for half, 16 for bfloat16), plus the
/// smallest and largest fractions.
std::vector<uint32_t> boundaryPatterns() {
  std::vector<uint32_t> fractions = {0, 1, 0x7fffff, 0x7ffffe, 0x400000};
  for (uint32_t kept : {0u, 1u, 2u, 3u, 0x3feu, 0x3ffu, 0x7fu, 0x7eu})
    for (uint32_t shift : {13u, 16u})
      for (int delta : {-1, 0, 1}) {
        uint32_t half = 1u << (shift - 1);
        fractions.push_back(((kept << shift) | (half + delta)) & 0x7fffff);
        fractions.push_back((kept << shift) & 0x7fffff);
      }
  std::vector<uint32_t> patterns;
  for (uint32_t sign : {0u, 0x80000000u})
    for (uint32_t exponent = 0; exponent < 256; ++exponent)
      for (uint32_t fraction : fractions)
        patterns.push_back(sign | (exponent << 23) | fraction);
  return patterns;
}

void expectSame(uint32_t bits) {
  EXPECT_EQ(onnx_tosa::roundF32ToHalf(bits),
            reference(bits, llvm::APFloat::IEEEhalf()))
      << "half of 0x" << std::hex << bits;
  EXPECT_EQ(onnx_tosa::roundF32ToBf16(bits),
            reference(bits, llvm::APFloat::BFloat()))
      << "bfloat16 of 0x" << std::hex << bits;
}

TEST(RoundFloat, BoundariesOfEveryExponentMatchAPFloat) {
  for (uint32_t bits : boundaryPatterns())
    expectSame(bits);
}

TEST(RoundFloat, StrideThroughAllPatternsMatchesAPFloat) {
  // 1021 is odd: the stride's patterns take every value of the low bits
  // (4.2 million patterns).
  for (uint64_t bits = 0; bits <= 0xffffffffu; bits += 1021)
    expectSame(static_cast<uint32_t>(bits));
}

TEST(RoundFloat, KnownValues) {
  auto bitsOf = [](float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
  };
  EXPECT_EQ(onnx_tosa::roundF32ToHalf(bitsOf(1.0f)), 0x3c00);
  EXPECT_EQ(onnx_tosa::roundF32ToHalf(bitsOf(65504.0f)), 0x7bff);
  EXPECT_EQ(onnx_tosa::roundF32ToHalf(bitsOf(65520.0f)), 0x7c00);
  EXPECT_EQ(onnx_tosa::roundF32ToHalf(bitsOf(-0.0f)), 0x8000);
  EXPECT_EQ(onnx_tosa::roundF32ToHalf(bitsOf(5.9604645e-8f)), 0x0001);
  EXPECT_EQ(onnx_tosa::roundF32ToBf16(bitsOf(1.0f)), 0x3f80);
  EXPECT_EQ(onnx_tosa::roundF32ToBf16(bitsOf(3.0e38f)), 0x7f62);
  EXPECT_FALSE(onnx_tosa::roundF32ToHalf(0x7fc00000).has_value());
  EXPECT_FALSE(onnx_tosa::roundF32ToBf16(0xffc00001).has_value());
}

} // namespace
