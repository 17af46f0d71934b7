// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Bilinear, zeros padding: per axis two taps (floor(x) and floor(x) + 1) with
// their inside-the-image masks; the 2 x 2 combinations become row indices
// (row * W + column) of X as [N, H*W, C], read by one gather, zeroed where
// outside, weighted and summed.
// CHECK-LABEL: func.func @bilinear_zeros
// CHECK-SAME: -> tensor<1x2x5x6xf32>
// CHECK: tosa.floor {{.*}} -> tensor<1x30xf32>
// CHECK: tosa.cast {{.*}} : (tensor<1x30xf32>) -> tensor<1x30xi32>
// CHECK: %[[X:.*]] = tosa.reshape {{.*}} -> tensor<1x12x2xf32>
// CHECK: %[[IDX:.*]] = tosa.concat {{.*}} {axis = 1 : i32} : {{.*}} -> tensor<1x120xi32>
// CHECK: %[[G:.*]] = tosa.gather %[[X]], %[[IDX]] : (tensor<1x12x2xf32>, tensor<1x120xi32>) -> tensor<1x120x2xf32>
// CHECK: tosa.select {{.*}} -> tensor<1x4x30x2xf32>
// CHECK: tosa.reduce_sum {{.*}} {axis = 1 : i32} : (tensor<1x4x30x2xf32>) -> tensor<1x1x30x2xf32>
// CHECK: tosa.transpose {{.*}} -> tensor<1x2x30xf32>
func.func @bilinear_zeros(%x: tensor<1x2x3x4xf32>, %g: tensor<1x5x6x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "GridSample"(%x, %g) {attrs = {mode = "linear"}, domain = "", node_name = "gs", opset = 22 : i64} : (tensor<1x2x3x4xf32>, tensor<1x5x6x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Nearest copies elements: integer data is gathered as it is, one tap per
// output, no weights. Border padding clamps the rounded coordinate.
// CHECK-LABEL: func.func @nearest_border_int
// CHECK-SAME: -> tensor<1x2x5x6xi8>
// CHECK: tosa.clamp {{.*}} {max_val = 2.000000e+00 : f32, min_val = 0.000000e+00 : f32}
// CHECK: tosa.gather {{.*}} : (tensor<1x12x2xi8>, tensor<1x30xi32>) -> tensor<1x30x2xi8>
// CHECK-NOT: tosa.reduce_sum
// CHECK: return
func.func @nearest_border_int(%x: tensor<1x2x3x4xi8>, %g: tensor<1x5x6x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "GridSample"(%x, %g) {attrs = {mode = "nearest", padding_mode = "border", align_corners = 1 : i64}, domain = "", node_name = "gs", opset = 22 : i64} : (tensor<1x2x3x4xi8>, tensor<1x5x6x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Bicubic (the opset 16 name) with reflection on a 1-D signal: four
// taps, each reflected into the image; no inside masks (nothing reads 0).
// CHECK-LABEL: func.func @bicubic_reflection_1d
// CHECK-SAME: -> tensor<2x3x5xf32>
// CHECK: tosa.gather {{.*}} : (tensor<2x7x3xf32>, tensor<2x20xi32>) -> tensor<2x20x3xf32>
// CHECK-NOT: tosa.select {{.*}} -> tensor<2x4x5x3xf32>
// CHECK: tosa.reduce_sum {{.*}} : (tensor<2x4x5x3xf32>) -> tensor<2x1x5x3xf32>
func.func @bicubic_reflection_1d(%x: tensor<2x3x7xf32>, %g: tensor<2x5x1xf32>) -> !onnx.unknown {
  %0 = onnx.node "GridSample"(%x, %g) {attrs = {mode = "bicubic", padding_mode = "reflection"}, domain = "", node_name = "gs", opset = 16 : i64} : (tensor<2x3x7xf32>, tensor<2x5x1xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// f16 data is interpolated in f32 and rounded once.
// CHECK-LABEL: func.func @trilinear_f16
// CHECK-SAME: -> tensor<1x1x2x3x4xf16>
// CHECK: tosa.gather {{.*}} -> tensor<1x192x1xf32>
// CHECK: tosa.cast {{.*}} : (tensor<1x1x2x3x4xf32>) -> tensor<1x1x2x3x4xf16>
func.func @trilinear_f16(%x: tensor<1x1x3x2x2xf16>, %g: tensor<1x2x3x4x3xf16>) -> !onnx.unknown {
  %0 = onnx.node "GridSample"(%x, %g) {attrs = {mode = "linear", align_corners = 1 : i64}, domain = "", node_name = "gs", opset = 22 : i64} : (tensor<1x1x3x2x2xf16>, tensor<1x2x3x4x3xf16>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// RoiAlign, max mode, 2 x 2 samples per bin: the 4 corners of the 16
// samples of each of the 2 x 3 bins of 4 RoIs are read by one gather from X
// as [N*H*W, C]; the maximum over corners and samples is taken.
// CHECK-LABEL: func.func @roi_align_max
// CHECK-SAME: -> tensor<4x3x2x3xf32>
// CHECK: tosa.gather {{.*}} : (tensor<1x128x3xf32>, tensor<1x384xi32>) -> tensor<1x384x3xf32>
// CHECK: tosa.reduce_max {{.*}} {axis = 1 : i32} : (tensor<4x16x6x3xf32>) -> tensor<4x1x6x3xf32>
func.func @roi_align_max(%x: tensor<2x3x8x8xf32>, %r: tensor<4x4xf32>, %b: tensor<4xi64>) -> !onnx.unknown {
  %0 = onnx.node "RoiAlign"(%x, %r, %b) {attrs = {output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, mode = "max"}, domain = "", node_name = "roi", opset = 22 : i64} : (tensor<2x3x8x8xf32>, tensor<4x4xf32>, tensor<4xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// DeformConv with two offset groups and two convolution groups: per offset
// group one bilinear gather of its channels at the 9 taps x 9 positions,
// then the sampled columns times the weights as one batched matmul.
// CHECK-LABEL: func.func @deform_conv_groups
// CHECK-SAME: -> tensor<1x6x3x3xf32>
// CHECK: tosa.gather {{.*}} : (tensor<1x25x2xf32>, tensor<1x324xi32>) -> tensor<1x324x2xf32>
// CHECK: tosa.gather {{.*}} : (tensor<1x25x2xf32>, tensor<1x324xi32>) -> tensor<1x324x2xf32>
// CHECK: tosa.concat {{.*}} {axis = 3 : i32} : (tensor<1x9x9x2xf32>, tensor<1x9x9x2xf32>) -> tensor<1x9x9x4xf32>
// CHECK: tosa.matmul {{.*}} : (tensor<2x9x18xf32>, tensor<2x18x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x9x3xf32>
func.func @deform_conv_groups(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>, %o: tensor<1x36x3x3xf32>, %b: tensor<6xf32>) -> !onnx.unknown {
  %0 = onnx.node "DeformConv"(%x, %w, %o, %b) {attrs = {group = 2 : i64, offset_group = 2 : i64}, domain = "", node_name = "dc", opset = 22 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<1x36x3x3xf32>, tensor<6xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
