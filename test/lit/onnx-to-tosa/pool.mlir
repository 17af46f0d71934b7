// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// CHECK-LABEL: func.func @maxpool
// CHECK-SAME: -> tensor<1x3x4x4xf32>
// CHECK: %[[X:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>}
// CHECK: %[[Y:.*]] = tosa.max_pool2d %[[X]] {kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
// CHECK: tosa.transpose %[[Y]] {perms = array<i32: 0, 3, 1, 2>}
func.func @maxpool(%x: tensor<1x3x8x8xf32>) -> !onnx.unknown {
  %0 = onnx.node "MaxPool"(%x) {attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}, domain = "", node_name = "p", opset = 12 : i64} : (tensor<1x3x8x8xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// ceil_mode adds an output row whose window runs past the input: the
// trailing padding grows to cover it (8 -> ceil(5/2) + 1 = 4 rows).
// CHECK-LABEL: func.func @maxpool_ceil
// CHECK: tosa.max_pool2d %{{.*}} {kernel = array<i64: 3, 3>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32>
func.func @maxpool_ceil(%x: tensor<1x2x8x8xf32>) -> !onnx.unknown {
  %0 = onnx.node "MaxPool"(%x) {attrs = {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64}, domain = "", node_name = "p", opset = 12 : i64} : (tensor<1x2x8x8xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @maxpool_same_upper
// CHECK: tosa.max_pool2d %{{.*}} {kernel = array<i64: 3, 2>, pad = array<i64: 1, 1, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x7x6x2xf32>) -> tensor<1x4x3x2xf32>
func.func @maxpool_same_upper(%x: tensor<1x2x7x6xf32>) -> !onnx.unknown {
  %0 = onnx.node "MaxPool"(%x) {attrs = {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, auto_pad = "SAME_UPPER"}, domain = "", node_name = "p", opset = 12 : i64} : (tensor<1x2x7x6xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// 1-D pools run over a unit height.
// CHECK-LABEL: func.func @maxpool_1d
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<1x2x1x9xf32>
// CHECK: tosa.max_pool2d %{{.*}} {kernel = array<i64: 1, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2>} : (tensor<1x1x9x2xf32>) -> tensor<1x1x4x2xf32>
// CHECK: tosa.reshape %{{.*}} -> tensor<1x2x4xf32>
func.func @maxpool_1d(%x: tensor<1x2x9xf32>) -> !onnx.unknown {
  %0 = onnx.node "MaxPool"(%x) {attrs = {kernel_shape = array<i64: 3>, strides = array<i64: 2>}, domain = "", node_name = "p", opset = 12 : i64} : (tensor<1x2x9xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// count_include_pad = 0 is TOSA's own rule (padding never counts).
// CHECK-LABEL: func.func @avgpool
// CHECK: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK: tosa.avg_pool2d %{{.*}}, %[[ZP]], %[[ZP]] {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x3xf32>
func.func @avgpool(%x: tensor<1x3x8x8xf32>) -> !onnx.unknown {
  %0 = onnx.node "AveragePool"(%x) {attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}, domain = "", node_name = "p", opset = 11 : i64} : (tensor<1x3x8x8xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// count_include_pad = 1: the ONNX padding is materialized with zeros so that
// it counts, then the pool itself pads nothing.
// CHECK-LABEL: func.func @avgpool_include_pad
// CHECK: %[[X:.*]] = tosa.transpose %arg0
// CHECK: %[[PADS:.*]] = tosa.const_shape {values = dense<[0, 0, 1, 1, 1, 1, 0, 0]> : tensor<8xindex>}
// CHECK: %[[P:.*]] = tosa.pad %[[X]], %[[PADS]], %{{.*}} : (tensor<1x8x8x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x10x10x3xf32>
// CHECK: %[[S:.*]] = tosa.slice %[[P]], {{.*}} -> tensor<1x9x9x3xf32>
// CHECK: tosa.avg_pool2d %[[S]], {{.*}} pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : {{.*}} -> tensor<1x4x4x3xf32>
func.func @avgpool_include_pad(%x: tensor<1x3x8x8xf32>) -> !onnx.unknown {
  %0 = onnx.node "AveragePool"(%x) {attrs = {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, count_include_pad = 1 : i64}, domain = "", node_name = "p", opset = 11 : i64} : (tensor<1x3x8x8xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @global_pools
// CHECK-SAME: -> (tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>)
// CHECK: %[[S1:.*]] = tosa.reduce_sum %arg0 {axis = 2 : i32} : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x5xf32>
// CHECK: %[[S2:.*]] = tosa.reduce_sum %[[S1]] {axis = 3 : i32} : (tensor<2x3x1x5xf32>) -> tensor<2x3x1x1xf32>
// CHECK: %[[N:.*]] = "tosa.const"() <{values = dense<5.000000e-02> : tensor<1x1x1x1xf32>}>
// CHECK: tosa.mul %[[S2]], %[[N]]
// CHECK: %[[M1:.*]] = tosa.reduce_max %arg0 {axis = 2 : i32}
// CHECK: tosa.reduce_max %[[M1]] {axis = 3 : i32}
func.func @global_pools(%x: tensor<2x3x4x5xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "GlobalAveragePool"(%x) {attrs = {}, domain = "", node_name = "gap", opset = 1 : i64} : (tensor<2x3x4x5xf32>) -> !onnx.unknown
  %1 = onnx.node "GlobalMaxPool"(%x) {attrs = {}, domain = "", node_name = "gmp", opset = 1 : i64} : (tensor<2x3x4x5xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// An image that a convolution computed channels-last goes back to
// channels-last (a transpose that tosa-reduce-transposes cancels with the
// convolution's), then once to [N, C, H x W] for a reduction along rows.
// CHECK-LABEL: func.func @global_pool_after_conv
// CHECK: tosa.conv2d
// CHECK: %[[F:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 3, 1, 2>}
// CHECK: %[[R:.*]] = tosa.clamp %[[F]]
// CHECK: %[[L:.*]] = tosa.transpose %[[R]] {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x4x6x6xf32>) -> tensor<1x6x6x4xf32>
// CHECK: %[[P:.*]] = tosa.reshape %[[L]], {{.*}} -> tensor<1x36x4xf32>
// CHECK: %[[T:.*]] = tosa.transpose %[[P]] {perms = array<i32: 0, 2, 1>} : (tensor<1x36x4xf32>) -> tensor<1x4x36xf32>
// CHECK: tosa.reduce_sum %[[T]] {axis = 2 : i32}
// CHECK-SAME: -> tensor<1x4x1xf32>
func.func @global_pool_after_conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Conv"(%x, %w) {attrs = {kernel_shape = array<i64: 3, 3>}, domain = "", node_name = "c", opset = 11 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> !onnx.unknown
  %1 = onnx.node "Relu"(%0) {attrs = {}, domain = "", node_name = "relu", opset = 14 : i64} : (!onnx.unknown) -> !onnx.unknown
  %2 = onnx.node "GlobalAveragePool"(%1) {attrs = {}, domain = "", node_name = "gap", opset = 1 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %2 : !onnx.unknown
}

// Dilated (and 3-D) pools go one axis at a time, from their kernel taps:
// here taps x[o] and x[o + 2].
// CHECK-LABEL: func.func @maxpool_dilated
// CHECK-SAME: -> tensor<1x1x3xf32>
// CHECK: %[[T0:.*]] = tosa.slice %arg0, {{.*}} -> tensor<1x1x3xf32>
// CHECK: %[[T1:.*]] = tosa.slice %arg0, {{.*}} -> tensor<1x1x3xf32>
// CHECK: tosa.maximum %[[T0]], %[[T1]]
func.func @maxpool_dilated(%x: tensor<1x1x5xf32>) -> !onnx.unknown {
  %0 = onnx.node "MaxPool"(%x) {attrs = {kernel_shape = array<i64: 2>, dilations = array<i64: 2>}, domain = "", node_name = "p", opset = 12 : i64} : (tensor<1x1x5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// 3-D average pooling: sum of taps per axis times 1/count (compile-time
// counts: the first window sees 1 of its 2 rows).
// CHECK-LABEL: func.func @avgpool3d
// CHECK-SAME: -> tensor<1x1x2x2x2xf32>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[\[\[}}1.000000e+00]], {{\[\[}}5.000000e-01]]]]]> : tensor<1x1x2x1x1xf32>}>
func.func @avgpool3d(%x: tensor<1x1x3x2x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "AveragePool"(%x) {attrs = {kernel_shape = array<i64: 2, 1, 1>, strides = array<i64: 2, 1, 1>, pads = array<i64: 1, 0, 0, 0, 0, 0>}, domain = "", node_name = "p", opset = 11 : i64} : (tensor<1x1x3x2x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// LpPool (p = 2): sqrt of the windowed sum of squares.
// CHECK-LABEL: func.func @lppool
// CHECK: %[[SQ:.*]] = tosa.mul %arg0, %arg0
// CHECK: tosa.add
// CHECK: %[[R:.*]] = tosa.rsqrt
// CHECK: tosa.reciprocal %[[R]]
func.func @lppool(%x: tensor<1x1x4x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "LpPool"(%x) {attrs = {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}, domain = "", node_name = "p", opset = 18 : i64} : (tensor<1x1x4x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// MaxUnpool: X scattered at the flat indices I into zeros of the unpooled
// shape [1, 1, 4, 4] plus one spare element (for out-of-range indices),
// then zero-padded to the declared output shape [1, 1, 5, 5].
// CHECK-LABEL: func.func @max_unpool
// CHECK-SAME: -> tensor<1x1x5x5xf32>
// CHECK: tosa.select {{.*}} -> tensor<1x4xi32>
// CHECK: %[[Z:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x17x1xf32>}>
// CHECK: tosa.scatter %[[Z]], {{.*}} : (tensor<1x17x1xf32>, tensor<1x4xi32>, tensor<1x4x1xf32>) -> tensor<1x17x1xf32>
// CHECK: tosa.slice {{.*}} -> tensor<1x16x1xf32>
// CHECK: tosa.pad {{.*}} -> tensor<1x1x5x5xf32>
func.func @max_unpool(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>, %s: tensor<4xi64>) -> tensor<1x1x5x5xf32> {
  %0 = onnx.node "MaxUnpool"(%x, %i, %s) {attrs = {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}, domain = "", node_name = "unpool", opset = 22 : i64} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}

// uint8 runs as i32 (docs/types.md), which tosa.max_pool2d does not take:
// the pool goes axis by axis with tosa.maximum, exactly.
// CHECK-LABEL: func.func @maxpool_uint8
// CHECK: arith.extui %arg0 : tensor<1x1x4x4xi8> to tensor<1x1x4x4xi32>
// CHECK-NOT: tosa.max_pool2d
// CHECK: tosa.maximum {{.*}} -> tensor<1x1x2x4xi32>
// CHECK: tosa.maximum {{.*}} -> tensor<1x1x2x2xi32>
func.func @maxpool_uint8(%x: tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8> {
  %0 = onnx.node "MaxPool"(%x) {attrs = {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}, domain = "", node_name = "p", opset = 12 : i64} : (tensor<1x1x4x4xui8>) -> tensor<1x1x2x2xui8>
  return %0 : tensor<1x1x2x2xui8>
}

// MaxPool's Indices: flat indices (here storage_order 1, column-major:
// h + 3 * w) follow the maximum through the taps, the last axis first; a tap
// wins only when strictly greater, and on the padded axis a leading padding
// tap (index -1) yields to any input element.
// CHECK-LABEL: func.func @maxpool_indices
// CHECK-SAME: -> (tensor<1x1x3x2xf32>, tensor<1x1x3x2xi32>)
// CHECK: %[[I0:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}0, 3], [1, 4], [2, 5]]]]> : tensor<1x1x3x2xi32>}>
// CHECK: %[[I1:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}3, 6], [4, 7], [5, 8]]]]> : tensor<1x1x3x2xi32>}>
// CHECK: %[[GT:.*]] = tosa.greater
// CHECK: %[[X:.*]] = tosa.select %[[GT]]
// CHECK: %[[I:.*]] = tosa.select %[[GT]], %[[I1]], %[[I0]]
// CHECK: tosa.pad %[[I]], {{.*}} -> tensor<1x1x4x2xi32>
// CHECK: tosa.logical_or
// CHECK: tosa.select
// CHECK: %[[R:.*]] = tosa.select
// CHECK: return {{.*}}, %[[R]]
func.func @maxpool_indices(%x: tensor<1x1x3x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0, %1 = onnx.node "MaxPool"(%x) {attrs = {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 0>, storage_order = 1 : i64}, domain = "", node_name = "p", opset = 12 : i64} : (tensor<1x1x3x3xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0, %1 : !onnx.unknown, !onnx.unknown
}
