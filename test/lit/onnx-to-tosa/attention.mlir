// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Q and K are each scaled by sqrt(1 / sqrt(head_size)) = 8^-1/4; the heads
// form the batch of both matmuls; a plain (max-subtracted) softmax between.
// CHECK-LABEL: func.func @attention_4d
// CHECK-SAME: -> tensor<2x3x4x5xf32>
// CHECK: %[[S:.*]] = "tosa.const"() <{values = dense<0.594603539> : tensor<1x1x1x1xf32>}>
// CHECK: %[[Q:.*]] = tosa.mul %arg0, %[[S]]
// CHECK: %[[K:.*]] = tosa.mul %arg1, %[[S]]
// CHECK: %[[KT:.*]] = tosa.transpose %[[K]] {perms = array<i32: 0, 1, 3, 2>}
// CHECK: tosa.matmul {{.*}} : (tensor<6x4x8xf32>, tensor<6x8x6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x4x6xf32>
// CHECK: tosa.reduce_max {{.*}} {axis = 3 : i32}
// CHECK: tosa.exp
// CHECK: tosa.reduce_sum {{.*}} {axis = 3 : i32}
// CHECK: tosa.matmul {{.*}} : (tensor<6x4x6xf32>, tensor<6x6x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x4x5xf32>
func.func @attention_4d(%q: tensor<2x3x4x8xf32>, %k: tensor<2x3x6x8xf32>, %v: tensor<2x3x6x5xf32>) -> !onnx.unknown {
  %0 = onnx.node "Attention"(%q, %k, %v) {attrs = {}, domain = "", node_name = "att", opset = 23 : i64} : (tensor<2x3x4x8xf32>, tensor<2x3x6x8xf32>, tensor<2x3x6x5xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// 3-D inputs are split into heads; each of the 2 KV heads serves 2 query
// heads (repeated with a tile); the boolean mask becomes 0 / -inf and adds
// to the compile-time causal mask; rows with no key give zeros.
// CHECK-LABEL: func.func @attention_gqa_causal_mask
// CHECK-SAME: -> tensor<1x4x16xf32>
// CHECK: %[[ZERO:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}>
// CHECK: %[[NEGINF:.*]] = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}>
// CHECK: %[[M:.*]] = tosa.select %{{.*}}, %[[ZERO]], %[[NEGINF]]
// CHECK: %[[CAUSAL:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}0.000000e+00, 0xFF800000, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0xFF800000, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0xFF800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]]]]> : tensor<1x1x4x4xf32>}>
// CHECK: %[[BIAS:.*]] = tosa.add %[[M]], %[[CAUSAL]]
// CHECK: tosa.tile {{.*}} -> tensor<1x2x2x4x4xf32>
// CHECK: %[[SCORES:.*]] = tosa.add %{{.*}}, %[[BIAS]]
// CHECK: %[[ISINF:.*]] = tosa.equal %[[BIAS]], %[[NEGINF]]
// CHECK: %[[NOKEY:.*]] = tosa.reduce_all %[[ISINF]] {axis = 3 : i32}
// CHECK: tosa.select %[[NOKEY]], %[[ZERO]]
// CHECK: tosa.reshape {{.*}} -> tensor<1x4x16xf32>
func.func @attention_gqa_causal_mask(%q: tensor<1x4x16xf32>, %k: tensor<1x4x8xf32>, %v: tensor<1x4x8xf32>, %m: tensor<4x4xi1>) -> !onnx.unknown {
  %0 = onnx.node "Attention"(%q, %k, %v, %m) {attrs = {q_num_heads = 4 : i64, kv_num_heads = 2 : i64, is_causal = 1 : i64}, domain = "", node_name = "att", opset = 23 : i64} : (tensor<1x4x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<4x4xi1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// The cache: past keys/values go in front and are also outputs.
// CHECK-LABEL: func.func @attention_past
// CHECK-SAME: -> (tensor<1x2x1x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>)
// CHECK: %[[K:.*]] = tosa.concat %arg3, %arg1 {axis = 2 : i32}
// CHECK: %[[V:.*]] = tosa.concat %arg4, %arg2 {axis = 2 : i32}
// CHECK: return %{{.*}}, %[[K]], %[[V]]
func.func @attention_past(%q: tensor<1x2x1x4xf32>, %k: tensor<1x2x1x4xf32>, %v: tensor<1x2x1x4xf32>, %pk: tensor<1x2x2x4xf32>, %pv: tensor<1x2x2x4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %none = onnx.none
  %0:3 = onnx.node "Attention"(%q, %k, %v, %none, %pk, %pv) {attrs = {}, domain = "", node_name = "att", opset = 23 : i64} : (tensor<1x2x1x4xf32>, tensor<1x2x1x4xf32>, tensor<1x2x1x4xf32>, none, tensor<1x2x2x4xf32>, tensor<1x2x2x4xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}
