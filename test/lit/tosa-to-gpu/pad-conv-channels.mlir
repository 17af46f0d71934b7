// RUN: onnx-tosa-opt %s --onnx-tosa-pad-conv-channels | FileCheck %s

// 3 input channels in f16 become 8: the input gets 5 zero channels and the
// filter 5 zero weights after each pixel's 3.
// CHECK-LABEL: func.func @stem
// CHECK-DAG: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]], {{\[\[\[}}4.000000e+00, 5.000000e+00, 6.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]]]> : tensor<2x1x1x8xf16>}>
// CHECK-DAG: %[[PADDING:.*]] = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 0, 0, 5]> : tensor<8xindex>}
// CHECK: %[[X:.*]] = tosa.pad %arg0, %[[PADDING]], %{{.*}} : (tensor<1x4x4x3xf16>, !tosa.shape<8>, tensor<1xf16>) -> tensor<1x4x4x8xf16>
// CHECK: tosa.conv2d %[[X]], %[[W]], %{{.*}} : (tensor<1x4x4x8xf16>, tensor<2x1x1x8xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf16>
func.func @stem(%x: tensor<1x4x4x3xf16>) -> tensor<1x4x4x2xf16> {
  %w = "tosa.const"() <{values = dense<[[[[1.0, 2.0, 3.0]]], [[[4.0, 5.0, 6.0]]]]> : tensor<2x1x1x3xf16>}> : () -> tensor<2x1x1x3xf16>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<2xf16>}> : () -> tensor<2xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf16>, tensor<2x1x1x3xf16>, tensor<2xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4x2xf16>
  return %y : tensor<1x4x4x2xf16>
}

// f32 (CUDA cores) and 8 channels or more are left alone.
// CHECK-LABEL: func.func @f32
// CHECK-NOT: tosa.pad
func.func @f32(%x: tensor<1x4x4x3xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<2x1x1x3xf32>}> : () -> tensor<2x1x1x3xf32>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x3xf32>, tensor<2x1x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// Stride 2: a stride-1 convolution over the input's space-to-depth. The
// 3x3 filter over 1 channel becomes 2x2 over 4 x 2 channels, tap (i, j) at
// (i / 2, j / 2), channel ((i % 2) x 2 + j % 2) x 2 (the fourth row and
// column of taps zero); the input, padded by its 1 and to 18 rows and
// columns (2 x (8 - 1) + 4: what the 8 x 8 outputs read with 4x4 taps) and
// to 2 channels, is cut into 2x2 blocks of pixels, each one pixel of 8
// channels.
// (test/e2e/test_space_to_depth.py: onnx-tosa-eval gives both forms the
// same outputs.)
// CHECK-LABEL: func.func @stride2
// CHECK-DAG: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00, 4.000000e+00, 0.000000e+00, 5.000000e+00, 0.000000e+00], [3.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 6.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]], {{\[\[}}7.000000e+00, 0.000000e+00, 8.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [9.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]]]> : tensor<1x2x2x8xf16>}>
// CHECK-DAG: %[[PADDING:.*]] = tosa.const_shape {values = dense<[0, 0, 1, 2, 1, 2, 0, 1]> : tensor<8xindex>}
// CHECK: %[[P:.*]] = tosa.pad %arg0, %[[PADDING]], %{{.*}} -> tensor<2x18x18x2xf16>
// CHECK: %[[R:.*]] = tosa.reshape %[[P]], {{.*}} -> tensor<2x9x2x9x2x2xf16>
// CHECK: %[[T:.*]] = tosa.transpose %[[R]] {perms = array<i32: 0, 1, 3, 2, 4, 5>} : (tensor<2x9x2x9x2x2xf16>) -> tensor<2x9x9x2x2x2xf16>
// CHECK: %[[X:.*]] = tosa.reshape %[[T]], {{.*}} -> tensor<2x9x9x8xf16>
// CHECK: tosa.conv2d %[[X]], %[[W]], %{{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<2x9x9x8xf16>, tensor<1x2x2x8xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x8x8x1xf16>
func.func @stride2(%x: tensor<2x15x15x1xf16>) -> tensor<2x8x8x1xf16> {
  %w = "tosa.const"() <{values = dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf16>}> : () -> tensor<1x3x3x1xf16>
  %b = "tosa.const"() <{values = dense<0.5> : tensor<1xf16>}> : () -> tensor<1xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x15x15x1xf16>, tensor<1x3x3x1xf16>, tensor<1xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x8x8x1xf16>
  return %y : tensor<2x8x8x1xf16>
}
