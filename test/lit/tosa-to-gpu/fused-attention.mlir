// Attention's scores, softmax and context as one kernel
// (onnx-tosa-tensor-core-kernels with warpgroup MMA): S = Q K^T by a
// wgmma of N = 128 (the keys), the row ops after it (scale and mask,
// maximum, exponentials, sum, normalization) on the accumulators, each
// row's 4 threads combining their partial results by shuffles, P through
// workgroup memory into P V's wgmma of N = 64, and the context's rounding
// to f16 as its epilogue. Every op it computes is gone, S and P included.
// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{warpgroup-mma=true},onnx-tosa-tensor-core-kernels))' | FileCheck %s
// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(func.func(onnx-tosa-kernel-config{warpgroup-mma=true attention=false},onnx-tosa-tensor-core-kernels))' | FileCheck %s --check-prefix=PLAIN

#qk_a = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
#qk_b = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
#qk_c = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mask = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#red_in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#red_out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @attention
// CHECK-NOT: linalg.
// Q and K, then P and V for each 64 keys: (4096 + 8192 + 2 x 8192) x 2
// bytes, and 1024 to align the tiles to the swizzle's period.
// CHECK: %[[BYTES:.*]] = arith.constant 58368 : i32
// CHECK: gpu.launch {{.*}} dynamic_shared_memory_size %[[BYTES]]
// K^T given N-major here (B's layout `row`; read through K's transpose it
// would be K-major, `col`).
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: math.exp
// CHECK: gpu.shuffle  xor
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.
// CHECK: return
// Without: the two GEMMs' kernels, the row ops left for the row kernels.
// PLAIN-LABEL: func.func @attention
// PLAIN: gpu.launch
// PLAIN: nvvm.wgmma.mma_async
// PLAIN: linalg.generic
// PLAIN: gpu.launch
// PLAIN: nvvm.wgmma.mma_async
module attributes {onnx_tosa.target = "cuda:sm_90a"} {
func.func @attention(%q: memref<2x4x128x64xf16>, %k: memref<2x4x64x128xf16>, %v: memref<2x4x128x64xf16>, %m: memref<2x1x1x128xf16>, %out: memref<2x4x128x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %lowest = arith.constant 0xFC00 : f16
  %scale = arith.constant 1.250000e-01 : f16
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<2x4x128x128xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x4x128x128xf32>)
  linalg.generic {indexing_maps = [#qk_a, #qk_b, #qk_c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x4x128x64xf16>, memref<2x4x64x128xf16>) outs(%s : memref<2x4x128x128xf32>) attrs = {onnx_tosa.tensor_cores} {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  %e = memref.alloc() : memref<2x4x128x128xf16>
  linalg.generic {indexing_maps = [#id4, #mask, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %m : memref<2x4x128x128xf32>, memref<2x1x1x128xf16>) outs(%e : memref<2x4x128x128xf16>) {
  ^bb0(%x: f32, %y: f16, %o: f16):
    %t = arith.truncf %x : f32 to f16
    %sc = arith.mulf %t, %scale : f16
    %r = arith.addf %sc, %y : f16
    linalg.yield %r : f16
  }
  %mx = memref.alloc() : memref<2x4x128x1xf16>
  linalg.fill ins(%lowest : f16) outs(%mx : memref<2x4x128x1xf16>)
  %e5 = memref.expand_shape %e [[0], [1], [2, 3], [4]] output_shape [2, 4, 128, 1, 128] : memref<2x4x128x128xf16> into memref<2x4x128x1x128xf16>
  linalg.generic {indexing_maps = [#red_in, #red_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e5 : memref<2x4x128x1x128xf16>) outs(%mx : memref<2x4x128x1xf16>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %o : f16
    linalg.yield %r : f16
  }
  %x = memref.alloc() : memref<2x4x128x128xf16>
  linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %mx : memref<2x4x128x128xf16>, memref<2x4x128x1xf16>) outs(%x : memref<2x4x128x128xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %d = arith.subf %a, %b : f16
    %r = math.exp %d : f16
    linalg.yield %r : f16
  }
  %sum = memref.alloc() : memref<2x4x128x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x4x128x1xf32>)
  %x5 = memref.expand_shape %x [[0], [1], [2, 3], [4]] output_shape [2, 4, 128, 1, 128] : memref<2x4x128x128xf16> into memref<2x4x128x1x128xf16>
  linalg.generic {indexing_maps = [#red_in, #red_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x5 : memref<2x4x128x1x128xf16>) outs(%sum : memref<2x4x128x1xf32>) {
  ^bb0(%a: f16, %o: f32):
    %af = arith.extf %a : f16 to f32
    %r = arith.addf %af, %o : f32
    linalg.yield %r : f32
  }
  %pr = memref.alloc() : memref<2x4x128x128xf16>
  linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %sum : memref<2x4x128x128xf16>, memref<2x4x128x1xf32>) outs(%pr : memref<2x4x128x128xf16>) {
  ^bb0(%a: f16, %b: f32, %o: f16):
    %inv = arith.divf %one, %b : f32
    %inv16 = arith.truncf %inv : f32 to f16
    %r = arith.mulf %a, %inv16 : f16
    linalg.yield %r : f16
  }
  %c = memref.alloc() : memref<2x4x128x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4x128x64xf32>)
  linalg.generic {indexing_maps = [#qk_a, #qk_b, #qk_c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : memref<2x4x128x128xf16>, memref<2x4x128x64xf16>) outs(%c : memref<2x4x128x64xf32>) attrs = {onnx_tosa.tensor_cores} {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : memref<2x4x128x64xf32>) outs(%out : memref<2x4x128x64xf16>) {
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  }
  return
}


// The probabilities are also read by another op (a model output): they
// must go to memory, and the three steps stay kernels of their own.
// CHECK-LABEL: func.func @probabilities_read
// CHECK: gpu.launch
// CHECK-NOT: gpu.shuffle
// CHECK: linalg.generic
// CHECK: memref.copy
// CHECK: gpu.launch
func.func @probabilities_read(%q: memref<2x4x128x64xf16>, %k: memref<2x4x64x128xf16>, %v: memref<2x4x128x64xf16>, %m: memref<2x1x1x128xf16>, %out: memref<2x4x128x64xf16>, %probs: memref<2x4x128x128xf16>) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %lowest = arith.constant 0xFC00 : f16
  %scale = arith.constant 1.250000e-01 : f16
  %one = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<2x4x128x128xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<2x4x128x128xf32>)
  linalg.generic {indexing_maps = [#qk_a, #qk_b, #qk_c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : memref<2x4x128x64xf16>, memref<2x4x64x128xf16>) outs(%s : memref<2x4x128x128xf32>) attrs = {onnx_tosa.tensor_cores} {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  %e = memref.alloc() : memref<2x4x128x128xf16>
  linalg.generic {indexing_maps = [#id4, #mask, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %m : memref<2x4x128x128xf32>, memref<2x1x1x128xf16>) outs(%e : memref<2x4x128x128xf16>) {
  ^bb0(%x: f32, %y: f16, %o: f16):
    %t = arith.truncf %x : f32 to f16
    %sc = arith.mulf %t, %scale : f16
    %r = arith.addf %sc, %y : f16
    linalg.yield %r : f16
  }
  %mx = memref.alloc() : memref<2x4x128x1xf16>
  linalg.fill ins(%lowest : f16) outs(%mx : memref<2x4x128x1xf16>)
  %e5 = memref.expand_shape %e [[0], [1], [2, 3], [4]] output_shape [2, 4, 128, 1, 128] : memref<2x4x128x128xf16> into memref<2x4x128x1x128xf16>
  linalg.generic {indexing_maps = [#red_in, #red_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%e5 : memref<2x4x128x1x128xf16>) outs(%mx : memref<2x4x128x1xf16>) {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %o : f16
    linalg.yield %r : f16
  }
  %x = memref.alloc() : memref<2x4x128x128xf16>
  linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %mx : memref<2x4x128x128xf16>, memref<2x4x128x1xf16>) outs(%x : memref<2x4x128x128xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %d = arith.subf %a, %b : f16
    %r = math.exp %d : f16
    linalg.yield %r : f16
  }
  %sum = memref.alloc() : memref<2x4x128x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<2x4x128x1xf32>)
  %x5 = memref.expand_shape %x [[0], [1], [2, 3], [4]] output_shape [2, 4, 128, 1, 128] : memref<2x4x128x128xf16> into memref<2x4x128x1x128xf16>
  linalg.generic {indexing_maps = [#red_in, #red_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x5 : memref<2x4x128x1x128xf16>) outs(%sum : memref<2x4x128x1xf32>) {
  ^bb0(%a: f16, %o: f32):
    %af = arith.extf %a : f16 to f32
    %r = arith.addf %af, %o : f32
    linalg.yield %r : f32
  }
  %pr = memref.alloc() : memref<2x4x128x128xf16>
  linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %sum : memref<2x4x128x128xf16>, memref<2x4x128x1xf32>) outs(%pr : memref<2x4x128x128xf16>) {
  ^bb0(%a: f16, %b: f32, %o: f16):
    %inv = arith.divf %one, %b : f32
    %inv16 = arith.truncf %inv : f32 to f16
    %r = arith.mulf %a, %inv16 : f16
    linalg.yield %r : f16
  }
  memref.copy %pr, %probs : memref<2x4x128x128xf16> to memref<2x4x128x128xf16>
  %c = memref.alloc() : memref<2x4x128x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4x128x64xf32>)
  linalg.generic {indexing_maps = [#qk_a, #qk_b, #qk_c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%pr, %v : memref<2x4x128x128xf16>, memref<2x4x128x64xf16>) outs(%c : memref<2x4x128x64xf32>) attrs = {onnx_tosa.tensor_cores} {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : memref<2x4x128x64xf32>) outs(%out : memref<2x4x128x64xf16>) {
  ^bb0(%a: f32, %o: f16):
    %r = arith.truncf %a : f32 to f16
    linalg.yield %r : f16
  }
  return
}
}
