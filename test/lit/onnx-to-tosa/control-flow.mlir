// RUN: onnx-tosa-opt %s -split-input-file -verify-diagnostics --convert-onnx-to-tosa | FileCheck %s
// RUN: onnx-tosa-opt %s -split-input-file -verify-diagnostics --convert-onnx-to-tosa | mlir-opt -split-input-file --tosa-attach-target="profiles=pro_int,pro_fp extensions=controlflow level=none" --tosa-validate="strict-op-spec-alignment" -o /dev/null

// If with a constant condition: only the taken branch, inlined.
// CHECK-LABEL: func.func @if_constant
// CHECK-NOT: tosa.abs
// CHECK: %[[N:.*]] = tosa.negate %arg0
// CHECK-NOT: tosa.abs
// CHECK: return %[[N]] : tensor<3xf32>
func.func @if_constant(%x: tensor<3xf32>) -> !onnx.unknown {
  %c = onnx.constant "c" dense<true> : tensor<i1> : tensor<i1>
  %0 = onnx.node "If"(%c) {attrs = {then_branch = 0 : i64, else_branch = 1 : i64}, domain = "", node_name = "if", opset = 11 : i64} : (tensor<i1>) -> !onnx.unknown {
    %n = onnx.node "Neg"(%x) {attrs = {}, domain = "", node_name = "neg", opset = 11 : i64} : (tensor<3xf32>) -> !onnx.unknown
    onnx.yield %n : !onnx.unknown
  }, {
    %a = onnx.node "Abs"(%x) {attrs = {}, domain = "", node_name = "abs", opset = 11 : i64} : (tensor<3xf32>) -> !onnx.unknown
    onnx.yield %a : !onnx.unknown
  }
  return %0 : !onnx.unknown
}

// -----

// If with a run-time condition: both branches (one reads an outer value
// directly), then a select.
// CHECK-LABEL: func.func @if_runtime
// CHECK: %[[N:.*]] = tosa.negate %arg1
// CHECK: %[[C:.*]] = tosa.reshape %arg0, %{{.*}} -> tensor<1x1xi1>
// CHECK: %[[R:.*]] = tosa.select %[[C]], %[[N]], %arg1 : (tensor<1x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @if_runtime(%c: tensor<i1>, %x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "If"(%c) {attrs = {then_branch = 0 : i64, else_branch = 1 : i64}, domain = "", node_name = "if", opset = 11 : i64} : (tensor<i1>) -> !onnx.unknown {
    %n = onnx.node "Neg"(%x) {attrs = {}, domain = "", node_name = "neg", opset = 11 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
    onnx.yield %n : !onnx.unknown
  }, {
    onnx.yield %x : tensor<2x3xf32>
  }
  return %0 : !onnx.unknown
}

// -----

// Loop with a constant trip count: unrolled; the iteration number is a
// constant in each copy (its Cast folds); the scan output is the stacked
// per-iteration values.
// CHECK-LABEL: func.func @loop_unrolled
// CHECK-SAME: -> (tensor<2xf32>, tensor<3x2xf32>)
// CHECK: %[[A0:.*]] = tosa.add %arg0
// CHECK: %[[A1:.*]] = tosa.add %[[A0]]
// CHECK: %[[A2:.*]] = tosa.add %[[A1]]
// CHECK-NOT: tosa.add
// CHECK: %[[S:.*]] = tosa.concat {{.*}} {axis = 0 : i32} : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
// CHECK: return %[[A2]], %[[S]]
func.func @loop_unrolled(%x: tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %m = onnx.constant "m" dense<3> : tensor<i64> : tensor<i64>
  %none = onnx.none
  %0:2 = onnx.node "Loop"(%m, %none, %x) {attrs = {body = 0 : i64}, domain = "", node_name = "loop", opset = 13 : i64} : (tensor<i64>, none, tensor<2xf32>) -> (!onnx.unknown, !onnx.unknown) {
  ^bb0(%i: tensor<i64>, %cin: tensor<i1>, %v: !onnx.unknown):
    %f = onnx.node "Cast"(%i) {attrs = {to = 1 : i64}, domain = "", node_name = "cast", opset = 13 : i64} : (tensor<i64>) -> !onnx.unknown
    %s = onnx.node "Add"(%v, %f) {attrs = {}, domain = "", node_name = "add", opset = 13 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
    onnx.yield %cin, %s, %s : tensor<i1>, !onnx.unknown, !onnx.unknown
  }
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// Loop with a run-time trip count whose scan output declares its length:
// two copies, the loop-carried value selected by (i < M) and the condition.
// CHECK-LABEL: func.func @loop_predicated
// CHECK: %[[M:.*]] = arith.trunci %arg0
// CHECK: tosa.greater %[[M]]
// CHECK: %[[ACT0:.*]] = tosa.logical_and
// CHECK: %[[V0:.*]] = tosa.add %arg1, %arg1
// CHECK: %[[P0:.*]] = tosa.reshape %[[ACT0]]
// CHECK: %[[S0:.*]] = tosa.select %[[P0]], %[[V0]], %arg1
// CHECK: tosa.greater %[[M]]
// CHECK: tosa.add %[[S0]], %arg1
// CHECK: tosa.select
// CHECK: tosa.concat {{.*}} -> tensor<2x2xf32>
func.func @loop_predicated(%m: tensor<i64>, %x: tensor<2xf32>) -> (!onnx.unknown, tensor<2x2xf32>) {
  %none = onnx.none
  %t = onnx.constant "t" dense<true> : tensor<i1> : tensor<i1>
  %0:2 = onnx.node "Loop"(%m, %none, %x) {attrs = {body = 0 : i64}, domain = "", node_name = "loop", opset = 13 : i64} : (tensor<i64>, none, tensor<2xf32>) -> (!onnx.unknown, tensor<2x2xf32>) {
  ^bb0(%i: tensor<i64>, %cin: tensor<i1>, %v: !onnx.unknown):
    %s = onnx.node "Add"(%v, %x) {attrs = {}, domain = "", node_name = "add", opset = 13 : i64} : (!onnx.unknown, tensor<2xf32>) -> !onnx.unknown
    onnx.yield %t, %s, %v : tensor<i1>, !onnx.unknown, !onnx.unknown
  }
  return %0#0, %0#1 : !onnx.unknown, tensor<2x2xf32>
}

// -----

// Loop with a run-time trip count and no scan outputs: tosa.while_loop over
// (iteration number, condition, loop-carried values). Its regions are
// isolated from above: M and the outer value the body reads are passed
// through as extra loop-carried values.
// CHECK-LABEL: func.func @loop_while
// CHECK: %[[M:.*]] = arith.trunci %arg0 : tensor<i64> to tensor<i32>
// CHECK: %[[R:.*]]:5 = tosa.while_loop (%[[I:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}, %[[V:.*]] = %arg1, %[[MM:.*]] = %[[M]], %[[X:.*]] = %arg1) : (tensor<i32>, tensor<i1>, tensor<2xf32>, tensor<i32>, tensor<2xf32>)
// CHECK: tosa.greater %[[MM]], %[[I]]
// CHECK: tosa.logical_and %[[C]]
// CHECK: tosa.yield
// CHECK: } do {
// CHECK: ^bb0(%[[BI:.*]]: tensor<i32>, %[[BC:.*]]: tensor<i1>, %[[BV:.*]]: tensor<2xf32>, %[[BM:.*]]: tensor<i32>, %[[BX:.*]]: tensor<2xf32>):
// CHECK: %[[SUM:.*]] = tosa.add %[[BV]], %[[BX]] : (tensor<2xf32>, tensor<2xf32>)
// CHECK: %[[NEXT:.*]] = tosa.add %[[BI]], %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK: tosa.yield %[[NEXT]], %[[BC]], %[[SUM]], %[[BM]], %[[BX]]
// CHECK: return %[[R]]#2
func.func @loop_while(%m: tensor<i64>, %x: tensor<2xf32>) -> !onnx.unknown {
  %none = onnx.none
  %0 = onnx.node "Loop"(%m, %none, %x) {attrs = {body = 0 : i64}, domain = "", node_name = "loop", opset = 13 : i64} : (tensor<i64>, none, tensor<2xf32>) -> !onnx.unknown {
  ^bb0(%i: tensor<i64>, %cin: tensor<i1>, %v: !onnx.unknown):
    %s = onnx.node "Add"(%v, %x) {attrs = {}, domain = "", node_name = "add", opset = 13 : i64} : (!onnx.unknown, tensor<2xf32>) -> !onnx.unknown
    onnx.yield %cin, %s : tensor<i1>, !onnx.unknown
  }
  return %0 : !onnx.unknown
}

// -----

// Scan (opset 16) over axis 1 in reverse, scan output stacked on the last
// axis in iteration order.
// CHECK-LABEL: func.func @scan_reverse
// CHECK-SAME: -> (tensor<2xf32>, tensor<2x3xf32>)
// CHECK: %[[START2:.*]] = tosa.const_shape {values = dense<[0, 2]> : tensor<2xindex>}
// CHECK: tosa.slice %arg1, %[[START2]]
// CHECK: %[[A0:.*]] = tosa.add %arg0
// CHECK: %[[A1:.*]] = tosa.add %[[A0]]
// CHECK: %[[A2:.*]] = tosa.add %[[A1]]
// CHECK: %[[S:.*]] = tosa.concat {{.*}} {axis = 1 : i32} : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK: return %[[A2]], %[[S]]
func.func @scan_reverse(%s0: tensor<2xf32>, %x: tensor<2x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %0:2 = onnx.node "Scan"(%s0, %x) {attrs = {body = 0 : i64, num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>, scan_input_directions = array<i64: 1>, scan_output_axes = array<i64: -1>}, domain = "", node_name = "scan", opset = 16 : i64} : (tensor<2xf32>, tensor<2x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  ^bb0(%s: !onnx.unknown, %e: !onnx.unknown):
    %n = onnx.node "Add"(%s, %e) {attrs = {}, domain = "", node_name = "add", opset = 16 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
    onnx.yield %n, %n : !onnx.unknown, !onnx.unknown
  }
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// Scan opset 8: every batch entry scanned on its own, results stacked.
// CHECK-LABEL: func.func @scan8_batch
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<2x2x3xf32>)
// CHECK-COUNT-4: tosa.mul
// CHECK: tosa.concat {{.*}} -> tensor<2x3xf32>
// CHECK: tosa.concat {{.*}} -> tensor<2x2x3xf32>
func.func @scan8_batch(%s0: tensor<2x3xf32>, %x: tensor<2x2x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  %none = onnx.none
  %0:2 = onnx.node "Scan"(%none, %s0, %x) {attrs = {body = 0 : i64, num_scan_inputs = 1 : i64}, domain = "", node_name = "scan", opset = 8 : i64} : (none, tensor<2x3xf32>, tensor<2x2x3xf32>) -> (!onnx.unknown, !onnx.unknown) {
  ^bb0(%s: tensor<3xf32>, %e: tensor<3xf32>):
    %n = onnx.node "Mul"(%s, %e) {attrs = {}, domain = "", node_name = "mul", opset = 8 : i64} : (tensor<3xf32>, tensor<3xf32>) -> !onnx.unknown
    onnx.yield %n, %n : !onnx.unknown, !onnx.unknown
  }
  return %0#0, %0#1 : !onnx.unknown, !onnx.unknown
}

// -----

// Nested: an If inside a Scan body, its condition a constant of the body.
// CHECK-LABEL: func.func @scan_with_if
// CHECK-NOT: tosa.negate
// CHECK: tosa.abs
// CHECK: tosa.abs
// CHECK-NOT: tosa.negate
func.func @scan_with_if(%s0: tensor<2xf32>, %x: tensor<2x2xf32>) -> !onnx.unknown {
  %0 = onnx.node "Scan"(%s0, %x) {attrs = {body = 0 : i64, num_scan_inputs = 1 : i64}, domain = "", node_name = "scan", opset = 11 : i64} : (tensor<2xf32>, tensor<2x2xf32>) -> !onnx.unknown {
  ^bb0(%s: !onnx.unknown, %e: !onnx.unknown):
    %c = onnx.constant "c" dense<false> : tensor<i1> : tensor<i1>
    %r = onnx.node "If"(%c) {attrs = {then_branch = 0 : i64, else_branch = 1 : i64}, domain = "", node_name = "inner_if", opset = 11 : i64} : (tensor<i1>) -> !onnx.unknown {
      %n = onnx.node "Neg"(%e) {attrs = {}, domain = "", node_name = "neg", opset = 11 : i64} : (!onnx.unknown) -> !onnx.unknown
      onnx.yield %n : !onnx.unknown
    }, {
      %a = onnx.node "Abs"(%e) {attrs = {}, domain = "", node_name = "abs", opset = 11 : i64} : (!onnx.unknown) -> !onnx.unknown
      onnx.yield %a : !onnx.unknown
    }
    %n = onnx.node "Add"(%s, %r) {attrs = {}, domain = "", node_name = "add", opset = 11 : i64} : (!onnx.unknown, !onnx.unknown) -> !onnx.unknown
    onnx.yield %n : !onnx.unknown
  }
  return %0 : !onnx.unknown
}

// -----

// expected-error @+3 {{node 'if' (If, domain 'ai.onnx', opset 11): with a run-time condition both branches are computed and selected, but output 0 is tensor<2xf32> in one and tensor<3xf32> in the other}}
func.func @if_types_differ(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>) -> !onnx.unknown {
  %n = onnx.node "Neg"(%x) {attrs = {}, domain = "", node_name = "neg", opset = 11 : i64} : (tensor<2xf32>) -> !onnx.unknown
  %0 = onnx.node "If"(%c) {attrs = {then_branch = 0 : i64, else_branch = 1 : i64}, domain = "", node_name = "if", opset = 11 : i64} : (tensor<i1>) -> !onnx.unknown {
    onnx.yield %x : tensor<2xf32>
  }, {
    onnx.yield %y : tensor<3xf32>
  }
  return %0 : !onnx.unknown
}

// -----

// expected-error @+4 {{node 'loop' (Loop, domain 'ai.onnx', opset 13): in subgraph 'body': node 'bad' (FooBar, domain 'ai.onnx', opset 13): unsupported op}}
func.func @loop_inner_error(%x: tensor<2xf32>) -> !onnx.unknown {
  %m = onnx.constant "m" dense<2> : tensor<i64> : tensor<i64>
  %c = onnx.constant "c" dense<true> : tensor<i1> : tensor<i1>
  %0 = onnx.node "Loop"(%m, %c, %x) {attrs = {body = 0 : i64}, domain = "", node_name = "loop", opset = 13 : i64} : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> !onnx.unknown {
  ^bb0(%i: tensor<i64>, %cin: tensor<i1>, %v: !onnx.unknown):
    %s = onnx.node "FooBar"(%v) {attrs = {}, domain = "", node_name = "bad", opset = 13 : i64} : (!onnx.unknown) -> !onnx.unknown
    onnx.yield %cin, %s : tensor<i1>, !onnx.unknown
  }
  return %0 : !onnx.unknown
}
