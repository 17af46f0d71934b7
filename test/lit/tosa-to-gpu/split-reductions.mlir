// RUN: onnx-tosa-opt %s --onnx-tosa-tosa-to-linalg | FileCheck %s

// A sum over few rows of a length no split ratio divides (4097): the input
// is padded with the sum's neutral element (0) to 65 x 64, so that 64
// threads per row each sum 65 elements and a second reduction their 64
// partial sums, where one thread summed the 4097 in order (less accurate,
// and 4 threads for the whole op).
// CHECK-LABEL: func.func @sum_4097
// CHECK: %[[PAD:.*]] = tensor.pad %{{.*}} low[0, 0, 0] high[0, 0, 63]
// CHECK: tensor.yield %{{.*}} : f32
// CHECK: tensor.expand_shape %[[PAD]] {{\[\[}}0], [1], [2, 3]] output_shape [4, 1, 65, 64]
// CHECK: %[[P:.*]] = linalg.generic {{.*}}outs(%{{.*}} : tensor<4x1x64xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}ins(%[[P]] : tensor<4x1x64xf32>)
// CHECK: arith.addf
func.func @sum_4097(%arg0: tensor<4x4097xf32>) -> tensor<4x1xf32> {
  %r = tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<4x4097xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// A reduction with more than its combiner in the body (argmax) is not
// padded: its length stays as it is.
// CHECK-LABEL: func.func @argmax_4097
// CHECK-NOT: tensor.pad
// CHECK: return
func.func @argmax_4097(%arg0: tensor<4x4097xf32>) -> tensor<4xi32> {
  %r = tosa.argmax %arg0 {axis = 1 : i32} : (tensor<4x4097xf32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
