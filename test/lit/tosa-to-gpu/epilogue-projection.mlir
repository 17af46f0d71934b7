// A residual sum of two convolutions (ResNet-50's blocks with a projection):
// each convolution's epilogue converts its own result to f16, so the second
// reads the first's f16 output (it read the first's f32 accumulators, and
// the first stored them, when both conversions went into the sum).
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --emit=gpu | FileCheck %s
// CHECK-LABEL: func.func @main
// CHECK: gpu.launch_func @main_kernel::@main_kernel {{.*}} args(%arg0 : memref<4x16x16x64xf16>, %{{[^ ]*}} : memref<1x1x64x64xf16>, %[[BIAS:[^ ]*]] : memref<64xf16>, %[[FIRST:[^ ]*]] : memref<4x16x16x64xf16>)
// CHECK: gpu.launch_func @main_kernel_0::@main_kernel {{.*}} args(%arg0 : memref<4x16x16x64xf16>, %{{[^ ]*}} : memref<1x1x64x64xf16>, %[[BIAS]] : memref<64xf16>, %[[FIRST]] : memref<4x16x16x64xf16>, %{{[^ ]*}} : memref<4x16x16x64xf16>)
// CHECK-NOT: gpu.launch_func
func.func @main(%x: tensor<4x16x16x64xf16>) -> tensor<4x16x16x64xf16> {
  %w1 = "tosa.const"() <{values = dense<0.5> : tensor<64x1x1x64xf16>}> : () -> tensor<64x1x1x64xf16>
  %w2 = "tosa.const"() <{values = dense<0.25> : tensor<64x1x1x64xf16>}> : () -> tensor<64x1x1x64xf16>
  %bias = "tosa.const"() <{values = dense<[0.0, 0.015625, 0.03125, 0.046875, 0.0625, 0.078125, 0.09375, 0.109375, 0.125, 0.140625, 0.15625, 0.171875, 0.1875, 0.203125, 0.21875, 0.234375, 0.25, 0.265625, 0.28125, 0.296875, 0.3125, 0.328125, 0.34375, 0.359375, 0.375, 0.390625, 0.40625, 0.421875, 0.4375, 0.453125, 0.46875, 0.484375, 0.5, 0.515625, 0.53125, 0.546875, 0.5625, 0.578125, 0.59375, 0.609375, 0.625, 0.640625, 0.65625, 0.671875, 0.6875, 0.703125, 0.71875, 0.734375, 0.75, 0.765625, 0.78125, 0.796875, 0.8125, 0.828125, 0.84375, 0.859375, 0.875, 0.890625, 0.90625, 0.921875, 0.9375, 0.953125, 0.96875, 0.984375]> : tensor<64xf16>}> : () -> tensor<64xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %a = tosa.conv2d %x, %w1, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<4x16x16x64xf16>, tensor<64x1x1x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x16x16x64xf16>
  %b = tosa.conv2d %x, %w2, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<4x16x16x64xf16>, tensor<64x1x1x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x16x16x64xf16>
  %sum = tosa.add %a, %b : (tensor<4x16x16x64xf16>, tensor<4x16x16x64xf16>) -> tensor<4x16x16x64xf16>
  %relu = tosa.clamp %sum {max_val = 6.0e+04 : f16, min_val = 0.0 : f16} : (tensor<4x16x16x64xf16>) -> tensor<4x16x16x64xf16>
  return %relu : tensor<4x16x16x64xf16>
}
