// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// CHECK-LABEL: func.func @constant_value
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}>
// CHECK: tosa.add %arg0, %[[C]]
func.func @constant_value(%x: tensor<2xf32>) -> !onnx.unknown {
  %c = onnx.node "Constant"() {attrs = {value = dense<[1.0, 2.0]> : tensor<2xf32>}, domain = "", node_name = "c", opset = 13 : i64} : () -> !onnx.unknown
  %0 = onnx.node "Add"(%x, %c) {attrs = {}, domain = "", node_name = "a", opset = 13 : i64} : (tensor<2xf32>, !onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// value_float is a float scalar.
// CHECK-LABEL: func.func @constant_value_float
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<2.500000e+00> : tensor<1xf32>}>
// CHECK: tosa.mul %arg0, %[[C]]
func.func @constant_value_float(%x: tensor<2xf32>) -> !onnx.unknown {
  %c = onnx.node "Constant"() {attrs = {value_float = 2.500000e+00 : f32}, domain = "", node_name = "c", opset = 13 : i64} : () -> !onnx.unknown
  %0 = onnx.node "Mul"(%x, %c) {attrs = {}, domain = "", node_name = "m", opset = 13 : i64} : (tensor<2xf32>, !onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Shapes are static, so Shape is a constant; a typical exported shape
// computation (Shape -> Gather -> Unsqueeze -> Concat -> Reshape) folds away
// completely and leaves no int64 behind.
// CHECK-LABEL: func.func @shape_chain
// CHECK-NOT: i64
// CHECK: %[[S:.*]] = tosa.const_shape {values = dense<[2, 12]> : tensor<2xindex>}
// CHECK-NEXT: %[[R:.*]] = tosa.reshape %arg0, %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %i0 = onnx.constant "i0" dense<0> : tensor<i64> : tensor<i64>
  %a0 = onnx.constant "a0" dense<[0]> : tensor<1xi64> : tensor<1xi64>
  %m1 = onnx.constant "m1" dense<[-1]> : tensor<1xi64> : tensor<1xi64>
  %s = onnx.node "Shape"(%x) {attrs = {}, domain = "", node_name = "shape", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  %d0 = onnx.node "Gather"(%s, %i0) {attrs = {axis = 0 : i64}, domain = "", node_name = "gather", opset = 13 : i64} : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %u = onnx.node "Unsqueeze"(%d0, %a0) {attrs = {}, domain = "", node_name = "unsqueeze", opset = 13 : i64} : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %ns = onnx.node "Concat"(%u, %m1) {attrs = {axis = 0 : i64}, domain = "", node_name = "concat", opset = 13 : i64} : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %y = onnx.node "Reshape"(%x, %ns) {attrs = {}, domain = "", node_name = "reshape", opset = 14 : i64} : (tensor<2x3x4xf32>, !onnx.unknown) -> !onnx.unknown
  return %y : !onnx.unknown
}

// Integer arithmetic, comparisons and Where on constants fold too (the
// dynamic-reshape idiom of exported models).
// CHECK-LABEL: func.func @shape_arith
// CHECK-NOT: i64
// CHECK: %[[S:.*]] = tosa.const_shape {values = dense<[2, 12]> : tensor<2xindex>}
// CHECK-NEXT: %[[R:.*]] = tosa.reshape %arg0, %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @shape_arith(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %i0 = onnx.constant "i0" dense<1> : tensor<i64> : tensor<i64>
  %i1 = onnx.constant "i1" dense<2> : tensor<i64> : tensor<i64>
  %a0 = onnx.constant "a0" dense<[0]> : tensor<1xi64> : tensor<1xi64>
  %z = onnx.constant "z" dense<[0, 0]> : tensor<2xi64> : tensor<2xi64>
  %s = onnx.node "Shape"(%x) {attrs = {}, domain = "", node_name = "shape", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  %d1 = onnx.node "Gather"(%s, %i0) {attrs = {axis = 0 : i64}, domain = "", node_name = "g1", opset = 13 : i64} : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %d2 = onnx.node "Gather"(%s, %i1) {attrs = {axis = 0 : i64}, domain = "", node_name = "g2", opset = 13 : i64} : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %m = onnx.node "Mul"(%d1, %d2) {attrs = {}, domain = "", node_name = "mul", opset = 13 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %u = onnx.node "Unsqueeze"(%m, %a0) {attrs = {}, domain = "", node_name = "u", opset = 13 : i64} : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %d0 = onnx.node "Gather"(%s, %a0) {attrs = {axis = 0 : i64}, domain = "", node_name = "g0", opset = 13 : i64} : (!onnx.unknown, tensor<1xi64>) -> !onnx.unknown
  %ns = onnx.node "Concat"(%d0, %u) {attrs = {axis = 0 : i64}, domain = "", node_name = "concat", opset = 13 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %eq = onnx.node "Equal"(%ns, %z) {attrs = {}, domain = "", node_name = "eq", opset = 13 : i64} : (!onnx.unknown, tensor<2xi64>) -> !onnx.unknown
  %w = onnx.node "Where"(%eq, %z, %ns) {attrs = {}, domain = "", node_name = "where", opset = 16 : i64} : (!onnx.unknown, tensor<2xi64>, !onnx.unknown) -> !onnx.unknown
  %y = onnx.node "Reshape"(%x, %w) {attrs = {}, domain = "", node_name = "reshape", opset = 14 : i64} : (tensor<2x3x4xf32>, !onnx.unknown) -> !onnx.unknown
  return %y : !onnx.unknown
}

// CHECK-LABEL: func.func @constant_of_shape
// CHECK: "tosa.const"() <{values = dense<1.500000e+00> : tensor<2x3xf32>}>
func.func @constant_of_shape() -> !onnx.unknown {
  %s = onnx.constant "s" dense<[2, 3]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "ConstantOfShape"(%s) {attrs = {value = dense<1.5> : tensor<1xf32>}, domain = "", node_name = "c", opset = 13 : i64} : (tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @range
// CHECK: "tosa.const"() <{values = dense<[1.000000e+00, 1.500000e+00, 2.000000e+00]> : tensor<3xf32>}>
func.func @range() -> !onnx.unknown {
  %start = onnx.constant "start" dense<1.0> : tensor<f32> : tensor<f32>
  %limit = onnx.constant "limit" dense<2.2> : tensor<f32> : tensor<f32>
  %delta = onnx.constant "delta" dense<0.5> : tensor<f32> : tensor<f32>
  %0 = onnx.node "Range"(%start, %limit, %delta) {attrs = {}, domain = "", node_name = "r", opset = 13 : i64} : (tensor<f32>, tensor<f32>, tensor<f32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @eye_like
// CHECK: "tosa.const"() <{values = dense<{{\[\[}}0.000000e+00, 1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00]]> : tensor<2x3xf32>}>
func.func @eye_like(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "EyeLike"(%x) {attrs = {k = 1 : i64}, domain = "", node_name = "eye", opset = 9 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
