// The boundary casts of int64 / float64 data leave the signature; the TOSA
// inside is unchanged.
// RUN: onnx-tosa-opt %s --onnx-tosa-strip-boundary-casts | FileCheck %s

// CHECK-LABEL: func.func @int64_in_and_out
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>) -> tensor<4xi32>
// CHECK-NOT: arith.
// CHECK: %[[Y:.*]] = tosa.add %[[X]], %[[X]]
// CHECK: return %[[Y]] : tensor<4xi32>
func.func @int64_in_and_out(%arg0: tensor<4xi64>) -> tensor<4xi64> {
  %0 = arith.trunci %arg0 : tensor<4xi64> to tensor<4xi32>
  %1 = tosa.add %0, %0 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = arith.extsi %1 : tensor<4xi32> to tensor<4xi64>
  return %2 : tensor<4xi64>
}

// An argument used both cast and as it is keeps its type.
// CHECK-LABEL: func.func @mixed_uses
// CHECK-SAME: (%{{.*}}: tensor<4xf64>) -> tensor<4xf64>
// CHECK: arith.truncf
func.func @mixed_uses(%arg0: tensor<4xf64>) -> tensor<4xf64> {
  %0 = arith.truncf %arg0 : tensor<4xf64> to tensor<4xf32>
  %1 = tosa.abs %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %arg0 : tensor<4xf64>
}
