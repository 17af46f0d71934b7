// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// A batch of 2x2 matrices: entries as [batch, 1] slices, a compare-and-swap
// row exchange that flips the sign, a guarded pivot, one elimination step.
// CHECK-LABEL: func.func @det_batch
// CHECK-SAME: -> tensor<3xf32>
// CHECK: %[[FLAT:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<3x4xf32>
// CHECK-COUNT-4: tosa.slice %[[FLAT]]
// CHECK: %[[SWAP:.*]] = tosa.greater
// CHECK-COUNT-4: tosa.select %[[SWAP]]
// CHECK: tosa.negate
// CHECK: tosa.select %[[SWAP]]
// CHECK: tosa.equal
// CHECK: tosa.reciprocal
// CHECK: tosa.sub
// CHECK: %[[D:.*]] = tosa.mul
// CHECK: tosa.reshape %[[D]], %{{.*}} -> tensor<3xf32>
func.func @det_batch(%x: tensor<3x2x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "Det"(%x) {attrs = {}, domain = "", node_name = "d", opset = 11 : i64} : (tensor<3x2x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
