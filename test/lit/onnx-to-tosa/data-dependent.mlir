// RUN: onnx-tosa-opt %s --split-input-file --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --split-input-file --convert-onnx-to-tosa | mlir-opt --split-input-file --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// (The outputs are i32 here: without declared types nothing widens them.)
// A data-dependent size (docs/unsupported-ops.md): the output has its upper
// bound as shape, its count is one more function result, and both are
// marked for the artifact. The selected elements are moved to the front by
// one tosa.scatter with distinct destinations.
// CHECK-LABEL: func.func @nonzero
// CHECK-SAME: -> (tensor<2x12xi32> {onnx.bounded_dim = 1 : i64, onnx.count_result = 1 : i64, onnx.name = "y"}, tensor<1xi32> {onnx.count, onnx.name = "y.count"})
// CHECK: %[[COUNT:.*]] = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<12xi32>) -> tensor<1xi32>
// CHECK: %[[ROWS:.*]] = tosa.scatter %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x24x1xi32>, tensor<1x24xi32>, tensor<1x24x1xi32>) -> tensor<1x24x1xi32>
// CHECK: return %{{.*}}, %[[COUNT]] : tensor<2x12xi32>, tensor<1xi32>
func.func @nonzero(%x: tensor<3x4xf32> {onnx.name = "x"}) -> (!onnx.unknown {onnx.name = "y"}) {
  %0 = onnx.node "NonZero"(%x) {attrs = {}, domain = "", node_name = "nz", opset = 13 : i64} : (tensor<3x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Unique's Y, indices and counts share one count; inverse_indices has the
// input's size.
// CHECK-LABEL: func.func @unique
// CHECK-SAME: -> (tensor<6xf32> {onnx.bounded_dim = 0 : i64, onnx.count_result = 4 : i64, onnx.name = "y"}, tensor<6xi32> {onnx.bounded_dim = 0 : i64, onnx.count_result = 4 : i64, onnx.name = "idx"}, tensor<6xi32> {onnx.name = "inv"}, tensor<6xi32> {onnx.bounded_dim = 0 : i64, onnx.count_result = 4 : i64, onnx.name = "cnt"}, tensor<1xi32> {onnx.count, onnx.name = "y.count"})
func.func @unique(%x: tensor<6xf32> {onnx.name = "x"}) -> (!onnx.unknown {onnx.name = "y"}, !onnx.unknown {onnx.name = "idx"}, !onnx.unknown {onnx.name = "inv"}, !onnx.unknown {onnx.name = "cnt"}) {
  %0:4 = onnx.node "Unique"(%x) {attrs = {sorted = 1 : si64}, domain = "", node_name = "u", opset = 11 : i64} : (tensor<6xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2, %0#3 : !onnx.unknown, !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// -----

// NonMaxSuppression: one row per (batch, class, box) at most.
// CHECK-LABEL: func.func @nms
// CHECK-SAME: -> (tensor<12x3xi32> {onnx.bounded_dim = 0 : i64, onnx.count_result = 1 : i64, onnx.name = "sel"}, tensor<1xi32> {onnx.count, onnx.name = "sel.count"})
func.func @nms(%b: tensor<2x3x4xf32> {onnx.name = "b"}, %s: tensor<2x2x3xf32> {onnx.name = "s"}, %m: tensor<1xi64> {onnx.name = "m"}) -> (!onnx.unknown {onnx.name = "sel"}) {
  %0 = onnx.node "NonMaxSuppression"(%b, %s, %m) {attrs = {}, domain = "", node_name = "nms", opset = 11 : i64} : (tensor<2x3x4xf32>, tensor<2x2x3xf32>, tensor<1xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Compress with a run-time condition: bounded by the axis' size, and a
// condition shorter than the axis selects nothing past its end.
// CHECK-LABEL: func.func @compress
// CHECK-SAME: -> (tensor<3x4xf32> {onnx.bounded_dim = 1 : i64, onnx.count_result = 1 : i64, onnx.name = "y"}, tensor<1xi32> {onnx.count, onnx.name = "y.count"})
// CHECK: tosa.concat
// CHECK: tosa.scatter
func.func @compress(%x: tensor<3x4xf32> {onnx.name = "x"}, %c: tensor<2xi1> {onnx.name = "c"}) -> (!onnx.unknown {onnx.name = "y"}) {
  %0 = onnx.node "Compress"(%x, %c) {attrs = {axis = 1 : si64}, domain = "", node_name = "cmp", opset = 11 : i64} : (tensor<3x4xf32>, tensor<2xi1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
