// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Relu is a clamp to [0, +inf] (inf, not FLT_MAX, so that Relu(inf) = inf).
// CHECK-LABEL: func.func @relu
// CHECK: tosa.clamp %arg0 {max_val = 0x7F800000 : f32, min_val = 0.000000e+00 : f32}
func.func @relu(%a: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Relu"(%a) {attrs = {}, domain = "", node_name = "relu", opset = 14 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @leaky_relu
// CHECK: %[[Z:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}>
// CHECK: %[[GE:.*]] = tosa.greater_equal %arg0, %[[Z]]
// CHECK: %[[A:.*]] = "tosa.const"() <{values = dense<2.000000e-01> : tensor<1x1xf32>}>
// CHECK: %[[AX:.*]] = tosa.mul %arg0, %[[A]]
// CHECK: tosa.select %[[GE]], %arg0, %[[AX]]
func.func @leaky_relu(%a: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "LeakyRelu"(%a) {attrs = {alpha = 2.000000e-01 : f32}, domain = "", node_name = "lr", opset = 16 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// The slope broadcasts to the input (unidirectionally).
// CHECK-LABEL: func.func @prelu
// CHECK: %[[NEG:.*]] = tosa.greater %{{.*}}, %arg0
// CHECK: %[[S:.*]] = tosa.mul %arg0, %{{.*}} : (tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<1xi8>) -> tensor<2x3x4xf32>
// CHECK: tosa.select %[[NEG]], %[[S]], %arg0
func.func @prelu(%a: tensor<2x3x4xf32>, %s: tensor<3x1xf32>) -> !onnx.unknown {
  %0 = onnx.node "PRelu"(%a, %s) {attrs = {}, domain = "", node_name = "pr", opset = 16 : i64} : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Constant bounds (inputs from opset 11) fold into one clamp; an absent
// bound is unbounded.
// CHECK-LABEL: func.func @clip_const
// CHECK: tosa.clamp %arg0 {max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32}
// CHECK: tosa.clamp %arg0 {max_val = 6.000000e+00 : f32, min_val = 0xFF800000 : f32}
func.func @clip_const(%a: tensor<4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %none = onnx.none
  %lo = onnx.constant "lo" dense<0.0> : tensor<f32> : tensor<f32>
  %hi = onnx.constant "hi" dense<6.0> : tensor<f32> : tensor<f32>
  %0 = onnx.node "Clip"(%a, %lo, %hi) {attrs = {}, domain = "", node_name = "c0", opset = 13 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> !onnx.unknown
  %1 = onnx.node "Clip"(%a, %none, %hi) {attrs = {}, domain = "", node_name = "c1", opset = 13 : i64} : (tensor<4xf32>, none, tensor<f32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Before opset 11 the bounds are attributes.
// CHECK-LABEL: func.func @clip_attr
// CHECK: tosa.clamp %arg0 {max_val = 5.000000e-01 : f32, min_val = -5.000000e-01 : f32}
func.func @clip_attr(%a: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Clip"(%a) {attrs = {max = 5.000000e-01 : f32, min = -5.000000e-01 : f32}, domain = "", node_name = "c", opset = 6 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Run-time bounds: max then min, as the spec defines Clip.
// CHECK-LABEL: func.func @clip_runtime
// CHECK: %[[LO:.*]] = tosa.reshape %arg1
// CHECK: %[[M:.*]] = tosa.maximum %arg0, %{{.*}}
// CHECK: tosa.minimum %[[M]], %{{.*}}
func.func @clip_runtime(%a: tensor<4xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> !onnx.unknown {
  %0 = onnx.node "Clip"(%a, %lo, %hi) {attrs = {}, domain = "", node_name = "c", opset = 13 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @elu
// CHECK: %[[E:.*]] = tosa.exp %arg0
// CHECK: %[[EM1:.*]] = tosa.sub %[[E]]
// CHECK: %[[GE:.*]] = tosa.greater_equal %arg0
// CHECK: %[[NEG:.*]] = tosa.mul
// CHECK: tosa.select %[[GE]], %arg0, %[[NEG]]
func.func @elu(%a: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Elu"(%a) {attrs = {alpha = 7.000000e-01 : f32}, domain = "", node_name = "e", opset = 6 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// HardSigmoid: clamp(alpha * x + beta, 0, 1).
// CHECK-LABEL: func.func @hard_sigmoid
// CHECK: tosa.mul
// CHECK: tosa.add
// CHECK: tosa.clamp %{{.*}} {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32}
func.func @hard_sigmoid(%a: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "HardSigmoid"(%a) {attrs = {}, domain = "", node_name = "h", opset = 6 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Softplus without overflow and with log1p's precision for very negative x:
// max(x, 0) + log1p(exp(-|x|)), log1p(u) = log(w) * u / (w - 1) with
// w = 1 + u (or u where w rounds to 1).
// CHECK-LABEL: func.func @softplus
// CHECK: %[[ABS:.*]] = tosa.abs %arg0
// CHECK: %[[NEG:.*]] = tosa.negate %[[ABS]]
// CHECK: %[[U:.*]] = tosa.exp %[[NEG]]
// CHECK: %[[W:.*]] = tosa.add %[[U]]
// CHECK: %[[D:.*]] = tosa.sub %[[W]]
// CHECK: %[[LOG:.*]] = tosa.log %[[W]]
// CHECK: %[[EXACT:.*]] = tosa.equal %[[D]]
// CHECK: %[[L1P:.*]] = tosa.select %[[EXACT]], %[[U]], %{{.*}}
// CHECK: %[[POS:.*]] = tosa.clamp %arg0
// CHECK: tosa.add %[[POS]], %[[L1P]]
func.func @softplus(%a: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Softplus"(%a) {attrs = {}, domain = "", node_name = "s", opset = 1 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @gelu
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<0.707106769> : tensor<1xf32>}>
// CHECK: %[[S:.*]] = tosa.mul %arg0, %[[C]]
// CHECK: tosa.erf %[[S]]
func.func @gelu(%a: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Gelu"(%a) {attrs = {}, domain = "", node_name = "g", opset = 20 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @others
// CHECK-NOT: onnx.node
func.func @others(%a: tensor<4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Selu"(%a) {attrs = {}, domain = "", node_name = "n0", opset = 6 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %1 = onnx.node "Celu"(%a) {attrs = {}, domain = "", node_name = "n1", opset = 12 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %2 = onnx.node "HardSwish"(%a) {attrs = {}, domain = "", node_name = "n2", opset = 14 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %3 = onnx.node "Softsign"(%a) {attrs = {}, domain = "", node_name = "n3", opset = 1 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %4 = onnx.node "Mish"(%a) {attrs = {}, domain = "", node_name = "n4", opset = 18 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %5 = onnx.node "ThresholdedRelu"(%a) {attrs = {}, domain = "", node_name = "n5", opset = 10 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0, %1, %2, %3, %4, %5 : !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// CHECK-LABEL: func.func @swish
// CHECK: %[[S:.*]] = tosa.sigmoid %arg0
// CHECK: tosa.mul %arg0, %[[S]]
func.func @swish(%a: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Swish"(%a) {attrs = {}, domain = "", node_name = "sw", opset = 24 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @shrink
// CHECK: %[[BELOW:.*]] = tosa.greater %{{.*}}, %arg0
// CHECK: %[[ABOVE:.*]] = tosa.greater %arg0
// CHECK: %[[UP:.*]] = tosa.select %[[ABOVE]]
// CHECK: tosa.select %[[BELOW]], %{{.*}}, %[[UP]]
func.func @shrink(%a: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Shrink"(%a) {attrs = {lambd = 1.500000e+00 : f32}, domain = "", node_name = "sh", opset = 9 : i64} : (tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Before opset 7 a 1-D slope of the channel count is one slope per channel
// (axis 1), not numpy-broadcast against the last axis.
// CHECK-LABEL: func.func @prelu_opset6_per_channel
// CHECK: %[[S:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x3x1xf32>
// CHECK: %[[NEG:.*]] = tosa.greater
// CHECK: %[[M:.*]] = tosa.mul %arg0, %[[S]]
// CHECK: tosa.select %[[NEG]], %[[M]], %arg0
func.func @prelu_opset6_per_channel(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "PRelu"(%x, %s) {attrs = {}, domain = "", node_name = "pr", opset = 6 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// SwiGLU: Swish_alpha(A) * B.
// CHECK-LABEL: func.func @swiglu
// CHECK: %[[ALPHA:.*]] = "tosa.const"() <{values = dense<1.702000e+00> : tensor<1x1xf32>}>
// CHECK: %[[AA:.*]] = tosa.mul %arg0, %[[ALPHA]]
// CHECK: %[[SIG:.*]] = tosa.sigmoid %[[AA]]
// CHECK: %[[SW:.*]] = tosa.mul %arg0, %[[SIG]]
// CHECK: %[[Y:.*]] = tosa.mul %[[SW]], %arg1
// CHECK: return %[[Y]]
func.func @swiglu(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "SwiGLU"(%a, %b) {attrs = {alpha = 1.702 : f32}, domain = "", node_name = "sg", opset = 28 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
