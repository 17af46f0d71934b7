// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// CHECK-LABEL: func.func @concat
// CHECK: tosa.concat %arg0, %arg1 {axis = 1 : i32} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x4x4xf32>
func.func @concat(%x: tensor<2x3x4xf32>, %y: tensor<2x1x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Concat"(%x, %y) {attrs = {axis = -2 : i64}, domain = "", node_name = "c", opset = 13 : i64} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
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

// Trilu: a compile-time triangle mask.
// CHECK-LABEL: func.func @trilu
// CHECK: %[[M:.*]] = "tosa.const"() <{values = dense<{{\[\[}}true, true, true], [false, true, true]]> : tensor<2x3xi1>}>
// CHECK: tosa.select %[[M]], %arg0, %{{.*}}
func.func @trilu(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Trilu"(%x) {attrs = {}, domain = "", node_name = "triu", opset = 14 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// A run-time k (int64, computed as i32) is compared with the constant j - i
// of every position.
// CHECK-LABEL: func.func @trilu_runtime_k
// CHECK: arith.trunci %arg1 : tensor<1xi64> to tensor<1xi32>
// CHECK: "tosa.const"() <{values = dense<{{\[\[}}0, 1, 2], [-1, 0, 1]]> : tensor<2x3xi32>}>
// CHECK: tosa.greater_equal {{.*}} : (tensor<1x1xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK: tosa.select {{.*}} -> tensor<2x3xf32>
func.func @trilu_runtime_k(%x: tensor<2x3xf32>, %k: tensor<1xi64>) -> !onnx.unknown {
  %0 = onnx.node "Trilu"(%x, %k) {attrs = {upper = 0 : i64}, domain = "", node_name = "tril", opset = 14 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
