// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// The shape input is read at compile time: 0 copies, -1 is inferred. No
// int64 is left in the output.
// CHECK-LABEL: func.func @reshape
// CHECK-SAME: -> tensor<2x12xf32>
// CHECK: %[[S:.*]] = tosa.const_shape {values = dense<[2, 12]> : tensor<2xindex>}
// CHECK: tosa.reshape %arg0, %[[S]]
// CHECK-NOT: i64
func.func @reshape(%x: tensor<2x3x4xf32>) -> !onnx.unknown {
  %s = onnx.constant "s" dense<[0, -1]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Reshape"(%x, %s) {attrs = {}, domain = "", node_name = "r", opset = 14 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @flatten
// CHECK-SAME: -> (tensor<6x4xf32>, tensor<1x24xf32>)
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<6x4xf32>
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<1x24xf32>
func.func @flatten(%x: tensor<2x3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Flatten"(%x) {attrs = {axis = -1 : i64}, domain = "", node_name = "f0", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  %1 = onnx.node "Flatten"(%x) {attrs = {axis = 0 : i64}, domain = "", node_name = "f1", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Without perm, Transpose reverses the dimensions.
// CHECK-LABEL: func.func @transpose
// CHECK: tosa.transpose %arg0 {perms = array<i32: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
// CHECK: tosa.transpose %arg0 {perms = array<i32: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Transpose"(%x) {attrs = {perm = array<i64: 1, 2, 0>}, domain = "", node_name = "t0", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  %1 = onnx.node "Transpose"(%x) {attrs = {}, domain = "", node_name = "t1", opset = 13 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Axes are an attribute before opset 13 and a constant input from 13.
// CHECK-LABEL: func.func @squeeze_unsqueeze
// CHECK-SAME: -> (tensor<1x2x3x1xf32>, tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>)
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<1x2x3x1xf32>
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<2x1x3xf32>
func.func @squeeze_unsqueeze(%x: tensor<2x3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %axes = onnx.constant "axes" dense<[0, -1]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Unsqueeze"(%x, %axes) {attrs = {}, domain = "", node_name = "u13", opset = 13 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> !onnx.unknown
  %1 = onnx.node "Squeeze"(%0) {attrs = {}, domain = "", node_name = "s13", opset = 13 : i64} : (!onnx.unknown) -> !onnx.unknown
  %2 = onnx.node "Unsqueeze"(%x) {attrs = {axes = array<i64: 1>}, domain = "", node_name = "u11", opset = 11 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  %3 = onnx.node "Squeeze"(%2) {attrs = {axes = array<i64: 1>}, domain = "", node_name = "s11", opset = 11 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %0, %1, %2, %3 : !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// Identity and inference-mode Dropout forward their input; Dropout's mask is
// all true.
// CHECK-LABEL: func.func @identity_dropout
// CHECK: %[[M:.*]] = "tosa.const"() <{values = dense<true> : tensor<3x4xi1>}>
// CHECK: return %arg0, %[[M]]
func.func @identity_dropout(%x: tensor<3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Identity"(%x) {attrs = {}, domain = "", node_name = "i", opset = 13 : i64} : (tensor<3x4xf32>) -> !onnx.unknown
  %1:2 = onnx.node "Dropout"(%0) {attrs = {}, domain = "", node_name = "d", opset = 13 : i64} : (!onnx.unknown) -> (!onnx.unknown, !onnx.unknown)
  return %1#0, %1#1 : !onnx.unknown, !onnx.unknown
}

// Training-mode Dropout with ratio 0 drops nothing: the input, and a mask
// all true.
// CHECK-LABEL: func.func @dropout_training_zero_ratio
// CHECK: %[[M:.*]] = "tosa.const"() <{values = dense<true> : tensor<3x4xi1>}>
// CHECK: return %arg0, %[[M]]
func.func @dropout_training_zero_ratio(%x: tensor<3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %r = onnx.constant "r" dense<0.0> : tensor<f32> : tensor<f32>
  %t = onnx.constant "t" dense<true> : tensor<i1> : tensor<i1>
  %0:2 = onnx.node "Dropout"(%x, %r, %t) {attrs = {seed = 0 : i64}, domain = "", node_name = "d", opset = 22 : i64} : (tensor<3x4xf32>, tensor<f32>, tensor<i1>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// DepthToSpace (DCR): channels split as (b, b, C), interleaved into H and W.
// CHECK-LABEL: func.func @depth_to_space
// CHECK-SAME: -> tensor<1x2x4x6xf32>
// CHECK: %[[R:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x2x2x2x2x3xf32>
// CHECK: %[[T:.*]] = tosa.transpose %[[R]] {perms = array<i32: 0, 3, 4, 1, 5, 2>}
// CHECK: tosa.reshape %[[T]], %{{.*}} -> tensor<1x2x4x6xf32>
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "DepthToSpace"(%x) {attrs = {blocksize = 2 : i64}, domain = "", node_name = "d2s", opset = 13 : i64} : (tensor<1x8x2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @space_to_depth
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<1x2x2x2x3x2xf32>
// CHECK: tosa.transpose %{{.*}} {perms = array<i32: 0, 3, 5, 1, 2, 4>}
// CHECK: tosa.reshape %{{.*}} -> tensor<1x8x2x3xf32>
func.func @space_to_depth(%x: tensor<1x2x4x6xf32>) -> !onnx.unknown {
  %0 = onnx.node "SpaceToDepth"(%x) {attrs = {blocksize = 2 : i64}, domain = "", node_name = "s2d", opset = 13 : i64} : (tensor<1x2x4x6xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CRD mode orders the depth (C, b, b).
// CHECK-LABEL: func.func @space_to_depth_crd
// CHECK: tosa.transpose %{{.*}} {perms = array<i32: 0, 1, 3, 5, 2, 4>}
func.func @space_to_depth_crd(%x: tensor<1x2x4x6xf32>) -> !onnx.unknown {
  %0 = onnx.node "SpaceToDepth"(%x) {attrs = {blocksize = 2 : i64, mode = "CRD"}, domain = "", node_name = "s2d", opset = 13 : i64} : (tensor<1x2x4x6xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
