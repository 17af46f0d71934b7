// Warpgroup MMA (onnx-tosa-kernel-config{warpgroup-mma},onnx-tosa-tensor-core-kernels, the default
// for f16 on --target=cuda:sm_90a, whose table row the modules name): a 4096x1152 GEMM has two blocks per
// multiprocessor with 128x128 tiles, 256 threads (two warpgroups of 64
// rows). The tiles live in 3 x 32 KiB + 1 KiB of dynamic workgroup memory
// (the 1 KiB to move them to a multiple of 1024 bytes, which the 128-byte
// swizzle needs); two steps' copies start before the loop. Each step waits
// for its own, fences them for the tensor cores' proxy, passes a barrier,
// multiplies its 64 of K by four m64n128k16 instructions reading A and B
// through descriptors, starts the copies of the step two ahead (reading
// nothing, zero-filling, where that step is past K's end), and waits for
// its products. C goes to memory straight from the accumulators, two
// floats at a time.
// REQUIRES: ptxas
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{warpgroup-mma=true},onnx-tosa-tensor-core-kernels))' | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config,onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=WMMA
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-compile %S/Inputs/matmul-4096x1152x512.mlir --precision=fp16 --target=cuda:sm_90a --cuda-format=ptx --dump-kernels=%t/ptx -o %t/m.otsa
// RUN: cat %t/ptx/*.ptx | FileCheck %s --check-prefix=PTX
// RUN: for f in %t/ptx/*.ptx; do ptxas -arch=sm_90a "$f" -o /dev/null || exit 1; done
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{warpgroup-mma=true prefetch=1},onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=RUNNING
// RUN: onnx-tosa-compile %S/Inputs/matmul-4096x1152x512.mlir --precision=fp16 --target=cuda:sm_90a --cuda-format=ptx --gemm-tiling=wg64x128 --dump-kernels=%t/ptx64 -o %t/m64.otsa
// RUN: cat %t/ptx64/*.ptx | FileCheck %s --check-prefix=PTX64
// RUN: for f in %t/ptx64/*.ptx; do ptxas -arch=sm_90a "$f" -o /dev/null || exit 1; done

// CHECK-LABEL: func.func @wgmma
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %c9{{.*}}, %{{.*}} = %c32{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256{{.*}}, {{.*}}) dynamic_shared_memory_size %c99328_i32
// CHECK: %[[RAW:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[TILES:.*]] = memref.view %[[RAW]]{{.*}} to memref<49664xf16, #gpu.address_space<workgroup>>
// CHECK: memref.extract_aligned_pointer_as_index %[[RAW]]
// CHECK: llvm.mlir.zero : !llvm.struct<(f32,
// CHECK: arith.xori
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}], %[[TILES]][%{{.*}}], 8 {bypassL1}
// CHECK: nvgpu.device_async_create_group
// CHECK: %[[LAST:.*]] = nvgpu.device_async_create_group
// CHECK: scf.for {{.*}} -> (!llvm.struct<(f32,
// CHECK: nvgpu.device_async_wait %[[LAST]] {numGroups = 1 : i32}
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: %[[LIVE:.*]] = arith.cmpi ult, %{{.*}}, %c512
// CHECK: %[[N:.*]] = arith.select %[[LIVE]], %c8{{.*}}, %c0
// CHECK-NEXT: nvgpu.device_async_copy {{.*}}, 8, %[[N]] {bypassL1}
// CHECK-COUNT-7: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1}
// CHECK: nvgpu.device_async_create_group
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: scf.yield
// CHECK: nvgpu.device_async_wait %[[LAST]] {numGroups = 0 : i32}
// CHECK-COUNT-64: llvm.extractvalue
// CHECK-NOT: linalg.batch_matmul
// Without the option, the WMMA kernel.
// WMMA-LABEL: func.func @wgmma
// WMMA-NOT: nvvm.wgmma
// WMMA: gpu.subgroup_mma_compute
// The kernel's PTX has the dynamic shared memory as the external array,
// is held to 128 registers (two blocks per multiprocessor), and reads the
// B tile N-major (transposed: the last immediate).
// PTX: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// PTX: .minnctapersm 2
// PTX: fence.proxy.async.shared::cta;
// PTX: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// With the tiles one step ahead (prefetch=1) the third copy of them holds
// the step whose products are left running: one copy is started before
// the loop, each step waits for all of its copies and for all but the
// last step's products, and the loop's end for those.
// RUNNING: nvgpu.device_async_create_group
// RUNNING-NOT: nvgpu.device_async_create_group
// RUNNING: scf.for
// RUNNING: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// RUNNING: nvvm.wgmma.wait.group.sync.aligned 1
// RUNNING-NEXT: scf.yield
// RUNNING-NEXT: }
// RUNNING-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// 64x128 tiles take 3 x 24 KiB + 1 KiB: three blocks fit on a
// multiprocessor, so the kernel may have 168 registers (ptxas spilled at
// 128).
// PTX64: .minnctapersm 3
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @wgmma(%a: memref<4096x512xf16>, %b: memref<1x512x1152xf16>, %c: memref<1x4096x1152xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4096x1152xf32>)
  %a3 = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4096, 512] : memref<4096x512xf16> into memref<1x4096x512xf16>
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a3, %b : memref<1x4096x512xf16>, memref<1x512x1152xf16>) outs(%c : memref<1x4096x1152xf32>)
  return
}
}

// -----

// With an epilogue (a bias, then f16), C goes through the workgroup memory
// the tiles were in once every thread's copies and products are done: each
// thread stores its accumulators there as pairs, then takes runs of 8
// neighbouring columns of a row (rows padded to 136 floats), reads the bias
// for them as one vector and writes them as one 16-byte vector of f16.
// CHECK-LABEL: func.func @wgmma_epilogue
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK: %[[C:.*]] = memref.view %{{.*}} to memref<128x136xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-32: vector.store %{{.*}}, %[[C]][%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<128x136xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: vector.load %[[C]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x136xf32, #gpu.address_space<workgroup>>, vector<8xf32>
// CHECK: vector.load %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<1152xf32>, vector<8xf32>
// CHECK-COUNT-8: arith.truncf
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<1x4096x1152xf16>, vector<8xf16>
// CHECK-NOT: linalg.generic
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @wgmma_epilogue(%a: memref<4096x512xf16>, %b: memref<1x512x1152xf16>, %bias: memref<1152xf32>, %out: memref<1x4096x1152xf16>) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<1x4096x1152xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<1x4096x1152xf32>)
  %a3 = memref.expand_shape %a [[0, 1], [2]] output_shape [1, 4096, 512] : memref<4096x512xf16> into memref<1x4096x512xf16>
  linalg.batch_matmul {onnx_tosa.tensor_cores} ins(%a3, %b : memref<1x4096x512xf16>, memref<1x512x1152xf16>) outs(%c : memref<1x4096x1152xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c, %bias : memref<1x4096x1152xf32>, memref<1152xf32>) outs(%out : memref<1x4096x1152xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  return
}
}
