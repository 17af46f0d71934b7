// GEMM operands that a transpose fills are read where the transpose reads
// them (onnx-tosa-kernel-config,onnx-tosa-tensor-core-kernels), and the transpose is dropped:
// BERT's heads out of its QKV projection's result, and its merged context
// in the output projection. Q (A) and the context (A) keep K consecutive
// and go on every kernel; K^T (B) has K consecutive, which only the
// warpgroup kernel reads (its B tiles K-major, as A's: wgmma's B layout
// `col`); elsewhere its transpose stays. A buffer written between the
// transpose and the GEMM keeps the transpose.
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{warpgroup-mma=true},onnx-tosa-tensor-core-kernels))' | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config,onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=WMMA

#a = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#b = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#c = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @scores
// CHECK-NOT: linalg.transpose
// CHECK: gpu.launch
// Q's batch (2 x 4 heads) and rows, K's columns and its offset.
// CHECK-DAG: arith.remui %{{.*}}, %c4{{.*}} : index
// CHECK-DAG: arith.muli %{{.*}}, %c98304{{.*}} : index
// CHECK-DAG: arith.muli %{{.*}}, %c768{{.*}} : index
// CHECK-DAG: arith.addi %{{.*}}, %c256{{.*}} : index
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NOT: linalg.transpose
// WMMA-LABEL: func.func @scores
// WMMA-NOT: permutation = [0, 2, 1, 3]
// WMMA: linalg.transpose ins(%{{.*}} : memref<2x128x4x64xf16, strided<[98304, 768, 64, 1], offset: 256>>) outs(%{{.*}} : memref<2x4x64x128xf16>) permutation = [0, 2, 3, 1]
// WMMA-NOT: linalg.transpose
// WMMA: gpu.subgroup_mma_compute
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @scores(%qkv: memref<2x128x768xf16>, %out: memref<2x4x128x128xf32>) {
  %q = memref.subview %qkv[0, 0, 0] [2, 128, 256] [1, 1, 1] : memref<2x128x768xf16> to memref<2x128x256xf16, strided<[98304, 768, 1]>>
  %k = memref.subview %qkv[0, 0, 256] [2, 128, 256] [1, 1, 1] : memref<2x128x768xf16> to memref<2x128x256xf16, strided<[98304, 768, 1], offset: 256>>
  %qh = memref.expand_shape %q [[0], [1], [2, 3]] output_shape [2, 128, 4, 64] : memref<2x128x256xf16, strided<[98304, 768, 1]>> into memref<2x128x4x64xf16, strided<[98304, 768, 64, 1]>>
  %kh = memref.expand_shape %k [[0], [1], [2, 3]] output_shape [2, 128, 4, 64] : memref<2x128x256xf16, strided<[98304, 768, 1], offset: 256>> into memref<2x128x4x64xf16, strided<[98304, 768, 64, 1], offset: 256>>
  %qt = memref.alloc() : memref<2x4x128x64xf16>
  linalg.transpose ins(%qh : memref<2x128x4x64xf16, strided<[98304, 768, 64, 1]>>) outs(%qt : memref<2x4x128x64xf16>) permutation = [0, 2, 1, 3]
  %kt = memref.alloc() : memref<2x4x64x128xf16>
  linalg.transpose ins(%kh : memref<2x128x4x64xf16, strided<[98304, 768, 64, 1], offset: 256>>) outs(%kt : memref<2x4x64x128xf16>) permutation = [0, 2, 3, 1]
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<2x4x128x128xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%qt, %kt : memref<2x4x128x64xf16>, memref<2x4x64x128xf16>) outs(%out : memref<2x4x128x128xf32>) attrs = {onnx_tosa.tensor_cores} {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
}

// -----

// The merged heads as the output projection's A: its rows are (batch,
// position), its K (head, element), each split over two of the context's
// dimensions.
// CHECK-LABEL: func.func @projection
// CHECK-NOT: linalg.transpose
// CHECK-DAG: arith.muli %{{.*}}, %c32768{{.*}} : index
// CHECK-DAG: arith.muli %{{.*}}, %c8192{{.*}} : index
// CHECK: nvvm.wgmma.mma_async {{.*}} B[<f16>, <one>, <row>]
// WMMA-LABEL: func.func @projection
// WMMA-NOT: linalg.transpose
// WMMA: gpu.subgroup_mma_compute
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @projection(%ctx: memref<2x4x128x64xf16>, %w: memref<1x256x256xf16>, %out: memref<1x256x256xf32>) {
  %merged = memref.alloc() : memref<2x128x4x64xf16>
  linalg.transpose ins(%ctx : memref<2x4x128x64xf16>) outs(%merged : memref<2x128x4x64xf16>) permutation = [0, 2, 1, 3]
  %rows = memref.collapse_shape %merged [[0, 1], [2, 3]] : memref<2x128x4x64xf16> into memref<256x256xf16>
  %a = memref.expand_shape %rows [[0, 1], [2]] output_shape [1, 256, 256] : memref<256x256xf16> into memref<1x256x256xf16>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x256x256xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %w : memref<1x256x256xf16>, memref<1x256x256xf16>) outs(%out : memref<1x256x256xf32>)
  return
}
}

// -----

// The transpose's source written between the two: the transpose stays.
// CHECK-LABEL: func.func @written_between
// CHECK: linalg.transpose
// CHECK: memref.store
// CHECK: gpu.launch
// WMMA-LABEL: func.func @written_between
// WMMA: linalg.transpose
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @written_between(%ctx: memref<2x4x128x64xf16>, %w: memref<1x256x256xf16>, %out: memref<1x256x256xf32>) {
  %merged = memref.alloc() : memref<2x128x4x64xf16>
  linalg.transpose ins(%ctx : memref<2x4x128x64xf16>) outs(%merged : memref<2x128x4x64xf16>) permutation = [0, 2, 1, 3]
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f16
  memref.store %one, %ctx[%c0, %c0, %c0, %c0] : memref<2x4x128x64xf16>
  %rows = memref.collapse_shape %merged [[0, 1], [2, 3]] : memref<2x128x4x64xf16> into memref<256x256xf16>
  %a = memref.expand_shape %rows [[0, 1], [2]] output_shape [1, 256, 256] : memref<256x256xf16> into memref<1x256x256xf16>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x256x256xf32>)
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a, %w : memref<1x256x256xf16>, memref<1x256x256xf16>) outs(%out : memref<1x256x256xf32>)
  return
}
}
