// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Narrow data (float8, float4, 4- and 2-bit integers) is carried as i8 bit
// patterns; the signature marks it with its ONNX type (docs/types.md).

// f32 -> FLOAT8E4M3FN: |x| is compared with the 127 midpoints between
// representable magnitudes (> where a tie rounds down to an even code, >=
// where it rounds up), the counts are the code; the overflow code 127
// saturates to 126 (448), the sign adds 0x80 (-0 found by 1/x < 0), NaN
// gives 0x7F.
// CHECK-LABEL: func.func @cast_f32_to_e4m3fn
// CHECK-SAME: -> (tensor<3x5xi8> {onnx.element_type = f8E4M3FN})
// CHECK: %[[ABS:[0-9]+]] = tosa.abs %arg0
// CHECK: %[[FLAT:[0-9]+]] = tosa.reshape %[[ABS]], %{{.*}} -> tensor<15x1xf32>
// CHECK: %[[EVEN:[0-9]+]] = "tosa.const"() <{values = dense<{{\[\[}}9.765625E-4, {{.*}}, 4.640000e+02]]> : tensor<1x64xf32>}>
// CHECK: tosa.greater %[[FLAT]], %[[EVEN]] : (tensor<15x1xf32>, tensor<1x64xf32>) -> tensor<15x64xi1>
// CHECK: tosa.reduce_sum %{{.*}} {axis = 1 : i32} : (tensor<15x64xi32>) -> tensor<15x1xi32>
// CHECK: %[[ODD:[0-9]+]] = "tosa.const"() <{values = dense<{{\[\[}}0.0029296875, {{.*}}, 4.320000e+02]]> : tensor<1x63xf32>}>
// CHECK: tosa.greater_equal %[[FLAT]], %[[ODD]] : (tensor<15x1xf32>, tensor<1x63xf32>) -> tensor<15x63xi1>
// CHECK: %[[CODE:[0-9]+]] = tosa.reshape %{{.*}} -> tensor<3x5xi32>
// CHECK: %[[NAN:[0-9]+]] = "tosa.const"() <{values = dense<127> : tensor<1x1xi32>}>
// CHECK: %[[OVF:[0-9]+]] = tosa.equal %[[CODE]], %[[NAN]]
// CHECK: %[[MAX:[0-9]+]] = "tosa.const"() <{values = dense<126> : tensor<1x1xi32>}>
// CHECK: tosa.select %[[OVF]], %[[MAX]], %[[CODE]]
// CHECK: tosa.reciprocal %arg0
// CHECK: %[[SIGN:[0-9]+]] = "tosa.const"() <{values = dense<128> : tensor<1x1xi32>}>
// CHECK: tosa.select %{{.*}}, %[[SIGN]], %{{.*}}
// CHECK: %[[ORD:[0-9]+]] = tosa.equal %arg0, %arg0
// CHECK: %[[UN:[0-9]+]] = tosa.logical_not %[[ORD]]
// CHECK: %[[R:[0-9]+]] = tosa.select %[[UN]], %[[NAN]], %{{.*}}
// CHECK: %[[B:[0-9]+]] = tosa.cast %[[R]] : (tensor<3x5xi32>) -> tensor<3x5xi8>
// CHECK: return %[[B]]
func.func @cast_f32_to_e4m3fn(%x: tensor<3x5xf32>) -> tensor<3x5xf8E4M3FN> {
  %0 = onnx.node "Cast"(%x) {attrs = {to = 17 : i64}, domain = "", node_name = "c", opset = 21 : i64} : (tensor<3x5xf32>) -> tensor<3x5xf8E4M3FN>
  return %0 : tensor<3x5xf8E4M3FN>
}

// Without saturation, E5M2 overflows to Inf (0x7C, 0xFC with the sign).
// CHECK-LABEL: func.func @cast_no_saturate_e5m2
// CHECK: %[[CODE:[0-9]+]] = tosa.reshape %{{.*}} -> tensor<4xi32>
// CHECK: %[[INF:[0-9]+]] = "tosa.const"() <{values = dense<124> : tensor<1xi32>}>
// CHECK: %[[OVF:[0-9]+]] = tosa.equal %[[CODE]], %[[INF]]
// CHECK: tosa.select %[[OVF]], %[[INF]], %[[CODE]]
func.func @cast_no_saturate_e5m2(%x: tensor<4xf16>) -> tensor<4xf8E5M2> {
  %0 = onnx.node "Cast"(%x) {attrs = {saturate = 0 : i64, to = 19 : i64}, domain = "", node_name = "c", opset = 21 : i64} : (tensor<4xf16>) -> tensor<4xf8E5M2>
  return %0 : tensor<4xf8E5M2>
}

// FLOAT8E5M2 -> f32: the value of each of the 256 codes is gathered by code.
// CHECK-LABEL: func.func @cast_e5m2_to_f32
// CHECK-SAME: (%arg0: tensor<2x3xi8> {onnx.element_type = f8E5M2})
// CHECK: %[[TABLE:[0-9]+]] = "tosa.const"() {{.*}} : tensor<1x256x1xf32>
// CHECK: %[[FLAT:[0-9]+]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x6xi8>
// CHECK: %[[WIDE:[0-9]+]] = tosa.cast %[[FLAT]] : (tensor<1x6xi8>) -> tensor<1x6xi32>
// CHECK: %[[MASK:[0-9]+]] = "tosa.const"() <{values = dense<255> : tensor<1x1xi32>}>
// CHECK: %[[CODE:[0-9]+]] = tosa.bitwise_and %[[WIDE]], %[[MASK]]
// CHECK: %[[G:[0-9]+]] = tosa.gather %[[TABLE]], %[[CODE]] : (tensor<1x256x1xf32>, tensor<1x6xi32>) -> tensor<1x6x1xf32>
// CHECK: tosa.reshape %[[G]], %{{.*}} -> tensor<2x3xf32>
func.func @cast_e5m2_to_f32(%x: tensor<2x3xf8E5M2>) -> tensor<2x3xf32> {
  %0 = onnx.node "Cast"(%x) {attrs = {to = 1 : i64}, domain = "", node_name = "c", opset = 21 : i64} : (tensor<2x3xf8E5M2>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// INT4 -> int8: the input's low 4 bits are kept on entry (an int8 -1 reads
// as 0xF), then decoded through a table of 16 values.
// CHECK-LABEL: func.func @cast_int4_to_int8
// CHECK-SAME: (%arg0: tensor<5xi8> {onnx.element_type = i4})
// CHECK: %[[LOW:[0-9]+]] = "tosa.const"() <{values = dense<15> : tensor<1xi8>}>
// CHECK: tosa.bitwise_and %arg0, %[[LOW]] : (tensor<5xi8>, tensor<1xi8>) -> tensor<5xi8>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[}}0], [1], [2], [3], [4], [5], [6], [7], [-8], [-7], [-6], [-5], [-4], [-3], [-2], [-1]]]> : tensor<1x16x1xi32>}>
// CHECK: tosa.gather
// CHECK: tosa.cast %{{.*}} : (tensor<5xi32>) -> tensor<5xi8>
func.func @cast_int4_to_int8(%x: tensor<5xi4>) -> tensor<5xi8> {
  %0 = onnx.node "Cast"(%x) {attrs = {to = 3 : i64}, domain = "", node_name = "c", opset = 21 : i64} : (tensor<5xi4>) -> tensor<5xi8>
  return %0 : tensor<5xi8>
}

// f32 -> UINT4: truncated toward zero, 0 outside [0, 15] (and for NaN),
// the low 4 bits kept.
// CHECK-LABEL: func.func @cast_f32_to_uint4
// CHECK-SAME: -> (tensor<4xi8> {onnx.element_type = ui4})
// CHECK: tosa.floor
// CHECK: tosa.ceil
// CHECK: "tosa.const"() <{values = dense<1.500000e+01> : tensor<1xf32>}>
// CHECK: tosa.logical_and
// CHECK: tosa.cast %{{.*}} : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: "tosa.const"() <{values = dense<15> : tensor<1xi32>}>
// CHECK: tosa.bitwise_and
// CHECK: tosa.cast %{{.*}} : (tensor<4xi32>) -> tensor<4xi8>
func.func @cast_f32_to_uint4(%x: tensor<4xf32>) -> tensor<4xui4> {
  %0 = onnx.node "Cast"(%x) {attrs = {to = 21 : i64}, domain = "", node_name = "c", opset = 21 : i64} : (tensor<4xf32>) -> tensor<4xui4>
  return %0 : tensor<4xui4>
}

// CastLike takes the narrow type of its (here empty) second input.
// CHECK-LABEL: func.func @castlike_float4
// CHECK-SAME: (%arg0: tensor<4xf32>, %arg1: tensor<0xi8> {onnx.element_type = f4E2M1FN}) -> (tensor<4xi8> {onnx.element_type = f4E2M1FN})
// CHECK: "tosa.const"() <{values = dense<{{\[\[}}2.500000e-01, 1.250000e+00, 2.500000e+00, 5.000000e+00]]> : tensor<1x4xf32>}>
// CHECK: tosa.greater %{{.*}} : (tensor<4x1xf32>, tensor<1x4xf32>) -> tensor<4x4xi1>
// CHECK: "tosa.const"() <{values = dense<{{\[\[}}7.500000e-01, 1.750000e+00, 3.500000e+00, 7.000000e+00]]> : tensor<1x4xf32>}>
func.func @castlike_float4(%x: tensor<4xf32>, %like: tensor<0xf4E2M1FN>) -> tensor<4xf4E2M1FN> {
  %0 = onnx.node "CastLike"(%x, %like) {attrs = {}, domain = "", node_name = "c", opset = 21 : i64} : (tensor<4xf32>, tensor<0xf4E2M1FN>) -> tensor<4xf4E2M1FN>
  return %0 : tensor<4xf4E2M1FN>
}

// Data movement moves the bits; the result keeps the type of its data.
// CHECK-LABEL: func.func @transpose_e4m3fnuz
// CHECK-SAME: (%arg0: tensor<2x3xi8> {onnx.element_type = f8E4M3FNUZ}) -> (tensor<3x2xi8> {onnx.element_type = f8E4M3FNUZ})
// CHECK: tosa.transpose %arg0 {perms = array<i32: 1, 0>} : (tensor<2x3xi8>) -> tensor<3x2xi8>
func.func @transpose_e4m3fnuz(%x: tensor<2x3xf8E4M3FNUZ>) -> !onnx.unknown {
  %0 = onnx.node "Transpose"(%x) {attrs = {perm = array<i64: 1, 0>}, domain = "", node_name = "t", opset = 21 : i64} : (tensor<2x3xf8E4M3FNUZ>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// A narrow constant becomes its bit patterns (0.5 and -2 in E4M3FN).
// CHECK-LABEL: func.func @constant_e4m3fn
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<[48, -64]> : tensor<2xi8>}>
// CHECK: return %[[C]] : tensor<2xi8>
func.func @constant_e4m3fn() -> tensor<2xf8E4M3FN> {
  %0 = onnx.constant "w" dense<[0.5, -2.0]> : tensor<2xf8E4M3FN> : tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}

// QuantizeLinear to INT4: round half to even, plus the (decoded) zero point,
// saturated to [-8, 7], the low 4 bits kept.
// CHECK-LABEL: func.func @quantize_int4
// CHECK-SAME: -> (tensor<4xi8> {onnx.element_type = i4})
// CHECK: tosa.gather %{{.*}} : (tensor<1x16x1xi32>, tensor<1x1xi32>) -> tensor<1x1x1xi32>
// CHECK: tosa.clamp %{{.*}} {max_val = 7.000000e+00 : f32, min_val = -8.000000e+00 : f32}
// CHECK: tosa.bitwise_and
// CHECK: tosa.cast %{{.*}} : (tensor<4xi32>) -> tensor<4xi8>
func.func @quantize_int4(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<1xi4>) -> tensor<4xi4> {
  %0 = onnx.node "QuantizeLinear"(%x, %s, %z) {attrs = {}, domain = "", node_name = "q", opset = 21 : i64} : (tensor<4xf32>, tensor<f32>, tensor<1xi4>) -> tensor<4xi4>
  return %0 : tensor<4xi4>
}

// DequantizeLinear of FLOAT8E4M3FN weights with a constant zero point is
// decoded and computed at compile time: (0.5 - 0) * 2, (-2 - 0) * 2.
// CHECK-LABEL: func.func @dequantize_e4m3fn_constant
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<[1.000000e+00, -4.000000e+00]> : tensor<2xf32>}>
// CHECK: return %[[C]]
func.func @dequantize_e4m3fn_constant() -> tensor<2xf32> {
  %x = onnx.constant "x" dense<[0.5, -2.0]> : tensor<2xf8E4M3FN> : tensor<2xf8E4M3FN>
  %s = onnx.constant "s" dense<2.0> : tensor<f32> : tensor<f32>
  %z = onnx.constant "z" dense<0.0> : tensor<f8E4M3FN> : tensor<f8E4M3FN>
  %0 = onnx.node "DequantizeLinear"(%x, %s, %z) {attrs = {}, domain = "", node_name = "d", opset = 21 : i64} : (tensor<2xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
