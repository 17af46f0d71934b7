// RUN: onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa | mlir-opt -split-input-file --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// tan = sin * reciprocal(cos) (TOSA 1.0 has no divide).
// CHECK-LABEL: func.func @tan
// CHECK: %[[S:.*]] = tosa.sin %arg0
// CHECK: %[[C:.*]] = tosa.cos %arg0
// CHECK: %[[R:.*]] = tosa.reciprocal %[[C]]
// CHECK: tosa.mul %[[S]], %[[R]]
func.func @tan(%x: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Tan"(%x) {attrs = {}, domain = "", node_name = "t", opset = 7 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// atan: |x| > 1 goes through 1/|x|, then t > tan(pi/8) through
// (t - 1)/(t + 1); the polynomial, then +pi/4, pi/2 - r, and the sign.
// CHECK-LABEL: func.func @atan
// CHECK: %[[A:.*]] = tosa.abs %arg0
// CHECK: %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1xf32>}>
// CHECK: %[[INV:.*]] = tosa.greater %[[A]], %[[ONE]]
// CHECK: %[[RA:.*]] = tosa.reciprocal %[[A]]
// CHECK: %[[T:.*]] = tosa.select %[[INV]], %[[RA]], %[[A]]
// CHECK: dense<0.414213568>
// CHECK: dense<-0.0645941645>
// CHECK: dense<0.785398185>
// CHECK: %[[HALFPI:.*]] = "tosa.const"() <{values = dense<1.57079637> : tensor<1xf32>}>
// CHECK: tosa.sub %[[HALFPI]]
// CHECK: tosa.negate
// CHECK: tosa.select
// CHECK-NEXT: return
func.func @atan(%x: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Atan"(%x) {attrs = {}, domain = "", node_name = "t", opset = 7 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// asin(x) = atan(x * rsqrt((1 - |x|)(1 + |x|))), NaN for |x| > 1; f16 is
// computed in f32 and rounded once.
// CHECK-LABEL: func.func @asin_f16
// CHECK: %[[X:.*]] = tosa.cast %arg0 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[A:.*]] = tosa.abs %[[X]]
// CHECK: %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1xf32>}>
// CHECK: %[[OM:.*]] = tosa.sub %[[ONE]], %[[A]]
// CHECK: %[[OP:.*]] = tosa.add %[[ONE]], %[[A]]
// CHECK: %[[P:.*]] = tosa.mul %[[OM]], %[[OP]]
// CHECK: %[[RS:.*]] = tosa.rsqrt %[[P]]
// CHECK: tosa.mul %[[X]], %[[RS]]
// CHECK: %[[OUT:.*]] = tosa.greater %[[A]], %[[ONE]]
// CHECK: %[[NAN:.*]] = "tosa.const"() <{values = dense<0x7FC00000> : tensor<1xf32>}>
// CHECK: %[[R:.*]] = tosa.select %[[OUT]], %[[NAN]]
// CHECK: tosa.cast %[[R]] : (tensor<4xf32>) -> tensor<4xf16>
func.func @asin_f16(%x: tensor<4xf16>) -> !onnx.unknown {
  %0 = onnx.node "Asin"(%x) {attrs = {}, domain = "", node_name = "t", opset = 7 : i64} : (tensor<4xf16>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// acos(x) = 2 atan(sqrt((1 - x) / (1 + x))), NaN for |x| > 1.
// CHECK-LABEL: func.func @acos
// CHECK: tosa.sub
// CHECK: tosa.add
// CHECK: tosa.reciprocal
// CHECK: tosa.rsqrt
// CHECK: tosa.add %[[HALF:[0-9]+]], %[[HALF]]
// CHECK: dense<0x7FC00000>
func.func @acos(%x: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Acos"(%x) {attrs = {}, domain = "", node_name = "t", opset = 7 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// cosh = h + 1/(4h) with h = (e^(|x|/2) / 2) e^(|x|/2): one exp, no
// overflow before cosh itself overflows.
// CHECK-LABEL: func.func @cosh
// CHECK: %[[A:.*]] = tosa.abs %arg0
// CHECK: %[[HALF:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1xf32>}>
// CHECK: %[[HA:.*]] = tosa.mul %[[A]], %[[HALF]]
// CHECK: %[[W:.*]] = tosa.exp %[[HA]]
// CHECK: %[[HW:.*]] = tosa.mul %[[W]], %[[HALF]]
// CHECK: %[[H:.*]] = tosa.mul %[[HW]], %[[W]]
// CHECK: %[[RH:.*]] = tosa.reciprocal %[[H]]
// CHECK: %[[Q:.*]] = tosa.mul %{{.*}}, %[[RH]]
// CHECK: tosa.add %[[H]], %[[Q]]
func.func @cosh(%x: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Cosh"(%x) {attrs = {}, domain = "", node_name = "t", opset = 9 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// sinh: the odd series below |x| = 1, h - 1/(4h) above.
// CHECK-LABEL: func.func @sinh
// CHECK: tosa.exp
// CHECK: %[[BIG:.*]] = tosa.sub
// CHECK: %[[NEG:.*]] = tosa.negate %[[BIG]]
// CHECK: %[[SIGNED:.*]] = tosa.select %{{.*}}, %[[NEG]], %[[BIG]]
// CHECK: dense<2.8062791E-6>
// CHECK: %[[SMALL:.*]] = tosa.add %arg0
// CHECK: %[[NEAR0:.*]] = tosa.greater
// CHECK: %[[R:.*]] = tosa.select %[[NEAR0]], %[[SMALL]], %[[SIGNED]]
// CHECK-NEXT: return %[[R]]
func.func @sinh(%x: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Sinh"(%x) {attrs = {}, domain = "", node_name = "t", opset = 9 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// asinh, acosh and atanh: a series near their zero, logs elsewhere, and
// log|x| + ln 2 for large |x| (asinh, acosh).
// CHECK-LABEL: func.func @inverse_hyperbolic
// CHECK: tosa.log
// CHECK: dense<0.693147182>
// CHECK: tosa.log
// CHECK: dense<0x7FC00000>
// CHECK: tosa.log
// CHECK: return
func.func @inverse_hyperbolic(%x: tensor<4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Asinh"(%x) {attrs = {}, domain = "", node_name = "a", opset = 9 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %1 = onnx.node "Acosh"(%x) {attrs = {}, domain = "", node_name = "b", opset = 9 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %2 = onnx.node "Atanh"(%x) {attrs = {}, domain = "", node_name = "c", opset = 9 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0, %1, %2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}
