// RUN: onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa | mlir-opt -split-input-file --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Operands already in [batch, rows, summed] / [batch, summed, cols] order
// are one matmul, with no transposes; spaces in the equation are ignored.
// CHECK-LABEL: func.func @batch_matmul
// CHECK-NOT: tosa.transpose
// CHECK: %[[P:.*]] = tosa.matmul %arg0, %arg1, %{{.*}}, %{{.*}} : {{.*}} -> tensor<5x2x4xf32>
// CHECK-NEXT: return %[[P]]
func.func @batch_matmul(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Einsum"(%a, %b) {attrs = {equation = "bij, bjk -> bik"}, domain = "", node_name = "e", opset = 12 : i64} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Implicit output: the subscripts used once, sorted ("ik"); the right side
// is transposed to [summed, cols].
// CHECK-LABEL: func.func @implicit_output
// CHECK-SAME: -> tensor<3x5xf32>
// CHECK: %[[A:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x3x4xf32>
// CHECK: %[[T:.*]] = tosa.transpose %arg1 {perms = array<i32: 1, 0>}
// CHECK: %[[B:.*]] = tosa.reshape %[[T]], %{{.*}} -> tensor<1x4x5xf32>
// CHECK: %[[P:.*]] = tosa.matmul %[[A]], %[[B]]
// CHECK: tosa.reshape %[[P]], %{{.*}} -> tensor<3x5xf32>
func.func @implicit_output(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Einsum"(%a, %b) {attrs = {equation = "ij,kj"}, domain = "", node_name = "e", opset = 12 : i64} : (tensor<3x4xf32>, tensor<5x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// A repeated subscript takes the diagonal: [..., n, n] -> [..., n*n], every
// (n+1)-th element; the ellipsis covers the leading dimension.
// CHECK-LABEL: func.func @batch_diagonal
// CHECK-SAME: -> tensor<3x5xf32>
// CHECK: tosa.reshape %arg0, %{{.*}} -> tensor<3x25xf32>
// CHECK: tosa.slice
// CHECK: tosa.reshape %{{.*}} -> tensor<3x5xf32>
// CHECK-NOT: tosa.matmul
func.func @batch_diagonal(%a: tensor<3x5x5xf32>) -> !onnx.unknown {
  %0 = onnx.node "Einsum"(%a) {attrs = {equation = "...ii->...i"}, domain = "", node_name = "e", opset = 12 : i64} : (tensor<3x5x5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// One operand: summed subscripts are reduced, the rest transposed.
// CHECK-LABEL: func.func @sum_transpose
// CHECK: %[[S:.*]] = tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK: %[[R:.*]] = tosa.reshape %[[S]], %{{.*}} -> tensor<2x4xf32>
// CHECK: tosa.transpose %[[R]] {perms = array<i32: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
func.func @sum_transpose(%a: tensor<2x3x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Einsum"(%a) {attrs = {equation = "ijk->ki"}, domain = "", node_name = "e", opset = 12 : i64} : (tensor<2x3x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Three operands contract left to right.
// CHECK-LABEL: func.func @chain
// CHECK: tosa.matmul {{.*}} -> tensor<1x2x4xf32>
// CHECK: tosa.matmul {{.*}} -> tensor<1x2x5xf32>
// CHECK: tosa.reshape %{{.*}} -> tensor<2x5xf32>
func.func @chain(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4x5xf32>) -> !onnx.unknown {
  %0 = onnx.node "Einsum"(%a, %b, %c) {attrs = {equation = "ij,jk,kl->il"}, domain = "", node_name = "e", opset = 12 : i64} : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4x5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Ellipsis dimensions broadcast like numpy, aligned from the right: the
// size-1 dimension of %a stretches to 5 (a batch dimension of the matmul),
// its extra leading dimension joins the rows.
// CHECK-LABEL: func.func @ellipsis_broadcast
// CHECK-SAME: -> tensor<2x5x3x6xf32>
// CHECK: tosa.tile {{.*}} -> tensor<5x2x3x4xf32>
// CHECK: tosa.matmul {{.*}} -> tensor<5x6x6xf32>
// CHECK: tosa.transpose {{.*}} -> tensor<2x5x3x6xf32>
func.func @ellipsis_broadcast(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> !onnx.unknown {
  %0 = onnx.node "Einsum"(%a, %b) {attrs = {equation = "...ij,...jk->...ik"}, domain = "", node_name = "e", opset = 12 : i64} : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// "->" on a scalar is the scalar itself.
// CHECK-LABEL: func.func @scalar
// CHECK-NEXT: return %arg0
func.func @scalar(%a: tensor<f32>) -> !onnx.unknown {
  %0 = onnx.node "Einsum"(%a) {attrs = {equation = "->"}, domain = "", node_name = "e", opset = 12 : i64} : (tensor<f32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
