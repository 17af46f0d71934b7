// Nodes that cannot be legalized are reported with their name, op type,
// domain and opset, and the pass fails.
// RUN: not onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa 2>&1 | FileCheck %s --check-prefix=ERR

// ERR: node 'mystery' (FooBar, domain 'ai.onnx', opset 17): unsupported op
func.func @unknown_op(%x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "FooBar"(%x) {attrs = {}, domain = "", node_name = "mystery", opset = 17 : i64} : (tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'fused' (FusedConv, domain 'com.microsoft', opset 1): unsupported op
func.func @custom_domain(%x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "FusedConv"(%x) {attrs = {}, domain = "com.microsoft", node_name = "fused", opset = 1 : i64} : (tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'old_erf' (Erf, domain 'ai.onnx', opset 8): unsupported op (supported from opset 9 on)
func.func @too_old(%x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "Erf"(%x) {attrs = {}, domain = "", node_name = "old_erf", opset = 8 : i64} : (tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'r' (Reshape, domain 'ai.onnx', opset 14): input 1 (shape) must be a compile-time constant integer tensor
func.func @runtime_shape(%x: tensor<6xf32>, %s: tensor<2xi64>) -> !onnx.unknown {
  %0 = onnx.node "Reshape"(%x, %s) {attrs = {}, domain = "", node_name = "r", opset = 14 : i64} : (tensor<6xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Unsigned data computed as i32 is wrapped to its width after each node,
// which needs the node's output type (docs/types.md).
// ERR: node 'addu8' (Add, domain 'ai.onnx', opset 14): output 0 is computed from unsigned data but its type is not declared (needed to keep unsigned wrap-around)
func.func @runtime_uint8(%x: tensor<2xui8>) -> !onnx.unknown {
  %0 = onnx.node "Add"(%x, %x) {attrs = {}, domain = "", node_name = "addu8", opset = 14 : i64} : (tensor<2xui8>, tensor<2xui8>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 't' (ReduceMax, domain 'ai.onnx', opset 13): input 0 has a size that depends on the input values (computed by node 'nz' (NonZero, domain 'ai.onnx', opset 13)), which this op cannot keep: only elementwise ops, Reshape, Squeeze, Unsqueeze, Flatten, Gather, GatherND, Slice and the Transpose of NonZero's result keep such a size
func.func @nonzero(%x: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "NonZero"(%x) {attrs = {}, domain = "", node_name = "nz", opset = 13 : i64} : (tensor<4xf32>) -> !onnx.unknown
  %1 = onnx.node "ReduceMax"(%0) {attrs = {}, domain = "", node_name = "t", opset = 13 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %1 : !onnx.unknown
}

// -----

// ERR: node 'dyn' (Relu, domain 'ai.onnx', opset 14): input 0 has type tensor<?x3xf32>; a tensor of static shape is required
func.func @dynamic_input(%x: tensor<?x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Relu"(%x) {attrs = {}, domain = "", node_name = "dyn", opset = 14 : i64} : (tensor<?x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'bad_add' (Add, domain 'ai.onnx', opset 14): input shapes are not broadcast-compatible (input 1 has type tensor<4xf32>)
func.func @broadcast_mismatch(%x: tensor<2x3xf32>, %y: tensor<4xf32>) -> !onnx.unknown {
  %0 = onnx.node "Add"(%x, %y) {attrs = {}, domain = "", node_name = "bad_add", opset = 14 : i64} : (tensor<2x3xf32>, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'sin' (Sin, domain 'ai.onnx', opset 7): input 0 has element type i32; a floating-point element type is required
func.func @wrong_type(%x: tensor<2xi32>) -> !onnx.unknown {
  %0 = onnx.node "Sin"(%x) {attrs = {}, domain = "", node_name = "sin", opset = 7 : i64} : (tensor<2xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// TOSA's ARGMAX takes no i32 data.
// ERR: node 'argmax' (ArgMax, domain 'ai.onnx', opset 13): input 0 has element type i32; a floating-point element type is required
func.func @argmax(%x: tensor<2x3xi32>) -> !onnx.unknown {
  %0 = onnx.node "ArgMax"(%x) {attrs = {}, domain = "", node_name = "argmax", opset = 13 : i64} : (tensor<2x3xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'mp' (MaxPool, domain 'ai.onnx', opset 12): storage_order must be 0 or 1
func.func @maxpool_indices(%x: tensor<1x1x4x4xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "MaxPool"(%x) {attrs = {kernel_shape = array<i64: 2, 2>, storage_order = 2 : i64}, domain = "", node_name = "mp", opset = 12 : i64} : (tensor<1x1x4x4xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// ERR: node 'if' (If, domain 'ai.onnx', opset 13): in subgraph 'else_branch': node 'inner' (FooBar, domain 'ai.onnx', opset 13): unsupported op
func.func @control_flow(%c: tensor<i1>, %x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "If"(%c) {attrs = {then_branch = 0 : i64, else_branch = 1 : i64}, domain = "", node_name = "if", opset = 13 : i64} : (tensor<i1>) -> !onnx.unknown {
    onnx.yield %x : tensor<2xf32>
  }, {
    %y = onnx.node "FooBar"(%x) {attrs = {}, domain = "", node_name = "inner", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
    onnx.yield %y : !onnx.unknown
  }
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'relu' (Relu, domain 'ai.onnx', opset 14): computed type tensor<2x3xf32> for output 0 (a graph output), but the model declares tensor<3x2xf32>
func.func @declared_mismatch(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = onnx.node "Relu"(%x) {attrs = {}, domain = "", node_name = "relu", opset = 14 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// ERR: node 'conv' (Conv, domain 'ai.onnx', opset 11): group 3 does not divide input tensor<1x4x5x5xf32> and weights tensor<6x2x3x3xf32> consistently
func.func @conv_bad_group(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Conv"(%x, %w) {attrs = {group = 3 : i64}, domain = "", node_name = "conv", opset = 11 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Before opset 14 training is implied by the extra outputs, whose saved
// statistics each version defines differently.
// ERR: node 'bn' (BatchNormalization, domain 'ai.onnx', opset 9): training outputs (running mean/variance) before opset 14 are not supported
func.func @batchnorm_training_old(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "BatchNormalization"(%x, %s, %s, %s, %s) {attrs = {}, domain = "", node_name = "bn", opset = 9 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// ERR: node 'bn15' (BatchNormalization, domain 'ai.onnx', opset 15): running mean/variance outputs are only defined with training_mode=1
func.func @batchnorm_running_inference(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "BatchNormalization"(%x, %s, %s, %s, %s) {attrs = {}, domain = "", node_name = "bn15", opset = 15 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (!onnx.unknown, !onnx.unknown)
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// ERR: node 'crop' (Resize, domain 'ai.onnx', opset 13): roi must be a compile-time constant for tf_crop_and_resize
func.func @resize_crop(%x: tensor<1x1x4x4xf32>, %roi: tensor<8xf32>) -> !onnx.unknown {
  %s = onnx.constant "s" dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32> : tensor<4xf32>
  %0 = onnx.node "Resize"(%x, %roi, %s) {attrs = {coordinate_transformation_mode = "tf_crop_and_resize"}, domain = "", node_name = "crop", opset = 13 : i64} : (tensor<1x1x4x4xf32>, tensor<8xf32>, tensor<4xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'to_string' (Cast, domain 'ai.onnx', opset 13): cast to ONNX data type 8 is not supported
func.func @cast_string(%x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "Cast"(%x) {attrs = {to = 8 : i64}, domain = "", node_name = "to_string", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'bad_reshape' (Reshape, domain 'ai.onnx', opset 14): the shape holds 4 elements but the input has 6
func.func @reshape_count(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %s = onnx.constant "s" dense<[2, 2]> : tensor<2xi64> : tensor<2xi64>
  %0 = onnx.node "Reshape"(%x, %s) {attrs = {}, domain = "", node_name = "bad_reshape", opset = 14 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'nll' (NegativeLogLikelihoodLoss, domain 'ai.onnx', opset 13): reduction 'max' is not supported
func.func @nll_bad_reduction(%x: tensor<2x3xf32>, %t: tensor<2xi32>) -> !onnx.unknown {
  %0 = onnx.node "NegativeLogLikelihoodLoss"(%x, %t) {attrs = {reduction = "max"}, domain = "", node_name = "nll", opset = 13 : i64} : (tensor<2x3xf32>, tensor<2xi32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// GridSample-20 renamed the modes (bilinear -> linear, bicubic -> cubic).
// ERR: node 'gs_mode' (GridSample, domain 'ai.onnx', opset 22): mode 'bilinear' is not supported
func.func @gridsample_old_mode_name(%x: tensor<1x1x2x2xf32>, %g: tensor<1x3x3x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "GridSample"(%x, %g) {attrs = {mode = "bilinear"}, domain = "", node_name = "gs_mode", opset = 22 : i64} : (tensor<1x1x2x2xf32>, tensor<1x3x3x2xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Adaptive RoiAlign sampling would make the number of samples depend on the
// run-time RoIs.
// ERR: node 'roi0' (RoiAlign, domain 'ai.onnx', opset 22): sampling_ratio 0 (adaptive) is not supported: the number of samples would depend on run-time RoI sizes
func.func @roialign_adaptive(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> !onnx.unknown {
  %0 = onnx.node "RoiAlign"(%x, %r, %b) {attrs = {}, domain = "", node_name = "roi0", opset = 22 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Training-mode Dropout with a non-zero ratio drops elements at random; ONNX
// specifies no generator, so no output could be reproduced.
// ERR: node 'drop' (Dropout, domain 'ai.onnx', opset 22): training_mode=true with ratio 0.75 drops elements at random, which cannot be reproduced (ONNX specifies no generator); only ratio 0 is supported in training mode
func.func @dropout_training_random(%x: tensor<3x4xf32>) -> !onnx.unknown {
  %r = onnx.constant "r" dense<0.75> : tensor<f32> : tensor<f32>
  %t = onnx.constant "t" dense<true> : tensor<i1> : tensor<i1>
  %0 = onnx.node "Dropout"(%x, %r, %t) {attrs = {}, domain = "", node_name = "drop", opset = 22 : i64} : (tensor<3x4xf32>, tensor<f32>, tensor<i1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// ERR: node 'drop_default' (Dropout, domain 'ai.onnx', opset 22): training_mode=true with the default ratio 0.5 drops elements at random
func.func @dropout_training_default_ratio(%x: tensor<3x4xf32>) -> !onnx.unknown {
  %none = onnx.none
  %t = onnx.constant "t" dense<true> : tensor<i1> : tensor<i1>
  %0 = onnx.node "Dropout"(%x, %none, %t) {attrs = {}, domain = "", node_name = "drop_default", opset = 22 : i64} : (tensor<3x4xf32>, none, tensor<i1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// A ratio from a graph input decides between a deterministic (0) and a
// random Dropout: it has to be frozen.
// ERR: node 'drop_input' (Dropout, domain 'ai.onnx', opset 22): training_mode=true: ratio must be a compile-time constant (only ratio 0 gives a reproducible output); it is computed from graph input 'ratio', which --freeze-input ratio=FILE.npy turns into a constant
func.func @dropout_training_ratio_input(%x: tensor<3x4xf32>, %r: tensor<f32> {onnx.name = "ratio"}) -> !onnx.unknown {
  %t = onnx.constant "t" dense<true> : tensor<i1> : tensor<i1>
  %0 = onnx.node "Dropout"(%x, %r, %t) {attrs = {}, domain = "", node_name = "drop_input", opset = 22 : i64} : (tensor<3x4xf32>, tensor<f32>, tensor<i1>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
