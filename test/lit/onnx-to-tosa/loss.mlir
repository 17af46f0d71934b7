// RUN: onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa | mlir-opt -split-input-file --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// The target's class is picked by a one-hot mask: the target, with a unit
// class axis, compared with the class indices; the masked input summed over
// the classes. reduction = none keeps the target's shape.
// CHECK-LABEL: func.func @nll_none
// CHECK: %[[T:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<2x1xi32>
// CHECK: %[[IOTA:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0, 1, 2]]> : tensor<1x3xi32>}>
// CHECK: %[[HOT:.*]] = tosa.equal %[[T]], %[[IOTA]] : (tensor<2x1xi32>, tensor<1x3xi32>) -> tensor<2x3xi1>
// CHECK: %[[SEL:.*]] = tosa.select %[[HOT]], %arg0
// CHECK: %[[PICK:.*]] = tosa.reduce_sum %[[SEL]] {axis = 1 : i32}
// CHECK: %[[NEG:.*]] = tosa.negate %[[PICK]]
// CHECK: %[[Y:.*]] = tosa.reshape %[[NEG]], %{{.*}} -> tensor<2xf32>
// CHECK: return %[[Y]] : tensor<2xf32>
func.func @nll_none(%x: tensor<2x3xf32>, %t: tensor<2xi32>) -> !onnx.unknown {
  %0 = onnx.node "NegativeLogLikelihoodLoss"(%x, %t) {attrs = {reduction = "none"}, domain = "", node_name = "nll", opset = 13 : i64} : (tensor<2x3xf32>, tensor<2xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Weighted mean with ignore_index: weight[target] is picked by the same mask,
// ignored positions get loss 0 and weight 0 (selects, so that an ignored
// -inf does not become NaN), and the sum of losses is divided by the sum of
// weights.
// CHECK-LABEL: func.func @nll_mean_weight_ii
// CHECK: %[[HOT:.*]] = tosa.equal %{{.*}} -> tensor<2x3x4xi1>
// CHECK: %[[PICK:.*]] = tosa.reduce_sum %{{.*}} {axis = 1 : i32}
// CHECK: %[[NEG:.*]] = tosa.negate %[[PICK]]
// CHECK: %[[CW:.*]] = tosa.reshape %arg2, %{{.*}} -> tensor<1x3x1xf32>
// CHECK: %[[WSEL:.*]] = tosa.select %[[HOT]], %[[CW]]
// CHECK: %[[W:.*]] = tosa.reduce_sum %[[WSEL]] {axis = 1 : i32}
// CHECK: %[[L:.*]] = tosa.mul %[[NEG]], %[[W]]
// CHECK: %[[II:.*]] = "tosa.const"() <{values = dense<-1> : tensor<1x1x1xi32>}>
// CHECK: %[[IGN:.*]] = tosa.equal %{{.*}}, %[[II]]
// CHECK: tosa.select %[[IGN]], %{{.*}}, %[[L]]
// CHECK: tosa.select %[[IGN]], %{{.*}}, %[[W]]
// CHECK: tosa.reciprocal
// CHECK: tosa.mul
// CHECK: tosa.reshape %{{.*}} -> tensor<f32>
func.func @nll_mean_weight_ii(%x: tensor<2x3x4xf32>, %t: tensor<2x4xi32>, %w: tensor<3xf32>) -> !onnx.unknown {
  %0 = onnx.node "NegativeLogLikelihoodLoss"(%x, %t, %w) {attrs = {ignore_index = -1 : i64}, domain = "", node_name = "nll", opset = 22 : i64} : (tensor<2x3x4xf32>, tensor<2x4xi32>, tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Unweighted mean: the sum times 1 / count.
// CHECK-LABEL: func.func @nll_mean
// CHECK: tosa.reduce_sum %{{.*}} {axis = 0 : i32}
// CHECK: tosa.reduce_sum %{{.*}} {axis = 1 : i32}
// CHECK: %[[N:.*]] = "tosa.const"() <{values = dense<2.500000e-01> : tensor<1x1xf32>}>
// CHECK: tosa.mul %{{.*}}, %[[N]]
// CHECK-NOT: tosa.reciprocal
func.func @nll_mean(%x: tensor<2x3x2xf32>, %t: tensor<2x2xi32>) -> !onnx.unknown {
  %0 = onnx.node "NegativeLogLikelihoodLoss"(%x, %t) {attrs = {}, domain = "", node_name = "nll", opset = 12 : i64} : (tensor<2x3x2xf32>, tensor<2x2xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// SoftmaxCrossEntropyLoss: the NLL loss of LogSoftmax over axis 1, which is
// the optional second output.
// CHECK-LABEL: func.func @sce_sum_log_prob
// CHECK: %[[MAX:.*]] = tosa.reduce_max %arg0 {axis = 1 : i32}
// CHECK: %[[D:.*]] = tosa.sub %arg0, %[[MAX]]
// CHECK: %[[E:.*]] = tosa.exp %[[D]]
// CHECK: %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 1 : i32}
// CHECK: %[[LS:.*]] = tosa.log %[[S]]
// CHECK: %[[LP:.*]] = tosa.sub %[[D]], %[[LS]]
// CHECK: tosa.select %{{.*}}, %[[LP]]
// CHECK: %[[SUM:.*]] = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<2xf32>) -> tensor<1xf32>
// CHECK: %[[Y:.*]] = tosa.reshape %[[SUM]], %{{.*}} -> tensor<f32>
// CHECK: return %[[Y]], %[[LP]] : tensor<f32>, tensor<2x3xf32>
func.func @sce_sum_log_prob(%x: tensor<2x3xf32>, %t: tensor<2xi32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "SoftmaxCrossEntropyLoss"(%x, %t) {attrs = {reduction = "sum"}, domain = "", node_name = "sce", opset = 13 : i64} : (tensor<2x3xf32>, tensor<2xi32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// A constant target folds into a constant one-hot mask.
// CHECK-LABEL: func.func @nll_const_target
// CHECK: %[[HOT:.*]] = "tosa.const"() <{values = dense<{{\[\[}}false, false, true], [true, false, false]]> : tensor<2x3xi1>}>
// CHECK: tosa.select %[[HOT]], %arg0
// CHECK-NOT: tosa.equal
func.func @nll_const_target(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %t = onnx.constant "t" dense<[2, 0]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "NegativeLogLikelihoodLoss"(%x, %t) {attrs = {reduction = "none"}, domain = "", node_name = "nll", opset = 13 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
