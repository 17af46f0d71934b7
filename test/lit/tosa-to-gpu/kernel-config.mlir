// onnx-tosa-kernel-config chooses each marked contraction's kernel from
// the module's target (docs/targets.md) and writes it on the op; the same
// f16 GEMM (1024x768x768) gets another kernel on each chip, with the
// options the compiler passes every CUDA target (warpgroup MMA and
// asynchronous copies allowed: the pass keeps what the chip has).
// onnx-tosa-tensor-core-kernels then builds what it chose.
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{warpgroup-mma=true async-copies=matmuls}))' | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{warpgroup-mma=true async-copies=matmuls},onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=BUILT

// BUILT-NOT: linalg.batch_matmul
// BUILT-NOT: onnx_tosa.kernel

// A T4 (sm_75: 40 SMs, no cp.async): 128x128 WMMA tiles, whose 48 blocks
// fill it, two copies of the tiles through registers.
// CHECK-LABEL: func.func @f16_sm_75
// CHECK: onnx_tosa.kernel = {async_copy = false, kind = "wmma", per = array<i64: 2, 4>, prefetch = 2 : i64, slices = 1 : i64, stages = 2 : i64, tile = array<i64: 128, 128>, units = array<i64: 4, 2>}
module attributes {onnx_tosa.target = "cuda:sm_75"} {
func.func @f16_sm_75(%a: memref<1x1024x768xf16>, %b: memref<1x768x768xf16>, %c: memref<1x1024x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1024x768xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x1024x768xf16>, memref<1x768x768xf16>) outs(%c : memref<1x1024x768xf32>)
  return
}
}

// -----

// An A100 (sm_80: 108 SMs): 64x64 WMMA tiles (192 blocks), four copies of
// the tiles in flight by cp.async.
// CHECK-LABEL: func.func @f16_sm_80
// CHECK: onnx_tosa.kernel = {async_copy = true, kind = "wmma", per = array<i64: 2, 2>, prefetch = 2 : i64, slices = 1 : i64, stages = 4 : i64, tile = array<i64: 64, 64>, units = array<i64: 2, 2>}
module attributes {onnx_tosa.target = "cuda:sm_80"} {
func.func @f16_sm_80(%a: memref<1x1024x768xf16>, %b: memref<1x768x768xf16>, %c: memref<1x1024x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1024x768xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x1024x768xf16>, memref<1x768x768xf16>) outs(%c : memref<1x1024x768xf32>)
  return
}
}

// -----

// An H100 (sm_90a): warpgroup MMA, 64x128 tiles, three copies.
// CHECK-LABEL: func.func @f16_sm_90a
// CHECK: onnx_tosa.kernel = {async_copy = true, kind = "wgmma", per = array<i64: 1, 8>, prefetch = 2 : i64, slices = 1 : i64, stages = 3 : i64, tile = array<i64: 64, 128>, units = array<i64: 4, 1>}
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @f16_sm_90a(%a: memref<1x1024x768xf16>, %b: memref<1x768x768xf16>, %c: memref<1x1024x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1024x768xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x1024x768xf16>, memref<1x768x768xf16>) outs(%c : memref<1x1024x768xf32>)
  return
}
}

// -----

// sm_120: no warpgroup MMA (the option allows it, the chip has none).
// CHECK-LABEL: func.func @f16_sm_120
// CHECK: onnx_tosa.kernel = {async_copy = true, kind = "wmma", per = array<i64: 2, 2>, prefetch = 2 : i64, slices = 1 : i64, stages = 4 : i64, tile = array<i64: 64, 64>, units = array<i64: 2, 2>}
module attributes {onnx_tosa.target = "cuda:sm_120"} {
func.func @f16_sm_120(%a: memref<1x1024x768xf16>, %b: memref<1x768x768xf16>, %c: memref<1x1024x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1024x768xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %b : memref<1x1024x768xf16>, memref<1x768x768xf16>) outs(%c : memref<1x1024x768xf32>)
  return
}
}

// -----

// f32 on CUDA cores, A100: 64x128 tiles with K in 3 slices to keep its
// 108 SMs busy.
// CHECK-LABEL: func.func @f32_sm_80
// CHECK: onnx_tosa.kernel = {async_copy = false, kind = "simt", per = array<i64: 2, 2>, prefetch = 1 : i64, slices = 3 : i64, stages = 1 : i64, tile = array<i64: 64, 128>, units = array<i64: 8, 16>}
module attributes {onnx_tosa.target = "cuda:sm_80"} {
func.func @f32_sm_80(%a: memref<1x1024x768xf32>, %b: memref<1x768x768xf32>, %c: memref<1x1024x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1024x768xf32>)
  linalg.batch_matmul {onnx_tosa.simt_gemm} ins(%a, %b : memref<1x1024x768xf32>, memref<1x768x768xf32>) outs(%c : memref<1x1024x768xf32>)
  return
}
}

// -----

// The same on Vulkan (the default row: 132 multiprocessors): 32x64 tiles,
// two copies.
// CHECK-LABEL: func.func @f32_vulkan
// CHECK: onnx_tosa.kernel = {async_copy = false, kind = "simt", per = array<i64: 1, 1>, prefetch = 1 : i64, slices = 1 : i64, stages = 2 : i64, tile = array<i64: 32, 64>, units = array<i64: 8, 16>}
module attributes {onnx_tosa.target = "vulkan"} {
func.func @f32_vulkan(%a: memref<1x1024x768xf32>, %b: memref<1x768x768xf32>, %c: memref<1x1024x768xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x1024x768xf32>)
  linalg.batch_matmul {onnx_tosa.simt_gemm} ins(%a, %b : memref<1x1024x768xf32>, memref<1x768x768xf32>) outs(%c : memref<1x1024x768xf32>)
  return
}
}

