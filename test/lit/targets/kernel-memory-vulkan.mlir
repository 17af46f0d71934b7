// What Vulkan kernels know about their buffers (targets/spirv/KernelMemory.cpp).
// RUN: onnx-tosa-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(onnx-tosa-promote-kernel-accumulators))' | FileCheck %s

// A coarsened contraction: two accumulators at disjoint linearized indices
// move into iter_args (one load before, one store after the loop), and the
// shared right-hand-side element is loaded once per iteration.
// CHECK-LABEL: gpu.func @two_accumulators
// CHECK: %[[I0:.*]] = affine.linearize_index disjoint [%{{.*}}, %c0] by (4, 2)
// CHECK: %[[I1:.*]] = affine.linearize_index disjoint [%{{.*}}, %c1] by (4, 2)
// CHECK: %[[A0:.*]] = memref.load %arg2[%[[I0]]]
// CHECK: %[[A1:.*]] = memref.load %arg2[%[[I1]]]
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%[[C0:.*]] = %[[A0]], %[[C1:.*]] = %[[A1]])
// CHECK-COUNT-1: memref.load %arg1
// CHECK-NOT: memref.load %arg1
// CHECK-NOT: memref.load %arg2
// CHECK-NOT: memref.store
// CHECK: scf.yield
// CHECK: memref.store %[[R]]#0, %arg2[%[[I0]]]
// CHECK: memref.store %[[R]]#1, %arg2[%[[I1]]]
gpu.module @m1 {
  gpu.func @two_accumulators(%a: memref<8x16xf32> {llvm.noalias}, %b: memref<16xf32> {llvm.noalias}, %c: memref<8xf32> {llvm.noalias}) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t = gpu.thread_id x
    %i0 = affine.linearize_index disjoint [%t, %c0] by (4, 2) : index
    %i1 = affine.linearize_index disjoint [%t, %c1] by (4, 2) : index
    scf.for %k = %c0 to %c16 step %c1 {
      %x0 = memref.load %a[%i0, %k] : memref<8x16xf32>
      %y0 = memref.load %b[%k] : memref<16xf32>
      %s0 = memref.load %c[%i0] : memref<8xf32>
      %p0 = arith.mulf %x0, %y0 : f32
      %n0 = arith.addf %s0, %p0 : f32
      memref.store %n0, %c[%i0] : memref<8xf32>
      %x1 = memref.load %a[%i1, %k] : memref<8x16xf32>
      %y1 = memref.load %b[%k] : memref<16xf32>
      %s1 = memref.load %c[%i1] : memref<8xf32>
      %p1 = arith.mulf %x1, %y1 : f32
      %n1 = arith.addf %s1, %p1 : f32
      memref.store %n1, %c[%i1] : memref<8xf32>
    }
    gpu.return
  }
}

// -----

// Nothing moves when the buffers may alias (no llvm.noalias), when two
// indices might be equal, or when the loop might not run.
// CHECK-LABEL: gpu.func @may_alias
// CHECK-NOT: iter_args
// CHECK: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-LABEL: gpu.func @maybe_equal_indices
// CHECK-NOT: iter_args
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %arg1[%arg2]
// CHECK: memref.store %{{.*}}, %arg1[%arg3]
// CHECK-NEXT: }
// CHECK-LABEL: gpu.func @maybe_no_iteration
// CHECK-NOT: iter_args
// CHECK: scf.for
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
gpu.module @m2 {
  gpu.func @may_alias(%a: memref<16xf32>, %c: memref<8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %k = %c0 to %c16 step %c1 {
      %x = memref.load %a[%k] : memref<16xf32>
      %s = memref.load %c[%c0] : memref<8xf32>
      %n = arith.addf %s, %x : f32
      memref.store %n, %c[%c0] : memref<8xf32>
    }
    gpu.return
  }
  gpu.func @maybe_equal_indices(%a: memref<16xf32> {llvm.noalias}, %c: memref<8xf32> {llvm.noalias}, %i: index, %j: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    scf.for %k = %c0 to %c16 step %c1 {
      %x = memref.load %a[%k] : memref<16xf32>
      %s = memref.load %c[%i] : memref<8xf32>
      %n = arith.addf %s, %x : f32
      memref.store %n, %c[%i] : memref<8xf32>
      %t = memref.load %c[%j] : memref<8xf32>
      %u = arith.addf %t, %x : f32
      memref.store %u, %c[%j] : memref<8xf32>
    }
    gpu.return
  }
  gpu.func @maybe_no_iteration(%a: memref<16xf32> {llvm.noalias}, %c: memref<8xf32> {llvm.noalias}, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %n step %c1 {
      %x = memref.load %a[%k] : memref<16xf32>
      %s = memref.load %c[%c0] : memref<8xf32>
      %v = arith.addf %s, %x : f32
      memref.store %v, %c[%c0] : memref<8xf32>
    }
    gpu.return
  }
}
