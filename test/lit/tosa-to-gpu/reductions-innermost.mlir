// A reduction over a dimension that is not the last gets its parallel loops
// first (onnx-tosa-reductions-innermost, after the row kernels): a thread
// per output element, each summing its column. Over H of an NHWC image
// (ResNet-50 b32's last stage reduced channels-last) it was one thread per
// image, the loops after the reduction's inside each: 1 block of 32
// threads for 3.2 M elements; now 32 x 7 x 2048 / 256 = 1792 blocks.
// Coarsened contractions keep their outputs loop last.
// RUN: onnx-tosa-opt %s -split-input-file --onnx-tosa-reductions-innermost | FileCheck %s
// RUN: onnx-tosa-compile %S/Inputs/reduce-h-nhwc.mlir --target=cuda:sm_90a --emit=gpu | FileCheck %s --check-prefix=GPU

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @column_sum
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
#in = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#out = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
func.func @column_sum(%x: memref<32x7x7x2048xf32>, %y: memref<32x7x2048xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%x : memref<32x7x7x2048xf32>) outs(%y : memref<32x7x2048xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// CHECK-LABEL: func.func @coarsened
// CHECK: iterator_types = ["parallel", "reduction", "parallel"]
#a = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#b = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @coarsened(%x: memref<4x8x2xf32>, %y: memref<4x2xf32>) {
  linalg.generic {indexing_maps = [#a, #b], iterator_types = ["parallel", "reduction", "parallel"]} ins(%x : memref<4x8x2xf32>) outs(%y : memref<4x2xf32>) attrs = {onnx_tosa.coarsened} {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// GPU: gpu.launch_func {{.*}} blocks in (%c1792, %c1, %c1) threads in (%c256, %c1, %c1)
