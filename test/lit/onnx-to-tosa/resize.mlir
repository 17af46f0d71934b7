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

// align_corners divides by the unfloored output length in * scale (ONNX's
// output_width): 4 * 0.6 = 2.4 gives x = 1 * 3 / 1.4 = 2.142857, taps 2 and 3.
// CHECK-LABEL: func.func @linear_align_corners_downsample
// CHECK-SAME: -> tensor<1x1x1x2xf32>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00, 0.857142925]]]]>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[\[}}0.000000e+00, 0.142857075]]]]>
func.func @linear_align_corners_downsample(%x: tensor<1x1x2x4xf32>) -> !onnx.unknown {
  %none = onnx.none
  %s = onnx.constant "s" dense<[1.0, 1.0, 0.6, 0.6]> : tensor<4xf32> : tensor<4xf32>
  %0 = onnx.node "Resize"(%x, %none, %s) {attrs = {mode = "linear", coordinate_transformation_mode = "align_corners"}, domain = "", node_name = "rs", opset = 13 : i64} : (tensor<1x1x2x4xf32>, none, tensor<4xf32>) -> !onnx.unknown
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

// Antialiased downsampling widens the triangle filter by 1/scale (4 taps at
// scale 0.5, the one past the edge repeating the edge element): a matmul
// with a constant [in, out] weight matrix along the resized axis.
// CHECK-LABEL: func.func @linear_antialias
// CHECK-SAME: -> tensor<1x1x2x4xf32>
// CHECK: tosa.transpose {{.*}} -> tensor<1x1x4x4xf32>
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}5.000000e-01, 0.000000e+00], [3.750000e-01, 1.250000e-01], [1.250000e-01, 3.750000e-01], [0.000000e+00, 5.000000e-01]]]>
// CHECK: tosa.matmul %{{.*}}, %[[W]]
// CHECK: tosa.transpose {{.*}} -> tensor<1x1x2x4xf32>
func.func @linear_antialias(%x: tensor<1x1x4x4xf32>) -> !onnx.unknown {
  %none = onnx.none
  %s = onnx.constant "s" dense<[1.0, 1.0, 0.5, 1.0]> : tensor<4xf32> : tensor<4xf32>
  %0 = onnx.node "Resize"(%x, %none, %s) {attrs = {mode = "linear", antialias = 1 : i64}, domain = "", node_name = "rs", opset = 18 : i64} : (tensor<1x1x4x4xf32>, none, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// keep_aspect_ratio_policy = not_larger: sizes 7x8 of a 2x2 input give the
// scale min(3.5, 4) on both axes, so the output is 7x7.
// CHECK-LABEL: func.func @nearest_not_larger
// CHECK-SAME: -> tensor<1x1x7x7xf32>
func.func @nearest_not_larger(%x: tensor<1x1x2x2xf32>) -> !onnx.unknown {
  %none = onnx.none
  %z = onnx.constant "z" dense<[7, 8]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Resize"(%x, %none, %none, %z) {attrs = {mode = "nearest", keep_aspect_ratio_policy = "not_larger", axes = array<i64: 2, 3>}, domain = "", node_name = "rs", opset = 18 : i64} : (tensor<1x1x2x2xf32>, none, none, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// not_smaller takes max(3.5, 4) instead: 8x8.
// CHECK-LABEL: func.func @nearest_not_smaller
// CHECK-SAME: -> tensor<1x1x8x8xf32>
func.func @nearest_not_smaller(%x: tensor<1x1x2x2xf32>) -> !onnx.unknown {
  %none = onnx.none
  %z = onnx.constant "z" dense<[7, 8]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Resize"(%x, %none, %none, %z) {attrs = {mode = "nearest", keep_aspect_ratio_policy = "not_smaller", axes = array<i64: 2, 3>}, domain = "", node_name = "rs", opset = 18 : i64} : (tensor<1x1x2x2xf32>, none, none, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// tf_crop_and_resize samples the constant roi [0.5, 1.5] of a length-4 axis
// at x = 1.5, 3, 4.5; the last lies past the input and takes
// extrapolation_value.
// CHECK-LABEL: func.func @crop_extrapolate
// CHECK-SAME: -> tensor<1x3xf32>
// CHECK: "tosa.const"() <{values = dense<{{\[\[}}5.000000e-01, 1.000000e+00, 1.000000e+00]]>
// CHECK: "tosa.const"() <{values = dense<{{\[\[}}5.000000e-01, 0.000000e+00, 0.000000e+00]]>
// CHECK: %[[SUM:.*]] = tosa.add
// CHECK: %[[MASK:.*]] = "tosa.const"() <{values = dense<{{\[\[}}false, false, true]]> : tensor<1x3xi1>}>
// CHECK: %[[E:.*]] = "tosa.const"() <{values = dense<9.000000e+00> : tensor<1x1xf32>}>
// CHECK: tosa.select %[[MASK]], %[[E]], %[[SUM]]
func.func @crop_extrapolate(%x: tensor<1x4xf32>) -> !onnx.unknown {
  %none = onnx.none
  %roi = onnx.constant "roi" dense<[0.5, 1.5]> : tensor<2xf32> : tensor<2xf32>
  %z = onnx.constant "z" dense<[3]> : tensor<1xi64> : tensor<1xi64>
  %0 = onnx.node "Resize"(%x, %roi, %none, %z) {attrs = {mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 9.0 : f32, axes = array<i64: 1>}, domain = "", node_name = "rs", opset = 18 : i64} : (tensor<1x4xf32>, tensor<2xf32>, none, tensor<1xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
