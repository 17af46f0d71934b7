//===- elementwise_test.cpp - Elementwise ops of the reference evaluator --===//
//
// Hand-computed values from the TOSA 1.0 pseudocode: MUL's rounding shift,
// INTDIV truncation, shifts at the type width, NEGATE zero points and
// saturation, NaN modes, TABLE interpolation, and the REQUIREs that make a
// result unpredictable.
//
//===----------------------------------------------------------------------===//
#include "eval_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace onnx_tosa::ref;
using namespace onnx_tosa::ref::test;

namespace {

const double kNaN = std::nan("");
const double kInf = INFINITY;

/// @main(%a, %b) = op(%a, %b) on 1-D tensors of n elements.
std::string binary(const std::string &op, const std::string &in,
                   const std::string &out, int n,
                   const std::string &attrs = "") {
  std::string t = "tensor<" + std::to_string(n) + "x" + in + ">";
  std::string r = "tensor<" + std::to_string(n) + "x" + out + ">";
  return "func.func @main(%a: " + t + ", %b: " + t + ") -> " + r +
         " {\n  %0 = " + op + " %a, %b " + attrs + ": (" + t + ", " + t +
         ") -> " + r + "\n  return %0 : " + r + "\n}\n";
}

std::string unary(const std::string &op, const std::string &in,
                  const std::string &out, int n,
                  const std::string &attrs = "") {
  std::string t = "tensor<" + std::to_string(n) + "x" + in + ">";
  std::string r = "tensor<" + std::to_string(n) + "x" + out + ">";
  return "func.func @main(%a: " + t + ") -> " + r + " {\n  %0 = " + op +
         " %a " + attrs + ": (" + t + ") -> " + r + "\n  return %0 : " + r +
         "\n}\n";
}

std::vector<Tensor> run(const std::string &mlir, std::vector<Tensor> args,
                        std::string *unpredictable = nullptr) {
  std::vector<Tensor> out;
  std::string error;
  EXPECT_TRUE(evaluate(mlir, args, out, error, unpredictable)) << error;
  return out;
}

TEST(Elementwise, AddInt32OverflowIsUnpredictable) {
  std::string why;
  auto out = run(
      binary("tosa.add", "i32", "i32", 2),
      {ints(DType::I32, {2}, {2147483647, 1}), ints(DType::I32, {2}, {1, 2})},
      &why);
  EXPECT_NE(why.find("REQUIRE"), std::string::npos);
  EXPECT_EQ(out[0].ints[1], 3);
}

TEST(Elementwise, MulInt32RoundingShift) {
  // (a * b + (1 << (shift - 1))) >> shift, shift = 1 and 2.
  const char *mlir = R"(
func.func @main(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %s1 = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s2 = "tosa.const"() <{values = dense<2> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %s1 : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  %1 = tosa.mul %a, %b, %s2 : (tensor<4xi32>, tensor<4xi32>, tensor<1xi8>) -> tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
})";
  auto out = run(mlir, {ints(DType::I32, {4}, {3, -3, 7, 65536}),
                        ints(DType::I32, {4}, {5, 5, 7, 65536})});
  // 15 -> 8, -15 -> -7 (rounds half up), 49 -> 25, 2^32 >> 1 overflows i32
  EXPECT_EQ(out[0].ints[0], 8);
  EXPECT_EQ(out[0].ints[1], -7);
  EXPECT_EQ(out[0].ints[2], 25);
  EXPECT_EQ(out[1].ints[0], 4);  // (15 + 2) >> 2
  EXPECT_EQ(out[1].ints[1], -4); // (-15 + 2) >> 2 = -13 >> 2
  EXPECT_EQ(out[1].ints[2], 12); // (49 + 2) >> 2
}

TEST(Elementwise, MulWithoutShiftKeepsLowBits) {
  const char *mlir = R"(
func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>, %c: tensor<2xi8>, %d: tensor<2xi8>) -> (tensor<2xi32>, tensor<2xi32>) {
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.mul %a, %b, %s : (tensor<2xi32>, tensor<2xi32>, tensor<1xi8>) -> tensor<2xi32>
  %1 = tosa.mul %c, %d, %s : (tensor<2xi8>, tensor<2xi8>, tensor<1xi8>) -> tensor<2xi32>
  return %0, %1 : tensor<2xi32>, tensor<2xi32>
})";
  auto out = run(mlir, {ints(DType::I32, {2}, {65536, 65537}),
                        ints(DType::I32, {2}, {65536, 65537}),
                        ints(DType::I8, {2}, {100, -128}),
                        ints(DType::I8, {2}, {100, -128})});
  EXPECT_EQ(out[0].ints[0], 0);      // 2^32 mod 2^32
  EXPECT_EQ(out[0].ints[1], 131073); // (2^16+1)^2 mod 2^32
  EXPECT_EQ(out[1].ints[0], 10000);  // i8 x i8 -> i32, no wrap
  EXPECT_EQ(out[1].ints[1], 16384);
}

TEST(Elementwise, IntDivTruncatesTowardZero) {
  std::string why;
  auto out = run(binary("tosa.intdiv", "i32", "i32", 5),
                 {ints(DType::I32, {5}, {7, -7, 7, -7, 1}),
                  ints(DType::I32, {5}, {2, 2, -2, -2, 0})},
                 &why);
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{3, -3, -3, 3, 0}));
  EXPECT_NE(why.find("INTDIV by zero"), std::string::npos);
}

TEST(Elementwise, ArithmeticRightShiftRound) {
  auto out = run(
      binary("tosa.arithmetic_right_shift", "i8", "i8", 4, "{round = true} "),
      {ints(DType::I8, {4}, {5, -5, 4, -128}),
       ints(DType::I8, {4}, {1, 1, 1, 7})});
  // 5>>1 = 2 (+1: bit 0 set) = 3; -5>>1 = -3 (+1) = -2; 4>>1 = 2;
  // -128>>7 = -1, bit 6 of -128 is 0.
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{3, -2, 2, -1}));
}

TEST(Elementwise, LogicalShiftsAtTypeWidth) {
  auto r =
      run(binary("tosa.logical_right_shift", "i8", "i8", 2),
          {ints(DType::I8, {2}, {-1, -128}), ints(DType::I8, {2}, {1, 7})});
  EXPECT_EQ(r[0].ints, (std::vector<int64_t>{127, 1}));
  auto l = run(binary("tosa.logical_left_shift", "i8", "i8", 2),
               {ints(DType::I8, {2}, {64, 3}), ints(DType::I8, {2}, {1, 7})});
  EXPECT_EQ(l[0].ints, (std::vector<int64_t>{-128, -128}));
  std::string why;
  run(binary("tosa.logical_left_shift", "i8", "i8", 1),
      {ints(DType::I8, {1}, {1}), ints(DType::I8, {1}, {8})}, &why);
  EXPECT_NE(why.find("shift amount"), std::string::npos);
}

TEST(Elementwise, NegateZeroPointsAndSaturation) {
  const char *mlir = R"(
func.func @main(%a: tensor<3xi8>) -> (tensor<3xi8>, tensor<3xi8>) {
  %izp = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ozp = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.negate %a, %izp, %ozp : (tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3xi8>
  %1 = tosa.negate %a, %z, %z : (tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3xi8>
  return %0, %1 : tensor<3xi8>, tensor<3xi8>
})";
  auto out = run(mlir, {ints(DType::I8, {3}, {10, -128, 127})});
  // -(10 - 5) - 3 = -8; -(-128 - 5) - 3 = 130 -> 127; -(127 - 5) - 3 = -125
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{-8, 127, -125}));
  // -(-128) saturates to 127 (clip, not wrap)
  EXPECT_EQ(out[1].ints, (std::vector<int64_t>{-10, 127, -127}));
}

TEST(Elementwise, AbsInt32MinimumIsUnpredictable) {
  std::string why;
  auto out = run(unary("tosa.abs", "i32", "i32", 2),
                 {ints(DType::I32, {2}, {-5, -2147483648LL})}, &why);
  EXPECT_EQ(out[0].ints[0], 5);
  EXPECT_FALSE(why.empty());
}

TEST(Elementwise, FloatSpecialValues) {
  auto absOut = run(unary("tosa.abs", "f32", "f32", 2),
                    {floats(DType::F32, {2}, {-0.0, -kInf})});
  EXPECT_FALSE(std::signbit(absOut[0].floats[0])); // ABS(-0) = +0
  EXPECT_EQ(absOut[0].floats[1], kInf);
  auto logOut = run(unary("tosa.log", "f32", "f32", 3),
                    {floats(DType::F32, {3}, {-1.0, 0.0, -0.0})});
  EXPECT_TRUE(std::isnan(logOut[0].floats[0]));
  EXPECT_EQ(logOut[0].floats[1], -kInf);
  EXPECT_EQ(logOut[0].floats[2], -kInf);
  auto rsqrt = run(unary("tosa.rsqrt", "f32", "f32", 3),
                   {floats(DType::F32, {3}, {-0.0, kInf, 4.0})});
  EXPECT_EQ(rsqrt[0].floats[0], -kInf);
  EXPECT_EQ(rsqrt[0].floats[1], 0.0);
  EXPECT_EQ(rsqrt[0].floats[2], 0.5);
  auto sig = run(unary("tosa.sigmoid", "f32", "f32", 2),
                 {floats(DType::F32, {2}, {-kInf, 0.0})});
  EXPECT_EQ(sig[0].floats[0], 0.0);
  EXPECT_EQ(sig[0].floats[1], 0.5);
}

TEST(Elementwise, MaximumNanModes) {
  auto p = run(binary("tosa.maximum", "f32", "f32", 3),
               {floats(DType::F32, {3}, {kNaN, 1.0, kNaN}),
                floats(DType::F32, {3}, {2.0, kNaN, kNaN})});
  for (double v : p[0].floats)
    EXPECT_TRUE(std::isnan(v));
  auto i = run(binary("tosa.maximum", "f32", "f32", 3, "{nan_mode = IGNORE} "),
               {floats(DType::F32, {3}, {kNaN, 1.0, kNaN}),
                floats(DType::F32, {3}, {2.0, kNaN, kNaN})});
  EXPECT_EQ(i[0].floats[0], 2.0);
  EXPECT_EQ(i[0].floats[1], 1.0);
  EXPECT_TRUE(std::isnan(i[0].floats[2]));
}

TEST(Elementwise, ClampNanModes) {
  auto p = run(unary("tosa.clamp", "f32", "f32", 3,
                     "{min_val = -1.0 : f32, max_val = 1.0 : f32} "),
               {floats(DType::F32, {3}, {kNaN, 5.0, -kInf})});
  EXPECT_TRUE(std::isnan(p[0].floats[0]));
  EXPECT_EQ(p[0].floats[1], 1.0);
  EXPECT_EQ(p[0].floats[2], -1.0);
  auto i = run(unary("tosa.clamp", "f32", "f32", 1,
                     "{min_val = -1.0 : f32, max_val = 1.0 : f32, "
                     "nan_mode = IGNORE} "),
               {floats(DType::F32, {1}, {kNaN})});
  EXPECT_EQ(i[0].floats[0], -1.0); // the NaN is ignored: the minimum
}

TEST(Elementwise, ComparisonsWithNaNAreFalse) {
  auto eq = run(binary("tosa.equal", "f32", "i1", 3),
                {floats(DType::F32, {3}, {kNaN, 1.0, -0.0}),
                 floats(DType::F32, {3}, {kNaN, 1.0, 0.0})});
  EXPECT_EQ(eq[0].ints, (std::vector<int64_t>{0, 1, 1}));
  auto ge = run(binary("tosa.greater_equal", "f32", "i1", 2),
                {floats(DType::F32, {2}, {kNaN, 2.0}),
                 floats(DType::F32, {2}, {1.0, 2.0})});
  EXPECT_EQ(ge[0].ints, (std::vector<int64_t>{0, 1}));
}

TEST(Elementwise, ClzAndBitwiseNot) {
  auto clz = run(unary("tosa.clz", "i32", "i32", 4),
                 {ints(DType::I32, {4}, {1, 0, -1, 65536})});
  EXPECT_EQ(clz[0].ints, (std::vector<int64_t>{31, 32, 0, 15}));
  auto bnot = run(unary("tosa.bitwise_not", "i8", "i8", 2),
                  {ints(DType::I8, {2}, {0, 127})});
  EXPECT_EQ(bnot[0].ints, (std::vector<int64_t>{-1, -128}));
}

TEST(Elementwise, TableInt16Interpolates) {
  // table[i] = 2 * i: base << 7 plus slope (2) times the 7-bit fraction.
  std::string values;
  for (int i = 0; i < 513; ++i)
    values += (i ? ", " : "") + std::to_string(2 * i);
  std::string mlir = R"(
func.func @main(%a: tensor<4xi16>) -> tensor<4xi32> {
  %t = "tosa.const"() <{values = dense<[)" +
                     values +
                     R"(]> : tensor<513xi16>}> : () -> tensor<513xi16>
  %0 = tosa.table %a, %t : (tensor<4xi16>, tensor<513xi16>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
})";
  auto out = run(mlir, {ints(DType::I16, {4}, {0, 5, -32768, 32767})});
  // 0: index 256, fraction 0 -> 512 << 7; 5: + 2 * 5; -32768: index 0;
  // 32767: index 511, fraction 127 -> (1022 << 7) + 2 * 127.
  EXPECT_EQ(out[0].ints,
            (std::vector<int64_t>{65536, 65546, 0, 1022 * 128 + 254}));
}

TEST(Elementwise, Broadcast) {
  const char *mlir = R"(
func.func @main(%a: tensor<2x1xf32>, %b: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = tosa.sub %a, %b : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
})";
  auto out = run(mlir, {floats(DType::F32, {2, 1}, {10, 20}),
                        floats(DType::F32, {1, 3}, {1, 2, 3})});
  EXPECT_EQ(out[0].floats, (std::vector<double>{9, 8, 7, 19, 18, 17}));
}

TEST(Elementwise, UnsupportedOpIsNamed) {
  std::vector<Tensor> out;
  std::string error;
  const char *mlir = R"(
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.custom %a {operator_name = "x", domain_name = "y", implementation_attrs = ""} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})";
  EXPECT_FALSE(evaluate(mlir, {floats(DType::F32, {2}, {1, 2})}, out, error));
  EXPECT_NE(error.find("'tosa.custom'"), std::string::npos) << error;
  EXPECT_NE(error.find("unsupported op"), std::string::npos) << error;
}

} // namespace
