// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Run-time int64 data is computed as i32 (docs/types.md): converted on
// entry, converted back on exit, the signature keeps the model's types.
// Constants that meet it are demoted, saturating to the i32 range.
// CHECK-LABEL: func.func @demote_int64
// CHECK-SAME: (%[[X:.*]]: tensor<2xi64> {onnx.narrowed}) -> tensor<2xi64>
// CHECK: %[[D:.*]] = arith.trunci %[[X]] : tensor<2xi64> to tensor<2xi32>
// CHECK: %[[C:.*]] = "tosa.const"() <{values = dense<[1, 2147483647]> : tensor<2xi32>}>
// CHECK: %[[S:.*]] = tosa.add %[[D]], %[[C]] : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
// CHECK: %[[W:.*]] = arith.extsi %[[S]] : tensor<2xi32> to tensor<2xi64>
// CHECK: return %[[W]]
func.func @demote_int64(%x: tensor<2xi64>) -> tensor<2xi64> {
  %c = onnx.constant "c" dense<[1, 5000000000]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Add"(%x, %c) {attrs = {}, domain = "", node_name = "add64", opset = 14 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// float64 as f32; an input returned unchanged stays exact.
// CHECK-LABEL: func.func @demote_float64
// CHECK-SAME: (%[[X:.*]]: tensor<3xf64> {onnx.narrowed}) -> (tensor<3xf64>, tensor<3xf64>)
// CHECK: %[[D:.*]] = arith.truncf %[[X]] : tensor<3xf64> to tensor<3xf32>
// CHECK: %[[N:.*]] = tosa.negate %[[D]]
// CHECK: %[[W:.*]] = arith.extf %[[N]] : tensor<3xf32> to tensor<3xf64>
// CHECK: return %[[W]], %[[X]]
func.func @demote_float64(%x: tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>) {
  %0 = onnx.node "Neg"(%x) {attrs = {}, domain = "", node_name = "neg", opset = 13 : i64} : (tensor<3xf64>) -> tensor<3xf64>
  %1 = onnx.node "Identity"(%x) {attrs = {}, domain = "", node_name = "id", opset = 13 : i64} : (tensor<3xf64>) -> tensor<3xf64>
  return %0, %1 : tensor<3xf64>, tensor<3xf64>
}

// Casts of run-time data to int64 compute in i32.
// CHECK-LABEL: func.func @cast_to_int64
// CHECK: tosa.cast {{.*}} : (tensor<4xf32>) -> tensor<4xi32>
// CHECK: arith.extsi {{.*}} : tensor<4xi32> to tensor<4xi64>
func.func @cast_to_int64(%x: tensor<4xf32>) -> tensor<4xi64> {
  %0 = onnx.node "Cast"(%x) {attrs = {to = 7 : i64}, domain = "", node_name = "cast", opset = 19 : i64} : (tensor<4xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// An int64 result that folds at compile time is returned exactly.
// CHECK-LABEL: func.func @shape_output
// CHECK: %[[C:.*]] = arith.constant dense<[3, 4]> : tensor<2xi64>
// CHECK: return %[[C]]
func.func @shape_output(%x: tensor<3x4xf32>) -> tensor<2xi64> {
  %0 = onnx.node "Shape"(%x) {attrs = {}, domain = "", node_name = "shape", opset = 15 : i64} : (tensor<3x4xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// ArgMin with select_last_index: argmax of the reversed negation.
// CHECK-LABEL: func.func @argmin_last
// CHECK: tosa.negate
// CHECK: tosa.reverse {{.*}} {axis = 1 : i32}
// CHECK: tosa.argmax {{.*}} {axis = 1 : i32} : (tensor<3x4xf32>) -> tensor<3xi32>
// CHECK: tosa.sub
// CHECK: arith.extsi {{.*}} to tensor<3xi64>
func.func @argmin_last(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  %0 = onnx.node "ArgMin"(%x) {attrs = {axis = 1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64}, domain = "", node_name = "am", opset = 13 : i64} : (tensor<3x4xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// Run-time Gather indices: negative ones wrap, the outer dimensions are
// TOSA GATHER's batch.
// CHECK-LABEL: func.func @gather_runtime
// CHECK: %[[I:.*]] = arith.trunci
// CHECK: tosa.greater {{.*}}, %[[I]]
// CHECK: tosa.select
// CHECK: tosa.tile {{.*}} -> tensor<3x2xi32>
// CHECK: tosa.gather {{.*}} : (tensor<3x4x1xf32>, tensor<3x2xi32>) -> tensor<3x2x1xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<3x2xf32>
func.func @gather_runtime(%x: tensor<3x4xf32>, %i: tensor<2xi64>) -> !onnx.unknown {
  %0 = onnx.node "Gather"(%x, %i) {attrs = {axis = 1 : i64}, domain = "", node_name = "g", opset = 13 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// GatherElements: flat element indices, index * stride (here 1) plus
// constant offsets of the other positions.
// CHECK-LABEL: func.func @gather_elements
// CHECK: "tosa.const"() <{values = dense<{{\[\[}}0, 0], [3, 3]]> : tensor<2x2xi32>}>
// CHECK-NOT: tosa.mul
// CHECK: tosa.add {{.*}} -> tensor<2x2xi32>
// CHECK: tosa.gather {{.*}} : (tensor<1x6x1xf32>, tensor<1x4xi32>) -> tensor<1x4x1xf32>
func.func @gather_elements(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>) -> !onnx.unknown {
  %0 = onnx.node "GatherElements"(%x, %i) {attrs = {axis = 1 : i64}, domain = "", node_name = "ge", opset = 13 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// GatherND with a batch dimension: rows of the last data dimension; the
// row index adds the batch's offset.
// CHECK-LABEL: func.func @gather_nd
// CHECK: "tosa.const"() <{values = dense<[0, 2]> : tensor<2xi32>}>
// CHECK: tosa.gather {{.*}} : (tensor<1x4x2xi32>, tensor<1x2xi32>) -> tensor<1x2x2xi32>
// CHECK: tosa.reshape {{.*}} -> tensor<2x2xi32>
func.func @gather_nd(%x: tensor<2x2x2xi32>, %i: tensor<2x1xi64>) -> !onnx.unknown {
  %0 = onnx.node "GatherND"(%x, %i) {attrs = {batch_dims = 1 : i64}, domain = "", node_name = "gnd", opset = 13 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// ScatterND replaces rows; constant indices (negative ones wrapped) need no
// run-time arithmetic. Index tuples of two dimensions.
// CHECK-LABEL: func.func @scatter_nd_pairs
// CHECK: tosa.mul
// CHECK: tosa.reduce_sum {{.*}} {axis = 1 : i32}
// CHECK: tosa.scatter {{.*}} : (tensor<1x6x1xf32>, tensor<1x2xi32>, tensor<1x2x1xf32>) -> tensor<1x6x1xf32>
func.func @scatter_nd_pairs(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>, %u: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "ScatterND"(%x, %i, %u) {attrs = {}, domain = "", node_name = "snd2", opset = 18 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @scatter_nd
// CHECK: "tosa.const"() <{values = dense<{{\[\[}}3, 0]]> : tensor<1x2xi32>}>
// CHECK: tosa.scatter {{.*}} : (tensor<1x4x3xf32>, tensor<1x2xi32>, tensor<1x2x3xf32>) -> tensor<1x4x3xf32>
func.func @scatter_nd(%x: tensor<4x3xf32>, %u: tensor<2x3xf32>) -> !onnx.unknown {
  %i = onnx.constant "i" dense<[[3], [-4]]> : tensor<2x1xi64> : tensor<2x1xi64>
  %0 = onnx.node "ScatterND"(%x, %i, %u) {attrs = {}, domain = "", node_name = "snd", opset = 18 : i64} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// ScatterElements along axis 0.
// CHECK-LABEL: func.func @scatter_elements
// CHECK: tosa.scatter {{.*}} : (tensor<1x6x1xf32>, tensor<1x3xi32>, tensor<1x3x1xf32>) -> tensor<1x6x1xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<3x2xf32>
func.func @scatter_elements(%x: tensor<3x2xf32>, %i: tensor<1x3xi64>, %u: tensor<1x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "ScatterElements"(%x, %i, %u) {attrs = {axis = 1 : i64}, domain = "", node_name = "se", opset = 18 : i64} : (tensor<3x2xf32>, tensor<1x3xi64>, tensor<1x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// OneHot: an equality with a constant iota, then a select of off / on.
// CHECK-LABEL: func.func @one_hot
// CHECK: tosa.equal {{.*}} -> tensor<2x3xi1>
// CHECK: tosa.select {{.*}} -> tensor<2x3xf32>
func.func @one_hot(%i: tensor<2xi64>) -> !onnx.unknown {
  %d = onnx.constant "d" dense<3> : tensor<i64> : tensor<i64>
  %v = onnx.constant "v" dense<[0.0, 5.0]> : tensor<2xf32> : tensor<2xf32>
  %0 = onnx.node "OneHot"(%i, %d, %v) {attrs = {axis = -1 : i64}, domain = "", node_name = "oh", opset = 11 : i64} : (tensor<2xi64>, tensor<i64>, tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// A reducing scatter combines each data row with the reduction of every
// update aimed at it (duplicates included): a [W, rows] match mask.
// CHECK-LABEL: func.func @scatter_elements_add
// CHECK: tosa.equal {{.*}} : (tensor<3x1x1xi32>, tensor<1x5x1xi32>) -> tensor<3x5x1xi1>
// CHECK: tosa.select
// CHECK: tosa.reduce_sum {{.*}} {axis = 0 : i32} : (tensor<3x5x1xf32>) -> tensor<1x5x1xf32>
// CHECK: tosa.add {{.*}} -> tensor<1x5x1xf32>
// CHECK-NOT: tosa.scatter
func.func @scatter_elements_add(%x: tensor<1x5xf32>, %i: tensor<1x3xi64>, %u: tensor<1x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "ScatterElements"(%x, %i, %u) {attrs = {axis = 1 : i64, reduction = "add"}, domain = "", node_name = "sea", opset = 18 : i64} : (tensor<1x5xf32>, tensor<1x3xi64>, tensor<1x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @scatter_nd_max
// CHECK: tosa.reduce_max {{.*}} {axis = 0 : i32} : (tensor<2x4x3xf32>) -> tensor<1x4x3xf32>
// CHECK: tosa.maximum
func.func @scatter_nd_max(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "ScatterND"(%x, %i, %u) {attrs = {reduction = "max"}, domain = "", node_name = "sndm", opset = 18 : i64} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Unsigned inputs are signless of the same width in the signature (marked
// onnx.unsigned), zero-extended to i32 inside; results are wrapped to their
// declared width after each node and truncated on exit.
// CHECK-LABEL: func.func @unsigned_sub
// CHECK-SAME: (%[[X:.*]]: tensor<3xi8> {onnx.unsigned}, %[[Y:.*]]: tensor<3xi8> {onnx.unsigned}) -> (tensor<3xi8> {onnx.unsigned})
// CHECK: %[[A:.*]] = arith.extui %[[X]] : tensor<3xi8> to tensor<3xi32>
// CHECK: %[[B:.*]] = arith.extui %[[Y]] : tensor<3xi8> to tensor<3xi32>
// CHECK: %[[S:.*]] = tosa.sub %[[A]], %[[B]]
// CHECK: %[[M:.*]] = "tosa.const"() <{values = dense<255> : tensor<1xi32>}>
// CHECK: %[[W:.*]] = tosa.bitwise_and %[[S]], %[[M]]
// CHECK: %[[T:.*]] = arith.trunci %[[W]] : tensor<3xi32> to tensor<3xi8>
// CHECK: return %[[T]]
func.func @unsigned_sub(%x: tensor<3xui8>, %y: tensor<3xui8>) -> tensor<3xui8> {
  %0 = onnx.node "Sub"(%x, %y) {attrs = {}, domain = "", node_name = "subu8", opset = 14 : i64} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %0 : tensor<3xui8>
}

// uint64 is carried as the low 32 bits, like int64 (docs/types.md): i64 in
// the signature (marked onnx.unsigned), truncated on entry, zero-extended
// on exit; no wrap is needed.
// CHECK-LABEL: func.func @unsigned64_add
// CHECK-SAME: (%[[X:.*]]: tensor<3xi64> {onnx.narrowed, onnx.unsigned}, %[[Y:.*]]: tensor<3xi64> {onnx.narrowed, onnx.unsigned}) -> (tensor<3xi64> {onnx.unsigned})
// CHECK: %[[A:.*]] = arith.trunci %[[X]] : tensor<3xi64> to tensor<3xi32>
// CHECK: %[[B:.*]] = arith.trunci %[[Y]] : tensor<3xi64> to tensor<3xi32>
// CHECK: %[[S:.*]] = tosa.add %[[A]], %[[B]]
// CHECK-NOT: tosa.bitwise_and
// CHECK: %[[E:.*]] = arith.extui %[[S]] : tensor<3xi32> to tensor<3xi64>
// CHECK: return %[[E]]
func.func @unsigned64_add(%x: tensor<3xui64>, %y: tensor<3xui64>) -> tensor<3xui64> {
  %0 = onnx.node "Add"(%x, %y) {attrs = {}, domain = "", node_name = "addu64", opset = 14 : i64} : (tensor<3xui64>, tensor<3xui64>) -> tensor<3xui64>
  return %0 : tensor<3xui64>
}

// A uint64 constant meeting run-time data keeps its low 32 bits (the same
// bits the run-time data has), where a signed one would saturate.
// CHECK-LABEL: func.func @unsigned64_and_constant
// CHECK: "tosa.const"() <{values = dense<-1> : tensor<3xi32>}>
// CHECK: tosa.bitwise_and
func.func @unsigned64_and_constant(%x: tensor<3xui64>) -> tensor<3xui64> {
  %c = onnx.constant "c" dense<4294967295> : tensor<3xui64> : tensor<3xui64>
  %0 = onnx.node "BitwiseAnd"(%x, %c) {attrs = {}, domain = "", node_name = "andu64", opset = 18 : i64} : (tensor<3xui64>, tensor<3xui64>) -> tensor<3xui64>
  return %0 : tensor<3xui64>
}

// A comparison of uint64 data compares the i32 it is carried in.
// CHECK-LABEL: func.func @unsigned64_greater
// CHECK: tosa.greater {{.*}} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
func.func @unsigned64_greater(%x: tensor<3xui64>, %y: tensor<3xui64>) -> tensor<3xi1> {
  %0 = onnx.node "Greater"(%x, %y) {attrs = {}, domain = "", node_name = "gtu64", opset = 13 : i64} : (tensor<3xui64>, tensor<3xui64>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// BitShift of unsigned data: logical shifts in i32, then the wrap.
// CHECK-LABEL: func.func @bitshift_right_u16
// CHECK: tosa.logical_right_shift {{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: tosa.bitwise_and
// CHECK: arith.trunci {{.*}} : tensor<4xi32> to tensor<4xi16>
func.func @bitshift_right_u16(%x: tensor<4xui16>, %y: tensor<4xui16>) -> tensor<4xui16> {
  %0 = onnx.node "BitShift"(%x, %y) {attrs = {direction = "RIGHT"}, domain = "", node_name = "shr", opset = 11 : i64} : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  return %0 : tensor<4xui16>
}

// ReverseSequence (time_axis 0, batch_axis 1): batch-major for tosa.gather;
// row i of batch b is len - 1 - i when i < len, else i.
// CHECK-LABEL: func.func @reverse_sequence
// CHECK: %[[D:.*]] = tosa.transpose %arg0 {perms = array<i32: 1, 0, 2>} : (tensor<4x3x2xf32>) -> tensor<3x4x2xf32>
// CHECK: %[[L:.*]] = tosa.reshape %arg1, %{{.*}} -> tensor<3x1xi32>
// CHECK: %[[IOTA:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0, 1, 2, 3]]> : tensor<1x4xi32>}>
// CHECK: %[[LM1:.*]] = tosa.sub %[[L]]
// CHECK: %[[REV:.*]] = tosa.sub %[[LM1]], %[[IOTA]]
// CHECK: %[[IN:.*]] = tosa.greater %[[L]], %[[IOTA]]
// CHECK: %[[ROWS:.*]] = tosa.select %[[IN]], %[[REV]], %{{.*}} : (tensor<3x4xi1>, tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
// CHECK: %[[G:.*]] = tosa.gather %[[D]], %[[ROWS]] : (tensor<3x4x2xf32>, tensor<3x4xi32>) -> tensor<3x4x2xf32>
// CHECK: tosa.transpose %[[G]] {perms = array<i32: 1, 0, 2>}
func.func @reverse_sequence(%x: tensor<4x3x2xf32>, %l: tensor<3xi32>) -> !onnx.unknown {
  %0 = onnx.node "ReverseSequence"(%x, %l) {attrs = {}, domain = "", node_name = "rs", opset = 10 : i64} : (tensor<4x3x2xf32>, tensor<3xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
