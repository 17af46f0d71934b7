// TopK needs a compile-time K, and Compress a compile-time condition unless
// its result is a graph output: the errors name the node,
// and a graph input that could be frozen.
// RUN: not onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa 2>&1 | FileCheck %s

// CHECK: node 'topk' (TopK, domain 'ai.onnx', opset 11): input 1 (K) must be a compile-time constant integer tensor; it is computed from graph input 'the_k', which --freeze-input the_k=FILE.npy turns into a constant
func.func @k_from_input(%x: tensor<3x4xf32>, %k: tensor<1xi64> {onnx.name = "the_k"}) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "TopK"(%x, %k) {attrs = {}, domain = "", node_name = "topk", opset = 11 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// CHECK: node 'big' (TopK, domain 'ai.onnx', opset 11): K = 65 is larger than 64: TopK is built from K selection rounds (TOSA has no sort)
func.func @k_too_large(%x: tensor<100xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %k = onnx.constant "k" dense<65> : tensor<1xi64> : tensor<1xi64>
  %0:2 = onnx.node "TopK"(%x, %k) {attrs = {}, domain = "", node_name = "big", opset = 11 : i64} : (tensor<100xf32>, tensor<1xi64>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// A run-time condition gives a size that depends on the data
// (data-dependent.mlir), which a Transpose cannot keep: the error names the
// condition, which can be frozen.
// CHECK: node 't' (Transpose, domain 'ai.onnx', opset 13): input 0 has a size that depends on the input values (computed by node 'cmp' (Compress, domain 'ai.onnx', opset 11); it is computed from graph input 'cond', which --freeze-input cond=FILE.npy turns into a constant
func.func @run_time_condition(%x: tensor<3x2xf32>, %c: tensor<3xi1> {onnx.name = "cond"}) -> !onnx.unknown {
  %0 = onnx.node "Compress"(%x, %c) {attrs = {axis = 0 : i64}, domain = "", node_name = "cmp", opset = 11 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> !onnx.unknown
  %1 = onnx.node "Transpose"(%0) {attrs = {}, domain = "", node_name = "t", opset = 13 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %1 : !onnx.unknown
}

// -----

// CHECK: node 'none' (Compress, domain 'ai.onnx', opset 11): the condition selects nothing (TOSA tensors cannot be empty)
func.func @selects_nothing(%x: tensor<3x2xf32>) -> !onnx.unknown {
  %c = onnx.constant "c" dense<false> : tensor<3xi1> : tensor<3xi1>
  %0 = onnx.node "Compress"(%x, %c) {attrs = {axis = 0 : i64}, domain = "", node_name = "none", opset = 11 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
