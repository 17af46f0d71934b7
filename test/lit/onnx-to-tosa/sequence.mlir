// RUN: onnx-tosa-opt %s -split-input-file -verify-diagnostics --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file -verify-diagnostics --convert-onnx-to-tosa | mlir-opt -split-input-file --tosa-attach-target="profiles=pro_int,pro_fp level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// Sequences are resolved at compile time: construct, erase, insert and at
// with constant positions pick one of the tensors, and nothing is computed.
// CHECK-LABEL: func.func @construct_erase_insert_at
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[Y:.*]]: tensor<2xf32>, %[[Z:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[Z]] : tensor<2xf32>
func.func @construct_erase_insert_at(%x: tensor<2xf32>, %y: tensor<2xf32>, %z: tensor<2xf32>) -> !onnx.unknown {
  %s = onnx.node "SequenceConstruct"(%x, %y, %z) {attrs = {}, domain = "", node_name = "construct", opset = 12 : i64} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> !onnx.unknown
  %p1 = onnx.constant "p1" dense<1> : tensor<i64> : tensor<i64>
  // [x, z]
  %e = onnx.node "SequenceErase"(%s, %p1) {attrs = {}, domain = "", node_name = "erase", opset = 12 : i64} : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  %m2 = onnx.constant "m2" dense<-2> : tensor<i64> : tensor<i64>
  // [y, x, z]: -2 counts from the back
  %i = onnx.node "SequenceInsert"(%e, %y, %m2) {attrs = {}, domain = "", node_name = "insert", opset = 12 : i64} : (!onnx.unknown, tensor<2xf32>, tensor<i64>) -> !onnx.unknown
  %m1 = onnx.constant "m1" dense<-1> : tensor<i64> : tensor<i64>
  %0 = onnx.node "SequenceAt"(%i, %m1) {attrs = {}, domain = "", node_name = "at", opset = 12 : i64} : (!onnx.unknown, tensor<i64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// SequenceLength is a constant (an int64 graph output, returned exactly);
// SplitToSequence without `split` makes one element per index.
// CHECK-LABEL: func.func @split_length
// CHECK: %[[C:.*]] = arith.constant dense<4> : tensor<i64>
// CHECK-NEXT: return %[[C]] : tensor<i64>
func.func @split_length(%x: tensor<2x4xf32>) -> !onnx.unknown {
  %s = onnx.node "SplitToSequence"(%x) {attrs = {axis = -1 : i64}, domain = "", node_name = "split", opset = 12 : i64} : (tensor<2x4xf32>) -> !onnx.unknown
  %0 = onnx.node "SequenceLength"(%s) {attrs = {}, domain = "", node_name = "len", opset = 12 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// A scalar `split` gives chunks of that size, the last one smaller; a
// sequence graph output is one result per element, named NAME.K.
// CHECK-LABEL: func.func @split_chunks
// CHECK-SAME: -> (tensor<2x2xf32> {onnx.name = "seq.0"}, tensor<2x2xf32> {onnx.name = "seq.1"}, tensor<2x1xf32> {onnx.name = "seq.2"})
// CHECK-DAG: %[[A:.*]] = tosa.slice %arg0, {{.*}} : (tensor<2x5xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
// CHECK-DAG: %[[B:.*]] = tosa.slice %arg0, {{.*}} : (tensor<2x5xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
// CHECK-DAG: %[[C:.*]] = tosa.slice %arg0, {{.*}} : (tensor<2x5xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x1xf32>
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @split_chunks(%x: tensor<2x5xf32>) -> (!onnx.unknown {onnx.name = "seq"}) {
  %n = onnx.constant "n" dense<2> : tensor<i64> : tensor<i64>
  %s = onnx.node "SplitToSequence"(%x, %n) {attrs = {axis = 1 : i64}, domain = "", node_name = "split", opset = 12 : i64} : (tensor<2x5xf32>, tensor<i64>) -> !onnx.unknown
  return %s : !onnx.unknown
}

// -----

// ConcatFromSequence with new_axis stacks: a unit dimension, then concat.
// SplitToSequence with keepdims=0 drops the split axis.
// CHECK-LABEL: func.func @split_stack
// CHECK-COUNT-3: tosa.slice
// CHECK: tosa.concat {{.*}} {axis = 2 : i32} : (tensor<2x4x1xf32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>) -> tensor<2x4x3xf32>
func.func @split_stack(%x: tensor<3x2x4xf32>) -> !onnx.unknown {
  %s = onnx.node "SplitToSequence"(%x) {attrs = {axis = 0 : i64, keepdims = 0 : i64}, domain = "", node_name = "split", opset = 12 : i64} : (tensor<3x2x4xf32>) -> !onnx.unknown
  %0 = onnx.node "ConcatFromSequence"(%s) {attrs = {axis = -1 : i64, new_axis = 1 : i64}, domain = "", node_name = "stack", opset = 12 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// A sequence graph input is one argument per element (the importer builds
// the onnx.sequence); SequenceMap unrolls its body per element, tensors
// passed whole.
// CHECK-LABEL: func.func @sequence_map
// CHECK-SAME: -> (tensor<3xf32> {onnx.name = "y.0"}, tensor<3xf32> {onnx.name = "y.1"})
// CHECK: %[[A:.*]] = tosa.add %arg0, %arg2
// CHECK: %[[B:.*]] = tosa.add %arg1, %arg2
// CHECK: return %[[A]], %[[B]]
func.func @sequence_map(%x0: tensor<3xf32> {onnx.name = "x.0"}, %x1: tensor<3xf32> {onnx.name = "x.1"}, %t: tensor<3xf32> {onnx.name = "t"}) -> (!onnx.unknown {onnx.name = "y"}) {
  %x = onnx.sequence(%x0, %x1) : (tensor<3xf32>, tensor<3xf32>) -> !onnx.sequence
  %0 = onnx.node "SequenceMap"(%x, %t) {attrs = {body = 0 : i64}, domain = "", node_name = "map", opset = 17 : i64} : (!onnx.sequence, tensor<3xf32>) -> !onnx.unknown {
  ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
    %s = onnx.node "Add"(%a, %b) {attrs = {}, domain = "", node_name = "add", opset = 17 : i64} : (tensor<?xf32>, tensor<?xf32>) -> !onnx.unknown
    onnx.yield %s : !onnx.unknown
  }
  return %0 : !onnx.unknown
}

// -----

// int64 elements are computed as i32 and widened back on exit, to the
// element type the model declares for the sequence output.
// CHECK-LABEL: func.func @insert_int64
// CHECK-SAME: -> (tensor<2xi64> {onnx.name = "out.0"}, tensor<2xi64> {onnx.name = "out.1"})
// CHECK: %[[N:.*]] = tosa.negate
// CHECK: %[[W:.*]] = arith.extsi %[[N]] : tensor<2xi32> to tensor<2xi64>
// CHECK: return %arg0, %[[W]]
func.func @insert_int64(%a: tensor<2xi64> {onnx.name = "s.0"}, %b: tensor<2xi64> {onnx.name = "b"}) -> (!onnx.unknown {onnx.name = "out", onnx.declared_element_type = i64}) {
  %s = onnx.sequence(%a) : (tensor<2xi64>) -> !onnx.sequence
  %n = onnx.node "Neg"(%b) {attrs = {}, domain = "", node_name = "neg", opset = 13 : i64} : (tensor<2xi64>) -> tensor<2xi64>
  %0 = onnx.node "SequenceInsert"(%s, %n) {attrs = {}, domain = "", node_name = "insert", opset = 11 : i64} : (!onnx.sequence, tensor<2xi64>) -> !onnx.unknown
  return %0 : !onnx.unknown
}

// -----

// Optionals: OptionalHasElement is a constant; an absent optional graph
// output has no result, a present one is its value.
// CHECK-LABEL: func.func @optionals
// CHECK-SAME: -> (tensor<i1> {onnx.name = "has"}, tensor<2xf32> {onnx.name = "some"})
// CHECK: %[[F:.*]] = "tosa.const"() <{values = dense<false> : tensor<i1>}>
// CHECK: return %[[F]], %arg0
func.func @optionals(%x: tensor<2xf32> {onnx.name = "x"}) -> (!onnx.unknown {onnx.name = "has"}, !onnx.optional {onnx.name = "none"}, !onnx.unknown {onnx.name = "some"}) {
  %absent = onnx.optional() : () -> !onnx.optional
  %h = onnx.node "OptionalHasElement"(%absent) {attrs = {}, domain = "", node_name = "has", opset = 18 : i64} : (!onnx.optional) -> !onnx.unknown
  %o = onnx.node "Optional"(%x) {attrs = {}, domain = "", node_name = "opt", opset = 18 : i64} : (tensor<2xf32>) -> !onnx.unknown
  %g = onnx.node "OptionalGetElement"(%o) {attrs = {}, domain = "", node_name = "get", opset = 18 : i64} : (!onnx.unknown) -> !onnx.unknown
  %g2 = onnx.node "Optional"(%g) {attrs = {}, domain = "", node_name = "opt2", opset = 18 : i64} : (!onnx.unknown) -> !onnx.unknown
  return %h, %absent, %g2 : !onnx.unknown, !onnx.optional, !onnx.unknown
}

// -----

// A loop that carries a sequence is unrolled (here as the expanded form of
// SequenceMap writes it): SequenceLength gives the trip count.
// CHECK-LABEL: func.func @loop_builds_sequence
// CHECK-SAME: -> (tensor<2xf32> {onnx.name = "y.0"}, tensor<2xf32> {onnx.name = "y.1"})
// CHECK: %[[A:.*]] = tosa.abs %arg0
// CHECK: %[[B:.*]] = tosa.abs %arg1
// CHECK: return %[[A]], %[[B]]
func.func @loop_builds_sequence(%x0: tensor<2xf32> {onnx.name = "x.0"}, %x1: tensor<2xf32> {onnx.name = "x.1"}) -> (!onnx.unknown {onnx.name = "y"}) {
  %x = onnx.sequence(%x0, %x1) : (tensor<2xf32>, tensor<2xf32>) -> !onnx.sequence
  %n = onnx.node "SequenceLength"(%x) {attrs = {}, domain = "", node_name = "len", opset = 17 : i64} : (!onnx.sequence) -> !onnx.unknown
  %t = onnx.constant "t" dense<true> : tensor<i1> : tensor<i1>
  %e = onnx.node "SequenceEmpty"() {attrs = {dtype = 1 : i64}, domain = "", node_name = "empty", opset = 17 : i64} : () -> !onnx.unknown
  %0 = onnx.node "Loop"(%n, %t, %e) {attrs = {body = 0 : i64}, domain = "", node_name = "loop", opset = 17 : i64} : (!onnx.unknown, tensor<i1>, !onnx.unknown) -> !onnx.unknown {
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: !onnx.unknown):
    %el = onnx.node "SequenceAt"(%x, %i) {attrs = {}, domain = "", node_name = "at", opset = 17 : i64} : (!onnx.sequence, tensor<i64>) -> !onnx.unknown
    %a = onnx.node "Abs"(%el) {attrs = {}, domain = "", node_name = "abs", opset = 17 : i64} : (!onnx.unknown) -> !onnx.unknown
    %next = onnx.node "SequenceInsert"(%acc, %a) {attrs = {}, domain = "", node_name = "insert", opset = 17 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
    onnx.yield %c, %next : tensor<i1>, !onnx.unknown
  }
  return %0 : !onnx.unknown
}

// -----

// If with a run-time condition selects sequences of one structure element
// by element.
// CHECK-LABEL: func.func @if_selects_sequences
// CHECK-SAME: -> (tensor<2xf32> {onnx.name = "r.0"})
// CHECK: %[[N:.*]] = tosa.negate %arg1
// CHECK: %[[S:.*]] = tosa.select {{.*}}, %[[N]], %arg1
// CHECK: return %[[S]]
func.func @if_selects_sequences(%c: tensor<i1> {onnx.name = "c"}, %x: tensor<2xf32> {onnx.name = "x"}) -> (!onnx.unknown {onnx.name = "r"}) {
  %0 = onnx.node "If"(%c) {attrs = {then_branch = 0 : i64, else_branch = 1 : i64}, domain = "", node_name = "if", opset = 13 : i64} : (tensor<i1>) -> !onnx.unknown {
    %n = onnx.node "Neg"(%x) {attrs = {}, domain = "", node_name = "neg", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
    %s = onnx.node "SequenceConstruct"(%n) {attrs = {}, domain = "", node_name = "a", opset = 13 : i64} : (!onnx.unknown) -> !onnx.unknown
    onnx.yield %s : !onnx.unknown
  }, {
    %s = onnx.node "SequenceConstruct"(%x) {attrs = {}, domain = "", node_name = "b", opset = 13 : i64} : (tensor<2xf32>) -> !onnx.unknown
    onnx.yield %s : !onnx.unknown
  }
  return %0 : !onnx.unknown
}
