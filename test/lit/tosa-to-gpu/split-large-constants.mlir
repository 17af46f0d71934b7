// onnx-tosa-split-large-constants: a MATMUL whose constant right-hand side
// is over the byte limit becomes MATMULs of column blocks of it (each block
// its own constant, under the limit) joined by a CONCAT along the columns.
// Here 4 x 6 f32 = 96 bytes against 40: 2 columns (32 bytes) per block.
// RUN: onnx-tosa-opt %s --onnx-tosa-split-large-constants=max-bytes=40 | FileCheck %s
// Under the limit it is left alone; the Vulkan target's limit is 128 MiB.
// RUN: onnx-tosa-opt %s --onnx-tosa-split-large-constants=max-bytes=96 | FileCheck %s --check-prefix=FITS
// RUN: onnx-tosa-opt %s --onnx-tosa-split-large-constants | FileCheck %s --check-prefix=FITS

// CHECK-LABEL: func.func @fc
// CHECK: %[[W0:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0.000000e+00, 1.000000e+00], [1.000000e+01, 1.100000e+01], [2.000000e+01, 2.100000e+01], [3.000000e+01, 3.100000e+01]]]> : tensor<1x4x2xf32>}>
// CHECK: %[[M0:.*]] = tosa.matmul %arg0, %[[W0]], {{.*}} -> tensor<1x3x2xf32>
// CHECK: %[[W1:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}2.000000e+00, 3.000000e+00], [1.200000e+01, 1.300000e+01], [2.200000e+01, 2.300000e+01], [3.200000e+01, 3.300000e+01]]]> : tensor<1x4x2xf32>}>
// CHECK: %[[M1:.*]] = tosa.matmul %arg0, %[[W1]], {{.*}} -> tensor<1x3x2xf32>
// CHECK: %[[W2:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}4.000000e+00, 5.000000e+00], [1.400000e+01, 1.500000e+01], [2.400000e+01, 2.500000e+01], [3.400000e+01, 3.500000e+01]]]> : tensor<1x4x2xf32>}>
// CHECK: %[[M2:.*]] = tosa.matmul %arg0, %[[W2]], {{.*}} -> tensor<1x3x2xf32>
// CHECK: %[[C:.*]] = tosa.concat %[[M0]], %[[M1]], %[[M2]] {axis = 2 : i32}
// CHECK: return %[[C]] : tensor<1x3x6xf32>

// FITS-LABEL: func.func @fc
// FITS: tosa.matmul {{.*}} -> tensor<1x3x6xf32>
// FITS-NOT: tosa.concat
func.func @fc(%x: tensor<1x3x4xf32>) -> tensor<1x3x6xf32> {
  %w = "tosa.const"() <{values = dense<[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0], [10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [20.0, 21.0, 22.0, 23.0, 24.0, 25.0], [30.0, 31.0, 32.0, 33.0, 34.0, 35.0]]]> : tensor<1x4x6xf32>}> : () -> tensor<1x4x6xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %x, %w, %zp, %zp : (tensor<1x3x4xf32>, tensor<1x4x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x6xf32>
  return %0 : tensor<1x3x6xf32>
}
