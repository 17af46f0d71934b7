// RUN: onnx-tosa-opt %s -split-input-file -verify-diagnostics --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file -verify-diagnostics --convert-onnx-to-tosa | mlir-opt -split-input-file --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Windows fold to constants: periodic Hann of 4 is sin^2(pi n / 4).
// CHECK-LABEL: func.func @hann_periodic
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<[0.000000e+00, 5.000000e-01, 1.000000e+00, 5.000000e-01]> : tensor<4xf32>}>
// CHECK: return %[[W]] : tensor<4xf32>
func.func @hann_periodic() -> !onnx.unknown {
  %n = onnx.constant "n" dense<4> : tensor<i64> : tensor<i64>
  %0 = onnx.node "HannWindow"(%n) {attrs = {}, domain = "", node_name = "w", opset = 17 : i64} : (tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Symmetric Blackman of 3: 0.42 - 0.5 cos(pi n) + 0.08 cos(2 pi n).
// CHECK-LABEL: func.func @blackman_symmetric
// CHECK: "tosa.const"() <{values = dense<[{{[^,]*}}E-17, 1.000000e+00, {{[^,]*}}E-17]> : tensor<3xf32>}>
func.func @blackman_symmetric() -> !onnx.unknown {
  %n = onnx.constant "n" dense<3> : tensor<i64> : tensor<i64>
  %0 = onnx.node "BlackmanWindow"(%n) {attrs = {periodic = 0 : i64}, domain = "", node_name = "w", opset = 17 : i64} : (tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// A real DFT along axis 1 of [2, 4, 3, 1]: axis and real/imaginary moved
// innermost, one matmul against [4 samples x 1] x [4 bins x 2] twiddles,
// moved back.
// CHECK-LABEL: func.func @dft_real
// CHECK-SAME: -> tensor<2x4x3x2xf32>
// CHECK: %[[T:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 1, 3>}
// CHECK: %[[X:.*]] = tosa.reshape %[[T]], %{{.*}} -> tensor<1x6x4xf32>
// CHECK: %[[M:.*]] = tosa.matmul %[[X]], %{{.*}} : (tensor<1x6x4xf32>, tensor<1x4x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x8xf32>
// CHECK: %[[Y:.*]] = tosa.reshape %[[M]], %{{.*}} -> tensor<2x3x4x2xf32>
// CHECK: tosa.transpose %[[Y]] {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x3x4x2xf32>) -> tensor<2x4x3x2xf32>
func.func @dft_real(%x: tensor<2x4x3x1xf32>) -> !onnx.unknown {
  %none = onnx.none
  %axis = onnx.constant "axis" dense<1> : tensor<i64> : tensor<i64>
  %0 = onnx.node "DFT"(%x, %none, %axis) {attrs = {}, domain = "", node_name = "dft", opset = 20 : i64} : (tensor<2x4x3x1xf32>, none, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Onesided forward DFT with dft_length 8 (zero-padding 6 samples): 5 bins.
// CHECK-LABEL: func.func @dft_onesided_padded
// CHECK: tosa.matmul {{.*}} : (tensor<1x1x6xf32>, tensor<1x6x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x10xf32>
// CHECK: -> tensor<1x5x2xf32>
func.func @dft_onesided_padded(%x: tensor<1x6x1xf32>) -> !onnx.unknown {
  %len = onnx.constant "len" dense<8> : tensor<i64> : tensor<i64>
  %0 = onnx.node "DFT"(%x, %len) {attrs = {axis = 1 : i64, onesided = 1 : i64}, domain = "", node_name = "dft", opset = 17 : i64} : (tensor<1x6x1xf32>, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Inverse onesided (irfft): 3 complex bins to 4 real samples.
// CHECK-LABEL: func.func @irfft
// CHECK-SAME: -> tensor<1x4x1xf32>
// CHECK: tosa.matmul {{.*}} : (tensor<1x1x6xf32>, tensor<1x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4xf32>
func.func @irfft(%x: tensor<1x3x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "DFT"(%x) {attrs = {axis = 1 : i64, inverse = 1 : i64, onesided = 1 : i64}, domain = "", node_name = "dft", opset = 17 : i64} : (tensor<1x3x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// STFT: frames gathered (for 3 frames, slices and a concat), a run-time
// window multiplied in, then the frame DFT (onesided by default): 3 frames
// of 4 samples, 3 bins.
// CHECK-LABEL: func.func @stft_window
// CHECK-SAME: -> tensor<1x3x3x2xf32>
// CHECK-COUNT-3: tosa.slice %arg0
// CHECK: tosa.concat {{.*}} -> tensor<1x12x1xf32>
// CHECK: %[[F:.*]] = tosa.reshape {{.*}} -> tensor<1x3x4x1xf32>
// CHECK: %[[W:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x1x4x1xf32>
// CHECK: tosa.mul %[[F]], %[[W]]
// CHECK: tosa.matmul {{.*}} -> tensor<1x3x6xf32>
func.func @stft_window(%x: tensor<1x8x1xf32>, %w: tensor<4xf32>) -> !onnx.unknown {
  %step = onnx.constant "step" dense<2> : tensor<i64> : tensor<i64>
  %0 = onnx.node "STFT"(%x, %step, %w) {attrs = {}, domain = "", node_name = "stft", opset = 17 : i64} : (tensor<1x8x1xf32>, tensor<i64>, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// MelWeightMatrix folds to a [dft_length / 2 + 1, num_mel_bins] constant.
// CHECK-LABEL: func.func @mel
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<9x8xf32>}>
// CHECK: return %[[W]]
func.func @mel() -> !onnx.unknown {
  %bins = onnx.constant "bins" dense<8> : tensor<i32> : tensor<i32>
  %len = onnx.constant "len" dense<16> : tensor<i32> : tensor<i32>
  %rate = onnx.constant "rate" dense<8192> : tensor<i32> : tensor<i32>
  %lo = onnx.constant "lo" dense<0.0> : tensor<f32> : tensor<f32>
  %hi = onnx.constant "hi" dense<4096.0> : tensor<f32> : tensor<f32>
  %0 = onnx.node "MelWeightMatrix"(%bins, %len, %rate, %lo, %hi) {attrs = {}, domain = "", node_name = "mel", opset = 17 : i64} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

func.func @dft_runtime_length(%x: tensor<1x6x1xf32>, %len: tensor<i64>) -> !onnx.unknown {
  // expected-error @+1 {{node 'dft' (DFT, domain 'ai.onnx', opset 17): input 1 (dft_length) must be a compile-time constant integer tensor}}
  %0 = onnx.node "DFT"(%x, %len) {attrs = {axis = 1 : i64}, domain = "", node_name = "dft", opset = 17 : i64} : (tensor<1x6x1xf32>, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
