// RUN: onnx-tosa-opt %s --onnx-tosa-split-wide-loops=max-buffers=4 | FileCheck %s
// RUN: onnx-tosa-opt %s --onnx-tosa-split-wide-loops=max-buffers=0 | FileCheck %s --check-prefix=NOLIMIT

// Three copies fused into one loop touch 6 buffers; with at most 4 per
// kernel the loop is cut between the copies, each piece computing the
// shared index again.
// CHECK-LABEL: func.func @three_copies
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK:   %[[J:.*]] = arith.addi %[[I]]
// CHECK:   memref.load %arg0[%[[J]]]
// CHECK:   memref.store %{{.*}}, %arg3[%[[I]]]
// CHECK:   memref.load %arg1[%[[J]]]
// CHECK:   memref.store %{{.*}}, %arg4[%[[I]]]
// CHECK-NOT: memref.load %arg2
// CHECK: scf.parallel (%[[K:.*]]) =
// CHECK:   %[[L:.*]] = arith.addi %[[K]]
// CHECK:   memref.load %arg2[%[[L]]]
// CHECK:   memref.store %{{.*}}, %arg5[%[[K]]]
// CHECK-NOT: scf.parallel
// NOLIMIT-LABEL: func.func @three_copies
// NOLIMIT-COUNT-1: scf.parallel
// NOLIMIT-LABEL: func.func @tied
func.func @three_copies(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>,
                        %x: memref<4xf32>, %y: memref<4xf32>, %z: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %j = arith.addi %i, %c4 : index
    %0 = memref.load %a[%j] : memref<8xf32>
    memref.store %0, %x[%i] : memref<4xf32>
    %1 = memref.load %b[%j] : memref<8xf32>
    memref.store %1, %y[%i] : memref<4xf32>
    %2 = memref.load %c[%j] : memref<8xf32>
    memref.store %2, %z[%i] : memref<4xf32>
    scf.reduce
  }
  return
}

// A value that flows from the first store's computation to the last keeps
// them in one loop: nothing can be cut, and the loop stays whole.
// CHECK-LABEL: func.func @tied
// CHECK-COUNT-1: scf.parallel
func.func @tied(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>,
                %x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %0 = memref.load %a[%i] : memref<4xf32>
    %1 = memref.load %b[%i] : memref<4xf32>
    %2 = memref.load %c[%i] : memref<4xf32>
    %3 = arith.addf %0, %1 : f32
    memref.store %3, %x[%i] : memref<4xf32>
    %4 = arith.addf %3, %2 : f32
    memref.store %4, %y[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
