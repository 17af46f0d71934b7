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

// -----

// CHECK: node 'tv' (TfIdfVectorizer, domain 'ai.onnx', opset 9): ngram_counts 1 (2) does not start a whole number of 2-grams within pool_int64s (5 values)
func.func @tfidf_ragged_pool(%x: tensor<6xi32>) -> !onnx.unknown {
  %0 = onnx.node "TfIdfVectorizer"(%x) {attrs = {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 2 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 0, 1, 2>, pool_int64s = array<i64: 4, 5, 4, 5, 6>}, domain = "", node_name = "tv", opset = 9 : i64} : (tensor<6xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// CHECK: node 'tv' (TfIdfVectorizer, domain 'ai.onnx', opset 9): mode must be TF, IDF or TFIDF, got 'BM25'
func.func @tfidf_mode(%x: tensor<6xi32>) -> !onnx.unknown {
  %0 = onnx.node "TfIdfVectorizer"(%x) {attrs = {mode = "BM25", min_gram_length = 1 : i64, max_gram_length = 1 : i64, max_skip_count = 0 : i64, ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0>, pool_int64s = array<i64: 4>}, domain = "", node_name = "tv", opset = 9 : i64} : (tensor<6xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
