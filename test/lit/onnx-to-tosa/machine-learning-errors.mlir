// ai.onnx.ml errors name the node, its domain and the reason.
// RUN: not onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa 2>&1 | FileCheck %s

// CHECK: node 'afe' (ArrayFeatureExtractor, domain 'ai.onnx.ml', opset 1): index 5 is out of range [0, 5)
func.func @afe_out_of_range(%x: tensor<5xf32>) -> !onnx.unknown {
  %i = onnx.constant "i" dense<[5]> : tensor<1xi64> : tensor<1xi64>
  %0 = onnx.node "ArrayFeatureExtractor"(%x, %i) {attrs = {}, domain = "ai.onnx.ml", node_name = "afe", opset = 1 : i64} : (tensor<5xf32>, tensor<1xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// CHECK: node 'te' (TreeEnsemble, domain 'ai.onnx.ml', opset 5): only post_transform NONE (0) is supported
func.func @tree_post_transform(%x: tensor<4x1xf32>) -> !onnx.unknown {
  %0 = onnx.node "TreeEnsemble"(%x) {attrs = {n_targets = 1 : i64, post_transform = 2 : i64, tree_roots = array<i64: 0>, nodes_modes = dense<[3]> : tensor<1xui8>, nodes_featureids = array<i64: 0>, nodes_splits = dense<[0.5]> : tensor<1xf32>, nodes_truenodeids = array<i64: 0>, nodes_trueleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_falseleafs = array<i64: 1>, leaf_targetids = array<i64: 0, 0>, leaf_weights = dense<[2.0, 4.0]> : tensor<2xf32>}, domain = "ai.onnx.ml", node_name = "te", opset = 5 : i64} : (tensor<4x1xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// CHECK: node 'te' (TreeEnsemble, domain 'ai.onnx.ml', opset 5): the trees have a cycle
func.func @tree_cycle(%x: tensor<4x1xf32>) -> !onnx.unknown {
  %0 = onnx.node "TreeEnsemble"(%x) {attrs = {n_targets = 1 : i64, tree_roots = array<i64: 0>, nodes_modes = dense<[3, 3]> : tensor<2xui8>, nodes_featureids = array<i64: 0, 0>, nodes_splits = dense<[0.5, 1.5]> : tensor<2xf32>, nodes_truenodeids = array<i64: 1, 0>, nodes_trueleafs = array<i64: 0, 0>, nodes_falsenodeids = array<i64: 0, 0>, nodes_falseleafs = array<i64: 1, 1>, leaf_targetids = array<i64: 0>, leaf_weights = dense<[2.0]> : tensor<1xf32>}, domain = "ai.onnx.ml", node_name = "te", opset = 5 : i64} : (tensor<4x1xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
