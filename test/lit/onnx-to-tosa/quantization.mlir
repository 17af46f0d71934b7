// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// QuantizeLinear: round_half_even(x / scale) + zero point, saturated. The
// quotient is x * reciprocal(scale), refined by a Newton step whose residual
// is summed from exact products of pieces cut with floor; the uint8 result is
// computed in i32 and wrapped by the pass.
// CHECK-LABEL: func.func @quantize_u8
// CHECK: tosa.reciprocal %{{.*}} : (tensor<1xf32>) -> tensor<1xf32>
// CHECK: tosa.clamp %{{.*}} {max_val = 1.310720e+05 : f32, min_val = -1.310720e+05 : f32}
// CHECK: tosa.floor
// CHECK: tosa.clamp %{{.*}} {max_val = 2.550000e+02 : f32, min_val = 0.000000e+00 : f32} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[Y:.*]] = tosa.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: %[[W:.*]] = tosa.bitwise_and %[[Y]]
// CHECK: arith.trunci %[[W]] : tensor<4xi32> to tensor<4xi8>
func.func @quantize_u8(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<4xui8> {
  %0 = onnx.node "QuantizeLinear"(%x, %s, %z) {attrs = {}, domain = "", node_name = "q", opset = 21 : i64} : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// Per-axis scale and zero point broadcast along axis 1; int8 saturation.
// CHECK-LABEL: func.func @quantize_axis_i8
// CHECK-DAG: tosa.reshape %arg1, %{{.*}} -> tensor<1x3x1xf32>
// CHECK-DAG: tosa.cast %arg2 : (tensor<3xi8>) -> tensor<3xf32>
// CHECK: tosa.clamp %{{.*}} {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<2x3x4xf32>)
// CHECK: tosa.cast %{{.*}} : (tensor<2x3x4xf32>) -> tensor<2x3x4xi8>
func.func @quantize_axis_i8(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %z: tensor<3xi8>) -> !onnx.unknown {
  %0 = onnx.node "QuantizeLinear"(%x, %s, %z) {attrs = {axis = 1 : i64}, domain = "", node_name = "q", opset = 13 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xi8>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Blocked quantization: each scale repeated block_size times along the axis
// (the last block is short); output_dtype int16 without a zero point.
// CHECK-LABEL: func.func @quantize_blocked_i16
// CHECK: tosa.tile %{{.*}} : (tensor<3x3x1xf32>, !tosa.shape<3>) -> tensor<3x3x2xf32>
// CHECK: tosa.slice %{{.*}} : (tensor<3x6xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<3x5xf32>
// CHECK: tosa.clamp %{{.*}} {max_val = 3.276700e+04 : f32, min_val = -3.276800e+04 : f32}
// CHECK: tosa.cast %{{.*}} : (tensor<3x5xf32>) -> tensor<3x5xi16>
func.func @quantize_blocked_i16(%x: tensor<3x5xf32>, %s: tensor<3x3xf32>) -> tensor<3x5xi16> {
  %0 = onnx.node "QuantizeLinear"(%x, %s) {attrs = {axis = 1 : i64, block_size = 2 : i64, output_dtype = 5 : i64}, domain = "", node_name = "q", opset = 21 : i64} : (tensor<3x5xf32>, tensor<3x3xf32>) -> tensor<3x5xi16>
  return %0 : tensor<3x5xi16>
}

// DequantizeLinear: (x - zero point) * scale in f32 (exact difference).
// CHECK-LABEL: func.func @dequantize_u8
// CHECK-DAG: %[[X:.*]] = arith.extui %arg0 : tensor<4xi8> to tensor<4xi32>
// CHECK-DAG: %[[S:.*]] = tosa.reshape %arg1
// CHECK: %[[XF:.*]] = tosa.cast %[[X]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: %[[D:.*]] = tosa.sub %[[XF]], %{{.*}} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
// CHECK: %[[Y:.*]] = tosa.mul %[[D]], %[[S]], %{{.*}} : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
// CHECK: return %[[Y]]
func.func @dequantize_u8(%x: tensor<4xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<4xf32> {
  %0 = onnx.node "DequantizeLinear"(%x, %s, %z) {attrs = {}, domain = "", node_name = "dq", opset = 21 : i64} : (tensor<4xui8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Constant quantized data is read at compile time (uint8 included); the
// result is rounded to the scale's type.
// CHECK-LABEL: func.func @dequantize_const_f16
// CHECK: "tosa.const"() <{values = dense<[0.000000e+00, 7.000000e+00, 2.000000e+02, 2.550000e+02]> : tensor<4xf32>}>
// CHECK: tosa.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xf16>
func.func @dequantize_const_f16(%s: tensor<f16>) -> !onnx.unknown {
  %x = onnx.constant "w" dense<[0, 7, 200, 255]> : tensor<4xui8> : tensor<4xui8>
  %z = onnx.constant "wz" dense<128> : tensor<ui8> : tensor<ui8>
  %0 = onnx.node "DequantizeLinear"(%x, %s, %z) {attrs = {}, domain = "", node_name = "dq", opset = 21 : i64} : (tensor<4xui8>, tensor<f16>, tensor<ui8>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// DynamicQuantizeLinear: the range of x (with 0), scale = range / 255,
// zero point and data quantized to uint8.
// CHECK-LABEL: func.func @dynamic_quantize
// CHECK: tosa.reduce_max %{{.*}} {axis = 0 : i32} : (tensor<6xf32>) -> tensor<1xf32>
// CHECK: tosa.reduce_min %{{.*}} {axis = 0 : i32} : (tensor<6xf32>) -> tensor<1xf32>
// CHECK: tosa.clamp %{{.*}} {max_val = 2.550000e+02 : f32, min_val = 0.000000e+00 : f32} : (tensor<2x3xf32>)
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xi8>, tensor<f32>, tensor<i8>
func.func @dynamic_quantize(%x: tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) {
  %0:3 = onnx.node "DynamicQuantizeLinear"(%x) {attrs = {}, domain = "", node_name = "dql", opset = 11 : i64} : (tensor<2x3xf32>) -> (tensor<2x3xui8>, tensor<f32>, tensor<ui8>)
  return %0#0, %0#1, %0#2 : tensor<2x3xui8>, tensor<f32>, tensor<ui8>
}

// MatMulInteger: the centered operands are integers in [-255, 255]; their
// f32 products and sums are exact while below 2^24 (here k = 3).
// CHECK-LABEL: func.func @matmul_integer
// CHECK: tosa.reshape %{{.*}} -> tensor<1x2xf32>
// CHECK: tosa.matmul %{{.*}} : (tensor<1x4x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x2xf32>
// CHECK: tosa.cast %{{.*}} : (tensor<4x2xf32>) -> tensor<4x2xi32>
func.func @matmul_integer(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %az: tensor<ui8>, %bz: tensor<2xi8>) -> tensor<4x2xi32> {
  %0 = onnx.node "MatMulInteger"(%a, %b, %az, %bz) {attrs = {}, domain = "", node_name = "mmi", opset = 10 : i64} : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// k = 300 could reach 2^24: A is split into base-16 digits, one matmul
// each, combined in i32.
// CHECK-LABEL: func.func @matmul_integer_long
// CHECK: %[[H:.*]] = tosa.floor %{{.*}} : (tensor<2x300xf32>) -> tensor<2x300xf32>
// CHECK: tosa.matmul
// CHECK: %[[LO:.*]] = tosa.cast %{{.*}} : (tensor<2x2xf32>) -> tensor<2x2xi32>
// CHECK: tosa.reshape %[[H]]
// CHECK: tosa.matmul
// CHECK: %[[HI:.*]] = tosa.cast %{{.*}} : (tensor<2x2xf32>) -> tensor<2x2xi32>
// CHECK: %[[SHIFTED:.*]] = tosa.mul %[[HI]]
// CHECK: tosa.add %[[LO]], %[[SHIFTED]] : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
func.func @matmul_integer_long(%a: tensor<2x300xi8>, %b: tensor<300x2xi8>) -> tensor<2x2xi32> {
  %0 = onnx.node "MatMulInteger"(%a, %b) {attrs = {}, domain = "", node_name = "mmi", opset = 10 : i64} : (tensor<2x300xi8>, tensor<300x2xi8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// QLinearMatMul: the i32 accumulator times a_scale * b_scale / y_scale,
// rounded exactly (the accumulator cut into 12-bit pieces), then the zero
// point and int8 saturation.
// CHECK-LABEL: func.func @qlinear_matmul
// CHECK: tosa.matmul %{{.*}} -> tensor<1x2x3xf32>
// CHECK: tosa.logical_right_shift %{{.*}} : (tensor<2x3xi32>, tensor<1x1xi32>) -> tensor<2x3xi32>
// CHECK: tosa.clamp %{{.*}} {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<2x3xf32>)
// CHECK: tosa.cast %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi8>
func.func @qlinear_matmul(%a: tensor<2x4xi8>, %as: tensor<1xf32>, %az: tensor<1xi8>, %b: tensor<4x3xi8>, %bs: tensor<1xf32>, %bz: tensor<1xi8>, %ys: tensor<1xf32>, %yz: tensor<1xi8>) -> tensor<2x3xi8> {
  %0 = onnx.node "QLinearMatMul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) {attrs = {}, domain = "", node_name = "qmm", opset = 21 : i64} : (tensor<2x4xi8>, tensor<1xf32>, tensor<1xi8>, tensor<4x3xi8>, tensor<1xf32>, tensor<1xi8>, tensor<1xf32>, tensor<1xi8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// ConvInteger: an f32 conv2d of the centered data (padding with zeros is
// padding with the zero point).
// CHECK-LABEL: func.func @conv_integer
// CHECK: tosa.conv2d %{{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x3x1xf32>, tensor<2x2x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x2xf32>
// CHECK: tosa.cast %{{.*}} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xi32>
func.func @conv_integer(%x: tensor<1x1x3x3xui8>, %w: tensor<2x1x2x2xui8>, %xz: tensor<ui8>) -> tensor<1x2x4x4xi32> {
  %0 = onnx.node "ConvInteger"(%x, %w, %xz) {attrs = {pads = array<i64: 1, 1, 1, 1>}, domain = "", node_name = "ci", opset = 10 : i64} : (tensor<1x1x3x3xui8>, tensor<2x1x2x2xui8>, tensor<ui8>) -> tensor<1x2x4x4xi32>
  return %0 : tensor<1x2x4x4xi32>
}

// QLinearConv with per-channel weight scales and zero points and a bias.
// CHECK-LABEL: func.func @qlinear_conv
// CHECK: tosa.conv2d %{{.*}} -> tensor<1x3x3x4xf32>
// CHECK: tosa.add %{{.*}} : (tensor<1x4x3x3xi32>, tensor<1x4x1x1xi32>) -> tensor<1x4x3x3xi32>
// CHECK: tosa.clamp %{{.*}} {max_val = 2.550000e+02 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x4x3x3xf32>)
func.func @qlinear_conv(%x: tensor<1x2x5x5xui8>, %xs: tensor<f32>, %xz: tensor<ui8>, %w: tensor<4x2x3x3xui8>, %ws: tensor<4xf32>, %wz: tensor<4xui8>, %ys: tensor<f32>, %yz: tensor<ui8>, %bias: tensor<4xi32>) -> tensor<1x4x3x3xui8> {
  %0 = onnx.node "QLinearConv"(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %bias) {attrs = {}, domain = "", node_name = "qc", opset = 10 : i64} : (tensor<1x2x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<4x2x3x3xui8>, tensor<4xf32>, tensor<4xui8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x3x3xui8>
  return %0 : tensor<1x4x3x3xui8>
}

// QDQ without value_info: the intermediate uint8 type is not declared, so
// QuantizeLinear tells the pass what it computed (the result is tracked as
// uint8 data and dequantized from i32).
// CHECK-LABEL: func.func @qdq_undeclared
// CHECK: %[[Q:.*]] = tosa.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: %[[W:.*]] = tosa.bitwise_and %[[Q]]
// CHECK: %[[F:.*]] = tosa.cast %[[W]] : (tensor<4xi32>) -> tensor<4xf32>
// CHECK: %[[D:.*]] = tosa.sub %[[F]]
// CHECK: %[[Y:.*]] = tosa.mul %[[D]]
// CHECK: return %[[Y]] : tensor<4xf32>
func.func @qdq_undeclared(%x: tensor<4xf32>) -> !onnx.unknown {
  %s = onnx.constant "s" dense<1.000000e-01> : tensor<f32> : tensor<f32>
  %z = onnx.constant "z" dense<128> : tensor<ui8> : tensor<ui8>
  %q = onnx.node "QuantizeLinear"(%x, %s, %z) {attrs = {}, domain = "", node_name = "q", opset = 21 : i64} : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  %y = onnx.node "DequantizeLinear"(%q, %s, %z) {attrs = {}, domain = "", node_name = "dq", opset = 21 : i64} : (!onnx.unknown, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  return %y : !onnx.unknown
}
