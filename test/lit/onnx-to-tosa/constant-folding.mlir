// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// A node whose inputs are all constants is evaluated at compile time: the
// negated int64 axis (as LayerNormalization's expansion computes it) is a
// constant that ConstantOfShape can read.
// CHECK-LABEL: func.func @neg_feeds_constant_of_shape
// CHECK-NOT: tosa.negate
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x2xf32>}>
// CHECK: tosa.add %arg0, %[[C]]
func.func @neg_feeds_constant_of_shape(%x: tensor<3x1xf32>) -> !onnx.unknown {
  %a = onnx.constant "a" dense<[-2]> : tensor<1xi64> : tensor<1xi64>
  %n = onnx.node "Neg"(%a) {attrs = {}, domain = "", node_name = "neg", opset = 13 : i64} : (tensor<1xi64>) -> !onnx.unknown
  %c = onnx.node "ConstantOfShape"(%n) {attrs = {value = dense<1.0> : tensor<1xf32>}, domain = "", node_name = "cos", opset = 9 : i64} : (!onnx.unknown) -> !onnx.unknown
  %0 = onnx.node "Add"(%x, %c) {attrs = {}, domain = "", node_name = "add", opset = 13 : i64} : (tensor<3x1xf32>, !onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// int64 stays exact: values beyond the i32 range are not demoted.
// CHECK-LABEL: func.func @int64_exact
// CHECK: %[[C:.*]] = arith.constant dense<[-5000000000, 6000000000]> : tensor<2xi64>
// CHECK: return %[[C]]
func.func @int64_exact() -> tensor<2xi64> {
  %a = onnx.constant "a" dense<[2500000000, -3000000000]> : tensor<2xi64> : tensor<2xi64>
  %b = onnx.constant "b" dense<[-2]> : tensor<1xi64> : tensor<1xi64>
  %0 = onnx.node "Mul"(%a, %b) {attrs = {}, domain = "", node_name = "mul", opset = 14 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// Float nodes of constants fold too (Sqrt is reciprocal(rsqrt(x)) in TOSA).
// CHECK-LABEL: func.func @float_sqrt
// CHECK-NOT: tosa.rsqrt
// CHECK: "tosa.const"() <{values = dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>}>
func.func @float_sqrt(%x: tensor<2xf32>) -> !onnx.unknown {
  %a = onnx.constant "a" dense<[4.0, 9.0]> : tensor<2xf32> : tensor<2xf32>
  %s = onnx.node "Sqrt"(%a) {attrs = {}, domain = "", node_name = "sqrt", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
  %0 = onnx.node "Mul"(%x, %s) {attrs = {}, domain = "", node_name = "mul", opset = 14 : i64} : (tensor<2xf32>, !onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// What the specification leaves unpredictable (an integer division by zero)
// is not folded: it stays for run time.
// CHECK-LABEL: func.func @division_by_zero_not_folded
// CHECK: tosa.intdiv
func.func @division_by_zero_not_folded() -> !onnx.unknown {
  %a = onnx.constant "a" dense<[7, 8]> : tensor<2xi32> : tensor<2xi32>
  %b = onnx.constant "b" dense<[1, 0]> : tensor<2xi32> : tensor<2xi32>
  %0 = onnx.node "Div"(%a, %b) {attrs = {}, domain = "", node_name = "div", opset = 14 : i64} : (tensor<2xi32>, tensor<2xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Run-time inputs are computed at run time.
// CHECK-LABEL: func.func @run_time_input
// CHECK: tosa.negate %arg0
func.func @run_time_input(%x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "Neg"(%x) {attrs = {}, domain = "", node_name = "neg", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// An empty slice of a shape (LayerNormalization with axis 0) is an empty
// constant, which Concat drops.
// CHECK-LABEL: func.func @empty_slice_into_concat
// CHECK: %[[S:.*]] = tosa.const_shape {values = dense<1> : tensor<2xindex>}
// CHECK: tosa.reshape %arg0, %[[S]]
func.func @empty_slice_into_concat(%x: tensor<1xf32>) -> !onnx.unknown {
  %shape = onnx.constant "shape" dense<[3, 4]> : tensor<2xi64> : tensor<2xi64>
  %zero = onnx.constant "zero" dense<[0]> : tensor<1xi64> : tensor<1xi64>
  %two = onnx.constant "two" dense<[2]> : tensor<1xi64> : tensor<1xi64>
  %prefix = onnx.node "Slice"(%shape, %zero, %zero) {attrs = {}, domain = "", node_name = "sl", opset = 13 : i64} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> !onnx.unknown
  %ones = onnx.node "ConstantOfShape"(%two) {attrs = {value = dense<1> : tensor<1xi64>}, domain = "", node_name = "cos", opset = 9 : i64} : (tensor<1xi64>) -> !onnx.unknown
  %s = onnx.node "Concat"(%prefix, %ones) {attrs = {axis = 0 : i64}, domain = "", node_name = "cat", opset = 13 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
  %0 = onnx.node "Reshape"(%x, %s) {attrs = {}, domain = "", node_name = "rs", opset = 14 : i64} : (tensor<1xf32>, !onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Empty outputs of run-time data (a Split part of size 0) are empty too, and
// an empty graph output is returned as a constant of no elements.
// CHECK-LABEL: func.func @empty_split_output
// CHECK-SAME: -> (tensor<2x0xf32>, tensor<2x3xf32>)
// CHECK: %[[E:.*]] = arith.constant dense<> : tensor<2x0xf32>
// CHECK: return %[[E]], %arg0
func.func @empty_split_output(%x: tensor<2x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %sp = onnx.constant "sp" dense<[0, 3]> : tensor<2xi64> : tensor<2xi64>
  %0:2 = onnx.node "Split"(%x, %sp) {attrs = {axis = 1 : i64}, domain = "", node_name = "s", opset = 13 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// Elementwise ops of an empty tensor are empty (Cast here).
// CHECK-LABEL: func.func @empty_cast
// CHECK-NOT: tosa.cast
// CHECK: arith.constant dense<> : tensor<0x4xf16>
func.func @empty_cast(%x: tensor<3x4xf32>) -> !onnx.unknown {
  %st = onnx.constant "st" dense<[2]> : tensor<1xi64> : tensor<1xi64>
  %en = onnx.constant "en" dense<[1]> : tensor<1xi64> : tensor<1xi64>
  %e = onnx.node "Slice"(%x, %st, %en) {attrs = {}, domain = "", node_name = "sl", opset = 13 : i64} : (tensor<3x4xf32>, tensor<1xi64>, tensor<1xi64>) -> !onnx.unknown
  %0 = onnx.node "Cast"(%e) {attrs = {to = 10 : i64}, domain = "", node_name = "c", opset = 13 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}
