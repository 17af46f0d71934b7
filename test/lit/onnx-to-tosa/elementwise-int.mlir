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

// TOSA's profiles define integer add/sub/mul/max/min and comparisons on i32
// only: narrower integers are computed in i32 and wrapped back.
// CHECK-LABEL: func.func @add_i8
// CHECK: %[[A:.*]] = tosa.cast %arg0 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK: %[[B:.*]] = tosa.cast %arg1 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK: %[[S:.*]] = tosa.add %[[A]], %[[B]] : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: %[[R:.*]] = tosa.cast %[[S]] : (tensor<4xi32>) -> tensor<4xi8>
// CHECK: tosa.greater %[[B]], %[[A]]
func.func @add_i8(%a: tensor<4xi8>, %b: tensor<4xi8>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Add"(%a, %b) {attrs = {}, domain = "", node_name = "add", opset = 14 : i64} : (tensor<4xi8>, tensor<4xi8>) -> !onnx.unknown
  %1 = onnx.node "Less"(%a, %b) {attrs = {}, domain = "", node_name = "less", opset = 13 : i64} : (tensor<4xi8>, tensor<4xi8>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Booleans compare as i32 too.
// CHECK-LABEL: func.func @equal_bool
// CHECK: %[[A:.*]] = tosa.cast %arg0 : (tensor<3xi1>) -> tensor<3xi32>
// CHECK: %[[B:.*]] = tosa.cast %arg1 : (tensor<3xi1>) -> tensor<3xi32>
// CHECK: tosa.equal %[[A]], %[[B]]
func.func @equal_bool(%a: tensor<3xi1>, %b: tensor<3xi1>) -> !onnx.unknown {
  %0 = onnx.node "Equal"(%a, %b) {attrs = {}, domain = "", node_name = "eq", opset = 13 : i64} : (tensor<3xi1>, tensor<3xi1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// An integer exponent: |x|^y, negated where x < 0 and y is odd.
// CHECK-LABEL: func.func @pow_int_exponent
// CHECK: %[[LOW:.*]] = tosa.bitwise_and %arg1
// CHECK: %[[EVEN:.*]] = tosa.equal %[[LOW]]
// CHECK: %[[ODD:.*]] = tosa.logical_not %[[EVEN]]
// CHECK: %[[Y:.*]] = tosa.cast %arg1 : (tensor<3xi32>) -> tensor<3xf32>
// CHECK: %[[ABS:.*]] = tosa.abs %arg0
// CHECK: %[[P:.*]] = tosa.pow %[[ABS]], %[[Y]]
// CHECK: %[[NEG:.*]] = tosa.greater %{{.*}}, %arg0
// CHECK: %[[FLIP:.*]] = tosa.logical_and %[[NEG]], %[[ODD]]
// CHECK: %[[MP:.*]] = tosa.negate %[[P]]
// CHECK: tosa.select %[[FLIP]], %[[MP]], %[[P]]
func.func @pow_int_exponent(%a: tensor<3xf32>, %b: tensor<3xi32>) -> !onnx.unknown {
  %0 = onnx.node "Pow"(%a, %b) {attrs = {}, domain = "", node_name = "p", opset = 15 : i64} : (tensor<3xf32>, tensor<3xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Integer Mod (fmod = 0) follows the divisor's sign: the truncated
// remainder, moved by b where its sign differs from b's.
// CHECK-LABEL: func.func @mod_i32
// CHECK: %[[Q:.*]] = tosa.intdiv %arg0, %arg1
// CHECK: %[[P:.*]] = tosa.mul %[[Q]], %arg1
// CHECK: %[[R:.*]] = tosa.sub %arg0, %[[P]]
// CHECK: tosa.logical_xor
// CHECK: %[[ADJ:.*]] = tosa.logical_and
// CHECK: %[[RB:.*]] = tosa.add %[[R]], %arg1
// CHECK: tosa.select %[[ADJ]], %[[RB]], %[[R]]
func.func @mod_i32(%a: tensor<4xi32>, %b: tensor<4xi32>) -> !onnx.unknown {
  %0 = onnx.node "Mod"(%a, %b) {attrs = {}, domain = "", node_name = "mod", opset = 13 : i64} : (tensor<4xi32>, tensor<4xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
