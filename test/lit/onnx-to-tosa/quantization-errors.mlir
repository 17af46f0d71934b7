// Quantization and bit ops that cannot be legalized exactly are refused with
// the reason (the corresponding legalizations: quantization.mlir,
// elementwise-int.mlir).
// RUN: not onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa 2>&1 | FileCheck %s --check-prefix=ERR

// Quantizing to a type that is not a quantized type (here STRING).
// ERR: node 'q8' (QuantizeLinear, domain 'ai.onnx', opset 21): output_dtype 8 is not supported
func.func @quantize_string(%x: tensor<4xf32>, %s: tensor<f32>) -> !onnx.unknown {
  %0 = onnx.node "QuantizeLinear"(%x, %s) {attrs = {output_dtype = 8 : i64}, domain = "", node_name = "q8", opset = 21 : i64} : (tensor<4xf32>, tensor<f32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Narrow data is bit patterns: an op that would compute with them is
// refused (Cast, CastLike, QuantizeLinear and DequantizeLinear decode it).
// ERR: node 'mmi4' (MatMulInteger, domain 'ai.onnx', opset 10): input 0 has element type i4; int8 or uint8 is required
func.func @matmul_integer_int4(%a: tensor<2x2xi4>, %b: tensor<2x2xi8>) -> !onnx.unknown {
  %0 = onnx.node "MatMulInteger"(%a, %b) {attrs = {}, domain = "", node_name = "mmi4", opset = 10 : i64} : (tensor<2x2xi4>, tensor<2x2xi8>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'add8' (Add, domain 'ai.onnx', opset 14): input 0 has element type f8E4M3FN, which this op does not support
func.func @add_float8(%a: tensor<2xf8E4M3FN>, %b: tensor<2xf8E4M3FN>) -> !onnx.unknown {
  %0 = onnx.node "Add"(%a, %b) {attrs = {}, domain = "", node_name = "add8", opset = 14 : i64} : (tensor<2xf8E4M3FN>, tensor<2xf8E4M3FN>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// A run-time uint8 zero point arrives as i32, as uint16 would.
// ERR: node 'qu' (QuantizeLinear, domain 'ai.onnx', opset 21): the output type must be declared
func.func @quantize_undeclared(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<ui8>) -> !onnx.unknown {
  %0 = onnx.node "QuantizeLinear"(%x, %s, %z) {attrs = {}, domain = "", node_name = "qu", opset = 21 : i64} : (tensor<4xf32>, tensor<f32>, tensor<ui8>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Partial sums of 40000 products of [-255, 255] integers do not stay below
// 2^24 even for binary digits.
// ERR: node 'mmi' (MatMulInteger, domain 'ai.onnx', opset 10): a reduction over 40000 products is too long to accumulate exactly
func.func @matmul_integer_too_long(%a: tensor<1x40000xi8>, %b: tensor<40000x1xi8>) -> !onnx.unknown {
  %0 = onnx.node "MatMulInteger"(%a, %b) {attrs = {}, domain = "", node_name = "mmi", opset = 10 : i64} : (tensor<1x40000xi8>, tensor<40000x1xi8>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'bc' (BitCast, domain 'ai.onnx', opset 26): BitCast between f32 and i32 is not expressible in TOSA 1.0
func.func @bitcast_float(%x: tensor<3xf32>) -> tensor<3xi32> {
  %0 = onnx.node "BitCast"(%x) {attrs = {to = 6 : i64}, domain = "", node_name = "bc", opset = 26 : i64} : (tensor<3xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// ERR: node 'shl' (BitShift, domain 'ai.onnx', opset 11): signed integers are supported from opset 28 on
func.func @bitshift_signed_opset11(%x: tensor<3xi8>, %y: tensor<3xi8>) -> tensor<3xi8> {
  %0 = onnx.node "BitShift"(%x, %y) {attrs = {direction = "LEFT"}, domain = "", node_name = "shl", opset = 11 : i64} : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  return %0 : tensor<3xi8>
}

// -----

// i32 data may be int32, int64 or unsigned: the width needs the type.
// ERR: node 'shr' (BitShift, domain 'ai.onnx', opset 28): the output type must be declared
func.func @bitshift_undeclared(%x: tensor<3xi32>, %y: tensor<3xi32>) -> !onnx.unknown {
  %0 = onnx.node "BitShift"(%x, %y) {attrs = {direction = "RIGHT"}, domain = "", node_name = "shr", opset = 28 : i64} : (tensor<3xi32>, tensor<3xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
