// RUN: onnx-tosa-opt %s --split-input-file --onnx-tosa-sink-reshapes | FileCheck %s

// ONNX's MatMul of [2, 3, 4] by [4, 5] is a MATMUL of [1, 6, 4], reshaped
// back to [2, 3, 5]. The bias (along the last dimension, which the reshape
// keeps) and the GELU-like chain after it move above the reshape, into the
// matmul's shape; the reshape to the next matmul's [1, 6, 5] then folds with
// the one they left behind (and the bias's reshape to its own shape).
// CHECK-LABEL: func.func @bias_and_activation
// CHECK: %[[MM:.*]] = tosa.matmul
// CHECK-NEXT: %[[ADD:.*]] = tosa.add %[[MM]], %arg2 : (tensor<1x6x5xf32>, tensor<1x1x5xf32>) -> tensor<1x6x5xf32>
// CHECK: %[[ERF:.*]] = tosa.erf %[[ADD]] : (tensor<1x6x5xf32>) -> tensor<1x6x5xf32>
// CHECK: %[[MUL:.*]] = tosa.mul %[[ADD]], %[[ERF]], %{{.*}} : (tensor<1x6x5xf32>, tensor<1x6x5xf32>, tensor<1xi8>) -> tensor<1x6x5xf32>
// CHECK-NOT: tosa.reshape
// CHECK: return %[[MUL]] : tensor<1x6x5xf32>
func.func @bias_and_activation(%a: tensor<1x6x4xf32>, %b: tensor<1x4x5xf32>, %bias: tensor<1x1x5xf32>) -> tensor<1x6x5xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %onnx = tosa.const_shape {values = dense<[2, 3, 5]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat = tosa.const_shape {values = dense<[1, 6, 5]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %mm = tosa.matmul %a, %b, %zp, %zp : (tensor<1x6x4xf32>, tensor<1x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x5xf32>
  %r = tosa.reshape %mm, %onnx : (tensor<1x6x5xf32>, !tosa.shape<3>) -> tensor<2x3x5xf32>
  %add = tosa.add %r, %bias : (tensor<2x3x5xf32>, tensor<1x1x5xf32>) -> tensor<2x3x5xf32>
  %erf = tosa.erf %add : (tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %mul = tosa.mul %add, %erf, %shift : (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<1xi8>) -> tensor<2x3x5xf32>
  %back = tosa.reshape %mul, %flat : (tensor<2x3x5xf32>, !tosa.shape<3>) -> tensor<1x6x5xf32>
  return %back : tensor<1x6x5xf32>
}

// -----

// An operand that varies along a dimension the reshape changes (a mask per
// batch over [batch * heads, ...] scores) keeps the op where it is.
// CHECK-LABEL: func.func @varies_along_changed_dimension
// CHECK: %[[R:.*]] = tosa.reshape %{{.*}} -> tensor<2x3x4x4xf32>
// CHECK: tosa.add %[[R]], %{{.*}} : (tensor<2x3x4x4xf32>, tensor<2x1x1x4xf32>)
func.func @varies_along_changed_dimension(%s: tensor<6x4x4xf32>, %mask: tensor<2x1x1x4xf32>) -> tensor<2x3x4x4xf32> {
  %shape = tosa.const_shape {values = dense<[2, 3, 4, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r = tosa.reshape %s, %shape : (tensor<6x4x4xf32>, !tosa.shape<4>) -> tensor<2x3x4x4xf32>
  %add = tosa.add %r, %mask : (tensor<2x3x4x4xf32>, tensor<2x1x1x4xf32>) -> tensor<2x3x4x4xf32>
  return %add : tensor<2x3x4x4xf32>
}

// -----

// Two reshapes of tensors of the same shape: the op takes both sources, a
// scalar-like operand is reshaped to their rank; CAST moves too.
// CHECK-LABEL: func.func @two_reshapes
// CHECK: %[[SUB:.*]] = tosa.sub %arg0, %arg1 : (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x4xf32>
// CHECK: %[[MAX:.*]] = tosa.maximum %[[SUB]], %{{.*}} : (tensor<6x4xf32>, tensor<1x1xf32>) -> tensor<6x4xf32>
// CHECK: %[[CAST:.*]] = tosa.cast %[[MAX]] : (tensor<6x4xf32>) -> tensor<6x4xf16>
// CHECK: %[[OUT:.*]] = tosa.reshape %[[CAST]], %{{.*}} -> tensor<2x3x4xf16>
// CHECK: return %[[OUT]]
func.func @two_reshapes(%x: tensor<6x4xf32>, %y: tensor<6x4xf32>) -> tensor<2x3x4xf16> {
  %shape = tosa.const_shape {values = dense<[2, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %rx = tosa.reshape %x, %shape : (tensor<6x4xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
  %ry = tosa.reshape %y, %shape : (tensor<6x4xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
  %sub = tosa.sub %rx, %ry : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %max = tosa.maximum %sub, %zero : (tensor<2x3x4xf32>, tensor<1x1x1xf32>) -> tensor<2x3x4xf32>
  %cast = tosa.cast %max : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>
  return %cast : tensor<2x3x4xf16>
}

// -----

// A result-sized operand that is not a reshape of the same shape stays: a
// reshape of it would be a reshape to move back (rank 0 and [1] took turns).
// CHECK-LABEL: func.func @result_sized_operand
// CHECK: %[[R:.*]] = tosa.reshape %arg0
// CHECK: tosa.mul %[[R]], %arg1
func.func @result_sized_operand(%x: tensor<f32>, %y: tensor<1xf32>) -> tensor<1xf32> {
  %shape = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %r = tosa.reshape %x, %shape : (tensor<f32>, !tosa.shape<1>) -> tensor<1xf32>
  %mul = tosa.mul %r, %y, %shift : (tensor<1xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<1xf32>
  return %mul : tensor<1xf32>
}
