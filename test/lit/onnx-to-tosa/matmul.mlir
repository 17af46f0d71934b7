// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// 2-D operands run as a batch of one, with zero points.
// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: -> tensor<3x5xf32>
// CHECK: %[[A:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x3x4xf32>
// CHECK: %[[B:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x4x5xf32>
// CHECK: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK: %[[P:.*]] = tosa.matmul %[[A]], %[[B]], %[[ZP]], %[[ZP]] : (tensor<1x3x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x5xf32>
// CHECK: tosa.reshape %[[P]], %{{.*}} -> tensor<3x5xf32>
func.func @matmul_2d(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> !onnx.unknown {
  %0 = onnx.node "MatMul"(%a, %b) {attrs = {}, domain = "", node_name = "mm", opset = 13 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// A shared (weight) right operand: the batch folds into the rows, and the
// constant is reshaped at compile time.
// CHECK-LABEL: func.func @matmul_weight
// CHECK: %[[A:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x6x4xf32>
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x4x5xf32>}>
// CHECK: %[[P:.*]] = tosa.matmul %[[A]], %[[W]]
// CHECK-SAME: -> tensor<1x6x5xf32>
// CHECK: tosa.reshape %[[P]], %{{.*}} -> tensor<2x3x5xf32>
func.func @matmul_weight(%a: tensor<2x3x4xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<1.0> : tensor<4x5xf32> : tensor<4x5xf32>
  %0 = onnx.node "MatMul"(%a, %w) {attrs = {}, domain = "", node_name = "mm", opset = 13 : i64} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Batch dimensions broadcast: both sides are tiled to [2, 3] and flattened.
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK-SAME: -> tensor<2x3x3x5xf32>
// CHECK: %[[TA:.*]] = tosa.tile %arg0, %{{.*}} : (tensor<2x1x3x4xf32>, !tosa.shape<4>) -> tensor<2x3x3x4xf32>
// CHECK: %[[A:.*]] = tosa.reshape %[[TA]], %{{.*}} -> tensor<6x3x4xf32>
// CHECK: %[[RB:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<1x3x4x5xf32>
// CHECK: %[[TB:.*]] = tosa.tile %[[RB]], %{{.*}} -> tensor<2x3x4x5xf32>
// CHECK: %[[B:.*]] = tosa.reshape %[[TB]], %{{.*}} -> tensor<6x4x5xf32>
// CHECK: tosa.matmul %[[A]], %[[B]]
// CHECK-SAME: -> tensor<6x3x5xf32>
func.func @matmul_broadcast(%a: tensor<2x1x3x4xf32>, %b: tensor<3x4x5xf32>) -> !onnx.unknown {
  %0 = onnx.node "MatMul"(%a, %b) {attrs = {}, domain = "", node_name = "mm", opset = 13 : i64} : (tensor<2x1x3x4xf32>, tensor<3x4x5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// 1-D operands gain a unit dimension that the result drops again.
// CHECK-LABEL: func.func @matmul_vectors
// CHECK-SAME: -> (tensor<2x5xf32>, tensor<3xf32>)
// CHECK: tosa.matmul {{.*}} -> tensor<2x1x5xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<2x5xf32>
// CHECK: tosa.matmul {{.*}} -> tensor<1x3x1xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<3xf32>
func.func @matmul_vectors(%v: tensor<4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0 = onnx.node "MatMul"(%v, %b) {attrs = {}, domain = "", node_name = "vm", opset = 13 : i64} : (tensor<4xf32>, tensor<2x4x5xf32>) -> !onnx.unknown
  %1 = onnx.node "MatMul"(%m, %v) {attrs = {}, domain = "", node_name = "mv", opset = 13 : i64} : (tensor<3x4xf32>, tensor<4xf32>) -> !onnx.unknown
  return %0, %1 : !onnx.unknown, !onnx.unknown
}

// Gemm: Y = A * B + C with C broadcast over the rows.
// CHECK-LABEL: func.func @gemm
// CHECK: %[[P:.*]] = tosa.matmul
// CHECK: %[[Y:.*]] = tosa.reshape %[[P]], %{{.*}} -> tensor<3x5xf32>
// CHECK: %[[C:.*]] = tosa.reshape %arg2, %{{.*}} -> tensor<1x5xf32>
// CHECK: tosa.add %[[Y]], %[[C]]
func.func @gemm(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5xf32>) -> !onnx.unknown {
  %0 = onnx.node "Gemm"(%a, %b, %c) {attrs = {}, domain = "", node_name = "g", opset = 13 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// transB of a constant happens at compile time; alpha scales the product;
// beta scales a constant C at compile time.
// CHECK-LABEL: func.func @gemm_trans
// CHECK: %[[AT:.*]] = tosa.transpose %arg0 {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: %[[B:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]]> : tensor<1x2x2xf32>}>
// CHECK-NOT: tosa.transpose
// CHECK: tosa.matmul %{{.*}}, %[[B]]
// CHECK: %[[ALPHA:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1xf32>}>
// CHECK: %[[Y:.*]] = tosa.mul %{{.*}}, %[[ALPHA]]
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x2xf32>}>
// CHECK: tosa.add %[[Y]], %[[C]]
func.func @gemm_trans(%a: tensor<2x3xf32>) -> !onnx.unknown {
  %b = onnx.constant "b" dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32> : tensor<2x2xf32>
  %c = onnx.constant "c" dense<[1.0, 1.0]> : tensor<2xf32> : tensor<2xf32>
  %0 = onnx.node "Gemm"(%a, %b, %c) {attrs = {transA = 1 : i64, transB = 1 : i64, alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32}, domain = "", node_name = "g", opset = 13 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>, tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Without C (optional from opset 11) Gemm is the scaled product.
// CHECK-LABEL: func.func @gemm_no_c
// CHECK: tosa.matmul
// CHECK-NOT: tosa.add
// CHECK: return
func.func @gemm_no_c(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> !onnx.unknown {
  %none = onnx.none
  %0 = onnx.node "Gemm"(%a, %b, %none) {attrs = {}, domain = "", node_name = "g", opset = 13 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>, none) -> !onnx.unknown
  return %0 : !onnx.unknown
}
