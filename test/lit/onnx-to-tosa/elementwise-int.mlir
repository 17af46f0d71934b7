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

// Integer base, integer exponent: exact power by squaring (one mul and
// select per exponent bit, 31 for a run-time exponent), and for a negative
// exponent the truncated reciprocal (1, +-1 or 0).
// CHECK-LABEL: func.func @pow_int_int
// CHECK-COUNT-31: tosa.bitwise_and %arg1
// CHECK: %[[NEG:.*]] = tosa.greater %{{.*}}, %arg1
// CHECK: tosa.select %[[NEG]]
// CHECK-NOT: tosa.pow
func.func @pow_int_int(%a: tensor<3xi32>, %b: tensor<3xi32>) -> !onnx.unknown {
  %0 = onnx.node "Pow"(%a, %b) {attrs = {}, domain = "", node_name = "p", opset = 15 : i64} : (tensor<3xi32>, tensor<3xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// A constant exponent needs only its bits: x^5 squares twice.
// CHECK-LABEL: func.func @pow_int_constant
// CHECK-COUNT-3: tosa.select
// CHECK-NOT: tosa.pow
func.func @pow_int_constant(%a: tensor<3xi32>) -> !onnx.unknown {
  %e = onnx.constant "e" dense<5> : tensor<i64> : tensor<i64>
  %0 = onnx.node "Pow"(%a, %e) {attrs = {}, domain = "", node_name = "p", opset = 15 : i64} : (tensor<3xi32>, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Integer base, float exponent: the exact integer power where the exponent
// is integral, else the f32 power truncated toward zero; the result has
// the base's type.
// CHECK-LABEL: func.func @pow_int_float
// CHECK: %[[WHOLE:.*]] = tosa.clamp
// CHECK: %[[F:.*]] = tosa.pow
// CHECK: %[[T:.*]] = tosa.cast %{{.*}} : (tensor<3xf32>) -> tensor<3xi32>
// CHECK: %[[INTEGRAL:.*]] = tosa.equal %[[WHOLE]], %arg1
// CHECK: tosa.select %[[INTEGRAL]], %{{.*}}, %[[T]] : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
func.func @pow_int_float(%a: tensor<3xi32>, %b: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Pow"(%a, %b) {attrs = {}, domain = "", node_name = "p", opset = 15 : i64} : (tensor<3xi32>, tensor<3xf32>) -> !onnx.unknown
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

// Signed BitShift (opset 28): an arithmetic right shift; a negative or too
// large amount gives the sign fill, as a shift by width - 1 does.
// CHECK-LABEL: func.func @bitshift_right_i8
// CHECK: %[[NEG:.*]] = tosa.greater %{{.*}}, %{{.*}} : (tensor<1xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK: %[[SEVEN:.*]] = "tosa.const"() <{values = dense<7> : tensor<1xi8>}>
// CHECK: %[[MIN:.*]] = tosa.minimum
// CHECK: %[[CAPPED:.*]] = tosa.cast %[[MIN]] : (tensor<3xi32>) -> tensor<3xi8>
// CHECK: %[[AMOUNT:.*]] = tosa.select %[[NEG]], %[[SEVEN]], %[[CAPPED]]
// CHECK: tosa.arithmetic_right_shift %arg0, %[[AMOUNT]] {round = false} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
func.func @bitshift_right_i8(%x: tensor<3xi8>, %y: tensor<3xi8>) -> tensor<3xi8> {
  %0 = onnx.node "BitShift"(%x, %y) {attrs = {direction = "RIGHT"}, domain = "", node_name = "shr", opset = 28 : i64} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// int64 data is its low 32 bits: a left shift by 32..63 (or out of range)
// gives 0.
// CHECK-LABEL: func.func @bitshift_left_i64
// CHECK: %[[WIDTH:.*]] = "tosa.const"() <{values = dense<32> : tensor<1xi32>}>
// CHECK: %[[BELOW:.*]] = tosa.greater %[[WIDTH]], %{{.*}}
// CHECK: %[[IN:.*]] = tosa.logical_and %{{.*}}, %[[BELOW]]
// CHECK: %[[S:.*]] = tosa.logical_left_shift %{{.*}} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
// CHECK: %[[R:.*]] = tosa.select %[[IN]], %[[S]], %{{.*}}
// CHECK: arith.extsi %[[R]] : tensor<3xi32> to tensor<3xi64>
func.func @bitshift_left_i64(%x: tensor<3xi64>, %y: tensor<3xi64>) -> tensor<3xi64> {
  %0 = onnx.node "BitShift"(%x, %y) {attrs = {direction = "LEFT"}, domain = "", node_name = "shl", opset = 28 : i64} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// BitCast between integers of one width: int8 -> uint8 sign-extends to i32
// and keeps the low 8 bits (the pass's wrap); uint16 -> int16 truncates.
// CHECK-LABEL: func.func @bitcast_i8_to_u8
// CHECK: %[[W:.*]] = tosa.cast %arg0 : (tensor<4xi8>) -> tensor<4xi32>
// CHECK: %[[M:.*]] = tosa.bitwise_and %[[W]]
// CHECK: arith.trunci %[[M]] : tensor<4xi32> to tensor<4xi8>
func.func @bitcast_i8_to_u8(%x: tensor<4xi8>) -> tensor<4xui8> {
  %0 = onnx.node "BitCast"(%x) {attrs = {to = 2 : i64}, domain = "", node_name = "bc", opset = 26 : i64} : (tensor<4xi8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// CHECK-LABEL: func.func @bitcast_u16_to_i16
// CHECK: %[[W:.*]] = arith.extui %arg0 : tensor<3xi16> to tensor<3xi32>
// CHECK: tosa.cast %[[W]] : (tensor<3xi32>) -> tensor<3xi16>
func.func @bitcast_u16_to_i16(%x: tensor<3xui16>) -> tensor<3xi16> {
  %0 = onnx.node "BitCast"(%x) {attrs = {to = 5 : i64}, domain = "", node_name = "bc", opset = 26 : i64} : (tensor<3xui16>) -> tensor<3xi16>
  return %0 : tensor<3xi16>
}

// A Cast to uint8 whose output type is not declared: Cast tells the pass the
// type, which wraps the i32 result to 8 bits.
// CHECK-LABEL: func.func @cast_to_uint8_undeclared
// CHECK: %[[C:.*]] = tosa.cast %{{.*}} : (tensor<2xf32>) -> tensor<2xi32>
// CHECK: %[[W:.*]] = tosa.bitwise_and %[[C]], %{{.*}} : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK: arith.trunci %[[W]] : tensor<2xi32> to tensor<2xi8>
func.func @cast_to_uint8_undeclared(%x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "Cast"(%x) {attrs = {to = 2 : i64}, domain = "", node_name = "to_u8", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
