// Integer elementwise ops: valid TOSA for the integer profile.
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Integer Div truncates toward zero, as tosa.intdiv does.
// CHECK-LABEL: func.func @div_i32
// CHECK: tosa.intdiv %arg0, %arg1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
func.func @div_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> !onnx.unknown {
  %0 = onnx.node "Div"(%a, %b) {attrs = {}, domain = "", node_name = "div", opset = 14 : i64} : (tensor<4xi32>, tensor<4xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// tosa.intdiv is 32-bit only: narrower integers divide in i32.
// CHECK-LABEL: func.func @div_i8
// CHECK: %[[A:.*]] = tosa.cast %arg0 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK: %[[B:.*]] = tosa.cast %arg1 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK: %[[Q:.*]] = tosa.intdiv %[[A]], %[[B]]
// CHECK: tosa.cast %[[Q]] : (tensor<4xi32>) -> tensor<4xi8>
func.func @div_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> !onnx.unknown {
  %0 = onnx.node "Div"(%a, %b) {attrs = {}, domain = "", node_name = "div", opset = 14 : i64} : (tensor<4xi8>, tensor<4xi8>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// TOSA defines CLAMP for 8/16-bit integers only: i32 Relu is a maximum.
// CHECK-LABEL: func.func @add_relu_i32
// CHECK: %[[S:.*]] = tosa.add %arg0, %arg1
// CHECK: %[[Z:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK: tosa.maximum %[[S]], %[[Z]]
func.func @add_relu_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> !onnx.unknown {
  %0 = onnx.node "Add"(%a, %b) {attrs = {}, domain = "", node_name = "add", opset = 14 : i64} : (tensor<4xi32>, tensor<4xi32>) -> !onnx.unknown
  %1 = onnx.node "Relu"(%0) {attrs = {}, domain = "", node_name = "relu", opset = 14 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %1 : !onnx.unknown
}

// Float -> int truncates toward zero in ONNX; TOSA CAST rounds to nearest,
// so the value is truncated with floor/ceil first.
// CHECK-LABEL: func.func @relu_i8
// CHECK: tosa.clamp %arg0 {max_val = 127 : i8, min_val = 0 : i8}
func.func @relu_i8(%a: tensor<4xi8>) -> !onnx.unknown {
  %0 = onnx.node "Relu"(%a) {attrs = {}, domain = "", node_name = "relu", opset = 14 : i64} : (tensor<4xi8>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @cast_f32_i32
// CHECK: %[[NONNEG:.*]] = tosa.greater_equal %arg0
// CHECK: %[[FL:.*]] = tosa.floor %arg0
// CHECK: %[[CE:.*]] = tosa.ceil %arg0
// CHECK: %[[T:.*]] = tosa.select %[[NONNEG]], %[[FL]], %[[CE]]
// CHECK: tosa.cast %[[T]] : (tensor<3xf32>) -> tensor<3xi32>
func.func @cast_f32_i32(%a: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Cast"(%a) {attrs = {to = 6 : i64}, domain = "", node_name = "c", opset = 13 : i64} : (tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @bitwise
// CHECK: %[[A:.*]] = tosa.bitwise_and %arg0, %arg1
// CHECK: %[[O:.*]] = tosa.bitwise_or %[[A]], %arg1
// CHECK: %[[X:.*]] = tosa.bitwise_xor %[[O]], %arg0
// CHECK: tosa.bitwise_not %[[X]]
func.func @bitwise(%a: tensor<3xi32>, %b: tensor<3xi32>) -> !onnx.unknown {
  %0 = onnx.node "BitwiseAnd"(%a, %b) {attrs = {}, domain = "", node_name = "a", opset = 18 : i64} : (tensor<3xi32>, tensor<3xi32>) -> !onnx.unknown
  %1 = onnx.node "BitwiseOr"(%0, %b) {attrs = {}, domain = "", node_name = "o", opset = 18 : i64} : (!onnx.unknown, tensor<3xi32>) -> !onnx.unknown
  %2 = onnx.node "BitwiseXor"(%1, %a) {attrs = {}, domain = "", node_name = "x", opset = 18 : i64} : (!onnx.unknown, tensor<3xi32>) -> !onnx.unknown
  %3 = onnx.node "BitwiseNot"(%2) {attrs = {}, domain = "", node_name = "n", opset = 18 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %3 : !onnx.unknown
}
