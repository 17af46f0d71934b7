// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// NCHW -> NHWC around the conv; constant OIHW weights become OHWI at compile
// time; an absent bias is zeros (here the same constant as the zero points).
// CHECK-LABEL: func.func @conv_const_weights
// CHECK-SAME: -> tensor<1x1x2x2xf32>
// CHECK: %[[ZERO:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK: %[[X:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x3x3xf32>) -> tensor<1x3x3x2xf32>
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00, 5.000000e+00], [2.000000e+00, 6.000000e+00]], {{\[\[}}3.000000e+00, 7.000000e+00], [4.000000e+00, 8.000000e+00]]]]> : tensor<1x2x2x2xf32>}>
// CHECK: %[[Y:.*]] = tosa.conv2d %[[X]], %[[W]], %[[ZERO]], %[[ZERO]], %[[ZERO]] {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
// CHECK-SAME: -> tensor<1x2x2x1xf32>
// CHECK: tosa.transpose %[[Y]] {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x2x2x1xf32>) -> tensor<1x1x2x2xf32>
func.func @conv_const_weights(%x: tensor<1x2x3x3xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]> : tensor<1x2x2x2xf32> : tensor<1x2x2x2xf32>
  %0 = onnx.node "Conv"(%x, %w) {attrs = {kernel_shape = array<i64: 2, 2>}, domain = "", node_name = "c", opset = 11 : i64} : (tensor<1x2x3x3xf32>, tensor<1x2x2x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// 224 + 3 + 3 - 7 is odd: TOSA requires an exact multiple of the stride, so
// the bottom/right padding shrinks to what the last window reads (3 -> 2).
// CHECK-LABEL: func.func @conv_stem
// CHECK-SAME: -> tensor<1x64x112x112xf32>
// CHECK: tosa.conv2d %{{.*}}, %{{.*}}, %arg2, %{{.*}}, %{{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 3, 2, 3, 2>, stride = array<i64: 2, 2>}
// CHECK-SAME: -> tensor<1x112x112x64xf32>
func.func @conv_stem(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>) -> !onnx.unknown {
  %0 = onnx.node "Conv"(%x, %w, %b) {attrs = {kernel_shape = array<i64: 7, 7>, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>}, domain = "", node_name = "c", opset = 11 : i64} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Rows no window reads are sliced away when even zero end-padding is too
// much: (10 - 3) % 2 = 1.
// CHECK-LABEL: func.func @conv_unread_rows
// CHECK: %[[X:.*]] = tosa.transpose %arg0
// CHECK: %[[S:.*]] = tosa.slice %[[X]], %{{.*}}, %{{.*}} : (tensor<1x10x10x1xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x9x10x1xf32>
// CHECK: tosa.conv2d %[[S]], {{.*}} pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 1>
// CHECK-SAME: -> tensor<1x4x8x1xf32>
func.func @conv_unread_rows(%x: tensor<1x1x10x10xf32>, %w: tensor<1x1x3x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Conv"(%x, %w) {attrs = {strides = array<i64: 2, 1>}, domain = "", node_name = "c", opset = 11 : i64} : (tensor<1x1x10x10xf32>, tensor<1x1x3x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// SAME_UPPER puts the odd padding at the end, SAME_LOWER at the beginning.
// CHECK-LABEL: func.func @conv_same
// CHECK: tosa.conv2d {{.*}} pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>
// CHECK-SAME: -> tensor<1x3x3x2xf32>
// CHECK: tosa.conv2d {{.*}} pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>
// CHECK-SAME: -> tensor<1x3x3x2xf32>
func.func @conv_same(%x: tensor<1x1x6x6xf32>, %w: tensor<2x1x3x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "Conv"(%x, %w) {attrs = {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>}, domain = "", node_name = "up", opset = 11 : i64} : (tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) -> !onnx.unknown
  %1 = onnx.node "Conv"(%x, %w) {attrs = {auto_pad = "SAME_LOWER", strides = array<i64: 2, 2>}, domain = "", node_name = "lo", opset = 11 : i64} : (tensor<1x1x6x6xf32>, tensor<2x1x3x3xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// group == C_in: one depthwise conv; weights [C*M, 1, KH, KW] ->
// [KH, KW, C, M].
// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: -> tensor<1x8x6x6xf32>
// CHECK: %[[R:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<8x1x3x3xf32>, !tosa.shape<4>) -> tensor<4x2x3x3xf32>
// CHECK: %[[W:.*]] = tosa.transpose %[[R]] {perms = array<i32: 2, 3, 0, 1>} : (tensor<4x2x3x3xf32>) -> tensor<3x3x4x2xf32>
// CHECK: tosa.depthwise_conv2d %{{.*}}, %[[W]], {{.*}} {acc_type = f32, dilation = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
// CHECK-SAME: -> tensor<1x6x6x8xf32>
func.func @depthwise(%x: tensor<1x4x8x8xf32>, %w: tensor<8x1x3x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Conv"(%x, %w) {attrs = {group = 4 : i64, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 2, 2>}, domain = "", node_name = "c", opset = 11 : i64} : (tensor<1x4x8x8xf32>, tensor<8x1x3x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Other groupings: one conv per group on channel slices, concatenated.
// CHECK-LABEL: func.func @grouped
// CHECK: %[[X:.*]] = tosa.transpose %arg0
// CHECK: %[[W:.*]] = tosa.transpose %arg1
// CHECK: %[[X0:.*]] = tosa.slice %[[X]], {{.*}} -> tensor<1x5x5x2xf32>
// CHECK: %[[W0:.*]] = tosa.slice %[[W]], {{.*}} -> tensor<3x3x3x2xf32>
// CHECK: %[[B0:.*]] = tosa.slice %arg2, {{.*}} -> tensor<3xf32>
// CHECK: %[[Y0:.*]] = tosa.conv2d %[[X0]], %[[W0]], %[[B0]]
// CHECK: %[[X1:.*]] = tosa.slice %[[X]], {{.*}} -> tensor<1x5x5x2xf32>
// CHECK: %[[W1:.*]] = tosa.slice %[[W]], {{.*}} -> tensor<3x3x3x2xf32>
// CHECK: %[[B1:.*]] = tosa.slice %arg2, {{.*}} -> tensor<3xf32>
// CHECK: %[[Y1:.*]] = tosa.conv2d %[[X1]], %[[W1]], %[[B1]]
// CHECK: %[[Y:.*]] = tosa.concat %[[Y0]], %[[Y1]] {axis = 3 : i32} : (tensor<1x5x5x3xf32>, tensor<1x5x5x3xf32>) -> tensor<1x5x5x6xf32>
// CHECK: tosa.transpose %[[Y]]
func.func @grouped(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>) -> !onnx.unknown {
  %0 = onnx.node "Conv"(%x, %w, %b) {attrs = {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>}, domain = "", node_name = "c", opset = 11 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// 1-D: a 2-D conv over a unit height.
// CHECK-LABEL: func.func @conv1d
// CHECK-SAME: -> tensor<2x4x10xf32>
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<2x3x1x10xf32>
// CHECK: tosa.reshape %arg1, %{{.*}} -> tensor<4x3x1x3xf32>
// CHECK: tosa.conv2d {{.*}} pad = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 1>
// CHECK-SAME: -> tensor<2x1x10x4xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<2x4x10xf32>
func.func @conv1d(%x: tensor<2x3x10xf32>, %w: tensor<4x3x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Conv"(%x, %w) {attrs = {pads = array<i64: 1, 1>}, domain = "", node_name = "c", opset = 11 : i64} : (tensor<2x3x10xf32>, tensor<4x3x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @conv3d
// CHECK: tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 4, 1>}
// CHECK: tosa.conv3d {{.*}} pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>
// CHECK-SAME: -> tensor<1x3x3x3x3xf32>
// CHECK: tosa.transpose %{{.*}} {perms = array<i32: 0, 4, 1, 2, 3>}
func.func @conv3d(%x: tensor<1x2x4x4x4xf32>, %w: tensor<3x2x2x2x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "Conv"(%x, %w) {attrs = {}, domain = "", node_name = "c", opset = 11 : i64} : (tensor<1x2x4x4x4xf32>, tensor<3x2x2x2x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// ConvTranspose: out_pad = (-pad_begin, output_padding - pad_end); weights
// [C_in, C_out, KH, KW] -> [C_out, KH, KW, C_in].
// CHECK-LABEL: func.func @conv_transpose
// CHECK-SAME: -> tensor<1x3x8x10xf32>
// CHECK: %[[W:.*]] = tosa.transpose %arg1 {perms = array<i32: 1, 2, 3, 0>} : (tensor<2x3x3x3xf32>) -> tensor<3x3x3x2xf32>
// CHECK: tosa.transpose_conv2d %{{.*}}, %[[W]], {{.*}} {acc_type = f32, out_pad = array<i64: -1, 0, -1, 0>, stride = array<i64: 2, 2>}
// CHECK-SAME: -> tensor<1x8x10x3xf32>
func.func @conv_transpose(%x: tensor<1x2x4x5xf32>, %w: tensor<2x3x3x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "ConvTranspose"(%x, %w) {attrs = {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>}, domain = "", node_name = "ct", opset = 11 : i64} : (tensor<1x2x4x5xf32>, tensor<2x3x3x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// TOSA's transposed convolution has no dilation: zeros are spread between
// the kernel taps (at compile time for constant weights).
// CHECK-LABEL: func.func @conv_transpose_dilated
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00], [2.000000e+00]], {{\[\[}}0.000000e+00], [0.000000e+00]], {{\[\[}}3.000000e+00], [4.000000e+00]]]]> : tensor<1x3x2x1xf32>}>
// CHECK: tosa.transpose_conv2d %{{.*}}, %[[W]]
// CHECK-SAME: -> tensor<1x5x4x1xf32>
func.func @conv_transpose_dilated(%x: tensor<1x1x3x3xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32> : tensor<1x1x2x2xf32>
  %0 = onnx.node "ConvTranspose"(%x, %w) {attrs = {dilations = array<i64: 2, 1>}, domain = "", node_name = "ct", opset = 11 : i64} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// ConvTranspose 3-D: TOSA has no transpose_conv3d. The channels-last input
// is spread stride apart with zeros (depth 2 -> 3 for stride 2), the kernel
// flipped along its three spatial axes and made [C_out, kd, kh, kw, C_in],
// and conv3d runs at stride 1 with pads span - 1 - pad_begin before and
// span - 1 - pad_end + output_padding after: depth (1, 3), height (1, 1),
// width (1, 0).
// CHECK-LABEL: func.func @conv_transpose_3d
// CHECK-SAME: -> tensor<1x3x5x4x3xf32>
// CHECK: %[[XL:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 3, 4, 1>}
// CHECK: tosa.pad {{.*}} -> tensor<1x2x2x3x3x2xf32>
// CHECK: %[[SPREAD:.*]] = tosa.slice {{.*}} -> tensor<1x3x3x3x2xf32>
// CHECK: tosa.reverse %arg1 {axis = 2 : i32}
// CHECK: tosa.reverse {{.*}} {axis = 3 : i32}
// CHECK: %[[FLIPPED:.*]] = tosa.reverse {{.*}} {axis = 4 : i32}
// CHECK: %[[W:.*]] = tosa.transpose %[[FLIPPED]] {perms = array<i32: 1, 2, 3, 4, 0>} {{.*}} -> tensor<3x3x2x2x2xf32>
// CHECK: tosa.conv3d %[[SPREAD]], %[[W]], {{.*}} {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 1, 3, 1, 1, 1, 0>, stride = array<i64: 1, 1, 1>} {{.*}} -> tensor<1x5x4x3x3xf32>
// CHECK: tosa.transpose {{.*}} {perms = array<i32: 0, 4, 1, 2, 3>}
func.func @conv_transpose_3d(%x: tensor<1x2x2x3x3xf32>, %w: tensor<2x3x3x2x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "ConvTranspose"(%x, %w) {attrs = {strides = array<i64: 2, 1, 1>, pads = array<i64: 1, 0, 0, 0, 0, 1>, output_padding = array<i64: 1, 0, 0>}, domain = "", node_name = "ct", opset = 11 : i64} : (tensor<1x2x2x3x3xf32>, tensor<2x3x3x2x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
