// Producer fusion that never recomputes, and private inits before
// bufferization.
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-fuse-elementwise))' | FileCheck %s --check-prefix=FUSE
// RUN: onnx-tosa-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(onnx-tosa-private-inits,canonicalize))' | FileCheck %s --check-prefix=INITS

// Softmax's scaling feeds a matmul's A operand, which is indexed by
// (m, k) in an (m, n, k) loop nest: fused, it would be computed once per
// column n. It stays its own op; the scaling of the matmul's result, read
// once per iteration of an elementwise op, is fused into that op.
// FUSE-LABEL: func.func @no_recompute
// FUSE: %[[SCALED:.*]] = linalg.generic
// FUSE-SAME: iterator_types = ["parallel", "parallel"]
// FUSE: arith.mulf
// FUSE: %[[MM:.*]] = linalg.generic
// FUSE-SAME: ins(%[[SCALED]], %arg1
// FUSE: linalg.generic
// FUSE-SAME: ins(%[[MM]] : tensor<64x32xf32>)
// FUSE: arith.mulf
// FUSE: math.exp
// FUSE-NOT: linalg.generic
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>
func.func @no_recompute(%p: tensor<64x128xf32>, %v: tensor<128x32xf32>, %s: f32) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x128xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<64x128xf32>) outs(%e0 : tensor<64x128xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<64x128xf32>
  %e1 = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %mm = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%scaled, %v : tensor<64x128xf32>, tensor<128x32xf32>) outs(%acc : tensor<64x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %a = arith.addf %o, %m : f32
    linalg.yield %a : f32
  } -> tensor<64x32xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %half = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<64x32xf32>) outs(%e2 : tensor<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<64x32xf32>
  %e3 = tensor.empty() : tensor<64x32xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%half : tensor<64x32xf32>) outs(%e3 : tensor<64x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<64x32xf32>
  return %exp : tensor<64x32xf32>
}

// -----

// One zero fill that CSE shared between two reductions: each gets its own,
// right before it.
// INITS-LABEL: func.func @shared_fill
// INITS: %[[E0:.*]] = tensor.empty
// INITS-NEXT: %[[F0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]]
// INITS-NEXT: linalg.reduce ins(%arg0 : tensor<8x16xf32>) outs(%[[F0]]
// INITS: %[[E1:.*]] = tensor.empty
// INITS-NEXT: %[[F1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]]
// INITS-NEXT: linalg.reduce ins(%arg1 : tensor<8x16xf32>) outs(%[[F1]]
func.func @shared_fill(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r0 = linalg.reduce ins(%a : tensor<8x16xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  %r1 = linalg.reduce ins(%b : tensor<8x16xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r0, %r1 : tensor<8xf32>, tensor<8xf32>
}
