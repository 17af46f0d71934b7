// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(func.func(onnx-tosa-upstream-workarounds))' | FileCheck %s
// RUN: onnx-tosa-opt %s --onnx-tosa-tosa-to-linalg | FileCheck %s --check-prefix=LINALG
// RUN: onnx-tosa-opt %s --pass-pipeline='builtin.module(func.func(onnx-tosa-fold-bool-transposes))' | FileCheck %s --check-prefix=FOLD

// RESCALE to i64 (llvm#224020): the i32 RESCALE, sign-extended by a CAST;
// the whole pipeline then gives valid IR.
// CHECK-LABEL: func.func @rescale_i64
// CHECK: %[[ZP:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK: %[[R:.*]] = tosa.rescale %arg0, %{{.*}}, %{{.*}}, %{{.*}}, %[[ZP]] {{{.*}}rounding_mode = DOUBLE_ROUND{{.*}}} : ({{.*}}) -> tensor<4x16xi32>
// CHECK: tosa.cast %[[R]] : (tensor<4x16xi32>) -> tensor<4x16xi64>
// LINALG-LABEL: func.func @rescale_i64
// LINALG: linalg.generic
// LINALG: arith.trunci %{{.*}} : i64 to i32
// LINALG: %[[E:.*]] = arith.extsi %{{.*}} : i32 to i64
// LINALG: linalg.yield %[[E]] : i64
func.func @rescale_i64(%arg0: tensor<4x16xi32>) -> tensor<4x16xi64> {
  %m = "tosa.const"() <{values = dense<1449519051> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<31> : tensor<1xi8>}> : () -> tensor<1xi8>
  %iz = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %oz = "tosa.const"() <{values = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %r = tosa.rescale %arg0, %m, %s, %iz, %oz {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi64>) -> tensor<4x16xi64>
  return %r : tensor<4x16xi64>
}

// INEXACT_ROUND (no upstream lowering) is computed as SINGLE_ROUND, one of
// the results the specification's error bound allows.
// CHECK-LABEL: func.func @rescale_inexact
// CHECK: tosa.rescale {{.*}}rounding_mode = SINGLE_ROUND
// CHECK-NOT: INEXACT_ROUND
// LINALG-LABEL: func.func @rescale_inexact
// LINALG: linalg.generic
// LINALG-NOT: tosa.rescale
func.func @rescale_inexact(%arg0: tensor<4x16xi32>) -> tensor<4x16xi8> {
  %m = "tosa.const"() <{values = dense<1717684156> : tensor<1xi32>}> : () -> tensor<1xi32>
  %s = "tosa.const"() <{values = dense<53> : tensor<1xi8>}> : () -> tensor<1xi8>
  %iz = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %oz = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.rescale %arg0, %m, %s, %iz, %oz {scale32 = true, rounding_mode = INEXACT_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4x16xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4x16xi8>
  return %r : tensor<4x16xi8>
}

// MAX_POOL2D nan_mode = IGNORE: windows start at NaN and combine with
// maxnumf, so only an all-NaN window gives NaN (not -FLT_MAX).
// CHECK-LABEL: func.func @max_pool_ignore
// CHECK: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NAN]] : f32)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]{{.*}} outs(%[[INIT]]
// CHECK: arith.maxnumf
// CHECK-NOT: tosa.max_pool2d
func.func @max_pool_ignore(%arg0: tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32> {
  %r = tosa.max_pool2d %arg0 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>, nan_mode = IGNORE} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}

// PROPAGATE: start and padding at -inf (a window of -inf gives -inf, not
// -FLT_MAX), combined with maximumf (a NaN wins).
// CHECK-LABEL: func.func @max_pool_propagate_pad
// CHECK: %[[NINF:.*]] = arith.constant 0xFC00 : f16
// CHECK: tensor.pad %arg0 low[0, 1, 0, 0] high[0, 1, 0, 0]
// CHECK: tensor.yield %[[NINF]] : f16
// CHECK: linalg.fill ins(%[[NINF]] : f16)
// CHECK: arith.maximumf
func.func @max_pool_propagate_pad(%arg0: tensor<1x7x8x3xf16>) -> tensor<1x4x4x3xf16> {
  %r = tosa.max_pool2d %arg0 {kernel = array<i64: 3, 2>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x7x8x3xf16>) -> tensor<1x4x4x3xf16>
  return %r : tensor<1x4x4x3xf16>
}

// Integer pools are left to upstream.
// CHECK-LABEL: func.func @max_pool_int
// CHECK: tosa.max_pool2d
func.func @max_pool_int(%arg0: tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8> {
  %r = tosa.max_pool2d %arg0 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8>
  return %r : tensor<1x2x2x2xi8>
}

// REDUCE_MAX, PROPAGATE: starts at -inf (not -FLT_MAX, so a row of -inf
// gives -inf), combined with maximumf (a NaN wins); the reduced axis comes
// back with size 1.
// CHECK-LABEL: func.func @reduce_max_propagate
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NINF]] : f32) outs(%{{.*}} : tensor<3x5xf32>)
// CHECK: %[[R:.*]] = linalg.reduce ins(%arg0 : tensor<3x7x5xf32>) outs(%[[INIT]] : tensor<3x5xf32>) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %[[R]] {{\[}}[0, 1], [2]] output_shape [3, 1, 5]
// CHECK-NOT: tosa.reduce_max
func.func @reduce_max_propagate(%arg0: tensor<3x7x5xf32>) -> tensor<3x1x5xf32> {
  %r = tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<3x7x5xf32>) -> tensor<3x1x5xf32>
  return %r : tensor<3x1x5xf32>
}

// REDUCE_MIN, PROPAGATE: starts at +inf, combined with minimumf.
// CHECK-LABEL: func.func @reduce_min_propagate
// CHECK: %[[PINF:.*]] = arith.constant 0x7C00 : f16
// CHECK: linalg.fill ins(%[[PINF]] : f16)
// CHECK: linalg.reduce
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [4, 1]
func.func @reduce_min_propagate(%arg0: tensor<4x9xf16>) -> tensor<4x1xf16> {
  %r = tosa.reduce_min %arg0 {axis = 1 : i32} : (tensor<4x9xf16>) -> tensor<4x1xf16>
  return %r : tensor<4x1xf16>
}

// nan_mode = IGNORE: starts at NaN, combined with maxnumf / minnumf, which
// keep the non-NaN operand: only an all-NaN row gives NaN. A dynamic
// dimension keeps its size from the input.
// CHECK-LABEL: func.func @reduce_ignore
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D0:.*]] = tensor.dim %arg0, %[[C0]]
// CHECK: %[[E:.*]] = tensor.empty(%[[D0]]) : tensor<?xf32>
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NAN]] : f32) outs(%[[E]]
// CHECK: linalg.reduce ins(%arg0 : tensor<?x6xf32>) outs(%[[INIT]] : tensor<?xf32>) dimensions = [1]
// CHECK: arith.maxnumf
// CHECK: %[[INIT2:.*]] = linalg.fill ins(%[[NAN]] : f32)
// CHECK: linalg.reduce ins(%arg0 : tensor<?x6xf32>) outs(%[[INIT2]] : tensor<6xf32>) dimensions = [0]
// CHECK: arith.minnumf
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [1, 6]
func.func @reduce_ignore(%arg0: tensor<?x6xf32>) -> (tensor<?x1xf32>, tensor<1x6xf32>) {
  %0 = tosa.reduce_max %arg0 {axis = 1 : i32, nan_mode = IGNORE} : (tensor<?x6xf32>) -> tensor<?x1xf32>
  %1 = tosa.reduce_min %arg0 {axis = 0 : i32, nan_mode = IGNORE} : (tensor<?x6xf32>) -> tensor<1x6xf32>
  return %0, %1 : tensor<?x1xf32>, tensor<1x6xf32>
}

// onnx-tosa-split-reductions still splits them (rows longer than a row
// kernel takes): the partial results start at
// the combiner's neutral element (NaN for maxnumf), the original NaN start
// joins in the combining reduction.
// LINALG-LABEL: func.func @reduce_ignore_split
// LINALG-DAG: %[[PNAN:.*]] = arith.constant 0xFFC00000 : f32
// LINALG-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// LINALG: %[[INIT:.*]] = linalg.fill ins(%[[NAN]] : f32) outs(%{{.*}} : tensor<4x1xf32>)
// LINALG: %[[PINIT:.*]] = linalg.fill ins(%[[PNAN]] : f32) outs(%{{.*}} : tensor<4x1x64xf32>)
// LINALG: %[[P:.*]] = linalg.generic {{.*}}outs(%[[PINIT]] : tensor<4x1x64xf32>)
// LINALG: arith.maxnumf
// LINALG: linalg.generic {{.*}}ins(%[[P]] : tensor<4x1x64xf32>) outs(%[[INIT]] : tensor<4x1xf32>)
// LINALG: arith.maxnumf
func.func @reduce_ignore_split(%arg0: tensor<4x16384xf32>) -> tensor<4x1xf32> {
  %r = tosa.reduce_max %arg0 {axis = 1 : i32, nan_mode = IGNORE} : (tensor<4x16384xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// Integer reductions are left to upstream.
// CHECK-LABEL: func.func @reduce_max_int
// CHECK: tosa.reduce_max
func.func @reduce_max_int(%arg0: tensor<3x7xi8>) -> tensor<3x1xi8> {
  %r = tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<3x7xi8>) -> tensor<3x1xi8>
  return %r : tensor<3x1xi8>
}

// Integer bilinear RESIZE with half-pixel offsets (llvm#184799, llvm#193821):
// y = oy * 2 - 1, iy = (y + 4) / 4 - 1 (a floor for y >= -4), dy = y - 4 iy,
// rows max(iy, 0) and min(iy + 1, 4), weights 4 - dy and dy, in i32.
// CHECK-LABEL: func.func @resize_half_pixel
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[CM1:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK: %[[OY:.*]] = linalg.index 1 : index
// CHECK: %[[T:.*]] = arith.muli %[[OY]], %[[C2]] : index
// CHECK: %[[Y:.*]] = arith.addi %[[T]], %[[CM1]] : index
// CHECK: %[[YP:.*]] = arith.addi %[[Y]], %[[C4]] : index
// CHECK: arith.divui %[[YP]], %[[C4]] : index
// CHECK-COUNT-4: tensor.extract %arg0
// CHECK: linalg.yield %{{.*}} : i32
// CHECK-NOT: tosa.resize
func.func @resize_half_pixel(%arg0: tensor<1x5x6x2xi8>) -> tensor<1x10x12x2xi32> {
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %arg0, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x5x6x2xi8>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x10x12x2xi32>
  return %r : tensor<1x10x12x2xi32>
}

// Floating-point RESIZE is left to upstream.
// CHECK-LABEL: func.func @resize_float
// CHECK: tosa.resize
func.func @resize_float(%arg0: tensor<1x5x6x2xf32>) -> tensor<1x10x12x2xf32> {
  %scale = tosa.const_shape {values = dense<[4, 2, 4, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<[-1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.resize %arg0, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x5x6x2xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x10x12x2xf32>
  return %r : tensor<1x10x12x2xf32>
}

// TRANSPOSE of a boolean constant is folded before tosa-reduce-transposes,
// which folds it from raw bytes LLVM 22 packs differently for i1 (the
// result crashed whatever read it).
// FOLD-LABEL: func.func @bool_constant_transpose
// FOLD: "tosa.const"() <{values = dense<{{\[\[}}true, false], [false, false], [true, true]]> : tensor<3x2xi1>}>
// FOLD-NOT: tosa.transpose
func.func @bool_constant_transpose() -> tensor<3x2xi1> {
  %0 = "tosa.const"() <{values = dense<[[true, false, true], [false, false, true]]> : tensor<2x3xi1>}> : () -> tensor<2x3xi1>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<2x3xi1>) -> tensor<3x2xi1>
  return %1 : tensor<3x2xi1>
}
