// A value TOSA needs at compile time that comes from a graph input: the
// error names the input and the --freeze-input flag that makes it constant.
// RUN: not onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa 2>&1 | FileCheck %s

// CHECK: node 'sum' (ReduceSum, domain 'ai.onnx', opset 13): input 1 (axes) must be a compile-time constant integer tensor; it is computed from graph input 'the_axes', which --freeze-input the_axes=FILE.npy turns into a constant
func.func @axes_from_input(%x: tensor<2x3xf32>, %a: tensor<1xi64> {onnx.name = "the_axes"}) -> !onnx.unknown {
  %0 = onnx.node "ReduceSum"(%x, %a) {attrs = {}, domain = "", node_name = "sum", opset = 13 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Through other nodes: both inputs of the Add are named, the data is not.
// CHECK: node 'pad' (Pad, domain 'ai.onnx', opset 18): input 1 (pads) must be a compile-time constant integer tensor; it is computed from graph inputs 'p', 'q', which --freeze-input p=FILE.npy --freeze-input q=FILE.npy turn into a constant
func.func @pads_computed(%x: tensor<2x3xf32> {onnx.name = "x"}, %p: tensor<4xi64> {onnx.name = "p"}, %q: tensor<4xi64> {onnx.name = "q"}) -> !onnx.unknown {
  %s = onnx.node "Add"(%p, %q) {attrs = {}, domain = "", node_name = "add", opset = 18 : i64} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %0 = onnx.node "Pad"(%x, %s) {attrs = {}, domain = "", node_name = "pad", opset = 18 : i64} : (tensor<2x3xf32>, tensor<4xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
