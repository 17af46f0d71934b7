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
