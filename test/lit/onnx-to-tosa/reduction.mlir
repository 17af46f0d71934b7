// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// ReduceSum takes axes as an input from opset 13; TOSA reduces one axis at a
// time, keeping it as size 1.
// CHECK-LABEL: func.func @reduce_sum
// CHECK-SAME: -> tensor<2x1x1xf32>
// CHECK: %[[A:.*]] = tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK: tosa.reduce_sum %[[A]] {axis = 2 : i32} : (tensor<2x1x4xf32>) -> tensor<2x1x1xf32>
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %ax = onnx.constant "ax" dense<[-1, 1]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "ReduceSum"(%x, %ax) {attrs = {}, domain = "", node_name = "r", opset = 13 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// keepdims = 0 drops the reduced axes; ReduceMean is sum * 1/count.
// CHECK-LABEL: func.func @reduce_mean
// CHECK-SAME: -> tensor<2x4xf32>
// CHECK: %[[S:.*]] = tosa.reduce_sum %arg0 {axis = 1 : i32}
// CHECK: %[[N:.*]] = "tosa.const"() <{values = dense<0.333333343> : tensor<1x1x1xf32>}>
// CHECK: %[[M:.*]] = tosa.mul %[[S]], %[[N]]
// CHECK: tosa.reshape %[[M]], %{{.*}} -> tensor<2x4xf32>
func.func @reduce_mean(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "ReduceMean"(%x) {attrs = {axes = array<i64: 1>, keepdims = 0 : i64}, domain = "", node_name = "r", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// No axes: every axis.
// CHECK-LABEL: func.func @reduce_max_all
// CHECK-SAME: -> tensor<1x1xf32>
// CHECK: tosa.reduce_max %arg0 {axis = 0 : i32}
// CHECK: tosa.reduce_max %{{.*}} {axis = 1 : i32}
func.func @reduce_max_all(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "ReduceMax"(%x) {attrs = {}, domain = "", node_name = "r", opset = 18 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// noop_with_empty_axes with no axes is the identity.
// CHECK-LABEL: func.func @reduce_noop
// CHECK-NEXT: return %arg0
func.func @reduce_noop(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "ReduceMin"(%x) {attrs = {noop_with_empty_axes = 1 : i64}, domain = "", node_name = "r", opset = 18 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @reduce_l2_logsumexp
// CHECK: %[[SQ:.*]] = tosa.mul %arg0, %arg0
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[SQ]] {axis = 1 : i32}
// CHECK: %[[R:.*]] = tosa.rsqrt %[[S]]
// CHECK: tosa.reciprocal %[[R]]
// CHECK: %[[M:.*]] = tosa.reduce_max %arg0 {axis = 1 : i32}
// CHECK: %[[D:.*]] = tosa.sub %arg0, %[[M]]
// CHECK: %[[E:.*]] = tosa.exp %[[D]]
// CHECK: %[[T:.*]] = tosa.reduce_sum %[[E]] {axis = 1 : i32}
// CHECK: %[[L:.*]] = tosa.log %[[T]]
// CHECK: tosa.add %[[M]], %[[L]]
func.func @reduce_l2_logsumexp(%x: tensor<2x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "ReduceL2"(%x) {attrs = {axes = array<i64: 1>}, domain = "", node_name = "l2", opset = 13 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  %1 = onnx.node "ReduceLogSumExp"(%x) {attrs = {axes = array<i64: 1>}, domain = "", node_name = "lse", opset = 13 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// On booleans ReduceMax is "any" and ReduceMin "all".
// CHECK-LABEL: func.func @reduce_bool
// CHECK: tosa.reduce_any %arg0 {axis = 1 : i32} : (tensor<2x3xi1>) -> tensor<2x1xi1>
// CHECK: tosa.reduce_all %arg0 {axis = 1 : i32} : (tensor<2x3xi1>) -> tensor<2x1xi1>
func.func @reduce_bool(%x: tensor<2x3xi1>) -> (!onnx.unknown, !onnx.unknown) {
  %ax = onnx.constant "ax" dense<[1]> : tensor<1xi64> : tensor<1xi64>
  %0 = onnx.node "ReduceMax"(%x, %ax) {attrs = {}, domain = "", node_name = "max", opset = 20 : i64} : (tensor<2x3xi1>, tensor<1xi64>) -> !onnx.unknown
  %1 = onnx.node "ReduceMin"(%x, %ax) {attrs = {}, domain = "", node_name = "min", opset = 20 : i64} : (tensor<2x3xi1>, tensor<1xi64>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// CumSum over 5 elements: shifted additions by 1, 2 and 4.
// CHECK-LABEL: func.func @cumsum
// CHECK: tosa.pad %arg0
// CHECK: %[[S1:.*]] = tosa.add %arg0
// CHECK: tosa.pad %[[S1]]
// CHECK: %[[S2:.*]] = tosa.add %[[S1]]
// CHECK: tosa.pad %[[S2]]
// CHECK: %[[S4:.*]] = tosa.add %[[S2]]
// CHECK: return %[[S4]]
func.func @cumsum(%x: tensor<2x5xf32>) -> !onnx.unknown {
  %axis = onnx.constant "axis" dense<1> : tensor<i64> : tensor<i64>
  %0 = onnx.node "CumSum"(%x, %axis) {attrs = {}, domain = "", node_name = "cs", opset = 14 : i64} : (tensor<2x5xf32>, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CumProd shares CumSum's shifted steps, with multiplications and the
// shifted-in positions 1; exclusive shifts the result once more.
// CHECK-LABEL: func.func @cumprod_exclusive
// CHECK: %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1xf32>}>
// CHECK: %[[P1:.*]] = tosa.pad %arg0, %{{.*}}, %[[ONE]]
// CHECK: %[[S1:.*]] = tosa.slice %[[P1]]
// CHECK: %[[M1:.*]] = tosa.mul %arg0, %[[S1]]
// CHECK: %[[P2:.*]] = tosa.pad %[[M1]], %{{.*}}, %[[ONE]]
// CHECK: %[[S2:.*]] = tosa.slice %[[P2]]
// CHECK: %[[M2:.*]] = tosa.mul %[[M1]], %[[S2]]
// CHECK: %[[P3:.*]] = tosa.pad %[[M2]], %{{.*}}, %[[ONE]]
// CHECK: %[[Y:.*]] = tosa.slice %[[P3]]
// CHECK: return %[[Y]]
func.func @cumprod_exclusive(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %axis = onnx.constant "axis" dense<1> : tensor<i64> : tensor<i64>
  %0 = onnx.node "CumProd"(%x, %axis) {attrs = {exclusive = 1 : i64}, domain = "", node_name = "cp", opset = 26 : i64} : (tensor<2x3xf32>, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// An empty input has no data (a graph input of no elements is a constant):
// reducing its empty axis gives the reduction's identity, here -inf.
// CHECK-LABEL: func.func @reduce_max_empty_set
// CHECK-SAME: -> tensor<2x1x4xf32>
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<0xFF800000> : tensor<2x1x4xf32>}>
// CHECK: return %[[C]]
func.func @reduce_max_empty_set(%x: tensor<2x0x4xf32>) -> !onnx.unknown {
  %axes = onnx.constant "axes" dense<[1]> : tensor<1xi64> : tensor<1xi64>
  %0 = onnx.node "ReduceMax"(%x, %axes) {attrs = {keepdims = 1 : i64}, domain = "", node_name = "rm", opset = 18 : i64} : (tensor<2x0x4xf32>, tensor<1xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
