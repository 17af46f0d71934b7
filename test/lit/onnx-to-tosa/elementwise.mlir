// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Numpy broadcasting: the lower-rank operand gains leading 1s.
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: -> tensor<2x3xf32>
// CHECK: %[[S:.*]] = tosa.const_shape {{.*}}dense<[1, 3]>
// CHECK: %[[B:.*]] = tosa.reshape %arg1, %[[S]] : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK: tosa.add %arg0, %[[B]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Add"(%a, %b) {attrs = {}, domain = "", node_name = "add", opset = 14 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// tosa.mul carries a zero shift operand.
// CHECK-LABEL: func.func @sub_mul
// CHECK: %[[D:.*]] = tosa.sub %arg0, %arg1 : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK: %[[SH:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi8>}>
// CHECK: tosa.mul %[[D]], %arg0, %[[SH]]
func.func @sub_mul(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>) -> !onnx.unknown {
  %0 = onnx.node "Sub"(%a, %b) {attrs = {}, domain = "", node_name = "sub", opset = 14 : i64} : (tensor<2x3xf32>, tensor<2x1xf32>) -> !onnx.unknown
  %1 = onnx.node "Mul"(%0, %a) {attrs = {}, domain = "", node_name = "mul", opset = 14 : i64} : (!onnx.unknown, tensor<2x3xf32>) -> !onnx.unknown
  return %1 : !onnx.unknown
}

// TOSA 1.0 has no float divide: a * reciprocal(b).
// CHECK-LABEL: func.func @div_float
// CHECK: %[[R:.*]] = tosa.reciprocal %arg1
// CHECK: tosa.mul %arg0, %[[R]]
func.func @div_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Div"(%a, %b) {attrs = {}, domain = "", node_name = "div", opset = 14 : i64} : (tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @unary
// CHECK: tosa.sigmoid %arg0
// CHECK: tosa.tanh %arg0
// CHECK: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK: tosa.negate %arg0, %[[ZP]], %[[ZP]]
// CHECK: tosa.erf %arg0
// CHECK: tosa.exp %arg0
// CHECK: tosa.log %arg0
// CHECK: tosa.abs %arg0
// CHECK: tosa.floor %arg0
// CHECK: tosa.ceil %arg0
// CHECK: tosa.reciprocal %arg0
// CHECK: tosa.sin %arg0
// CHECK: tosa.cos %arg0
func.func @unary(%a: tensor<4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Sigmoid"(%a) {attrs = {}, domain = "", node_name = "n0", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %1 = onnx.node "Tanh"(%a) {attrs = {}, domain = "", node_name = "n1", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %2 = onnx.node "Neg"(%a) {attrs = {}, domain = "", node_name = "n2", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %3 = onnx.node "Erf"(%a) {attrs = {}, domain = "", node_name = "n3", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %4 = onnx.node "Exp"(%a) {attrs = {}, domain = "", node_name = "n4", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %5 = onnx.node "Log"(%a) {attrs = {}, domain = "", node_name = "n5", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %6 = onnx.node "Abs"(%a) {attrs = {}, domain = "", node_name = "n6", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %7 = onnx.node "Floor"(%a) {attrs = {}, domain = "", node_name = "n7", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %8 = onnx.node "Ceil"(%a) {attrs = {}, domain = "", node_name = "n8", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %9 = onnx.node "Reciprocal"(%a) {attrs = {}, domain = "", node_name = "n9", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %10 = onnx.node "Sin"(%a) {attrs = {}, domain = "", node_name = "n10", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %11 = onnx.node "Cos"(%a) {attrs = {}, domain = "", node_name = "n11", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// sqrt(x) = reciprocal(rsqrt(x)) (exact at 0 and +inf).
// CHECK-LABEL: func.func @sqrt
// CHECK: %[[RS:.*]] = tosa.rsqrt %arg0
// CHECK: tosa.reciprocal %[[RS]]
func.func @sqrt(%a: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Sqrt"(%a) {attrs = {}, domain = "", node_name = "q", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Variadic Max folds left with broadcasting.
// CHECK-LABEL: func.func @max_variadic
// CHECK: %[[M0:.*]] = tosa.maximum %arg0, %{{.*}} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK: tosa.maximum %[[M0]], %{{.*}} : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
func.func @max_variadic(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<1xf32>) -> !onnx.unknown {
  %0 = onnx.node "Max"(%a, %b, %c) {attrs = {}, domain = "", node_name = "m", opset = 13 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<1xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @min_single
// CHECK-NEXT: return %arg0
func.func @min_single(%a: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Min"(%a) {attrs = {}, domain = "", node_name = "m", opset = 13 : i64} : (tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Mean is the sum scaled by 1/n (here sharing the Sum's add).
// CHECK-LABEL: func.func @sum_mean
// CHECK: %[[S:.*]] = tosa.add %arg0, %arg1
// CHECK: %[[H:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1xf32>}>
// CHECK: %[[M:.*]] = tosa.mul %[[S]], %[[H]]
// CHECK: return %[[S]], %[[M]]
func.func @sum_mean(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Sum"(%a, %b) {attrs = {}, domain = "", node_name = "s", opset = 13 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  %1 = onnx.node "Mean"(%a, %b) {attrs = {}, domain = "", node_name = "m", opset = 13 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Less / LessOrEqual are Greater / GreaterEqual with swapped operands.
// CHECK-LABEL: func.func @compare
// CHECK-SAME: -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>)
// CHECK: tosa.greater %arg1, %arg0
// CHECK: tosa.greater_equal %arg1, %arg0
// CHECK: tosa.greater %arg0, %arg1
// CHECK: tosa.greater_equal %arg0, %arg1
// CHECK: tosa.equal %arg0, %arg1
func.func @compare(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Less"(%a, %b) {attrs = {}, domain = "", node_name = "l", opset = 13 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  %1 = onnx.node "LessOrEqual"(%a, %b) {attrs = {}, domain = "", node_name = "le", opset = 16 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  %2 = onnx.node "Greater"(%a, %b) {attrs = {}, domain = "", node_name = "g", opset = 13 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  %3 = onnx.node "GreaterOrEqual"(%a, %b) {attrs = {}, domain = "", node_name = "ge", opset = 16 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  %4 = onnx.node "Equal"(%a, %b) {attrs = {}, domain = "", node_name = "e", opset = 13 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  return %0, %1, %2, %3, %4 : !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// CHECK-LABEL: func.func @logic
// CHECK: %[[N:.*]] = tosa.logical_not %arg0
// CHECK: %[[A:.*]] = tosa.logical_and %[[N]], %arg1
// CHECK: %[[O:.*]] = tosa.logical_or %[[A]], %arg1
// CHECK: tosa.logical_xor %[[O]], %arg0
func.func @logic(%a: tensor<3xi1>, %b: tensor<3xi1>) -> !onnx.unknown {
  %0 = onnx.node "Not"(%a) {attrs = {}, domain = "", node_name = "n", opset = 13 : i64} : (tensor<3xi1>) -> !onnx.unknown
  %1 = onnx.node "And"(%0, %b) {attrs = {}, domain = "", node_name = "a", opset = 13 : i64} : (!onnx.unknown, tensor<3xi1>) -> !onnx.unknown
  %2 = onnx.node "Or"(%1, %b) {attrs = {}, domain = "", node_name = "o", opset = 13 : i64} : (!onnx.unknown, tensor<3xi1>) -> !onnx.unknown
  %3 = onnx.node "Xor"(%2, %a) {attrs = {}, domain = "", node_name = "x", opset = 13 : i64} : (!onnx.unknown, tensor<3xi1>) -> !onnx.unknown
  return %3 : !onnx.unknown
}

// Three-way broadcasting.
// CHECK-LABEL: func.func @where
// CHECK: %[[C:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x3xi1>
// CHECK: %[[Y:.*]] = tosa.reshape %arg2, %{{.*}} -> tensor<1x1xf32>
// CHECK: tosa.select %[[C]], %arg1, %[[Y]] : (tensor<1x3xi1>, tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
func.func @where(%c: tensor<3xi1>, %a: tensor<2x3xf32>, %b: tensor<1xf32>) -> !onnx.unknown {
  %0 = onnx.node "Where"(%c, %a, %b) {attrs = {}, domain = "", node_name = "w", opset = 16 : i64} : (tensor<3xi1>, tensor<2x3xf32>, tensor<1xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// A constant exponent of 2 is a multiplication (TOSA POW is undefined for
// negative bases).
// CHECK-LABEL: func.func @pow_square
// CHECK-NOT: tosa.pow
// CHECK: tosa.mul %arg0, %arg0
func.func @pow_square(%a: tensor<3xf32>) -> !onnx.unknown {
  %e = onnx.constant "e" dense<2.0> : tensor<f32> : tensor<f32>
  %0 = onnx.node "Pow"(%a, %e) {attrs = {}, domain = "", node_name = "p", opset = 15 : i64} : (tensor<3xf32>, tensor<f32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @pow_general
// CHECK: %[[E:.*]] = "tosa.const"() <{values = dense<2.500000e+00> : tensor<1xf32>}>
// CHECK: tosa.pow %arg0, %[[E]]
func.func @pow_general(%a: tensor<3xf32>) -> !onnx.unknown {
  %e = onnx.constant "e" dense<2.5> : tensor<f32> : tensor<f32>
  %0 = onnx.node "Pow"(%a, %e) {attrs = {}, domain = "", node_name = "p", opset = 15 : i64} : (tensor<3xf32>, tensor<f32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Float -> float casts round to nearest even in both ONNX and TOSA.
// CHECK-LABEL: func.func @cast_f16
// CHECK: tosa.cast %arg0 : (tensor<3xf32>) -> tensor<3xf16>
func.func @cast_f16(%a: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Cast"(%a) {attrs = {to = 10 : i64}, domain = "", node_name = "c", opset = 13 : i64} : (tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// TOSA has no bool <-> float CAST.
// CHECK-LABEL: func.func @cast_bool
// CHECK: %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1xf32>}>
// CHECK: %[[ZERO:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK: %[[F:.*]] = tosa.select %arg1, %[[ONE]], %[[ZERO]] : (tensor<3xi1>, tensor<1xf32>, tensor<1xf32>) -> tensor<3xf32>
// CHECK: %[[EQ:.*]] = tosa.equal %arg0
// CHECK: %[[B:.*]] = tosa.logical_not %[[EQ]]
// CHECK: return %[[F]], %[[B]]
func.func @cast_bool(%a: tensor<3xf32>, %b: tensor<3xi1>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Cast"(%b) {attrs = {to = 1 : i64}, domain = "", node_name = "c0", opset = 13 : i64} : (tensor<3xi1>) -> !onnx.unknown
  %1 = onnx.node "Cast"(%a) {attrs = {to = 9 : i64}, domain = "", node_name = "c1", opset = 13 : i64} : (tensor<3xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Casting constants (here int64) happens at compile time.
// CHECK-LABEL: func.func @cast_const
// CHECK-NEXT: %[[C:.*]] = "tosa.const"() <{values = dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>}>
// CHECK-NEXT: return %[[C]]
func.func @cast_const() -> !onnx.unknown {
  %c = onnx.constant "c" dense<[1, -2]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Cast"(%c) {attrs = {to = 1 : i64}, domain = "", node_name = "c", opset = 13 : i64} : (tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @isnan_isinf_sign
// CHECK: %[[EQ:.*]] = tosa.equal %arg0, %arg0
// CHECK: tosa.logical_not %[[EQ]]
// CHECK: "tosa.const"() <{values = dense<0x7F800000> : tensor<1xf32>}>
// CHECK: "tosa.const"() <{values = dense<0xFF800000> : tensor<1xf32>}>
// CHECK: tosa.logical_or
// CHECK: tosa.select
// CHECK: tosa.select
func.func @isnan_isinf_sign(%a: tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "IsNaN"(%a) {attrs = {}, domain = "", node_name = "n", opset = 13 : i64} : (tensor<3xf32>) -> !onnx.unknown
  %1 = onnx.node "IsInf"(%a) {attrs = {}, domain = "", node_name = "i", opset = 13 : i64} : (tensor<3xf32>) -> !onnx.unknown
  %2 = onnx.node "Sign"(%a) {attrs = {}, domain = "", node_name = "s", opset = 13 : i64} : (tensor<3xf32>) -> !onnx.unknown
  return %0, %1, %2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// Round: ties to even, from floor and comparisons.
// CHECK-LABEL: func.func @round
// CHECK: %[[R:.*]] = tosa.floor %arg0
// CHECK: %[[D:.*]] = tosa.sub %arg0, %[[R]]
// CHECK: tosa.logical_and
// CHECK: %[[UP:.*]] = tosa.logical_or
// CHECK: %[[R1:.*]] = tosa.add %[[R]]
// CHECK: tosa.select %[[UP]], %[[R1]], %[[R]]
func.func @round(%a: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Round"(%a) {attrs = {}, domain = "", node_name = "r", opset = 13 : i64} : (tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CastLike casts to the second input's element type.
// CHECK-LABEL: func.func @cast_like
// CHECK: tosa.cast %arg0 : (tensor<3xf32>) -> tensor<3xf16>
func.func @cast_like(%a: tensor<3xf32>, %like: tensor<1xf16>) -> !onnx.unknown {
  %0 = onnx.node "CastLike"(%a, %like) {attrs = {}, domain = "", node_name = "c", opset = 15 : i64} : (tensor<3xf32>, tensor<1xf16>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// A constant odd exponent other than 1 and 3: |x|^5 with the sign restored
// where x < 0 (TOSA POW is undefined for negative bases).
// CHECK-LABEL: func.func @pow_odd_constant
// CHECK: %[[ABS:.*]] = tosa.abs %arg0
// CHECK: %[[P:.*]] = tosa.pow %[[ABS]]
// CHECK: tosa.select %{{.*}}, %{{.*}}, %[[P]]
func.func @pow_odd_constant(%a: tensor<3xf32>) -> !onnx.unknown {
  %e = onnx.constant "e" dense<5.0> : tensor<f32> : tensor<f32>
  %0 = onnx.node "Pow"(%a, %e) {attrs = {}, domain = "", node_name = "p", opset = 15 : i64} : (tensor<3xf32>, tensor<f32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// A run-time float exponent: |x|^y, negated where x < 0 and y is an odd
// integer, NaN where x < 0 and y is fractional.
// CHECK-LABEL: func.func @pow_float_runtime
// CHECK: %[[ABS:.*]] = tosa.abs %arg0
// CHECK: %[[P:.*]] = tosa.pow %[[ABS]], %arg1
// CHECK: %[[SIGNED:.*]] = tosa.select %{{.*}}, %{{.*}}, %[[P]]
// CHECK: %[[NAN:.*]] = "tosa.const"() <{values = dense<0x7FC00000> : tensor<1xf32>}>
// CHECK: tosa.select %{{.*}}, %[[NAN]], %[[SIGNED]]
func.func @pow_float_runtime(%a: tensor<3xf32>, %e: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Pow"(%a, %e) {attrs = {}, domain = "", node_name = "p", opset = 15 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Pow before opset 7 broadcasts as Add does then.
// CHECK-LABEL: func.func @legacy_pow
// CHECK: %[[B:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x3x1x1xf32>
// CHECK: tosa.pow %{{.*}}, %[[B]]
func.func @legacy_pow(%a: tensor<2x3x4x5xf32>, %b: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Pow"(%a, %b) {attrs = {broadcast = 1 : i64, axis = 1 : i64}, domain = "", node_name = "p", opset = 6 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Before opset 7, B broadcasts (with broadcast = 1) from A's `axis` on.
// CHECK-LABEL: func.func @legacy_broadcast
// CHECK: %[[B:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x3x1x1xf32>
// CHECK: tosa.add %arg0, %[[B]]
func.func @legacy_broadcast(%a: tensor<2x3x4x5xf32>, %b: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Add"(%a, %b) {attrs = {broadcast = 1 : i64, axis = 1 : i64}, domain = "", node_name = "add", opset = 6 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Mod with fmod = 1 on floats: C's fmod exactly. |a| is reduced by |b| * 2^i
// for i from the largest that fits down to 0 (280 exact subtractions for
// f32), then a's sign; NaN where b is 0 or a infinite, a where b is
// infinite.
// CHECK-LABEL: func.func @fmod
// CHECK-COUNT-280: tosa.sub
// CHECK: %[[R:.*]] = tosa.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[INF:.*]] = "tosa.const"() <{values = dense<0x7F800000>
// CHECK: tosa.select %{{.*}}, %arg0, %{{.*}}
// CHECK: %[[NAN:.*]] = "tosa.const"() <{values = dense<0x7FC00000>
// CHECK: tosa.select %{{.*}}, %[[NAN]], %{{.*}}
func.func @fmod(%a: tensor<4xf32>, %b: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Mod"(%a, %b) {attrs = {fmod = 1 : i64}, domain = "", node_name = "mod", opset = 13 : i64} : (tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Mod with fmod = 0 on floats is numpy.mod (floored): the exact fmod, then
// b added where its sign differs from b's (numpy rounds that sum the same
// way).
// CHECK-LABEL: func.func @floored_mod_float
// CHECK-COUNT-280: tosa.sub
// CHECK: tosa.logical_xor
// CHECK: %[[SHIFT:.*]] = tosa.add %[[R:.*]], %arg1
// CHECK: tosa.select %{{.*}}, %[[SHIFT]], %[[R]]
func.func @floored_mod_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Mod"(%a, %b) {attrs = {}, domain = "", node_name = "mod", opset = 13 : i64} : (tensor<4xf32>, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
