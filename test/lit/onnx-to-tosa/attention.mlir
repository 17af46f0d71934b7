// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

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

// RotaryEmbedding, interleaved: the run-time position_ids select cache rows
// with one gather each; neighbours (x1, x2) are the two columns of
// [..., D/2, 2]; the caches broadcast over the heads of [B, H, S, D].
// CHECK-LABEL: func.func @rotary_interleaved
// CHECK-SAME: -> tensor<2x4x3x8xf32>
// CHECK: %[[COS:.*]] = tosa.gather {{.*}} : (tensor<1x50x4xf32>, tensor<1x6xi32>) -> tensor<1x6x4xf32>
// CHECK: %[[SIN:.*]] = tosa.gather {{.*}} : (tensor<1x50x4xf32>, tensor<1x6xi32>) -> tensor<1x6x4xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<2x4x3x4x2xf32>
// CHECK: tosa.mul {{.*}} : (tensor<2x1x3x4xf32>, tensor<2x4x3x4xf32>, tensor<1xi8>) -> tensor<2x4x3x4xf32>
// CHECK: tosa.sub
// CHECK: tosa.add
// CHECK: tosa.concat {{.*}} {axis = 4 : i32} : {{.*}} -> tensor<2x4x3x4x2xf32>
func.func @rotary_interleaved(%x: tensor<2x4x3x8xf32>, %c: tensor<50x4xf32>, %s: tensor<50x4xf32>, %p: tensor<2x3xi64>) -> !onnx.unknown {
  %0 = onnx.node "RotaryEmbedding"(%x, %c, %s, %p) {attrs = {interleaved = 1 : i64}, domain = "", node_name = "rope", opset = 23 : i64} : (tensor<2x4x3x8xf32>, tensor<50x4xf32>, tensor<50x4xf32>, tensor<2x3xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// 3-D input with num_heads and a partial rotation: halves of the first
// rotary_embedding_dim = 4 elements of each head, the rest passed through.
// CHECK-LABEL: func.func @rotary_3d_partial
// CHECK-SAME: -> tensor<2x3x16xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<2x3x2x8xf32>
// CHECK-NOT: tosa.gather
// CHECK: tosa.concat {{.*}} {axis = 3 : i32} : (tensor<2x3x2x2xf32>, tensor<2x3x2x2xf32>) -> tensor<2x3x2x4xf32>
// CHECK: tosa.concat {{.*}} {axis = 3 : i32} : (tensor<2x3x2x4xf32>, tensor<2x3x2x4xf32>) -> tensor<2x3x2x8xf32>
func.func @rotary_3d_partial(%x: tensor<2x3x16xf32>, %c: tensor<2x3x2xf32>, %s: tensor<2x3x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "RotaryEmbedding"(%x, %c, %s) {attrs = {num_heads = 2 : i64, rotary_embedding_dim = 4 : i64}, domain = "", node_name = "rope", opset = 23 : i64} : (tensor<2x3x16xf32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// TensorScatter, circular: cache position m of batch b reads update position
// (m - write_indices[b]) mod 6 when below the update length 2, else keeps
// the past value (a gather and a select: no out-of-bounds writes).
// CHECK-LABEL: func.func @tensor_scatter_circular
// CHECK-SAME: -> tensor<2x3x6x4xf32>
// CHECK: tosa.intdiv {{.*}} -> tensor<6x6xi32>
// CHECK: %[[G:.*]] = tosa.gather {{.*}} : (tensor<6x2x4xf32>, tensor<6x6xi32>) -> tensor<6x6x4xf32>
// CHECK: tosa.select {{.*}}, %[[G]], {{.*}} : (tensor<6x6x1xi1>, tensor<6x6x4xf32>, tensor<6x6x4xf32>) -> tensor<6x6x4xf32>
func.func @tensor_scatter_circular(%c: tensor<2x3x6x4xf32>, %u: tensor<2x3x2x4xf32>, %w: tensor<2xi64>) -> !onnx.unknown {
  %0 = onnx.node "TensorScatter"(%c, %u, %w) {attrs = {mode = "circular"}, domain = "", node_name = "ts", opset = 24 : i64} : (tensor<2x3x6x4xf32>, tensor<2x3x2x4xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// FlexAttention with GQA (4 query heads on 2 KV heads) and a soft-cap
// score_mod subgraph, inlined on the f32 scores between the two matmuls.
// CHECK-LABEL: func.func @flex_softcap_gqa
// CHECK-SAME: -> tensor<1x4x3x8xf32>
// CHECK: %[[S:.*]] = tosa.matmul {{.*}} -> tensor<4x3x5xf32>
// CHECK: tosa.tanh
// CHECK: tosa.exp
// CHECK: tosa.matmul {{.*}} : (tensor<4x3x5xf32>, tensor<4x5x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x3x8xf32>
func.func @flex_softcap_gqa(%q: tensor<1x4x3x8xf32>, %k: tensor<1x2x5x8xf32>, %v: tensor<1x2x5x8xf32>) -> !onnx.unknown {
  %cap = onnx.constant "cap" dense<30.0> : tensor<f32> : tensor<f32>
  %0 = onnx.node "FlexAttention"(%q, %k, %v) {attrs = {score_mod = 0 : i64}, domain = "ai.onnx.preview", node_name = "flex", opset = 1 : i64} : (tensor<1x4x3x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) -> !onnx.unknown {
  ^bb0(%s: !onnx.unknown):
    %d = onnx.node "Div"(%s, %cap) {attrs = {}, domain = "", node_name = "div", opset = 22 : i64} : (!onnx.unknown, tensor<f32>) -> !onnx.unknown
    %h = onnx.node "Tanh"(%d) {attrs = {}, domain = "", node_name = "tanh", opset = 22 : i64} : (!onnx.unknown) -> !onnx.unknown
    %m = onnx.node "Mul"(%h, %cap) {attrs = {}, domain = "", node_name = "mul", opset = 22 : i64} : (!onnx.unknown, tensor<f32>) -> !onnx.unknown
    onnx.yield %m : !onnx.unknown
  }
  return %0 : !onnx.unknown
}
