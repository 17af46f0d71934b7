// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Gated delta rule, two tokens, GQA (4 query heads on 2 KV heads): per
// token the [B * H_kv, d_k, d_v] state is decayed, the retrieved value
// S^T k subtracted and scaled by beta, k v^T added, and the query group of
// each KV head reads the state with one matmul.
// CHECK-LABEL: func.func @gated_delta_gqa
// CHECK-SAME: -> (tensor<2x2x16xf32>, tensor<2x2x4x4xf32>)
// CHECK: tosa.exp
// CHECK: %[[S0:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<4x4x4xf32>}>
// CHECK: %[[D0:.*]] = tosa.mul %[[S0]], {{.*}} : (tensor<4x4x4xf32>, tensor<4x4x1xf32>, tensor<1xi8>) -> tensor<4x4x4xf32>
// CHECK: %[[R0:.*]] = tosa.matmul {{.*}}, %[[D0]], {{.*}} : (tensor<4x1x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x4xf32>
// CHECK: %[[U0:.*]] = tosa.sub {{.*}}, %[[R0]]
// CHECK: %[[V0:.*]] = tosa.mul {{.*}}, %[[U0]], {{.*}} : (tensor<4x1x1xf32>, tensor<4x1x4xf32>, tensor<1xi8>) -> tensor<4x1x4xf32>
// CHECK: %[[KV0:.*]] = tosa.mul {{.*}}, %[[V0]], {{.*}} : (tensor<4x4x1xf32>, tensor<4x1x4xf32>, tensor<1xi8>) -> tensor<4x4x4xf32>
// CHECK: %[[S1:.*]] = tosa.add %[[D0]], %[[KV0]]
// CHECK: tosa.matmul {{.*}}, %[[S1]], {{.*}} : (tensor<4x2x4xf32>, tensor<4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x2x4xf32>
// CHECK: tosa.concat {{.*}} {axis = 1 : i32} : (tensor<2x1x16xf32>, tensor<2x1x16xf32>) -> tensor<2x2x16xf32>
func.func @gated_delta_gqa(%q: tensor<2x2x16xf32>, %k: tensor<2x2x8xf32>, %v: tensor<2x2x8xf32>, %d: tensor<2x2x8xf32>, %b: tensor<2x2x2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %none = onnx.none
  %0:2 = onnx.node "LinearAttention"(%q, %k, %v, %none, %d, %b) {attrs = {q_num_heads = 4 : i64, kv_num_heads = 2 : i64}, domain = "", node_name = "la", opset = 27 : i64} : (tensor<2x2x16xf32>, tensor<2x2x8xf32>, tensor<2x2x8xf32>, none, tensor<2x2x8xf32>, tensor<2x2x2xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// Plain linear rule, one token, f16 with an f16 past state: no decay, no
// retrieval; computed in f32, both outputs rounded back.
// CHECK-LABEL: func.func @linear_decode_f16
// CHECK-SAME: -> (tensor<1x1x8xf16>, tensor<1x2x4x4xf16>)
// CHECK-NOT: tosa.exp
// CHECK: tosa.matmul {{.*}} -> tensor<2x1x4xf32>
// CHECK-NOT: tosa.matmul
// CHECK: tosa.cast {{.*}} : (tensor<1x1x8xf32>) -> tensor<1x1x8xf16>
// CHECK: tosa.cast {{.*}} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf16>
func.func @linear_decode_f16(%q: tensor<1x1x8xf16>, %k: tensor<1x1x8xf16>, %v: tensor<1x1x8xf16>, %s: tensor<1x2x4x4xf16>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "LinearAttention"(%q, %k, %v, %s) {attrs = {q_num_heads = 2 : i64, kv_num_heads = 2 : i64, update_rule = "linear"}, domain = "", node_name = "la", opset = 27 : i64} : (tensor<1x1x8xf16>, tensor<1x1x8xf16>, tensor<1x1x8xf16>, tensor<1x2x4x4xf16>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// CausalConvWithState: [past_state, input] then k = 3 shifted slices, each
// times its per-channel weight; SiLU after rounding to f16 as the reference
// does; present_state is the last k - 1 positions.
// CHECK-LABEL: func.func @causal_conv_silu_f16
// CHECK-SAME: -> (tensor<2x4x8xf16>, tensor<2x4x2xf16>)
// CHECK: %[[P:.*]] = tosa.concat {{.*}} {axis = 2 : i32} : (tensor<2x4x2xf16>, tensor<2x4x8xf16>) -> tensor<2x4x10xf16>
// CHECK-COUNT-3: tosa.mul {{.*}} : (tensor<2x4x8xf32>, tensor<1x4x1xf32>, tensor<1xi8>) -> tensor<2x4x8xf32>
// CHECK: tosa.cast {{.*}} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf16>
// CHECK: tosa.sigmoid
// CHECK: tosa.slice %[[P]], {{.*}} -> tensor<2x4x2xf16>
func.func @causal_conv_silu_f16(%x: tensor<2x4x8xf16>, %w: tensor<4x1x3xf16>, %p: tensor<2x4x2xf16>) -> (!onnx.unknown, !onnx.unknown) {
  %none = onnx.none
  %0:2 = onnx.node "CausalConvWithState"(%x, %w, %none, %p) {attrs = {activation = "silu"}, domain = "", node_name = "cc", opset = 27 : i64} : (tensor<2x4x8xf16>, tensor<4x1x3xf16>, none, tensor<2x4x2xf16>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// Without past_state the input is padded in front with k - 1 zeros.
// CHECK-LABEL: func.func @causal_conv_no_state
// CHECK: tosa.pad {{.*}} -> tensor<1x2x9xf32>
func.func @causal_conv_no_state(%x: tensor<1x2x6xf32>, %w: tensor<2x1x4xf32>, %b: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "CausalConvWithState"(%x, %w, %b) {attrs = {}, domain = "", node_name = "cc", opset = 27 : i64} : (tensor<1x2x6xf32>, tensor<2x1x4xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}
