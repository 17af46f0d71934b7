// Malformed optimizer nodes of ai.onnx.preview.training: the errors name the
// node and what is wrong.
// RUN: not onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa 2>&1 | FileCheck %s

// CHECK: node 'adam' (Adam, domain 'ai.onnx.preview.training', opset 1): expects R, T and 4 tensors per variable, but has 7 inputs
func.func @adam_input_count(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0:3 = onnx.node "Adam"(%r, %t, %x, %x, %x, %x, %x) {attrs = {}, domain = "ai.onnx.preview.training", node_name = "adam", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// -----

// CHECK: node 'ada' (Adagrad, domain 'ai.onnx.preview.training', opset 1): input 4 must have the shape of X1 (input 2)
func.func @adagrad_shape(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %h: tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Adagrad"(%r, %t, %x, %g, %h) {attrs = {}, domain = "ai.onnx.preview.training", node_name = "ada", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// CHECK: node 'ada_r' (Adagrad, domain 'ai.onnx.preview.training', opset 1): R and T must be scalars
func.func @adagrad_rate_shape(%r: tensor<2xf32>, %t: tensor<i64>, %x: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Adagrad"(%r, %t, %x, %x, %x) {attrs = {}, domain = "ai.onnx.preview.training", node_name = "ada_r", opset = 1 : i64} : (tensor<2xf32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// Momentum's attributes have no defaults in the schema.
// CHECK: node 'm_alpha' (Momentum, domain 'ai.onnx.preview.training', opset 1): attribute 'alpha' is required
func.func @momentum_no_alpha(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Momentum"(%r, %t, %x, %x, %x) {attrs = {beta = 1.0 : f32, mode = "standard", norm_coefficient = 0.0 : f32}, domain = "ai.onnx.preview.training", node_name = "m_alpha", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// CHECK: node 'm_mode' (Momentum, domain 'ai.onnx.preview.training', opset 1): mode 'heavy' is neither "standard" nor "nesterov"
func.func @momentum_mode(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Momentum"(%r, %t, %x, %x, %x) {attrs = {alpha = 0.9 : f32, beta = 1.0 : f32, mode = "heavy", norm_coefficient = 0.0 : f32}, domain = "ai.onnx.preview.training", node_name = "m_mode", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// CHECK: node 'adam_neg' (Adam, domain 'ai.onnx.preview.training', opset 1): alpha and beta must not be negative
func.func @adam_negative_beta(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %0:3 = onnx.node "Adam"(%r, %t, %x, %x, %x, %x) {attrs = {beta = -0.5 : f32}, domain = "ai.onnx.preview.training", node_name = "adam_neg", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// -----

// CHECK: node 'grad' (Gradient, domain 'ai.onnx.preview.training', opset 1): unsupported op
func.func @gradient(%x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "Gradient"(%x) {attrs = {}, domain = "ai.onnx.preview.training", node_name = "grad", opset = 1 : i64} : (tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
