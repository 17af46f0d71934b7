// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// CenterCropPad: axis 0 cropped from 5 to 2 (start 1, rounded down), axis -2
// padded from 4 to 7 (1 before, the odd one after).
// CHECK-LABEL: func.func @center_crop_pad
// CHECK: %[[START:.*]] = tosa.const_shape {values = dense<[1, 0, 0]> : tensor<3xindex>}
// CHECK: %[[C:.*]] = tosa.slice %arg0, %[[START]], %{{.*}} -> tensor<2x4x3xf32>
// CHECK: %[[PADS:.*]] = tosa.const_shape {values = dense<[0, 0, 1, 2, 0, 0]> : tensor<6xindex>}
// CHECK: %[[Y:.*]] = tosa.pad %[[C]], %[[PADS]], %{{.*}} -> tensor<2x7x3xf32>
// CHECK: return %[[Y]]
func.func @center_crop_pad(%x: tensor<5x4x3xf32>) -> !onnx.unknown {
  %s = onnx.constant "s" dense<[2, 7]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "CenterCropPad"(%x, %s) {attrs = {axes = array<i64: 0, -2>}, domain = "", node_name = "ccp", opset = 18 : i64} : (tensor<5x4x3xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Col2Im of a 2x2 block over a 3x3 image (2x2 sliding blocks): each of the
// 4 block positions is a slice of the columns padded into its place in the
// image; the 4 are summed.
// CHECK-LABEL: func.func @col2im
// CHECK: %[[COLS:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x2x4x2x2xf32>
// CHECK: %[[P0:.*]] = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 1, 0, 1]> : tensor<8xindex>}
// CHECK: %[[K0:.*]] = tosa.pad %{{.*}}, %[[P0]], %{{.*}} -> tensor<1x2x3x3xf32>
// CHECK: %[[P1:.*]] = tosa.const_shape {values = dense<[0, 0, 0, 0, 0, 1, 1, 0]> : tensor<8xindex>}
// CHECK: %[[K1:.*]] = tosa.pad %{{.*}}, %[[P1]]
// CHECK: %[[S1:.*]] = tosa.add %[[K0]], %[[K1]]
// CHECK: %[[S2:.*]] = tosa.add %[[S1]]
// CHECK: %[[S3:.*]] = tosa.add %[[S2]]
// CHECK: return %[[S3]] : tensor<1x2x3x3xf32>
func.func @col2im(%x: tensor<1x8x4xf32>) -> !onnx.unknown {
  %i = onnx.constant "i" dense<[3, 3]> : tensor<2xi64> : tensor<2xi64>
  %b = onnx.constant "b" dense<[2, 2]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Col2Im"(%x, %i, %b) {attrs = {}, domain = "", node_name = "c2i", opset = 18 : i64} : (tensor<1x8x4xf32>, tensor<2xi64>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Strides spread the blocks out with zeros between them before placing.
// CHECK-LABEL: func.func @col2im_strides
// CHECK: %[[SPLIT:.*]] = tosa.reshape %{{.*}} -> tensor<1x1x4x2x1x2xf32>
// CHECK: tosa.pad %[[SPLIT]], %{{.*}} -> tensor<1x1x4x2x2x2xf32>
// CHECK: tosa.slice %{{.*}} -> tensor<1x1x4x3x2xf32>
// CHECK: return %{{.*}} : tensor<1x1x4x3xf32>
func.func @col2im_strides(%x: tensor<1x4x4xf32>) -> !onnx.unknown {
  %i = onnx.constant "i" dense<[4, 3]> : tensor<2xi64> : tensor<2xi64>
  %b = onnx.constant "b" dense<[2, 2]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Col2Im"(%x, %i, %b) {attrs = {strides = array<i64: 2, 1>}, domain = "", node_name = "c2i", opset = 18 : i64} : (tensor<1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// AffineGrid: theta's translation column plus its other columns times the
// constant normalized coordinates (x along W, then y along H).
// CHECK-LABEL: func.func @affine_grid
// CHECK: %[[T:.*]] = tosa.transpose %arg0 {perms = array<i32: 0, 2, 1>} : (tensor<2x2x3xf32>) -> tensor<2x3x2xf32>
// CHECK: %[[B:.*]] = tosa.slice %[[T]]
// CHECK: %[[X:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}-1.000000e+00], [0.000000e+00], [1.000000e+00], [-1.000000e+00], [0.000000e+00], [1.000000e+00]]]> : tensor<1x6x1xf32>}>
// CHECK: %[[MX:.*]] = tosa.mul %{{.*}}, %[[X]]
// CHECK: %[[G1:.*]] = tosa.add %[[B]], %[[MX]]
// CHECK: %[[Y:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}-1.000000e+00], [-1.000000e+00], [-1.000000e+00], [1.000000e+00], [1.000000e+00], [1.000000e+00]]]> : tensor<1x6x1xf32>}>
// CHECK: %[[MY:.*]] = tosa.mul %{{.*}}, %[[Y]]
// CHECK: %[[G2:.*]] = tosa.add %[[G1]], %[[MY]]
// CHECK: tosa.reshape %[[G2]], %{{.*}} -> tensor<2x2x3x2xf32>
func.func @affine_grid(%t: tensor<2x2x3xf32>) -> !onnx.unknown {
  %s = onnx.constant "s" dense<[2, 1, 2, 3]> : tensor<4xi64> : tensor<4xi64>
  %0 = onnx.node "AffineGrid"(%t, %s) {attrs = {align_corners = 1 : i64}, domain = "", node_name = "ag", opset = 20 : i64} : (tensor<2x2x3xf32>, tensor<4xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
