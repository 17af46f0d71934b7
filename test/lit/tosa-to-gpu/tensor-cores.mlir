// f16 batch matmuls on tensor cores: which ones are selected (on tensors),
// the kernel they become (on buffers), and the aligned workgroup memory of
// the outlined kernel.
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-select-tensor-core-ops))' | FileCheck %s --check-prefix=SELECT
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-select-tensor-core-ops{tf32=true}))' | FileCheck %s --check-prefix=TF32
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-select-tensor-core-ops{simt=true}))' | FileCheck %s --check-prefix=SIMT
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{stages=1 prefetch=1},onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=KERNEL
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config,onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=STAGES
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{tiling=8x8x1x1s2},onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=FORCED
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{async-copies=matmuls},onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=ASYNC
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{stages=1 prefetch=1},onnx-tosa-tensor-core-kernels,onnx-tosa-distribute-loops),gpu-kernel-outlining,onnx-tosa-align-workgroup-memory)' | FileCheck %s --check-prefix=OUTLINED
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{spirv-tilings=true},onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=SPIRV

// 256x512x128: 32 blocks of 64x64 would not fill 132 multiprocessors, so
// 32x32 tiles (128 blocks), one fragment per warp.
// SELECT-LABEL: func.func @selected
// SELECT: linalg.batch_matmul {onnx_tosa.tensor_cores}
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @selected(%a: tensor<1x256x128xf16>, %b: tensor<1x128x512xf16>) -> tensor<1x256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x256x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x256x512xf32>) -> tensor<1x256x512xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<1x256x128xf16>, tensor<1x128x512xf16>) outs(%c : tensor<1x256x512xf32>) -> tensor<1x256x512xf32>
  return %r : tensor<1x256x512xf32>
}
}

// -----

// f32 operands (no fp16 precision), and columns that are not whole 16-byte
// vectors (36 halves) stay with the scalar kernels.
// SELECT-LABEL: func.func @not_selected
// SELECT-NOT: onnx_tosa.tensor_cores
// With tf32, the f32 matmul is selected too (and only it).
// TF32-LABEL: func.func @not_selected
// TF32: linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%{{.*}}, %{{.*}} : tensor<1x64x64xf32>, tensor<1x64x64xf32>)
// TF32-NOT: onnx_tosa.tensor_cores
// TF32-LABEL: func.func @edges_selected
// With simt, the f32 matmul is marked for the kernel on CUDA cores instead.
// SIMT-LABEL: func.func @not_selected
// SIMT: linalg.batch_matmul {onnx_tosa.simt_gemm} ins(%{{.*}}, %{{.*}} : tensor<1x64x64xf32>, tensor<1x64x64xf32>)
// SIMT-NOT: onnx_tosa.simt_gemm
// SIMT-NOT: onnx_tosa.tensor_cores
// SIMT-LABEL: func.func @edges_selected
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @not_selected(%a32: tensor<1x64x64xf32>, %b32: tensor<1x64x64xf32>, %c32: tensor<1x64x64xf32>,
                        %a: tensor<1x64x64xf16>, %b: tensor<1x64x36xf16>, %c: tensor<1x64x36xf32>)
    -> (tensor<1x64x64xf32>, tensor<1x64x36xf32>) {
  %0 = linalg.batch_matmul ins(%a32, %b32 : tensor<1x64x64xf32>, tensor<1x64x64xf32>) outs(%c32 : tensor<1x64x64xf32>) -> tensor<1x64x64xf32>
  %1 = linalg.batch_matmul ins(%a, %b : tensor<1x64x64xf16>, tensor<1x64x36xf16>) outs(%c : tensor<1x64x36xf32>) -> tensor<1x64x36xf32>
  return %0, %1 : tensor<1x64x64xf32>, tensor<1x64x36xf32>
}
}

// -----

// K not a multiple of 32 (its last step reads zeros past the end), columns
// not a multiple of the tile (the last column tile is cut), and a
// convolution over 3 channels (A read element by element) are selected.
// SELECT-LABEL: func.func @edges_selected
// SELECT-COUNT-3: onnx_tosa.tensor_cores
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @edges_selected(%a: tensor<1x64x48xf16>, %b: tensor<1x48x64xf16>, %c: tensor<1x64x64xf32>,
                          %a2: tensor<1x64x64xf16>, %b2: tensor<1x64x48xf16>, %c2: tensor<1x64x48xf32>,
                          %x: tensor<1x230x230x3xf16>, %w: tensor<7x7x3x64xf16>, %y: tensor<1x112x112x64xf32>)
    -> (tensor<1x64x64xf32>, tensor<1x64x48xf32>, tensor<1x112x112x64xf32>) {
  %1 = linalg.batch_matmul ins(%a, %b : tensor<1x64x48xf16>, tensor<1x48x64xf16>) outs(%c : tensor<1x64x64xf32>) -> tensor<1x64x64xf32>
  %2 = linalg.batch_matmul ins(%a2, %b2 : tensor<1x64x64xf16>, tensor<1x64x48xf16>) outs(%c2 : tensor<1x64x48xf32>) -> tensor<1x64x48xf32>
  %3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%x, %w : tensor<1x230x230x3xf16>, tensor<7x7x3x64xf16>) outs(%y : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  return %1, %2, %3 : tensor<1x64x64xf32>, tensor<1x64x48xf32>, tensor<1x112x112x64xf32>
}
}

// -----

// A 3x3 convolution over 64 channels is an implicit GEMM with K = 576; its
// 7x7 = 49 output pixels do not fill a row tile, which is allowed.
// SELECT-LABEL: func.func @conv_selected
// SELECT: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, onnx_tosa.tensor_cores, strides = dense<1> : tensor<2xi64>}
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @conv_selected(%x: tensor<1x9x9x64xf16>, %w: tensor<3x3x64x128xf16>, %y: tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x64xf16>, tensor<3x3x64x128xf16>) outs(%y : tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32>
  return %0 : tensor<1x7x7x128xf32>
}
}

// -----

// On buffers, a marked matmul with 2 batches of 512x1024x256 (256 blocks of
// 64x64; 128x64 tiles would not fill the GPU): grid (N/64, M/64, batch), 4
// warps of 2x2 fragments each. The zero
// fill before it goes (the accumulators start at zero), the operands are
// read through flat views of the buffers their views come from, A and B
// tiles go through workgroup memory, and C is stored fragment by fragment.
// SELECT-LABEL: func.func @kernel
// KERNEL-LABEL: func.func @kernel
// KERNEL-NOT: linalg.fill
// KERNEL: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c16{{.*}}, %{{.*}} = %c8{{.*}}, %{{.*}} = %c2{{.*}}) threads({{.*}}) in (%{{.*}} = %c128{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) workgroup(%[[SA:.*]] : memref<64x40xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x72xf16, #gpu.address_space<workgroup>>)
// KERNEL: %[[A:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [262144], strides: [1]
// KERNEL: %[[B:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [524288], strides: [1]
// KERNEL: %[[C:.*]] = memref.reinterpret_cast %arg2 to offset: [0], sizes: [1048576], strides: [1]
// KERNEL: gpu.subgroup_mma_constant_matrix %{{.*}} : !gpu.mma_matrix<16x16xf32, "COp">
// The first step's tiles, then in the loop the next step's (the last step
// reloads its own: K - 32 = 224) before this step's products.
// KERNEL-COUNT-2: vector.load %[[A]]
// KERNEL-COUNT-2: vector.load %[[B]]
// KERNEL-COUNT-4: vector.store
// KERNEL: gpu.barrier
// KERNEL: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// KERNEL: arith.minui %{{.*}}, %c224
// KERNEL-COUNT-2: vector.load %[[A]]
// KERNEL-COUNT-2: vector.load %[[B]]
// KERNEL-COUNT-2: gpu.subgroup_mma_load_matrix %[[SA]]{{.*}} {leadDimension = 40 : index} {{.*}} -> !gpu.mma_matrix<16x16xf16, "AOp">
// KERNEL-COUNT-2: gpu.subgroup_mma_load_matrix %[[SB]]{{.*}} {leadDimension = 72 : index} {{.*}} -> !gpu.mma_matrix<16x16xf16, "BOp">
// KERNEL-COUNT-4: gpu.subgroup_mma_compute
// KERNEL: gpu.barrier
// KERNEL-COUNT-4: vector.store
// KERNEL: gpu.barrier
// KERNEL: scf.yield
// KERNEL-COUNT-4: gpu.subgroup_mma_store_matrix %{{.*}}, %[[C]][%{{.*}}] {leadDimension = 1024 : index}
// KERNEL-NOT: linalg.batch_matmul
// By default (two stages) the tiles have two copies: a step's products
// read one while the next step's tiles go to the other, and one barrier
// per step is enough. On tensor cores the loads run two steps ahead: the
// loop carries the tiles of the next step (4 vectors per thread) and
// stores them while those of the step after are loaded (K - 32 = 224
// again the last).
// STAGES-LABEL: func.func @kernel
// STAGES: workgroup(%[[SA:.*]] : memref<2x64x40xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<2x32x72xf16, #gpu.address_space<workgroup>>)
// STAGES: scf.for {{.*}} -> (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>)
// STAGES: %[[READ:.*]] = arith.remui %{{.*}}, %c2
// STAGES: %[[WRITE:.*]] = arith.subi %c1{{.*}}, %[[READ]]
// STAGES: arith.addi %{{.*}}, %c64
// STAGES: arith.minui %{{.*}}, %c224
// STAGES-COUNT-2: gpu.subgroup_mma_load_matrix %[[SA]][%[[READ]],
// STAGES-NOT: gpu.barrier
// STAGES: vector.store %{{.*}}, %[[SA]][%[[WRITE]],
// STAGES: gpu.barrier
// STAGES-NEXT: scf.yield {{.*}} : !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">, vector<8xf16>, vector<8xf16>, vector<8xf16>, vector<8xf16>
// With asynchronous copies: four copies of the tiles (as many as fit in
// 48 KiB), the first three steps' copies started before the loop, and in
// each step a wait for its own (two newer groups may still be under way),
// one barrier, the copies of the step three ahead into the copy the step
// before read, then the products.
// ASYNC-LABEL: func.func @kernel
// ASYNC: workgroup(%[[SA:.*]] : memref<4x64x40xf16, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<4x32x72xf16, #gpu.address_space<workgroup>>)
// ASYNC-COUNT-2: nvgpu.device_async_create_group
// ASYNC: %[[LAST:.*]] = nvgpu.device_async_create_group
// ASYNC-NOT: nvgpu.device_async_copy
// ASYNC: scf.for
// ASYNC: %[[STEP:.*]] = arith.divui
// ASYNC-NEXT: nvgpu.device_async_wait %[[LAST]] {numGroups = 2 : i32}
// ASYNC-NEXT: gpu.barrier
// ASYNC: %[[WRITE:.*]] = arith.remui %{{.*}}, %c4
// ASYNC: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[SA]][%[[WRITE]], %{{.*}}, %{{.*}}], 8 {bypassL1}
// ASYNC: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[SB]][%[[WRITE]], %{{.*}}, %{{.*}}], 8 {bypassL1}
// ASYNC: nvgpu.device_async_create_group
// ASYNC: %[[READ:.*]] = arith.remui %[[STEP]], %c4
// ASYNC-NOT: gpu.barrier
// ASYNC-COUNT-2: gpu.subgroup_mma_load_matrix %[[SA]][%[[READ]],
// ASYNC-NOT: gpu.barrier
// ASYNC: scf.yield
// ASYNC-NEXT: }
// ASYNC-NEXT: nvgpu.device_async_wait %[[LAST]] {numGroups = 0 : i32}
// OUTLINED-LABEL: gpu.func @kernel_kernel
// OUTLINED-SAME: workgroup(%{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64}, %{{.*}} : memref<32x72xf16, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @kernel(%a: memref<2x512x256xf16>, %b: memref<2x256x1024xf16>, %c: memref<2x512x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<2x512x1024xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<2x512x256xf16>, memref<2x256x1024xf16>) outs(%c : memref<2x512x1024xf32>)
  return
}
}

// -----

// Without the fill the accumulators start from C; an operand that is a
// subview keeps the op as it is (lowered to loops like any other).
// KERNEL-LABEL: func.func @accumulate
// KERNEL: gpu.launch
// KERNEL: gpu.subgroup_mma_load_matrix %{{.*}}[%{{.*}}] {leadDimension = 64 : index} : memref<4096xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
// KERNEL-LABEL: func.func @subview
// KERNEL-NOT: gpu.launch
// KERNEL: linalg.batch_matmul {onnx_tosa.tensor_cores}
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @accumulate(%a: memref<64x64xf16>, %b: memref<1x64x64xf16>, %c: memref<1x64x64xf32>) {
  %a3 = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 64, 64] : memref<64x64xf16> into memref<1x64x64xf16>
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a3, %b : memref<1x64x64xf16>, memref<1x64x64xf16>) outs(%c : memref<1x64x64xf32>)
  return
}
func.func @subview(%a: memref<1x64x128xf16>, %b: memref<1x64x64xf16>, %c: memref<1x64x64xf32>) {
  %v = memref.subview %a[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<1x64x128xf16> to memref<1x64x64xf16, strided<[8192, 128, 1]>>
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%v, %b : memref<1x64x64xf16, strided<[8192, 128, 1]>>, memref<1x64x64xf16>) outs(%c : memref<1x64x64xf32>)
  return
}
}

// -----

// The 3x3 convolution with 49 output pixels: 2 row tiles of 32, the second
// cut. A rows past the 49th read row 48 (the min), C (the bias) comes in
// and goes out through a third workgroup buffer, row-checked (scf.if).
// The input pixel of (row, k) is found from the output pixel and the
// filter position: divisions by 49 and 7 (pixel) and by 192 and 64 (k).
// KERNEL-LABEL: func.func @conv_kernel
// KERNEL: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c128{{.*}}, {{.*}}) workgroup(%{{.*}} : memref<32x40xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x40xf16, #gpu.address_space<workgroup>>, %[[SC:.*]] : memref<32x36xf32, #gpu.address_space<workgroup>>)
// KERNEL: scf.if
// KERNEL: vector.store %{{.*}}, %[[SC]]
// KERNEL: gpu.barrier
// KERNEL: gpu.subgroup_mma_load_matrix %[[SC]]{{.*}} {leadDimension = 36 : index}
// KERNEL: arith.minui %{{.*}}, %c48
// KERNEL: arith.divui %{{.*}}, %c49
// KERNEL: arith.divui %{{.*}}, %c192
// KERNEL: scf.for
// KERNEL: gpu.subgroup_mma_compute
// KERNEL: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SC]]
// KERNEL: gpu.barrier
// KERNEL: scf.if
// KERNEL-NOT: linalg.conv_2d_nhwc_hwcf
// Convolutions keep loading their tiles through registers (async-copies=
// matmuls: asynchronous copies made ResNet-50's slower on the H200).
// ASYNC-LABEL: func.func @conv_kernel
// ASYNC-NOT: nvgpu.device_async_copy
// ASYNC: gpu.terminator
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @conv_kernel(%x: memref<1x9x9x64xf16>, %w: memref<3x3x64x128xf16>, %y: memref<1x7x7x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, onnx_tosa.tensor_cores, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x9x9x64xf16>, memref<3x3x64x128xf16>) outs(%y : memref<1x7x7x128xf32>)
  return
}
}

// -----

// tf32: f32 tiles (16-byte vectors of 4 floats, rows padded by 4), 16x8 A
// and 8x16 B fragments, four k-steps of 8 per tile of 32.
// KERNEL-LABEL: func.func @tf32_kernel
// KERNEL: workgroup(%[[SA:.*]] : memref<32x36xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x36xf32, #gpu.address_space<workgroup>>)
// KERNEL: vector.load %{{.*}} : memref<4096xf32>, vector<4xf32>
// KERNEL-COUNT-4: gpu.subgroup_mma_load_matrix %[[SA]]{{.*}} -> !gpu.mma_matrix<16x8xf32, "AOp">
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @tf32_kernel(%a: memref<1x64x64xf32>, %b: memref<1x64x64xf32>, %c: memref<1x64x64xf32>) {
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x64x64xf32>, memref<1x64x64xf32>) outs(%c : memref<1x64x64xf32>)
  return
}
}

// -----

// BERT's attention scores: a contraction written as a linalg.generic over
// [batch, heads] (what a batch matmul becomes once reshapes are propagated
// through it) is selected like a batch matmul. A convolution accumulating
// onto its broadcast bias starts from zero instead, and the bias is added by
// an elementwise op after it (the epilogue to be).
// SELECT-LABEL: func.func @generic_contraction
// SELECT: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]{{.*}} attrs = {onnx_tosa.tensor_cores}
// SELECT-LABEL: func.func @bias_to_epilogue
// SELECT: %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f32)
// SELECT: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}onnx_tosa.tensor_cores{{.*}} outs(%[[ZERO]] : tensor<1x7x7x128xf32>)
// SELECT: linalg.generic {{.*}} ins(%[[CONV]], %arg2 : tensor<1x7x7x128xf32>, tensor<1x7x7x128xf32>)
// SELECT: arith.addf
#qk_a = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#qk_b = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#qk_c = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @generic_contraction(%q: tensor<1x12x128x64xf16>, %k: tensor<1x12x64x128xf16>) -> tensor<1x12x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x12x128x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x128x128xf32>) -> tensor<1x12x128x128xf32>
  %r = linalg.generic {indexing_maps = [#qk_a, #qk_b, #qk_c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x12x128x64xf16>, tensor<1x12x64x128xf16>) outs(%c : tensor<1x12x128x128xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x12x128x128xf32>
  return %r : tensor<1x12x128x128xf32>
}
func.func @bias_to_epilogue(%x: tensor<1x9x9x64xf16>, %w: tensor<3x3x64x128xf16>, %bias: tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x9x9x64xf16>, tensor<3x3x64x128xf16>) outs(%bias : tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32>
  return %0 : tensor<1x7x7x128xf32>
}
}

// -----

// The elementwise op after a marked matmul becomes the kernel's epilogue:
// the accumulators go through workgroup memory, and each thread applies the
// op's body (bias add, ReLU, rounding to f16) to elements of the tile,
// reading the bias through its indexing map and storing to the op's output,
// which may be a view (the interior of a padded buffer). C is not written;
// an op between the two that touches neither A nor B is looked past.
// KERNEL-LABEL: func.func @epilogue
// KERNEL: linalg.fill {{.*}} outs(%arg4
// KERNEL: gpu.launch {{.*}} workgroup({{.*}}, %[[SC:.*]] : memref<32x36xf32, #gpu.address_space<workgroup>>)
// KERNEL: gpu.subgroup_mma_constant_matrix
// KERNEL: scf.for
// KERNEL: gpu.subgroup_mma_compute
// KERNEL: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SC]]
// KERNEL: gpu.barrier
// KERNEL: scf.for
// KERNEL: memref.load %[[SC]]
// KERNEL: memref.load %arg2
// KERNEL: arith.truncf
// KERNEL: arith.addf
// KERNEL: arith.maximumf
// KERNEL: memref.store %{{.*}}, %[[OUT:.*]][
// KERNEL-NOT: linalg.generic
// KERNEL-NOT: gpu.subgroup_mma_store_matrix %{{.*}}, %arg3
// KERNEL: return
// The same op after a matmul whose C another op also reads stays an op.
// KERNEL-LABEL: func.func @no_epilogue
// KERNEL: gpu.launch
// KERNEL: linalg.generic
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (0, 0, d2)>
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @epilogue(%a: memref<1x64x64xf16>, %b: memref<1x64x64xf16>, %bias: memref<1x1x64xf16>,
                    %c: memref<1x64x64xf32>, %other: memref<4xf32>, %padded: memref<1x66x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f32) outs(%c : memref<1x64x64xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x64x64xf16>, memref<1x64x64xf16>) outs(%c : memref<1x64x64xf32>)
  linalg.fill ins(%zero : f32) outs(%other : memref<4xf32>)
  %interior = memref.subview %padded[0, 1, 0] [1, 64, 64] [1, 1, 1] : memref<1x66x64xf16> to memref<1x64x64xf16, strided<[4224, 64, 1], offset: 64>>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<1x64x64xf32>, memref<1x1x64xf16>) outs(%interior : memref<1x64x64xf16, strided<[4224, 64, 1], offset: 64>>) {
  ^bb0(%x: f32, %y: f16, %out: f16):
    %t = arith.truncf %x : f32 to f16
    %s = arith.addf %t, %y : f16
    %r = arith.maximumf %s, %zero16 : f16
    linalg.yield %r : f16
  }
  return
}
func.func @no_epilogue(%a: memref<1x64x64xf16>, %b: memref<1x64x64xf16>, %c: memref<1x64x64xf32>, %d: memref<1x64x64xf16>, %e: memref<1x64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x64x64xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x64x64xf16>, memref<1x64x64xf16>) outs(%c : memref<1x64x64xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<1x64x64xf32>) outs(%d : memref<1x64x64xf16>) {
  ^bb0(%x: f32, %out: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  linalg.copy ins(%c : memref<1x64x64xf32>) outs(%e : memref<1x64x64xf32>)
  return
}
}

// -----

// 2048x1152x64 fills the GPU with 144 blocks of 128x128 (8 warps, each
// 2x4 fragments). Its epilogue stages C one warp row (32 rows) at a time:
// a whole 128x128 f32 tile would not fit in static workgroup memory.
// KERNEL-LABEL: func.func @large_tiles
// KERNEL: gpu.launch blocks({{.*}}) in (%{{.*}} = %c9{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}}) workgroup(%{{.*}} : memref<128x40xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x136xf16, #gpu.address_space<workgroup>>, %[[SC:.*]] : memref<32x132xf32, #gpu.address_space<workgroup>>)
// KERNEL-COUNT-8: gpu.subgroup_mma_compute
// KERNEL-COUNT-8: gpu.subgroup_mma_compute
// KERNEL-NOT: gpu.subgroup_mma_compute
// KERNEL: scf.if
// KERNEL-COUNT-8: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SC]]
// KERNEL: gpu.barrier
// KERNEL: scf.for
// KERNEL: arith.truncf
// KERNEL: scf.if
// KERNEL-COUNT-8: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SC]]
// KERNEL: gpu.barrier
// KERNEL: scf.for
// KERNEL: arith.truncf
// KERNEL: scf.if
// KERNEL-COUNT-8: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SC]]
// KERNEL: gpu.barrier
// KERNEL: scf.for
// KERNEL: arith.truncf
// KERNEL: scf.if
// KERNEL-COUNT-8: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SC]]
// KERNEL: gpu.barrier
// KERNEL: scf.for
// KERNEL: arith.truncf
// KERNEL-NOT: scf.if
// KERNEL: gpu.terminator
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @large_tiles(%a: memref<1x2048x64xf16>, %b: memref<1x64x1152xf16>, %c: memref<1x2048x1152xf32>, %d: memref<1x2048x1152xf16>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x2048x1152xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x2048x64xf16>, memref<1x64x1152xf16>) outs(%c : memref<1x2048x1152xf32>)
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : memref<1x2048x1152xf32>) outs(%d : memref<1x2048x1152xf16>) {
  ^bb0(%x: f32, %out: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  return
}
}

// -----

// On CUDA cores (f32, not tf32): 40 rows x 64 columns only fill 6 one-warp
// blocks of 16x32 (the smallest tile; the second row tile is cut). The A
// tile is staged transposed ([k][row], rows padded by 4) so that a
// thread's 4 rows at one k are one vector; per k each thread reads one
// vector of A and one of B and accumulates their outer product in 4 row
// vectors. The bias add after the matmul, writing C's own buffer, is its
// epilogue: applied to each thread's elements straight from registers, 4
// columns at a time (the bias read and the sums written as vectors), for
// the rows that exist.
// For SPIR-V, a GEMM this small keeps chooseTiling's tiling, with one copy
// of the tiles.
// SPIRV-LABEL: func.func @simt_kernel
// SPIRV: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c3{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c32{{.*}}, {{.*}}) workgroup(%{{.*}} : memref<32x20xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x36xf32, #gpu.address_space<workgroup>>)
// KERNEL-LABEL: func.func @simt_kernel
// KERNEL-NOT: linalg.fill
// KERNEL: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c3{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c32{{.*}}, {{.*}}) workgroup(%[[SA:.*]] : memref<32x20xf32, #gpu.address_space<workgroup>>, %[[SB:.*]] : memref<32x36xf32, #gpu.address_space<workgroup>>)
// KERNEL: arith.minui %{{.*}}, %c39
// KERNEL: vector.load {{.*}} : memref<2560xf32>, vector<4xf32>
// KERNEL-COUNT-16: memref.store %{{.*}}, %[[SA]]
// KERNEL-COUNT-8: vector.store %{{.*}}, %[[SB]]
// KERNEL: gpu.barrier
// KERNEL: scf.for {{.*}} -> (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>)
// KERNEL: vector.load %[[SA]]{{.*}} vector<4xf32>
// KERNEL: vector.load %[[SB]]{{.*}} vector<4xf32>
// KERNEL-COUNT-4: vector.fma
// KERNEL: scf.yield
// KERNEL: arith.cmpi ult, %{{.*}}, %c40
// KERNEL: scf.if
// KERNEL: vector.load %arg2[%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1x1x64xf32>, vector<4xf32>
// KERNEL-COUNT-4: arith.addf
// KERNEL: vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1x40x64xf32>, vector<4xf32>
// KERNEL-NOT: linalg.generic
// KERNEL: return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (0, 0, d2)>
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @simt_kernel(%a: memref<1x40x64xf32>, %b: memref<1x64x64xf32>, %bias: memref<1x1x64xf32>, %c: memref<1x40x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x40x64xf32>)
  linalg.batch_matmul {onnx_tosa.simt_gemm} ins(%a, %b : memref<1x40x64xf32>, memref<1x64x64xf32>) outs(%c : memref<1x40x64xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<1x40x64xf32>, memref<1x1x64xf32>) outs(%c : memref<1x40x64xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}
}

// -----

// 128x768 with K = 3072 (BERT's FFN down projection at batch 1): no tiling
// fills the GPU, so 128x64 tiles (12 blocks) with K split into 12 slices
// of 256 (144 blocks): each block starts its slice at slice x 256 and
// stores its partial products to a buffer of them, [slice][batch][M][N]; a
// second kernel sums the 12 slices of each 4 elements into C.
// KERNEL-LABEL: func.func @split_k
// KERNEL: %[[P:.*]] = memref.alloc() {alignment = 16 : i64} : memref<1179648xf32>
// KERNEL: gpu.launch blocks({{.*}}) in (%{{.*}} = %c12{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c12{{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}})
// KERNEL: arith.remui %{{.*}}, %c12
// KERNEL: arith.muli %{{.*}}, %c256
// KERNEL: scf.for %{{.*}} = %c0{{.*}} to %c256{{.*}} step %c32
// KERNEL-COUNT-4: gpu.subgroup_mma_store_matrix %{{.*}}, %[[P]][%{{.*}}] {leadDimension = 768 : index}
// KERNEL: gpu.launch blocks({{.*}}) in (%{{.*}} = %c96{{.*}}, {{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}})
// KERNEL-COUNT-12: vector.load %[[P]]
// KERNEL: vector.store %{{.*}}, %{{.*}} : memref<98304xf32>, vector<4xf32>
// KERNEL-NOT: linalg
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @split_k(%a: memref<1x128x3072xf16>, %b: memref<1x3072x768xf16>, %c: memref<1x128x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x128x768xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x128x3072xf16>, memref<1x3072x768xf16>) outs(%c : memref<1x128x768xf32>)
  return
}
}

// -----

// K = 48 and N = 48 on a 32x32 tile: the second K step reads zeros past
// K's end (loads clamped to the last vector, then selected away), the
// second column tile is cut (B's columns past the end read as zero, C
// staged and only the elements that exist stored: row and column checked).
// KERNEL-LABEL: func.func @edge_kernel
// KERNEL: gpu.launch blocks({{.*}}) in (%{{.*}} = %c2{{.*}}, %{{.*}} = %c2{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) workgroup({{.*}}, {{.*}}, %[[SC:.*]] : memref<32x36xf32, #gpu.address_space<workgroup>>)
// KERNEL: arith.minui %{{.*}}, %c40
// KERNEL: arith.select %{{.*}} : vector<8xi1>, vector<8xf16>
// KERNEL: arith.minui %{{.*}}, %c47
// KERNEL: arith.andi
// KERNEL: arith.select %{{.*}} : vector<8xi1>, vector<8xf16>
// KERNEL: scf.for
// KERNEL: gpu.subgroup_mma_store_matrix %{{.*}}, %[[SC]]
// KERNEL: arith.andi
// KERNEL: scf.if
// KERNEL: vector.load %[[SC]]
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @edge_kernel(%a: memref<1x64x48xf16>, %b: memref<1x48x48xf16>, %c: memref<1x64x48xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x64x48xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x64x48xf16>, memref<1x48x48xf16>) outs(%c : memref<1x64x48xf32>)
  return
}
}

// -----

// A 3x3 convolution over 3 channels (K = 27) on CUDA cores: A is read
// element by element (a filter position is not a whole vector), each
// element's k clamped to 26 and selected away past it.
// KERNEL-LABEL: func.func @rgb_kernel
// KERNEL: gpu.launch
// KERNEL: arith.minui %{{.*}}, %c26
// KERNEL: memref.load
// KERNEL: arith.select %{{.*}} : f32
// KERNEL: vector.from_elements
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @rgb_kernel(%x: memref<1x20x20x3xf32>, %w: memref<3x3x3x32xf32>, %y: memref<1x18x18x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x18x18x32xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, onnx_tosa.simt_gemm, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x20x20x3xf32>, memref<3x3x3x32xf32>) outs(%y : memref<1x18x18x32xf32>)
  return
}
}

// -----

// BERT's FFN down projection at batch 8 in f32 on CUDA cores (M = 1024,
// N = 768, K = 3072): 64x128 tiles of 128 threads, 8x8 elements each, make
// only 96 blocks (4 warps each); K in 4 slices of 24 steps makes 384, 10
// warps or more per multiprocessor. The second kernel sums the slices.
// A forced tiling (tuning experiments) replaces the choice where the kernel
// can have it: 32x32 tiles of 64 threads, K in 2 slices.
// FORCED-LABEL: func.func @simt_split
// FORCED: gpu.launch blocks({{.*}}) in (%{{.*}} = %c24{{.*}}, %{{.*}} = %c32{{.*}}, %{{.*}} = %c2{{.*}}) threads({{.*}}) in (%{{.*}} = %c64{{.*}}, {{.*}})
// For SPIR-V (chooseSpirvTiling): 128x128 tiles of 256 threads, 48 of
// them; K in 2 slices of 48 steps (one wave of 96 blocks; 4 slices would
// be two waves of 24 steps, no fewer steps in all), one copy of the tiles.
// SPIRV-LABEL: func.func @simt_split
// SPIRV: gpu.launch blocks({{.*}}) in (%{{.*}} = %c6{{.*}}, %{{.*}} = %c8{{.*}}, %{{.*}} = %c2{{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}}) workgroup(%{{.*}} : memref<32x132xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x132xf32, #gpu.address_space<workgroup>>) {
// SPIRV: gpu.launch blocks({{.*}}) in (%{{.*}} = %c768{{.*}}, {{.*}})
// SPIRV-NOT: gpu.launch
// KERNEL-LABEL: func.func @simt_split
// KERNEL: gpu.launch blocks({{.*}}) in (%{{.*}} = %c6{{.*}}, %{{.*}} = %c16{{.*}}, %{{.*}} = %c4{{.*}}) threads({{.*}}) in (%{{.*}} = %c128{{.*}}, {{.*}}) workgroup(%{{.*}} : memref<32x68xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32x132xf32, #gpu.address_space<workgroup>>)
// KERNEL: gpu.launch
// KERNEL-NOT: gpu.launch
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @simt_split(%a: memref<1x1024x3072xf32>, %b: memref<1x3072x768xf32>, %c: memref<1x1024x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1024x768xf32>)
  linalg.batch_matmul {onnx_tosa.simt_gemm} ins(%a, %b : memref<1x1024x3072xf32>, memref<1x3072x768xf32>) outs(%c : memref<1x1024x768xf32>)
  return
}
}
