// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Integer nearest upscaling repeats each element: a reshape and a tile per
// axis, no gather.
// CHECK-LABEL: func.func @nearest_x2
// CHECK-SAME: -> tensor<1x2x6x8xf32>
// CHECK: tosa.tile {{.*}} -> tensor<1x2x3x2x4xf32>
// CHECK: tosa.tile {{.*}} -> tensor<1x2x6x4x2xf32>
// CHECK-NOT: tosa.gather
func.func @nearest_x2(%x: tensor<1x2x3x4xf32>) -> !onnx.unknown {
  %none = onnx.none
  %s = onnx.constant "s" dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32> : tensor<4xf32>
  %0 = onnx.node "Resize"(%x, %none, %s) {attrs = {mode = "nearest"}, domain = "", node_name = "rs", opset = 13 : i64} : (tensor<1x2x3x4xf32>, none, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Linear: per resized axis, the two neighbouring taps weighted by constants
// computed at compile time (here align_corners, 2 -> 4: x = 0, 1/3, 2/3, 1).
// CHECK-LABEL: func.func @linear_align_corners
// CHECK-SAME: -> tensor<1x1x2x4xf32>
// CHECK: %[[W0:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00, 0.666666627, 0.333333313, 1.000000e+00]]]]>
// CHECK: %[[T0:.*]] = tosa.concat
// CHECK: %[[P0:.*]] = tosa.mul %[[T0]], %[[W0]]
// CHECK: %[[W1:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}0.000000e+00, 0.333333343, 0.666666686, 0.000000e+00]]]]>
// CHECK: %[[T1:.*]] = tosa.tile
// CHECK: %[[P1:.*]] = tosa.mul %[[T1]], %[[W1]]
// CHECK: tosa.add %[[P0]], %[[P1]]
func.func @linear_align_corners(%x: tensor<1x1x2x2xf32>) -> !onnx.unknown {
  %none = onnx.none
  %z = onnx.constant "z" dense<[1, 1, 2, 4]> : tensor<4xi64> : tensor<4xi64>
  %0 = onnx.node "Resize"(%x, %none, %none, %z) {attrs = {mode = "linear", coordinate_transformation_mode = "align_corners"}, domain = "", node_name = "rs", opset = 13 : i64} : (tensor<1x1x2x2xf32>, none, none, tensor<4xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Other index patterns become one tosa.gather with i32 indices.
// CHECK-LABEL: func.func @nearest_fractional
// CHECK: tosa.gather {{.*}} : (tensor<2x20x1xf32>, tensor<2x30xi32>) -> tensor<2x30x1xf32>
func.func @nearest_fractional(%x: tensor<1x2x20xf32>) -> !onnx.unknown {
  %none = onnx.none
  %s = onnx.constant "s" dense<[1.0, 1.0, 1.5]> : tensor<3xf32> : tensor<3xf32>
  %0 = onnx.node "Resize"(%x, %none, %s) {attrs = {mode = "nearest"}, domain = "", node_name = "rs", opset = 13 : i64} : (tensor<1x2x20xf32>, none, tensor<3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Upsample (opset 9) has Resize-10 semantics.
// CHECK-LABEL: func.func @upsample
// CHECK: tosa.tile
// CHECK-SAME: -> tensor<1x1x2x2x2xf32>
func.func @upsample(%x: tensor<1x1x2x2xf32>) -> !onnx.unknown {
  %s = onnx.constant "s" dense<[1.0, 1.0, 1.0, 2.0]> : tensor<4xf32> : tensor<4xf32>
  %0 = onnx.node "Upsample"(%x, %s) {attrs = {mode = "nearest"}, domain = "", node_name = "up", opset = 9 : i64} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
