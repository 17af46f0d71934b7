// What cannot be resolved at compile time is reported with the node and,
// where a graph input is at fault, the input to freeze.
// RUN: not onnx-tosa-opt %s -split-input-file --convert-onnx-to-tosa 2>&1 | FileCheck %s

// CHECK: node 'at' (SequenceAt, domain 'ai.onnx', opset 12): input 1 (position) must be a compile-time constant: sequences are resolved at compile time; it is computed from graph input 'pos', which --freeze-input pos=FILE.npy turns into a constant
func.func @runtime_position(%x: tensor<2xf32> {onnx.name = "x"}, %p: tensor<i64> {onnx.name = "pos"}) -> !onnx.unknown {
  %s = onnx.node "SequenceConstruct"(%x, %x) {attrs = {}, domain = "", node_name = "construct", opset = 12 : i64} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.unknown
  %0 = onnx.node "SequenceAt"(%s, %p) {attrs = {}, domain = "", node_name = "at", opset = 12 : i64} : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// CHECK: node 'at' (SequenceAt, domain 'ai.onnx', opset 12): position 2 is out of range for a sequence of 2 elements
func.func @out_of_range(%x: tensor<2xf32>) -> !onnx.unknown {
  %s = onnx.node "SequenceConstruct"(%x, %x) {attrs = {}, domain = "", node_name = "construct", opset = 12 : i64} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.unknown
  %p = onnx.constant "p" dense<2> : tensor<i64> : tensor<i64>
  %0 = onnx.node "SequenceAt"(%s, %p) {attrs = {}, domain = "", node_name = "at", opset = 12 : i64} : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// A loop that carries a sequence is unrolled: M and the run-time cond must
// be constants, and both inputs are named.
// CHECK: node 'loop' (Loop, domain 'ai.onnx', opset 13): a loop that carries a sequence is unrolled, so M and cond must be compile-time constants; it is computed from graph inputs 'cond', 'm', which --freeze-input cond=FILE.npy --freeze-input m=FILE.npy turn into a constant
func.func @loop_runtime_trip_count(%m: tensor<i64> {onnx.name = "m"}, %c: tensor<i1> {onnx.name = "cond"}, %x: tensor<2xf32>) -> !onnx.unknown {
  %e = onnx.node "SequenceEmpty"() {attrs = {}, domain = "", node_name = "empty", opset = 13 : i64} : () -> !onnx.unknown
  %0 = onnx.node "Loop"(%m, %c, %e) {attrs = {body = 0 : i64}, domain = "", node_name = "loop", opset = 13 : i64} : (tensor<i64>, tensor<i1>, !onnx.unknown) -> !onnx.unknown {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %acc: !onnx.unknown):
    %next = onnx.node "SequenceInsert"(%acc, %x) {attrs = {}, domain = "", node_name = "insert", opset = 13 : i64} : (!onnx.unknown, tensor<2xf32>) -> !onnx.unknown
    onnx.yield %ci, %next : tensor<i1>, !onnx.unknown
  }
  return %0 : !onnx.unknown
}

// -----

// CHECK: node 'if' (If, domain 'ai.onnx', opset 13): with a run-time condition both branches are computed and selected, but output 0 is a sequence of 1 elements in one and of 2 elements in the other; the condition must be a compile-time constant; it is computed from graph input 'c', which --freeze-input c=FILE.npy turns into a constant
func.func @if_different_lengths(%c: tensor<i1> {onnx.name = "c"}, %x: tensor<2xf32>) -> !onnx.unknown {
  %0 = onnx.node "If"(%c) {attrs = {then_branch = 0 : i64, else_branch = 1 : i64}, domain = "", node_name = "if", opset = 13 : i64} : (tensor<i1>) -> !onnx.unknown {
    %s = onnx.node "SequenceConstruct"(%x) {attrs = {}, domain = "", node_name = "a", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
    onnx.yield %s : !onnx.unknown
  }, {
    %s = onnx.node "SequenceConstruct"(%x, %x) {attrs = {}, domain = "", node_name = "b", opset = 13 : i64} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.unknown
    onnx.yield %s : !onnx.unknown
  }
  return %0 : !onnx.unknown
}

// -----

// CHECK: node 'abs' (Abs, domain 'ai.onnx', opset 13): input 0 is a sequence, which this op does not take
func.func @sequence_to_tensor_op(%x: tensor<2xf32>) -> !onnx.unknown {
  %s = onnx.node "SequenceConstruct"(%x) {attrs = {}, domain = "", node_name = "construct", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
  %0 = onnx.node "Abs"(%s) {attrs = {}, domain = "", node_name = "abs", opset = 13 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// CHECK: node 'get' (OptionalGetElement, domain 'ai.onnx', opset 18): the optional is empty (ONNX makes getting its element an error)
func.func @get_absent() -> !onnx.unknown {
  %absent = onnx.optional() : () -> !onnx.optional
  %0 = onnx.node "OptionalGetElement"(%absent) {attrs = {}, domain = "", node_name = "get", opset = 18 : i64} : (!onnx.optional) -> !onnx.unknown
  return %0 : !onnx.unknown
}
