// The passes that shape kernels for the GPU, each on its own, then through
// the whole pipeline.
// RUN: onnx-tosa-opt %s -split-input-file --onnx-tosa-tosa-to-linalg | FileCheck %s --check-prefix=LINALG
// RUN: onnx-tosa-opt %s -split-input-file --onnx-tosa-tosa-to-gpu | FileCheck %s --check-prefix=GPU

// 128 rows of 768: the sum is split into 64 partial sums per row (12
// elements each, 8192 threads), then one 64-wide sum per row.
// LINALG-LABEL: func.func @row_sum
// LINALG: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] output_shape [128, 1, 12, 64]
// LINALG: linalg.generic
// LINALG-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// LINALG-SAME: outs(%{{.*}} : tensor<128x1x64xf32>)
// LINALG: linalg.generic
// LINALG-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// LINALG-SAME: outs(%{{.*}} : tensor<128x1xf32>)
// The zero fills of the partial and final sums join the loops that
// accumulate into them: two kernels in all.
// GPU-LABEL: func.func @row_sum
// GPU: gpu.launch_func @row_sum_kernel::@row_sum_kernel blocks in (%c32, %c1, %c1) threads in (%c256, %c1, %c1) args(%{{.*}} : memref<128x1x64xf32>, %arg0 : memref<128x768xf32>)
// GPU-NEXT: gpu.launch_func @row_sum_kernel_0::@row_sum_kernel blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
// GPU-NEXT: return
func.func @row_sum(%x: tensor<128x768xf32>) -> tensor<128x1xf32> {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<128x768xf32>) -> tensor<128x1xf32>
  return %0 : tensor<128x1xf32>
}

// -----

// A batch matmul with 128 rows: each thread computes 8 rows of one column,
// the 8 accumulators in straight-line code inside the K loop; kernel
// buffers are noalias and the multiply-adds may contract.
// LINALG-LABEL: func.func @matmul
// LINALG: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [1, 16, 8, 256]
// LINALG: linalg.generic
// LINALG-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]
// LINALG: arith.mulf
// LINALG: arith.addf
// LINALG: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] : tensor<1x16x8x256xf32> into tensor<1x128x256xf32>
// GPU-LABEL: gpu.module @matmul_kernel_0
// GPU: gpu.func @matmul_kernel(%arg0: memref<1x128x768xf32> {llvm.noalias}
// GPU: scf.for %{{.*}} = %c0 to %c768 step %c1
// GPU-COUNT-8: arith.mulf %{{.*}}, %{{.*}} fastmath<contract> : f32
// GPU-NOT: scf.for
// GPU: gpu.return
func.func @matmul(%a: tensor<1x128x768xf32>, %b: tensor<1x768x256xf32>) -> tensor<1x128x256xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x128x768xf32>, tensor<1x768x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x128x256xf32>
  return %0 : tensor<1x128x256xf32>
}

// -----

// A 3x3 convolution over an 8-wide map: HWCF filter (transposed at compile
// time), 8 output columns per thread.
// LINALG-LABEL: func.func @conv
// LINALG: arith.constant dense<1.000000e+00> : tensor<3x3x4x16xf32>
// LINALG: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]
// LINALG-SAME: outs(%{{.*}} : tensor<1x8x1x8x16xf32>)
func.func @conv(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x16xf32> {
  %w = "tosa.const"() {values = dense<1.0> : tensor<16x3x3x4xf32>} : () -> tensor<16x3x3x4xf32>
  %b = "tosa.const"() {values = dense<0.5> : tensor<16xf32>} : () -> tensor<16xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<16x3x3x4xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}
