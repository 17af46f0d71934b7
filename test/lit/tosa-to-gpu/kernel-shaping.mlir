// The passes that shape kernels for the GPU, each on its own, then through
// the whole pipeline.
// (The options are those these checks were written for: one element per
// thread, row reductions through workgroup memory, f32 GEMMs as plain
// loops, no buffer limit; the pipelines' defaults are the compiler's.)
// RUN: onnx-tosa-opt %s -split-input-file --onnx-tosa-tosa-to-linalg="vector-width=1 subgroup-reduce=false simt-gemm=false max-kernel-buffers=0" | FileCheck %s --check-prefix=LINALG
// RUN: onnx-tosa-opt %s -split-input-file --onnx-tosa-tosa-to-gpu="vector-width=1 subgroup-reduce=false simt-gemm=false max-kernel-buffers=0" | FileCheck %s --check-prefix=GPU

// 128 rows of 768: a row kernel (onnx-tosa-row-kernels) with a workgroup
// of 256 threads per row, 3 elements each, the partial sums combined in
// workgroup memory; the zero fill joins it.
// LINALG-LABEL: func.func @row_sum
// LINALG: linalg.fill
// LINALG: linalg.generic
// LINALG-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// LINALG-NOT: linalg.generic
// GPU-LABEL: func.func @row_sum
// GPU: gpu.launch_func @row_sum_kernel::@row_sum_kernel blocks in (%c128, %c1, %c1) threads in (%c256, %c1, %c1)
// GPU-NEXT: return
// GPU: gpu.func @row_sum_kernel({{.*}}) workgroup(%[[PARTIAL:[^ ]*]] : memref<256xf32, #gpu.address_space<workgroup>>
// GPU-COUNT-3: memref.load %arg
// GPU: memref.store %{{.*}}, %[[PARTIAL]]
// GPU-COUNT-9: gpu.barrier
// GPU-NOT: gpu.barrier
func.func @row_sum(%x: tensor<128x768xf32>) -> tensor<128x1xf32> {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<128x768xf32>) -> tensor<128x1xf32>
  return %0 : tensor<128x1xf32>
}

// -----

// Two row reductions whose accumulators CSE had started from one fill: each
// gets a row kernel with its own fill. The first kernel used to take the
// second one's fill as well and drop it, leaving the second reduction to a
// plain loop that read its accumulator uninitialized.
// LINALG-LABEL: func.func @shared_fill
// GPU-LABEL: func.func @shared_fill
// GPU: gpu.launch_func @shared_fill_kernel::@shared_fill_kernel blocks in (%c6, %c1, %c1) threads in (%c128, %c1, %c1)
// GPU-NEXT: gpu.launch_func @shared_fill_kernel_0::@shared_fill_kernel blocks in (%c6, %c1, %c1) threads in (%c256, %c1, %c1)
// GPU-NEXT: return
func.func @shared_fill(%x: tensor<6x640xf32>, %y: tensor<6x4096xf32>) -> (tensor<6x1xf32>, tensor<6x1xf32>) {
  %0 = tosa.reduce_max %x {axis = 1 : i32} : (tensor<6x640xf32>) -> tensor<6x1xf32>
  %1 = tosa.reduce_max %y {axis = 1 : i32} : (tensor<6x4096xf32>) -> tensor<6x1xf32>
  return %0, %1 : tensor<6x1xf32>, tensor<6x1xf32>
}

// -----

// 16 rows of 16384 (longer than a row kernel takes): the sum is split into
// 64 partial sums per row (256 elements each); a row kernel of 64 threads
// per row then adds up each row's 64.
// LINALG-LABEL: func.func @long_row_sum
// LINALG: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] output_shape [16, 1, 256, 64]
// LINALG: linalg.generic
// LINALG-SAME: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// LINALG-SAME: outs(%{{.*}} : tensor<16x1x64xf32>)
// LINALG: linalg.generic
// LINALG-SAME: iterator_types = ["parallel", "parallel", "reduction"]
// LINALG-SAME: outs(%{{.*}} : tensor<16x1xf32>)
// GPU-LABEL: func.func @long_row_sum
// GPU: gpu.launch_func @long_row_sum_kernel::@long_row_sum_kernel blocks in ({{.*}}) threads in (%c256, %c1, %c1) args(%arg0 : memref<16x16384xf32>, %{{.*}} : memref<16x1x64xf32>)
// GPU-NEXT: gpu.launch_func @long_row_sum_kernel_0::@long_row_sum_kernel blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1)
// GPU-NEXT: return
func.func @long_row_sum(%x: tensor<16x16384xf32>) -> tensor<16x1xf32> {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<16x16384xf32>) -> tensor<16x1xf32>
  return %0 : tensor<16x1xf32>
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

// -----

// Softmax over rows of 128: the max, exp(x - max), the sum and the
// division are one row kernel (128 threads, one element each); the two
// reductions each combine their partial results in workgroup memory, and
// only the result is written.
// GPU-LABEL: func.func @softmax
// GPU: gpu.launch_func @softmax_kernel::@softmax_kernel blocks in (%c64, %c1, %c1) threads in (%c128, %c1, %c1)
// GPU-NEXT: return
// GPU: gpu.func @softmax_kernel({{.*}}) workgroup(%{{[^ ]*}} : memref<128xf32, #gpu.address_space<workgroup>> {{.*}}, %{{[^ ]*}} : memref<128xf32, #gpu.address_space<workgroup>>
// GPU: arith.maximumf
// GPU: math.exp
// GPU: arith.addf
// GPU: arith.divf
// GPU-COUNT-1: memref.store %{{.*}}, %arg1
// GPU-NOT: memref.store %{{.*}}, %arg1
// GPU: gpu.return
func.func @softmax(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<64x128xf32>) -> tensor<64x1xf32>
  %d = tosa.sub %x, %max : (tensor<64x128xf32>, tensor<64x1xf32>) -> tensor<64x128xf32>
  %e = tosa.exp %d : (tensor<64x128xf32>) -> tensor<64x128xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<64x128xf32>) -> tensor<64x1xf32>
  %r = tosa.reciprocal %s : (tensor<64x1xf32>) -> tensor<64x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %y = tosa.mul %e, %r, %shift : (tensor<64x128xf32>, tensor<64x1xf32>, tensor<1xi8>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
