// bf16 kernels on Vulkan: arithmetic emulated in f32, data carried as i16.
// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(gpu.module(arith-emulate-unsupported-floats{source-types=bf16 target-type=f32},arith-expand{include-bf16=true}),onnx-tosa-store-bf16-as-i16)' | FileCheck %s

// The kernel reads and writes i16 of the bf16 bits; the host keeps its
// bf16 buffers (the artifact's types) and casts them at the launch.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: memref<4xbf16>)
// CHECK: %[[ALLOC:.*]] = memref.alloc() : memref<4xbf16>
// CHECK-DAG: %[[XI:.*]] = builtin.unrealized_conversion_cast %[[X]] : memref<4xbf16> to memref<4xi16>
// CHECK-DAG: %[[AI:.*]] = builtin.unrealized_conversion_cast %[[ALLOC]] : memref<4xbf16> to memref<4xi16>
// CHECK: gpu.launch_func @kernels::@scale {{.*}} args(%[[XI]] : memref<4xi16>, %[[AI]] : memref<4xi16>)
// CHECK: return %[[ALLOC]] : memref<4xbf16>

// bf16 -> f32 is a shift of the bits; f32 -> bf16 rounds to nearest even
// (adds 0x7FFF plus the lowest kept bit) and makes NaN the quiet NaN
// 0x7FC0; a select only moves bits and stays one, on i16, with a bf16
// constant turned into the i16 of its bits (1.5 is 0x3FC0).
// CHECK-LABEL: gpu.func @scale
// CHECK-SAME: (%[[IN:.*]]: memref<4xi16>, %[[OUT:.*]]: memref<4xi16>)
// CHECK-NOT: bf16
// CHECK: %[[K:.*]] = arith.constant 16320 : i16
// CHECK: %[[V:.*]] = memref.load %[[IN]][%{{.*}}] : memref<4xi16>
// CHECK: arith.extui %[[V]] : i16 to i32
// CHECK: arith.shli
// CHECK: %[[F:.*]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK: %[[P:.*]] = arith.mulf %[[F]]
// CHECK: %[[NAN:.*]] = arith.cmpf une, %[[P]], %[[P]] : f32
// CHECK: arith.constant 32767 : i32
// CHECK: %[[QNAN:.*]] = arith.constant 32704 : i16
// CHECK: %[[B:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[QNAN]], %[[B]] : i16
// CHECK: memref.store %[[R]], %[[OUT]][%{{.*}}] : memref<4xi16>
// CHECK: %[[M:.*]] = arith.select %{{.*}}, %[[V]], %[[K]] : i16
// CHECK: memref.store %[[M]], %[[OUT]]
module attributes {gpu.container_module} {
  func.func @main(%x: memref<4xbf16>) -> memref<4xbf16> {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %alloc = memref.alloc() : memref<4xbf16>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xbf16>, %alloc : memref<4xbf16>)
    return %alloc : memref<4xbf16>
  }
  gpu.module @kernels {
    gpu.func @scale(%in: memref<4xbf16>, %out: memref<4xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %k = arith.constant 1.5 : bf16
      %i = gpu.thread_id x
      %v = memref.load %in[%i] : memref<4xbf16>
      %p = arith.mulf %v, %k : bf16
      memref.store %p, %out[%i] : memref<4xbf16>
      // A select moves bits: it stays a select, on i16.
      %pos = arith.cmpf ogt, %v, %k : bf16
      %m = arith.select %pos, %v, %k : bf16
      memref.store %m, %out[%c0] : memref<4xbf16>
      gpu.return
    }
  }
}
