// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s --convert-onnx-to-tosa | mlir-opt --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Binarizer: 1 where X > threshold, else 0, in X's type.
// CHECK-LABEL: func.func @binarizer
// CHECK-SAME: -> tensor<3x4xf32>
// CHECK: %[[T:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1xf32>}>
// CHECK: %[[GT:.*]] = tosa.greater %arg0, %[[T]]
// CHECK: %[[Z:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1xf32>}>
// CHECK: tosa.select %[[GT]], %[[T]], %[[Z]]
func.func @binarizer(%x: tensor<3x4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Binarizer"(%x) {attrs = {threshold = 1.0 : f32}, domain = "ai.onnx.ml", node_name = "b", opset = 1 : i64} : (tensor<3x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// On integers X > -2.5 is X > floor(-2.5) = -3.
// CHECK-LABEL: func.func @binarizer_int
// CHECK: %[[T:.*]] = "tosa.const"() <{values = dense<-3> : tensor<1x1xi32>}>
// CHECK: tosa.greater %arg0, %[[T]]
// CHECK: tosa.select {{.*}} -> tensor<3x4xi32>
func.func @binarizer_int(%x: tensor<3x4xi32>) -> !onnx.unknown {
  %0 = onnx.node "Binarizer"(%x) {attrs = {threshold = -2.5 : f32}, domain = "ai.onnx.ml", node_name = "b", opset = 1 : i64} : (tensor<3x4xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// ArrayFeatureExtractor with run-time indices: clamped into [0, 4), then
// one tosa.gather along the last axis with the rows as its batch.
// CHECK-LABEL: func.func @array_feature_extractor
// CHECK-SAME: -> tensor<3x2xf32>
// CHECK: tosa.maximum
// CHECK: %[[IDX:.*]] = tosa.minimum
// CHECK: %[[X:.*]] = tosa.reshape %arg0, {{.*}} -> tensor<3x4x1xf32>
// CHECK: %[[ROWS:.*]] = tosa.tile %[[IDX]], {{.*}} -> tensor<3x2xi32>
// CHECK: tosa.gather %[[X]], %[[ROWS]] : (tensor<3x4x1xf32>, tensor<3x2xi32>) -> tensor<3x2x1xf32>
func.func @array_feature_extractor(%x: tensor<3x4xf32>, %i: tensor<2xi64>) -> !onnx.unknown {
  %0 = onnx.node "ArrayFeatureExtractor"(%x, %i) {attrs = {}, domain = "ai.onnx.ml", node_name = "afe", opset = 1 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// Constant indices select at compile time; a 1-D X gives a [1, |Y|] result.
// CHECK-LABEL: func.func @array_feature_extractor_1d
// CHECK-SAME: -> tensor<1x2xf32>
// CHECK: tosa.concat {{.*}} -> tensor<2xf32>
// CHECK: tosa.reshape {{.*}} -> tensor<1x2xf32>
func.func @array_feature_extractor_1d(%x: tensor<5xf32>) -> !onnx.unknown {
  %i = onnx.constant "i" dense<[4, 0]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "ArrayFeatureExtractor"(%x, %i) {attrs = {}, domain = "ai.onnx.ml", node_name = "afe", opset = 1 : i64} : (tensor<5xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// TreeEnsemble: node 0 (x0 <= 3) leads to node 1 (x1 < 1: leaves 0 / 2) or
// node 2 (x0 in {1, 2}: leaves 1 / 3). All conditions are computed at once
// (gathered features against the splits, modes picked by constant masks,
// membership as any-equal over the NaN-padded set table); path p is reached
// iff cond @ D equals minus its number of "true" requirements; the reached
// leaves' weights are summed per target by a second matmul.
// CHECK-LABEL: func.func @tree_ensemble
// CHECK-SAME: -> tensor<3x2xf32>
// CHECK: %[[XF:.*]] = tosa.concat %arg0, {{.*}} -> tensor<3x3xf32>
// CHECK: %[[S:.*]] = "tosa.const"() <{values = dense<{{\[\[}}3.000000e+00, 1.000000e+00, 0.000000e+00]]> : tensor<1x3xf32>}>
// CHECK: tosa.greater_equal %[[S]], %[[XF]]
// CHECK: tosa.greater %[[S]], %[[XF]]
// CHECK: %[[SET:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0x7FC00000, 0x7FC00000], [0x7FC00000, 0x7FC00000], [1.000000e+00, 2.000000e+00]]]> : tensor<1x3x2xf32>}>
// CHECK: tosa.equal {{.*}}, %[[SET]] : (tensor<3x3x1xf32>, tensor<1x3x2xf32>) -> tensor<3x3x2xi1>
// CHECK: tosa.reduce_any {{.*}} {axis = 2 : i32}
// CHECK: %[[D:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}-1.000000e+00, -1.000000e+00, 1.000000e+00, 1.000000e+00], [-1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, -1.000000e+00, 1.000000e+00]]]> : tensor<1x3x4xf32>}>
// CHECK: %[[M:.*]] = tosa.matmul {{.*}}, %[[D]], {{.*}} -> tensor<1x3x4xf32>
// CHECK: %[[NEED:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}-2.000000e+00, -1.000000e+00, -1.000000e+00, 0.000000e+00]]]> : tensor<1x1x4xf32>}>
// CHECK: tosa.equal %[[M]], %[[NEED]]
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}5.000000e+00, 0.000000e+00], [-1.200000e+01, 0.000000e+00], [0.000000e+00, 1.200000e+01], [0.000000e+00, 7.000000e+00]]]> : tensor<1x4x2xf32>}>
// CHECK: tosa.matmul {{.*}}, %[[W]], {{.*}} -> tensor<1x3x2xf32>
func.func @tree_ensemble(%x: tensor<3x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "TreeEnsemble"(%x) {attrs = {n_targets = 2 : i64, aggregate_function = 1 : i64, tree_roots = array<i64: 0>, nodes_modes = dense<[0, 1, 6]> : tensor<3xui8>, nodes_featureids = array<i64: 0, 1, 0>, nodes_splits = dense<[3.0, 1.0, 0.0]> : tensor<3xf32>, membership_values = dense<[1.0, 2.0, 0x7FC00000]> : tensor<3xf32>, nodes_truenodeids = array<i64: 1, 0, 1>, nodes_trueleafs = array<i64: 0, 1, 1>, nodes_falsenodeids = array<i64: 2, 2, 3>, nodes_falseleafs = array<i64: 0, 1, 1>, leaf_targetids = array<i64: 0, 1, 0, 1>, leaf_weights = dense<[5.0, 12.0, -12.0, 7.0]> : tensor<4xf32>}, domain = "ai.onnx.ml", node_name = "te", opset = 5 : i64} : (tensor<3x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// MAX aggregation: unreached leaves and other targets hold the lowest
// float, and the reached weights are reduced over the paths.
// CHECK-LABEL: func.func @tree_ensemble_max
// CHECK: %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}2.000000e+00, -3.40282347E+38], [-3.40282347E+38, 4.000000e+00]]]> : tensor<1x2x2xf32>}>
// CHECK: %[[P:.*]] = tosa.select {{.*}}, %[[W]], {{.*}} -> tensor<4x2x2xf32>
// CHECK: tosa.reduce_max %[[P]] {axis = 1 : i32}
func.func @tree_ensemble_max(%x: tensor<4x1xf32>) -> !onnx.unknown {
  %0 = onnx.node "TreeEnsemble"(%x) {attrs = {n_targets = 2 : i64, aggregate_function = 3 : i64, tree_roots = array<i64: 0>, nodes_modes = dense<[3]> : tensor<1xui8>, nodes_featureids = array<i64: 0>, nodes_splits = dense<[0.5]> : tensor<1xf32>, nodes_truenodeids = array<i64: 0>, nodes_trueleafs = array<i64: 1>, nodes_falsenodeids = array<i64: 1>, nodes_falseleafs = array<i64: 1>, leaf_targetids = array<i64: 0, 1>, leaf_weights = dense<[2.0, 4.0]> : tensor<2xf32>}, domain = "ai.onnx.ml", node_name = "te", opset = 5 : i64} : (tensor<4x1xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// TfIdfVectorizer (ai.onnx): unigrams 4 5, bigrams (4,6) (5,7) with tokens
// 1 and 2 apart. Unigrams: X against both at once, summed over the row's
// positions; bigrams: the row and the row shifted by d, each against the
// n-grams' tokens, and-ed, summed, over d = 1, 2 added. A 0/1 matrix moves
// the pool's counts to the output columns (both bigrams to column 2).
// CHECK-LABEL: func.func @tfidf
// CHECK-SAME: -> tensor<2x3xf32>
// CHECK: %[[X:.*]] = tosa.reshape %arg0, {{.*}} -> tensor<2x6x1xi32>
// CHECK: %[[U:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}4, 5]]]> : tensor<1x1x2xi32>}>
// CHECK: tosa.equal %[[X]], %[[U]] : (tensor<2x6x1xi32>, tensor<1x1x2xi32>) -> tensor<2x6x2xi1>
// CHECK: %[[UNI:.*]] = tosa.reduce_sum {{.*}} {axis = 1 : i32} : (tensor<2x6x2xf32>) -> tensor<2x1x2xf32>
// CHECK: tosa.slice %[[X]], {{.*}} -> tensor<2x5x1xi32>
// CHECK: tosa.slice %[[X]], {{.*}} -> tensor<2x5x1xi32>
// CHECK: tosa.logical_and {{.*}} -> tensor<2x5x2xi1>
// CHECK: %[[D1:.*]] = tosa.reduce_sum {{.*}} -> tensor<2x1x2xf32>
// CHECK: tosa.logical_and {{.*}} -> tensor<2x4x2xi1>
// CHECK: %[[D2:.*]] = tosa.reduce_sum {{.*}} -> tensor<2x1x2xf32>
// CHECK: %[[BI:.*]] = tosa.add %[[D1]], %[[D2]]
// CHECK: tosa.concat %[[UNI]], %[[BI]] {axis = 2 : i32} {{.*}} -> tensor<2x1x4xf32>
// CHECK: "tosa.const"() <{values = dense<{{\[\[\[}}0.000000e+00, 1.000000e+00, 0.000000e+00], [1.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 1.000000e+00]]]> : tensor<1x4x3xf32>}>
// CHECK: tosa.matmul {{.*}} -> tensor<1x2x3xf32>
func.func @tfidf(%x: tensor<2x6xi32>) -> !onnx.unknown {
  %0 = onnx.node "TfIdfVectorizer"(%x) {attrs = {mode = "TF", min_gram_length = 1 : i64, max_gram_length = 2 : i64, max_skip_count = 1 : i64, ngram_counts = array<i64: 0, 2>, ngram_indexes = array<i64: 1, 0, 2, 2>, pool_int64s = array<i64: 4, 5, 4, 5, 6, 7>}, domain = "", node_name = "tv", opset = 9 : i64} : (tensor<2x6xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
