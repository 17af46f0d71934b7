// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// TopK with a constant K: K rounds of (extreme of the open positions, lowest
// index among the matches, that position's value), concatenated along the
// axis. Float data also routes NaN (it ranks above every number).
// CHECK-LABEL: func.func @top_k_float
// CHECK: %[[NUM:.*]] = tosa.equal %[[X:.*]], %[[X]] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
// CHECK: %[[NAN:.*]] = tosa.logical_not %[[NUM]]
// CHECK: %[[BEST:.*]] = tosa.reduce_max {{.*}} {axis = 1 : i32} : (tensor<3x4xf32>) -> tensor<3x1xf32>
// CHECK: %[[ANYNAN:.*]] = tosa.reduce_any %[[NAN]] {axis = 1 : i32} : (tensor<3x4xi1>) -> tensor<3x1xi1>
// CHECK: %[[MATCH:.*]] = tosa.select %[[ANYNAN]], %[[NAN]], {{.*}} : (tensor<3x1xi1>, tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
// CHECK: %[[POS:.*]] = tosa.select %[[MATCH]], {{.*}} : (tensor<3x4xi1>, tensor<1x4xi32>, tensor<1x1xi32>) -> tensor<3x4xi32>
// CHECK: %[[IDX:.*]] = tosa.reduce_min %[[POS]] {axis = 1 : i32} : (tensor<3x4xi32>) -> tensor<3x1xi32>
// CHECK: %[[CHOSEN:.*]] = tosa.equal %{{.*}}, %[[IDX]] : (tensor<1x4xi32>, tensor<3x1xi32>) -> tensor<3x4xi1>
// CHECK: tosa.select %[[CHOSEN]], %[[X]], {{.*}} -> tensor<3x4xf32>
// CHECK: tosa.reduce_max {{.*}} -> tensor<3x1xf32>
// CHECK: tosa.logical_not %[[CHOSEN]]
// CHECK: tosa.concat {{.*}} {axis = 1 : i32} : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK: tosa.concat {{.*}} {axis = 1 : i32} : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
func.func @top_k_float(%x: tensor<3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %k = onnx.constant "k" dense<2> : tensor<1xi64> : tensor<1xi64>
  %0:2 = onnx.node "TopK"(%x, %k) {attrs = {axis = 1 : i64}, domain = "", node_name = "topk", opset = 11 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// Smallest of integers: no NaN handling, the extreme is the value; in later
// rounds taken positions read as the largest i32 and are excluded from the
// matches.
// CHECK-LABEL: func.func @top_k_smallest_int
// CHECK-DAG: "tosa.const"() <{values = dense<2147483647> : tensor<1x1xi32>}>
// CHECK-NOT: tosa.reduce_any
// CHECK: tosa.reduce_min {{.*}} {axis = 0 : i32} : (tensor<5x2xi32>) -> tensor<1x2xi32>
// CHECK: tosa.logical_not
// CHECK: tosa.select {{.*}} : (tensor<5x2xi1>, tensor<5x2xi32>, tensor<1x1xi32>) -> tensor<5x2xi32>
// CHECK: tosa.concat {{.*}} {axis = 0 : i32} : (tensor<1x2xi32>, tensor<1x2xi32>) -> tensor<2x2xi32>
func.func @top_k_smallest_int(%x: tensor<5x2xi32>) -> (!onnx.unknown, !onnx.unknown) {
  %k = onnx.constant "k" dense<2> : tensor<1xi64> : tensor<1xi64>
  %0:2 = onnx.node "TopK"(%x, %k) {attrs = {axis = 0 : i64, largest = 0 : i64}, domain = "", node_name = "topk", opset = 24 : i64} : (tensor<5x2xi32>, tensor<1xi64>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// Opset 1: K is an attribute.
// CHECK-LABEL: func.func @top_k_opset1
// CHECK: tosa.concat {{.*}} -> tensor<3x2xf32>
func.func @top_k_opset1(%x: tensor<3x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "TopK"(%x) {attrs = {axis = -1 : i64, k = 2 : i64}, domain = "", node_name = "topk", opset = 1 : i64} : (tensor<3x4xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// Compress with a constant condition: a selection of constant indices
// (here rows 1 and 2, a slice); without an axis the input is flattened.
// CHECK-LABEL: func.func @compress_axis
// CHECK: tosa.slice {{.*}} : (tensor<3x2xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
func.func @compress_axis(%x: tensor<3x2xf32>) -> !onnx.unknown {
  %c = onnx.constant "c" dense<[false, true, true]> : tensor<3xi1> : tensor<3xi1>
  %0 = onnx.node "Compress"(%x, %c) {attrs = {axis = 0 : i64}, domain = "", node_name = "compress", opset = 11 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// CHECK-LABEL: func.func @compress_flat
// CHECK: tosa.reshape {{.*}} -> tensor<6xf32>
// CHECK: -> tensor<3xf32>
func.func @compress_flat(%x: tensor<3x2xf32>) -> !onnx.unknown {
  %c = onnx.constant "c" dense<[true, false, true, false, true]> : tensor<5xi1> : tensor<5xi1>
  %0 = onnx.node "Compress"(%x, %c) {attrs = {}, domain = "", node_name = "compress", opset = 11 : i64} : (tensor<3x2xf32>, tensor<5xi1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
