// The driver: constants, absent inputs, types and the function signature.
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Initializers become tosa.const; ones only read at compile time (the
// int64 shape) disappear; results get their computed static types and the
// signature follows (argument and result attributes are kept).
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (tensor<3x2xf32> {onnx.name = "y"})
// CHECK-NOT: onnx.
// CHECK-NOT: i64
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<2x3xf32>}>
// CHECK: %[[A:.*]] = tosa.add %arg0, %[[W]]
// CHECK: tosa.reshape %[[A]]
// CHECK-NOT: onnx.
func.func @main(%x: tensor<2x3xf32> {onnx.name = "x"}) -> (!onnx.unknown {onnx.name = "y"}) {
  %w = onnx.constant "w" dense<1.0> : tensor<2x3xf32> : tensor<2x3xf32>
  %s = onnx.constant "s" dense<[3, 2]> : tensor<2xi64> : tensor<2xi64>
  %unused = onnx.constant "unused" dense<7.0> : tensor<4xf32> : tensor<4xf32>
  %0 = onnx.node "Add"(%x, %w) {attrs = {}, domain = "", node_name = "add", opset = 17 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !onnx.unknown
  %1 = onnx.node "Reshape"(%0, %s) {attrs = {}, domain = "", node_name = "reshape", opset = 17 : i64} : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown
  return %1 : !onnx.unknown
}

// Absent optional inputs (onnx.none) are dropped; "ai.onnx" spelled out is
// the default domain; a declared output type (with a dynamic batch) is
// refined to the static one.
// CHECK-LABEL: func.func @none_and_domain
// CHECK-SAME: -> tensor<3x5xf32>
// CHECK-NOT: onnx.none
// CHECK: tosa.matmul
func.func @none_and_domain(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<?x5xf32> {
  %none = onnx.none
  %0 = onnx.node "Gemm"(%a, %b, %none) {attrs = {}, domain = "ai.onnx", node_name = "gemm", opset = 13 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>, none) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// The handler is the one with the largest since-version not above the
// node's opset: Softmax-11 flattens at `axis`, Softmax-13 does not.
// CHECK-LABEL: func.func @versions
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<2x12xf32>
// CHECK: tosa.reduce_max %{{.*}} {axis = 1 : i32} : (tensor<2x12xf32>)
// CHECK: tosa.reduce_max %arg0 {axis = 1 : i32} : (tensor<2x3x4xf32>)
func.func @versions(%x: tensor<2x3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Softmax"(%x) {attrs = {axis = 1 : i64}, domain = "", node_name = "sm11", opset = 11 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  %1 = onnx.node "Softmax"(%x) {attrs = {axis = 1 : i64}, domain = "", node_name = "sm13", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}
