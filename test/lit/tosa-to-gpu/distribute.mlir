// (The options are those these checks were written for: one element per
// thread, row reductions through workgroup memory, f32 GEMMs as plain
// loops, no buffer limit; the pipelines' defaults are the compiler's.)
// RUN: onnx-tosa-opt %s --onnx-tosa-tosa-to-gpu="vector-width=1 subgroup-reduce=false simt-gemm=false max-kernel-buffers=0" | FileCheck %s

// 1000 elements over 256-thread blocks: 4 blocks, one element per thread,
// bounds-checked; never one thread per block.
// CHECK-LABEL: func.func @main
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch_func @main_kernel::@main_kernel blocks in (%[[C4]], %{{.*}}, %{{.*}}) threads in (%[[C256]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.module @main_kernel
// CHECK: gpu.func @main_kernel
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-DAG: gpu.block_id x
// CHECK-DAG: gpu.thread_id x
// CHECK: arith.cmpi ult
// CHECK: scf.if
// The elementwise chain add → tanh is fused into this one kernel.
// CHECK: arith.addf
// CHECK: math.tanh
// CHECK-NOT: gpu.func
func.func @main(%a: tensor<10x100xf32>, %b: tensor<10x100xf32>) -> tensor<10x100xf32> {
  %0 = tosa.add %a, %b : (tensor<10x100xf32>, tensor<10x100xf32>) -> tensor<10x100xf32>
  %1 = tosa.tanh %0 : (tensor<10x100xf32>) -> tensor<10x100xf32>
  return %1 : tensor<10x100xf32>
}

// 2^24 elements are 65536 blocks, one more than a grid dimension may have
// on Vulkan: two rows of 32768 blocks, the block's index y * 32768 + x.
// CHECK-LABEL: func.func @large
// CHECK-DAG: %[[C32768:.*]] = arith.constant 32768 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: gpu.launch_func @large_kernel::@large_kernel blocks in (%[[C32768]], %[[C2]], %{{.*}})
// CHECK-LABEL: gpu.module @large_kernel
// CHECK-DAG: %[[X:.*]] = gpu.block_id x
// CHECK-DAG: %[[Y:.*]] = gpu.block_id y
// CHECK: %[[ROW:.*]] = arith.muli %[[Y]], %c32768
// CHECK: arith.addi %[[ROW]], %[[X]]
func.func @large(%a: tensor<16777216xf32>, %b: tensor<16777216xf32>) -> tensor<16777216xf32> {
  %0 = tosa.add %a, %b : (tensor<16777216xf32>, tensor<16777216xf32>) -> tensor<16777216xf32>
  return %0 : tensor<16777216xf32>
}
