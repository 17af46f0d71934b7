// RUN: onnx-tosa-opt %s -split-input-file -verify-diagnostics --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file -verify-diagnostics --convert-onnx-to-tosa | mlir-opt -split-input-file --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// RNN, forward, two steps: the input projection of all steps is one matmul
// (weights transposed at compile time, Wb + Rb folded into one bias), then
// each step multiplies the state by Rᵀ and applies Tanh.
// CHECK-LABEL: func.func @rnn_forward
// CHECK-SAME: -> (tensor<2x1x3x4xf32>, tensor<1x3x4xf32>)
// CHECK: %[[XW:.*]] = tosa.matmul %{{.*}} : (tensor<1x6x5xf32>, tensor<1x5x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x4xf32>
// CHECK: tosa.add %{{.*}} : (tensor<2x3x4xf32>, tensor<1x1x4xf32>) -> tensor<2x3x4xf32>
// CHECK-COUNT-2: tosa.matmul %{{.*}} : (tensor<1x3x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4xf32>
// CHECK: tosa.tanh
// CHECK: tosa.concat %{{.*}} {axis = 0 : i32} : (tensor<1x1x3x4xf32>, tensor<1x1x3x4xf32>) -> tensor<2x1x3x4xf32>
func.func @rnn_forward(%x: tensor<2x3x5xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %w = onnx.constant "w" dense<0.1> : tensor<1x4x5xf32> : tensor<1x4x5xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x4x4xf32> : tensor<1x4x4xf32>
  %b = onnx.constant "b" dense<0.3> : tensor<1x8xf32> : tensor<1x8xf32>
  %0:2 = onnx.node "RNN"(%x, %w, %r, %b) {attrs = {hidden_size = 4 : i64}, domain = "", node_name = "rnn", opset = 22 : i64} : (tensor<2x3x5xf32>, tensor<1x4x5xf32>, tensor<1x4x4xf32>, tensor<1x8xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// Bidirectional with layout = 1: X and the outputs are batch-major; the two
// directions' outputs are joined on the num_directions axis.
// CHECK-LABEL: func.func @rnn_bidirectional_layout1
// CHECK: tosa.transpose %arg0 {perms = array<i32: 1, 0, 2>} : (tensor<3x2x5xf32>) -> tensor<2x3x5xf32>
// CHECK: tosa.concat %{{.*}} {axis = 1 : i32} : (tensor<2x1x3x4xf32>, tensor<2x1x3x4xf32>) -> tensor<2x2x3x4xf32>
// CHECK: tosa.transpose %{{.*}} {perms = array<i32: 2, 0, 1, 3>} : (tensor<2x2x3x4xf32>) -> tensor<3x2x2x4xf32>
// CHECK: tosa.transpose %{{.*}} {perms = array<i32: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
func.func @rnn_bidirectional_layout1(%x: tensor<3x2x5xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %w = onnx.constant "w" dense<0.1> : tensor<2x4x5xf32> : tensor<2x4x5xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<2x4x4xf32> : tensor<2x4x4xf32>
  %0:2 = onnx.node "RNN"(%x, %w, %r) {attrs = {direction = "bidirectional", hidden_size = 4 : i64, layout = 1 : i64}, domain = "", node_name = "rnn", opset = 14 : i64} : (tensor<3x2x5xf32>, tensor<2x4x5xf32>, tensor<2x4x4xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// A constant sequence_lens masks finished batch elements: their state is held
// (select against the previous state) and their output is 0.
// CHECK-LABEL: func.func @rnn_sequence_lens
// CHECK: %[[MASK:.*]] = "tosa.const"() <{values = dense<[{{\[}}true], [false]]> : tensor<2x1xi1>}>
// CHECK: tosa.select %[[MASK]]
// CHECK: tosa.select %[[MASK]]
func.func @rnn_sequence_lens(%x: tensor<2x2x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %w = onnx.constant "w" dense<0.1> : tensor<1x4x3xf32> : tensor<1x4x3xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x4x4xf32> : tensor<1x4x4xf32>
  %l = onnx.constant "l" dense<[2, 1]> : tensor<2xi32> : tensor<2xi32>
  %none = onnx.none
  %0:2 = onnx.node "RNN"(%x, %w, %r, %none, %l) {attrs = {hidden_size = 4 : i64}, domain = "", node_name = "rnn", opset = 14 : i64} : (tensor<2x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, tensor<2xi32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// The activations attribute with alpha/beta, and clip before the activation.
// CHECK-LABEL: func.func @rnn_activations_clip
// CHECK: tosa.clamp %{{.*}} {max_val = 5.000000e-01 : f32, min_val = -5.000000e-01 : f32}
// CHECK: tosa.clamp %{{.*}} {max_val = 1.000000e+00 : f32, min_val = 0.000000e+00 : f32}
func.func @rnn_activations_clip(%x: tensor<1x2x3xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<0.1> : tensor<1x4x3xf32> : tensor<1x4x3xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x4x4xf32> : tensor<1x4x4xf32>
  %0 = onnx.node "RNN"(%x, %w, %r) {attrs = {activations = ["HardSigmoid"], activation_alpha = array<f32: 0.3>, activation_beta = array<f32: 0.4>, clip = 0.5 : f32, hidden_size = 4 : i64}, domain = "", node_name = "rnn", opset = 14 : i64} : (tensor<1x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// GRU: the reset gate scales the state before the product by Rhᵀ; the
// z/r product and the h product are separate matmuls.
// CHECK-LABEL: func.func @gru_default
// CHECK: tosa.matmul %{{.*}} -> tensor<1x2x6xf32>
// CHECK: tosa.sigmoid
// CHECK: tosa.sigmoid
// CHECK: tosa.mul
// CHECK: tosa.matmul %{{.*}} -> tensor<1x2x3xf32>
// CHECK: tosa.tanh
func.func @gru_default(%x: tensor<1x2x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %w = onnx.constant "w" dense<0.1> : tensor<1x9x4xf32> : tensor<1x9x4xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x9x3xf32> : tensor<1x9x3xf32>
  %0:2 = onnx.node "GRU"(%x, %w, %r) {attrs = {hidden_size = 3 : i64}, domain = "", node_name = "gru", opset = 22 : i64} : (tensor<1x2x4xf32>, tensor<1x9x4xf32>, tensor<1x9x3xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// GRU with linear_before_reset: the reset gate scales H·Rhᵀ (+ Rbh) after
// the product.
// CHECK-LABEL: func.func @gru_linear_before_reset
// CHECK: tosa.matmul %{{.*}} -> tensor<1x2x6xf32>
// CHECK: tosa.matmul %{{.*}} -> tensor<1x2x3xf32>
// CHECK: tosa.mul
// CHECK: tosa.tanh
func.func @gru_linear_before_reset(%x: tensor<1x2x4xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<0.1> : tensor<1x9x4xf32> : tensor<1x9x4xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x9x3xf32> : tensor<1x9x3xf32>
  %0 = onnx.node "GRU"(%x, %w, %r) {attrs = {hidden_size = 3 : i64, linear_before_reset = 1 : i64}, domain = "", node_name = "gru", opset = 14 : i64} : (tensor<1x2x4xf32>, tensor<1x9x4xf32>, tensor<1x9x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// LSTM with peepholes and an initial cell state; all three outputs.
// CHECK-LABEL: func.func @lstm_peepholes
// CHECK-SAME: -> (tensor<1x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>)
// CHECK: tosa.matmul %{{.*}} -> tensor<1x2x12xf32>
// CHECK-COUNT-3: tosa.sigmoid
// CHECK: tosa.tanh
func.func @lstm_peepholes(%x: tensor<1x2x4xf32>, %c0: tensor<1x2x3xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown) {
  %w = onnx.constant "w" dense<0.1> : tensor<1x12x4xf32> : tensor<1x12x4xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x12x3xf32> : tensor<1x12x3xf32>
  %p = onnx.constant "p" dense<0.3> : tensor<1x9xf32> : tensor<1x9xf32>
  %none = onnx.none
  %0:3 = onnx.node "LSTM"(%x, %w, %r, %none, %none, %none, %c0, %p) {attrs = {hidden_size = 3 : i64}, domain = "", node_name = "lstm", opset = 22 : i64} : (tensor<1x2x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>, none, none, none, tensor<1x2x3xf32>, tensor<1x9xf32>) -> (!onnx.unknown, !onnx.unknown, !onnx.unknown)
  return %0#0, %0#1, %0#2 : !onnx.unknown, !onnx.unknown, !onnx.unknown
}

// -----

// sequence_lens known only at run time: each step's mask compares the
// lengths with the step index at run time.
// CHECK-LABEL: func.func @rnn_runtime_sequence_lens
// CHECK: %[[L:.*]] = tosa.reshape %arg1, %{{.*}} : (tensor<2xi32>, !tosa.shape<2>) -> tensor<2x1xi32>
// CHECK: %[[M:.*]] = tosa.greater %[[L]], %{{.*}} : (tensor<2x1xi32>, tensor<1x1xi32>) -> tensor<2x1xi1>
// CHECK: tosa.select %[[M]]
func.func @rnn_runtime_sequence_lens(%x: tensor<2x2x3xf32>, %l: tensor<2xi32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<0.1> : tensor<1x4x3xf32> : tensor<1x4x3xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x4x4xf32> : tensor<1x4x4xf32>
  %none = onnx.none
  %0 = onnx.node "RNN"(%x, %w, %r, %none, %l) {attrs = {hidden_size = 4 : i64}, domain = "", node_name = "rnn", opset = 14 : i64} : (tensor<2x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, tensor<2xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

func.func @unknown_activation(%x: tensor<1x2x3xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<0.1> : tensor<1x4x3xf32> : tensor<1x4x3xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x4x4xf32> : tensor<1x4x4xf32>
  // expected-error @+1 {{node 'rnn' (RNN, domain 'ai.onnx', opset 14): activation "Gelu" is not supported}}
  %0 = onnx.node "RNN"(%x, %w, %r) {attrs = {activations = ["Gelu"], hidden_size = 4 : i64}, domain = "", node_name = "rnn", opset = 14 : i64} : (tensor<1x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

func.func @wrong_activation_count(%x: tensor<1x2x3xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<0.1> : tensor<1x12x3xf32> : tensor<1x12x3xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x12x3xf32> : tensor<1x12x3xf32>
  // expected-error @+1 {{node 'lstm' (LSTM, domain 'ai.onnx', opset 14): activations lists 2 functions; 3 are expected (3 per direction)}}
  %0 = onnx.node "LSTM"(%x, %w, %r) {attrs = {activations = ["Sigmoid", "Tanh"], hidden_size = 3 : i64}, domain = "", node_name = "lstm", opset = 14 : i64} : (tensor<1x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

func.func @wrong_weight_shape(%x: tensor<1x2x3xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<0.1> : tensor<1x8x3xf32> : tensor<1x8x3xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x9x3xf32> : tensor<1x9x3xf32>
  // expected-error @+1 {{node 'gru' (GRU, domain 'ai.onnx', opset 14): W of type tensor<1x8x3xf32> or R of type tensor<1x9x3xf32> does not match 1 direction(s), 3 gate(s) and input size 3}}
  %0 = onnx.node "GRU"(%x, %w, %r) {attrs = {hidden_size = 3 : i64}, domain = "", node_name = "gru", opset = 14 : i64} : (tensor<1x2x3xf32>, tensor<1x8x3xf32>, tensor<1x9x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

func.func @sequence_lens_too_long(%x: tensor<2x2x3xf32>) -> !onnx.unknown {
  %w = onnx.constant "w" dense<0.1> : tensor<1x4x3xf32> : tensor<1x4x3xf32>
  %r = onnx.constant "r" dense<0.2> : tensor<1x4x4xf32> : tensor<1x4x4xf32>
  %l = onnx.constant "l" dense<[2, 3]> : tensor<2xi32> : tensor<2xi32>
  %none = onnx.none
  // expected-error @+1 {{node 'rnn' (RNN, domain 'ai.onnx', opset 14): sequence_lens value 3 is outside [0, 2]}}
  %0 = onnx.node "RNN"(%x, %w, %r, %none, %l) {attrs = {hidden_size = 4 : i64}, domain = "", node_name = "rnn", opset = 14 : i64} : (tensor<2x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, tensor<2xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
