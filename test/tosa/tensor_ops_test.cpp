//===- tensor_ops_test.cpp - Dot-product ops, pooling, RESIZE, reductions ===//
#include "eval_test_util.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace onnx_tosa::ref;
using namespace onnx_tosa::ref::test;

namespace {

std::vector<Tensor> run(const std::string &mlir, std::vector<Tensor> args,
                        std::string *unpredictable = nullptr,
                        std::vector<ComplianceInfo> *info = nullptr) {
  std::vector<Tensor> out;
  std::string error;
  EXPECT_TRUE(evaluate(mlir, args, out, error, unpredictable, info)) << error;
  return out;
}

TEST(Conv2D, ZeroPaddingCountsNothing) {
  // 3x3 input 1..9, 3x3 ones kernel, pad 1: corners sum 4 inputs.
  const char *mlir = R"(
func.func @main(%x: tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32> {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x3x3x1xf32>}> : () -> tensor<1x3x3x1xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  return %0 : tensor<1x3x3x1xf32>
})";
  std::vector<ComplianceInfo> info;
  auto out =
      run(mlir, {floats(DType::F32, {1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9})},
          nullptr, &info);
  EXPECT_EQ(out[0].floats, (std::vector<double>{12.5, 21.5, 16.5, 27.5, 45.5,
                                                33.5, 24.5, 39.5, 28.5}));
  // The dot-product bound: KS = 9, local_bound false, so every input is
  // max|x| = 9; padding reads 0 (the extra multiplies add 0 * |w|), so the
  // corner's bound is 4 * 9 + 0.5.
  ASSERT_EQ(info.size(), 1u);
  EXPECT_EQ(info[0].kernelSize, 9);
  EXPECT_TRUE(info[0].biasNonZero);
  ASSERT_TRUE(info[0].bound.has_value());
  EXPECT_EQ(info[0].bound->floats[0], 36.5);
  EXPECT_EQ(info[0].bound->floats[4], 81.5);
}

TEST(Conv2D, Int8ZeroPointsStrideDilation) {
  // input zp 1, weight zp -1; 1x5 input, 1x2 kernel, dilation 2, stride 2,
  // pad left/right 1: OW = (5 - 1 + 2 - (2 - 1) * 2) / 2 + 1 = 3.
  const char *mlir = R"(
func.func @main(%x: tensor<1x1x5x1xi8>) -> tensor<1x1x3x1xi32> {
  %w = "tosa.const"() <{values = dense<[[[[0], [2]]]]> : tensor<1x1x2x1xi8>}> : () -> tensor<1x1x2x1xi8>
  %b = "tosa.const"() <{values = dense<100> : tensor<1xi32>}> : () -> tensor<1xi32>
  %xz = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wz = "tosa.const"() <{values = dense<-1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.conv2d %x, %w, %b, %xz, %wz {acc_type = i32, dilation = array<i64: 1, 2>, pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 2>} : (tensor<1x1x5x1xi8>, tensor<1x1x2x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x3x1xi32>
  return %0 : tensor<1x1x3x1xi32>
})";
  auto out = run(mlir, {ints(DType::I8, {1, 1, 5, 1}, {0, 1, 2, 3, 4})});
  // weights - zp = [1, 3]; inputs - zp = [-1, 0, 1, 2, 3]; padding reads 0.
  // ox 0: x = -1 (pad), 1 -> 0 * 3 = 0; ox 1: x = 1, 3 -> 0 + 2 * 3 = 6;
  // ox 2: x = 3, 5 (pad) -> 2 * 1 = 2. Plus the bias 100.
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{100, 106, 102}));
}

TEST(DepthwiseConv2D, PerChannelWeights) {
  const char *mlir = R"(
func.func @main(%x: tensor<1x1x2x2xf32>) -> tensor<1x1x2x4xf32> {
  %w = "tosa.const"() <{values = dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>}> : () -> tensor<1x1x2x2xf32>
  %b = "tosa.const"() <{values = dense<[0.0, 0.0, 0.0, 1.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x4xf32>
  return %0 : tensor<1x1x2x4xf32>
})";
  auto out = run(mlir, {floats(DType::F32, {1, 1, 2, 2}, {1, 10, 2, 20})});
  // channel c, multiplier m -> output c*M+m = x[c] * w[c][m] + b
  EXPECT_EQ(out[0].floats, (std::vector<double>{1, 2, 30, 41, 2, 4, 60, 81}));
}

TEST(TransposeConv2D, StrideTwo) {
  const char *mlir = R"(
func.func @main(%x: tensor<1x1x2x1xf32>) -> tensor<1x1x4x1xf32> {
  %w = "tosa.const"() <{values = dense<[[[[10.0], [1.0]]]]> : tensor<1x1x2x1xf32>}> : () -> tensor<1x1x2x1xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.transpose_conv2d %x, %w, %b, %z, %z {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2>} : (tensor<1x1x2x1xf32>, tensor<1x1x2x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x1xf32>
  return %0 : tensor<1x1x4x1xf32>
})";
  auto out = run(mlir, {floats(DType::F32, {1, 1, 2, 1}, {1, 2})});
  EXPECT_EQ(out[0].floats, (std::vector<double>{10, 1, 20, 2}));
}

TEST(MatMul, Int8ZeroPoints) {
  const char *mlir = R"(
func.func @main(%a: tensor<1x2x2xi8>, %b: tensor<1x2x2xi8>) -> tensor<1x2x2xi32> {
  %az = "tosa.const"() <{values = dense<1> : tensor<1xi8>}> : () -> tensor<1xi8>
  %bz = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %az, %bz : (tensor<1x2x2xi8>, tensor<1x2x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
  return %0 : tensor<1x2x2xi32>
})";
  auto out = run(mlir, {ints(DType::I8, {1, 2, 2}, {2, 3, 4, 5}),
                        ints(DType::I8, {1, 2, 2}, {1, 2, 3, 4})});
  // (A - 1) = [[1, 2], [3, 4]] times B = [[7, 10], [15, 22]]
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{7, 10, 15, 22}));
}

TEST(AvgPool2D, IntegerDivisionByReciprocalScale) {
  // count 2: reciprocal_scale gives multiplier 2^30 + 1, shift 31;
  // 3 -> (3 (2^30 + 1) + 2^30) >> 31 = 2, -3 -> -2 (rounds toward +inf at
  // exactly .5 minus a hair: floor(-1.5 + 0.5 - tiny)).
  const char *mlir = R"(
func.func @main(%x: tensor<1x1x4x1xi8>) -> tensor<1x1x2x1xi8> {
  %z = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %0 = tosa.avg_pool2d %x, %z, %z {acc_type = i32, kernel = array<i64: 1, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2>} : (tensor<1x1x4x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x2x1xi8>
  return %0 : tensor<1x1x2x1xi8>
})";
  auto out = run(mlir, {ints(DType::I8, {1, 1, 4, 1}, {1, 2, -1, -2})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{2, -2}));
}

TEST(AvgPool2D, PaddingIsNotCounted) {
  const char *mlir = R"(
func.func @main(%x: tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %z, %z {acc_type = f32, kernel = array<i64: 1, 2>, pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x2x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x1xf32>
  return %0 : tensor<1x1x2x1xf32>
})";
  auto out = run(mlir, {floats(DType::F32, {1, 1, 2, 1}, {4, 6})});
  EXPECT_EQ(out[0].floats, (std::vector<double>{4, 5}));
}

TEST(MaxPool2D, NanModes) {
  const char *mlir = R"(
func.func @main(%x: tensor<1x1x4x1xf32>) -> (tensor<1x1x2x1xf32>, tensor<1x1x2x1xf32>) {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 1, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2>} : (tensor<1x1x4x1xf32>) -> tensor<1x1x2x1xf32>
  %1 = tosa.max_pool2d %x {kernel = array<i64: 1, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2>, nan_mode = IGNORE} : (tensor<1x1x4x1xf32>) -> tensor<1x1x2x1xf32>
  return %0, %1 : tensor<1x1x2x1xf32>, tensor<1x1x2x1xf32>
})";
  auto out = run(mlir, {floats(DType::F32, {1, 1, 4, 1}, {1, NAN, -3, -2})});
  EXPECT_TRUE(std::isnan(out[0].floats[0]));
  EXPECT_EQ(out[0].floats[1], -2);
  EXPECT_EQ(out[1].floats[0], 1);
}

std::string resize(const std::string &mode, const std::string &in,
                   const std::string &out, const std::string &scale,
                   const std::string &offset, const std::string &border,
                   int oh) {
  std::string t = "tensor<1x2x1x1x" + in + ">";
  t = "tensor<1x2x1x1" + std::string("x") + in + ">";
  std::string r = "tensor<1x" + std::to_string(oh) + "x1x1x" + out + ">";
  return "func.func @main(%x: " + t + ") -> " + r + " {\n" +
         "  %s = tosa.const_shape {values = dense<[" + scale +
         "]> : tensor<4xindex>} : () -> !tosa.shape<4>\n" +
         "  %o = tosa.const_shape {values = dense<[" + offset +
         "]> : tensor<2xindex>} : () -> !tosa.shape<2>\n" +
         "  %b = tosa.const_shape {values = dense<[" + border +
         "]> : tensor<2xindex>} : () -> !tosa.shape<2>\n" +
         "  %0 = tosa.resize %x, %s, %o, %b {mode = " + mode + "} : (" + t +
         ", !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> " + r +
         "\n  return %0 : " + r + "\n}\n";
}

TEST(Resize, BilinearAlignCorners) {
  // scale 2/1, offset 0: samples 0, 0.5, 1 of [1, 3].
  auto out =
      run(resize("BILINEAR", "f32", "f32", "2, 1, 1, 1", "0, 0", "0, 0", 3),
          {floats(DType::F32, {1, 2, 1, 1}, {1, 3})});
  EXPECT_EQ(out[0].floats, (std::vector<double>{1, 2, 3}));
}

TEST(Resize, BilinearHalfPixelOffsets) {
  // The "[OH,OW] = 2 [IH,IW]" setting of the spec: scale 4/2, offset -1,
  // border 1; sample positions -0.25, 0.25, 0.75, 1.25 clamp at the edges.
  auto out =
      run(resize("BILINEAR", "f32", "f32", "4, 2, 1, 1", "-1, 0", "1, 0", 4),
          {floats(DType::F32, {1, 2, 1, 1}, {1, 3})});
  EXPECT_EQ(out[0].floats, (std::vector<double>{1, 1.5, 2.5, 3}));
}

TEST(Resize, IntegerBilinearIsScaledByScaleN) {
  // Same sampling, i8 -> i32: values times scale_y_n * scale_x_n = 4 * 1.
  auto out =
      run(resize("BILINEAR", "i8", "i32", "4, 2, 1, 1", "-1, 0", "1, 0", 4),
          {ints(DType::I8, {1, 2, 1, 1}, {1, 3})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{4, 6, 10, 12}));
}

TEST(Resize, NearestRoundsHalfUp) {
  auto out = run(resize("NEAREST_NEIGHBOR", "f32", "f32", "4, 2, 1, 1", "-1, 0",
                        "1, 0", 4),
                 {floats(DType::F32, {1, 2, 1, 1}, {1, 3})});
  // fractions .75 (-> next, clamped), .25, .75, .25
  EXPECT_EQ(out[0].floats, (std::vector<double>{1, 1, 3, 3}));
}

TEST(Reduction, SumProductMaxArgMax) {
  const char *mlir = R"(
func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<1x3xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2xi32>, tensor<2x1xi32>) {
  %0 = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  %1 = tosa.reduce_product %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %2 = tosa.reduce_max %x {axis = 1 : i32, nan_mode = IGNORE} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  %3 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2xi32>
  %4 = tosa.reduce_sum %i {axis = 1 : i32} : (tensor<2x3xi32>) -> tensor<2x1xi32>
  return %0, %1, %2, %3, %4 : tensor<1x3xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2xi32>, tensor<2x1xi32>
})";
  std::string why;
  auto out = run(mlir,
                 {floats(DType::F32, {2, 3}, {1, NAN, 3, 4, 5, 5}),
                  ints(DType::I32, {2, 3}, {1, 2, 3, 2147483647, 1, -5})},
                 &why);
  EXPECT_EQ(out[0].floats[0], 5);
  EXPECT_TRUE(std::isnan(out[0].floats[1]));
  EXPECT_EQ(out[1].floats[1], 100);
  EXPECT_EQ(out[2].floats, (std::vector<double>{3, 5}));
  // PROPAGATE: the NaN is the maximum; ties give the first index.
  EXPECT_EQ(out[3].ints, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(out[4].ints[0], 6);
  // The partial sum 2^31 - 1 + 1 overflows even though the total fits.
  EXPECT_NE(why.find("REDUCE_SUM"), std::string::npos);
}

} // namespace

namespace {

TEST(Fft, Rfft2dAndInverseFft2d) {
  const char *mlir = R"(
func.func @main(%x: tensor<1x2x4xf32>, %y: tensor<1x2x4xf32>) -> (tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>) {
  %0, %1 = tosa.rfft2d %x : (tensor<1x2x4xf32>) -> (tensor<1x2x3xf32>, tensor<1x2x3xf32>)
  %2, %3 = tosa.fft2d %x, %y {inverse = true} : (tensor<1x2x4xf32>, tensor<1x2x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  return %0, %1, %2, %3 : tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>
})";
  // x = delta at (0, 1): X[h][w] = exp(-2 pi i w / 4) = (1, -i, -1, i) per w.
  std::vector<double> delta = {0, 1, 0, 0, 0, 0, 0, 0};
  auto out = run(mlir, {floats(DType::F32, {1, 2, 4}, delta),
                        floats(DType::F32, {1, 2, 4}, std::vector<double>(8))});
  std::vector<double> re = {1, 0, -1, 1, 0, -1}, im = {0, -1, 0, 0, -1, 0};
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(out[0].floats[i], re[i], 1e-12);
    EXPECT_NEAR(out[1].floats[i], im[i], 1e-12);
  }
  // the inverse transform has the opposite sign: (1, i, -1, -i)
  EXPECT_NEAR(out[3].floats[1], 1.0, 1e-12);
  EXPECT_NEAR(out[3].floats[3], -1.0, 1e-12);
}

TEST(Variables, ReadWriteInOrder) {
  const char *mlir = R"(
module {
  tosa.variable @acc = dense<[1, 2]> : tensor<2xi32>
  func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
    %v = tosa.variable_read @acc : tensor<2xi32>
    %s = tosa.add %v, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    tosa.variable_write @acc, %s : tensor<2xi32>
    %w = tosa.variable_read @acc : tensor<2xi32>
    %r = tosa.add %w, %x : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    return %r : tensor<2xi32>
  }
})";
  auto out = run(mlir, {ints(DType::I32, {2}, {10, 20})});
  EXPECT_EQ(out[0].ints, (std::vector<int64_t>{21, 42}));
}

} // namespace
