//===- conversion_test.cpp - CAST and RESCALE of the reference evaluator --===//
//
// CAST: round to nearest even and saturation (float -> int), truncation
// (int -> narrower int). RESCALE: apply_scale_32 / apply_scale_16 rounding
// (SINGLE_ROUND rounds half up; DOUBLE_ROUND adds 2^30 away from zero when
// shift > 31), per-channel scales, unsigned input/output with zero points.
//
//===----------------------------------------------------------------------===//
#include "eval_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace onnx_tosa::ref;
using namespace onnx_tosa::ref::test;

namespace {

std::vector<Tensor> run(const std::string &mlir, std::vector<Tensor> args,
                        std::string *unpredictable = nullptr) {
  std::vector<Tensor> out;
  std::string error;
  EXPECT_TRUE(evaluate(mlir, args, out, error, unpredictable)) << error;
  return out;
}

std::string cast(const std::string &in, const std::string &out, int n) {
  std::string t = "tensor<" + std::to_string(n) + "x" + in + ">";
  std::string r = "tensor<" + std::to_string(n) + "x" + out + ">";
  return "func.func @main(%a: " + t + ") -> " + r +
         " {\n  %0 = tosa.cast %a : (" + t + ") -> " + r +
         "\n  return %0 : " + r + "\n}\n";
}

TEST(Cast, FloatToIntRoundsHalfToEvenAndSaturates) {
  auto out = run(cast("f32", "i8", 10),
                 {floats(DType::F32, {10},
                         {2.5, 3.5, -2.5, -0.5, 0.5000001, 126.5, 127.5, 1e10,
                          -INFINITY, -128.4})});
  EXPECT_EQ(out[0].ints,
            (std::vector<int64_t>{2, 4, -2, 0, 1, 126, 127, 127, -128, -128}));
}

TEST(Cast, FloatToInt32Saturates) {
  // 2147483647 is not an f32: the input is 2^31, which saturates.
  auto out = run(cast("f32", "i32", 2),
                 {floats(DType::F32, {2}, {2147483648.0, -3e9})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{2147483647, -2147483648LL}));
}

TEST(Cast, NaNToIntIsUnpredictable) {
  std::string why;
  run(cast("f32", "i16", 1), {floats(DType::F32, {1}, {NAN})}, &why);
  EXPECT_NE(why.find("NaN"), std::string::npos);
}

TEST(Cast, IntNarrowingTruncatesAndWideningSignExtends) {
  auto narrow =
      run(cast("i32", "i8", 4), {ints(DType::I32, {4}, {300, -129, 255, -1})});
  EXPECT_EQ(narrow[0].ints, (std::vector<int64_t>{44, 127, -1, -1}));
  auto wide = run(cast("i8", "i32", 2), {ints(DType::I8, {2}, {-1, 127})});
  EXPECT_EQ(wide[0].ints, (std::vector<int64_t>{-1, 127}));
}

TEST(Cast, ToAndFromBool) {
  auto b =
      run(cast("f32", "i1", 3), {floats(DType::F32, {3}, {0.5, -0.0, NAN})});
  EXPECT_EQ(b[0].ints, (std::vector<int64_t>{1, 0, 1}));
  auto f = run(cast("i1", "f32", 2), {ints(DType::Bool, {2}, {1, 0})});
  EXPECT_EQ(f[0].floats, (std::vector<double>{1.0, 0.0}));
}

TEST(Cast, FloatToHalfIsRoundedForConsumers) {
  // The CAST result itself is the fp64 value; an op that consumes it sees
  // it rounded to f16 (ties to even; 65520 overflows to infinity).
  const char *mlir = R"(
func.func @main(%a: tensor<3xf32>) -> tensor<3xf16> {
  %0 = tosa.cast %a : (tensor<3xf32>) -> tensor<3xf16>
  %1 = tosa.identity %0 : (tensor<3xf16>) -> tensor<3xf16>
  return %1 : tensor<3xf16>
})";
  auto out = run(mlir, {floats(DType::F32, {3},
                               {1.0009765625 + 0.00048828125, 65520.0, 1e-8})});
  EXPECT_EQ(out[0].floats[0], 1.001953125); // tie -> even mantissa
  EXPECT_EQ(out[0].floats[1], INFINITY);
  EXPECT_EQ(out[0].floats[2], 0.0); // below half of 2^-24
}

/// RESCALE i32 -> i8 with one multiplier/shift pair.
std::string rescale(const std::string &mode, int64_t multiplier, int shift,
                    int n, bool scale32 = true, const std::string &in = "i32",
                    const std::string &out = "i8", int64_t inZp = 0,
                    int64_t outZp = 0, bool inUnsigned = false,
                    bool outUnsigned = false) {
  std::string t = "tensor<" + std::to_string(n) + "x" + in + ">";
  std::string r = "tensor<" + std::to_string(n) + "x" + out + ">";
  std::string mt = scale32 ? "i32" : "i16";
  return "func.func @main(%a: " + t + ") -> " + r + " {\n" +
         "  %m = \"tosa.const\"() <{values = dense<" +
         std::to_string(multiplier) + "> : tensor<1x" + mt +
         ">}> : () -> tensor<1x" + mt + ">\n" +
         "  %s = \"tosa.const\"() <{values = dense<" + std::to_string(shift) +
         "> : tensor<1xi8>}> : () -> tensor<1xi8>\n" +
         "  %iz = \"tosa.const\"() <{values = dense<" + std::to_string(inZp) +
         "> : tensor<1x" + in + ">}> : () -> tensor<1x" + in + ">\n" +
         "  %oz = \"tosa.const\"() <{values = dense<" + std::to_string(outZp) +
         "> : tensor<1x" + out + ">}> : () -> tensor<1x" + out + ">\n" +
         "  %0 = tosa.rescale %a, %m, %s, %iz, %oz {scale32 = " +
         (scale32 ? "true" : "false") + ", rounding_mode = " + mode +
         ", per_channel = false, input_unsigned = " +
         (inUnsigned ? "true" : "false") +
         ", output_unsigned = " + (outUnsigned ? "true" : "false") + "} : (" +
         t + ", tensor<1x" + mt + ">, tensor<1xi8>, tensor<1x" + in +
         ">, tensor<1x" + out + ">) -> " + r + "\n  return %0 : " + r + "\n}\n";
}

TEST(Rescale, SingleRoundRoundsHalfUp) {
  // multiplier 2^30, shift 31: x * 0.5, + 2^30 before >> 31.
  auto out = run(rescale("SINGLE_ROUND", 1 << 30, 31, 6),
                 {ints(DType::I32, {6}, {3, 1, -1, -3, 1000, -1000})});
  // 1.5 -> 2, 0.5 -> 1, -0.5 -> 0, -1.5 -> -1, 500 -> 127, -500 -> -128
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{2, 1, 0, -1, 127, -128}));
}

TEST(Rescale, DoubleRoundAddsAwayFromZeroAboveShift31) {
  // shift 32: x * 0.25; DOUBLE_ROUND adds +-2^30 to the rounding term.
  auto single = run(rescale("SINGLE_ROUND", 1 << 30, 32, 3),
                    {ints(DType::I32, {3}, {5, 2, -2})});
  auto dbl = run(rescale("DOUBLE_ROUND", 1 << 30, 32, 3),
                 {ints(DType::I32, {3}, {5, 2, -2})});
  EXPECT_EQ(single[0].ints, (std::vector<int64_t>{1, 1, 0})); // 1.25 .5 -.5
  EXPECT_EQ(dbl[0].ints, (std::vector<int64_t>{2, 1, -1}));
  // shift <= 31: DOUBLE_ROUND is SINGLE_ROUND
  auto low = run(rescale("DOUBLE_ROUND", 1 << 30, 31, 2),
                 {ints(DType::I32, {2}, {1, -1})});
  EXPECT_EQ(low[0].ints, (std::vector<int64_t>{1, 0}));
}

TEST(Rescale, Scale16) {
  // multiplier 2^14, shift 15: x * 0.5 with apply_scale_16, i16 -> i8.
  auto out = run(rescale("SINGLE_ROUND", 1 << 14, 15, 3, false, "i16"),
                 {ints(DType::I16, {3}, {3, -3, 32767})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{2, -1, 127}));
}

TEST(Rescale, UnsignedInputAndOutput) {
  // u8 input (zero point 128 stored as i8 -128) to i8, scale 1.0.
  auto in = run(rescale("SINGLE_ROUND", 1 << 30, 30, 3, true, "i8", "i8", -128,
                        0, /*inUnsigned=*/true),
                {ints(DType::I8, {3}, {-1, 0, -128})}); // 255, 0, 128
  EXPECT_EQ(in[0].ints, (std::vector<int64_t>{127, -128, 0}));
  // i8 to u8 with output zero point 128: -128 -> 0, 127 -> 255 (stored -1).
  auto out = run(rescale("SINGLE_ROUND", 1 << 30, 30, 3, true, "i8", "i8", 0,
                         -128, false, /*outUnsigned=*/true),
                 {ints(DType::I8, {3}, {-128, 127, 0})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{0, -1, -128}));
}

TEST(Rescale, PerChannel) {
  const char *mlir = R"(
func.func @main(%a: tensor<2x2xi32>) -> tensor<2x2xi16> {
  %m = "tosa.const"() <{values = dense<[1073741824, 536870912]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %s = "tosa.const"() <{values = dense<[30, 30]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %iz = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %oz = "tosa.const"() <{values = dense<0> : tensor<1xi16>}> : () -> tensor<1xi16>
  %0 = tosa.rescale %a, %m, %s, %iz, %oz {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<1xi32>, tensor<1xi16>) -> tensor<2x2xi16>
  return %0 : tensor<2x2xi16>
})";
  auto out = run(mlir, {ints(DType::I32, {2, 2}, {7, 7, -7, 40000})});
  // channel 0 scale 1, channel 1 scale 0.5: 7, 3.5 -> 4, -7, 20000
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{7, 4, -7, 20000}));
}

TEST(Rescale, ValueOutOfRangeForShiftIsUnpredictable) {
  // apply_scale_32 REQUIREs |value| < 2^(shift-1).
  std::string why;
  run(rescale("SINGLE_ROUND", 1 << 30, 30, 1),
      {ints(DType::I32, {1}, {1 << 29})}, &why);
  EXPECT_NE(why.find("apply_scale_32"), std::string::npos);
}

} // namespace
