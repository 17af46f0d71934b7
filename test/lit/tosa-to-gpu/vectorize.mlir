// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-distribute-loops{vector-width=4}))' | FileCheck %s

// Each thread takes 4 consecutive columns: 8 x 64 / 4 = 128 threads. The
// row-major operand and the bias are read as vectors, the per-row scale
// once, the sum stored as one vector.
// CHECK-LABEL: func.func @bias_scale
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %c1{{.*}}) threads({{.*}}) in ({{.*}} = %[[C128]]
// CHECK: arith.cmpi ult, %{{.*}}, %[[C128]]
// CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c4
// CHECK: %[[A:.*]] = vector.load %{{.*}}[%[[ROW:.*]], %[[COL]]] {alignment = 16 : i64} : memref<8x64xf32>, vector<4xf32>
// CHECK: %[[B:.*]] = vector.load %{{.*}}[%[[COL]]] {alignment = 16 : i64} : memref<64xf32>, vector<4xf32>
// CHECK: memref.load %{{.*}}[%[[ROW]]] : memref<8xf32>
// CHECK-NOT: memref.load
// CHECK-COUNT-4: arith.addf
// CHECK-COUNT-4: arith.mulf
// CHECK: %[[V:.*]] = vector.from_elements
// CHECK: vector.store %[[V]], %{{.*}}[%[[ROW]], %[[COL]]] {alignment = 16 : i64} : memref<8x64xf32>, vector<4xf32>
func.func @bias_scale(%a: memref<8x64xf32>, %bias: memref<64xf32>,
                      %scale: memref<8xf32>, %out: memref<8x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<8x64xf32>
    %b = memref.load %bias[%j] : memref<64xf32>
    %s = memref.load %scale[%i] : memref<8xf32>
    %y = arith.addf %x, %b : f32
    %z = arith.mulf %y, %s : f32
    memref.store %z, %out[%i, %j] : memref<8x64xf32>
  }
  return
}

// -----

// A transpose: the strided reads stay one element each, the store is one
// vector. Head-splitting views fold to linearize_index, which keeps the
// column's alignment when the inner basis is a multiple of 4.
// CHECK-LABEL: func.func @transpose
// CHECK-COUNT-4: memref.load %{{.*}} : memref<16x12xf32>
// CHECK: vector.store %{{.*}} : memref<12x16xf32>, vector<4xf32>
// CHECK-LABEL: func.func @heads
// CHECK: %[[L:.*]] = affine.linearize_index disjoint
// CHECK: vector.load %{{.*}}[%{{.*}}, %[[L]]] {alignment = 16 : i64} : memref<8x96xf32>, vector<4xf32>
// CHECK: vector.store {{.*}} : memref<3x8x32xf32>, vector<4xf32>
func.func @transpose(%a: memref<16x12xf32>, %out: memref<12x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c12, %c16) step (%c1, %c1) {
    %x = memref.load %a[%j, %i] : memref<16x12xf32>
    memref.store %x, %out[%i, %j] : memref<12x16xf32>
  }
  return
}
func.func @heads(%a: memref<8x96xf32>, %out: memref<3x8x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%h, %s, %d) = (%c0, %c0, %c0) to (%c3, %c8, %c32)
      step (%c1, %c1, %c1) {
    %col = affine.linearize_index disjoint [%h, %d] by (3, 32) : index
    %x = memref.load %a[%s, %col] : memref<8x96xf32>
    memref.store %x, %out[%h, %s, %d] : memref<3x8x32xf32>
  }
  return
}

// -----

// Left alone: an innermost dimension of 6 (not a multiple of 4), and a
// shifted read (not aligned) next to an f16 store.
// CHECK-LABEL: func.func @ragged
// CHECK-NOT: vector.
// CHECK-LABEL: func.func @shifted
// CHECK-COUNT-4: memref.load %{{.*}} : memref<8x68xf16>
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<8x64xf16>, vector<4xf16>
func.func @ragged(%a: memref<10x6xf32>, %out: memref<10x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c10, %c6) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<10x6xf32>
    %y = math.exp %x : f32
    memref.store %y, %out[%i, %j] : memref<10x6xf32>
  }
  return
}
func.func @shifted(%a: memref<8x68xf16>, %out: memref<8x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {
    %k = arith.addi %j, %c1 : index
    %x = memref.load %a[%i, %k] : memref<8x68xf16>
    memref.store %x, %out[%i, %j] : memref<8x64xf16>
  }
  return
}
