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

// CHECK-LABEL: func.func @concat
// CHECK: tosa.concat %arg0, %arg1 {axis = 1 : i32} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x4x4xf32>
func.func @concat(%x: tensor<2x3x4xf32>, %y: tensor<2x1x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Concat"(%x, %y) {attrs = {axis = -2 : i64}, domain = "", node_name = "c", opset = 13 : i64} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
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

// CHECK-LABEL: func.func @split
// CHECK-SAME: -> (tensor<2x2x7xf32>, tensor<2x3x7xf32>)
// CHECK: tosa.slice %arg0, {{.*}} -> tensor<2x2x7xf32>
// CHECK: tosa.slice %arg0, {{.*}} -> tensor<2x3x7xf32>
func.func @split(%x: tensor<2x5x7xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %sp = onnx.constant "sp" dense<[2, 3]> : tensor<2xi64> : tensor<2xi64>
  %0:2 = onnx.node "Split"(%x, %sp) {attrs = {axis = 1 : i64}, domain = "", node_name = "s", opset = 13 : i64} : (tensor<2x5x7xf32>, tensor<2xi64>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// Steps > 1 take every step-th element; negative steps walk a reversed axis.
// CHECK-LABEL: func.func @slice_steps
// CHECK-SAME: -> tensor<5x3x2xf32>
// CHECK: tosa.slice %arg0, {{.*}} -> tensor<5x6x6xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<5x6x2x3xf32>
// CHECK: tosa.slice {{.*}} -> tensor<5x6x2x1xf32>
// CHECK: tosa.reverse {{.*}} {axis = 1 : i32}
func.func @slice_steps(%x: tensor<5x6x7xf32>) -> !onnx.unknown {
  %st = onnx.constant "st" dense<[1, -1]> : tensor<2xi64> : tensor<2xi64>
  %en = onnx.constant "en" dense<[100, -8]> : tensor<2xi64> : tensor<2xi64>
  %ax = onnx.constant "ax" dense<[2, 1]> : tensor<2xi64> : tensor<2xi64>
  %sp = onnx.constant "sp" dense<[3, -2]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Slice"(%x, %st, %en, %ax, %sp) {attrs = {}, domain = "", node_name = "s", opset = 13 : i64} : (tensor<5x6x7xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Few constant indices: slices and a concat.
// CHECK-LABEL: func.func @gather_few
// CHECK-SAME: -> tensor<3x2x2x2xf32>
// CHECK-COUNT-4: tosa.slice
// CHECK: tosa.concat
func.func @gather_few(%x: tensor<3x20x2xf32>) -> !onnx.unknown {
  %i = onnx.constant "i" dense<[[0, -1], [5, 3]]> : tensor<2x2xi64> : tensor<2x2xi64>
  %0 = onnx.node "Gather"(%x, %i) {attrs = {axis = 1 : i64}, domain = "", node_name = "g", opset = 13 : i64} : (tensor<3x20x2xf32>, tensor<2x2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Many: one tosa.gather with i32 indices.
// CHECK-LABEL: func.func @gather_many
// CHECK: %[[V:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x20x2xf32>
// CHECK: %[[I:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<1x20xi32>}>
// CHECK: tosa.gather %[[V]], %[[I]] : (tensor<1x20x2xf32>, tensor<1x20xi32>) -> tensor<1x20x2xf32>
func.func @gather_many(%x: tensor<20x2xf32>) -> !onnx.unknown {
  %i = onnx.constant "i" dense<[19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]> : tensor<20xi64> : tensor<20xi64>
  %0 = onnx.node "Gather"(%x, %i) {attrs = {axis = 0 : i64}, domain = "", node_name = "g", opset = 13 : i64} : (tensor<20x2xf32>, tensor<20xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @expand_tile
// CHECK: tosa.tile %{{.*}} : (tensor<1x3x1xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
// CHECK: tosa.tile %arg0, %{{.*}} : (tensor<3x1xf32>, !tosa.shape<2>) -> tensor<6x3xf32>
func.func @expand_tile(%x: tensor<3x1xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %s = onnx.constant "s" dense<[2, 1, 4]> : tensor<3xi64> : tensor<3xi64>
  %r = onnx.constant "r" dense<[2, 3]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Expand"(%x, %s) {attrs = {}, domain = "", node_name = "e", opset = 13 : i64} : (tensor<3x1xf32>, tensor<3xi64>) -> !onnx.unknown
  %1 = onnx.node "Tile"(%x, %r) {attrs = {}, domain = "", node_name = "t", opset = 13 : i64} : (tensor<3x1xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Constant mode is tosa.pad; negative pads crop first.
// CHECK-LABEL: func.func @pad
// CHECK-DAG: %[[P:.*]] = tosa.const_shape {values = dense<[1, 2, 2, 1]> : tensor<4xindex>}
// CHECK-DAG: %[[V:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1xf32>}>
// CHECK: tosa.pad %arg0, %[[P]], %[[V]] : (tensor<3x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<6x7xf32>
// CHECK: tosa.slice %arg0, {{.*}} -> tensor<2x2xf32>
// CHECK: tosa.pad {{.*}} -> tensor<3x2xf32>
func.func @pad(%x: tensor<3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %p = onnx.constant "p" dense<[1, 2, 2, 1]> : tensor<4xi64> : tensor<4xi64>
  %v = onnx.constant "v" dense<0.5> : tensor<f32> : tensor<f32>
  %q = onnx.constant "q" dense<[-1, 0, 1, -2]> : tensor<4xi64> : tensor<4xi64>
  %0 = onnx.node "Pad"(%x, %p, %v) {attrs = {}, domain = "", node_name = "p0", opset = 13 : i64} : (tensor<3x4xf32>, tensor<4xi64>, tensor<f32>) -> !onnx.unknown
  %1 = onnx.node "Pad"(%x, %q) {attrs = {}, domain = "", node_name = "p1", opset = 13 : i64} : (tensor<3x4xf32>, tensor<4xi64>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Reflect mode: reversed slices on each side.
// CHECK-LABEL: func.func @pad_reflect
// CHECK: %[[B:.*]] = tosa.slice %arg0, {{.*}} -> tensor<2x4xf32>
// CHECK: %[[RB:.*]] = tosa.reverse %[[B]] {axis = 0 : i32}
// CHECK: tosa.concat %[[RB]], %arg0
func.func @pad_reflect(%x: tensor<3x4xf32>) -> !onnx.unknown {
  %p = onnx.constant "p" dense<[2, 0, 0, 0]> : tensor<4xi64> : tensor<4xi64>
  %0 = onnx.node "Pad"(%x, %p) {attrs = {mode = "reflect"}, domain = "", node_name = "p", opset = 13 : i64} : (tensor<3x4xf32>, tensor<4xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
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
