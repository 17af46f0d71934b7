// The onnx dialect's custom printer and parser round-trip: parse, print,
// parse the printed form again, print again.
// RUN: onnx-tosa-opt %s | onnx-tosa-opt | FileCheck %s

// CHECK-LABEL: module attributes
// CHECK-SAME: onnx.graph_name = "g"
// CHECK-SAME: onnx.ir_version = 8 : i64
// CHECK-SAME: onnx.opset_import = {ai.onnx = 17 : i64, com.example = 2 : i64}
module attributes {onnx.ir_version = 8 : i64, onnx.graph_name = "g",
                   onnx.opset_import = {"ai.onnx" = 17 : i64, "com.example" = 2 : i64}} {
  // CHECK: func.func @main([[X:%[a-z0-9_]+]]: tensor<1x3xf32> {onnx.name = "x"}, [[C:%[a-z0-9_]+]]: tensor<i1> {onnx.name = "c"}) -> (tensor<1x3xf32> {onnx.name = "y"}, !onnx.unknown {onnx.name = "z"})
  func.func @main(%x: tensor<1x3xf32> {onnx.name = "x"}, %c: tensor<i1> {onnx.name = "c"})
      -> (tensor<1x3xf32> {onnx.name = "y"}, !onnx.unknown {onnx.name = "z"}) {
    // CHECK: [[W:%[a-z0-9_]+]] = onnx.constant "w" dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<1x3xf32> : tensor<1x3xf32>
    %w = onnx.constant "w" dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32> : tensor<1x3xf32>
    // CHECK: [[B:%[a-z0-9_]+]] = onnx.constant "b" dense<true> : tensor<2xi1> : tensor<2xi1>
    %bools = onnx.constant "b" dense<true> : tensor<2xi1> : tensor<2xi1>
    // CHECK: [[NONE:%[a-z0-9_]+]] = onnx.none
    %none = onnx.none
    // CHECK: [[A:%[a-z0-9_]+]] = onnx.node "Add"([[X]], [[W]]) {attrs = {}, domain = "", node_name = "add", opset = 17 : i64} : (tensor<1x3xf32>, tensor<1x3xf32>) -> !onnx.unknown
    %a = onnx.node "Add"(%x, %w) {domain = "", opset = 17, node_name = "add", attrs = {}}
        : (tensor<1x3xf32>, tensor<1x3xf32>) -> !onnx.unknown
    // Every attribute kind the importer produces.
    // CHECK: [[CL:%[a-z0-9_]+]] = onnx.node "Clip"([[A]], [[NONE]], [[W]])
    // CHECK-SAME: attrs = {alpha = 2.500000e+00 : f32, axes = array<i64: 0, -1>, k = 3 : i64, mode = "nearest", names = ["a", ""], scales = array<f32: 1.000000e+00, 5.000000e-01>, value = dense<[1, -2]> : tensor<2xi64>}
    // CHECK-SAME: domain = "", node_name = "clip", opset = 17 : i64}
    // CHECK-SAME: : (!onnx.unknown, none, tensor<1x3xf32>) -> tensor<1x3xf32>
    %cl = onnx.node "Clip"(%a, %none, %w) {domain = "", opset = 17, node_name = "clip",
        attrs = {alpha = 2.5 : f32, axes = array<i64: 0, -1>, mode = "nearest",
                 scales = array<f32: 1.0, 0.5>, names = ["a", ""], k = 3 : i64,
                 value = dense<[1, -2]> : tensor<2xi64>}}
        : (!onnx.unknown, none, tensor<1x3xf32>) -> tensor<1x3xf32>
    // Nested graphs are regions; the GRAPH attributes hold region indices.
    // CHECK: [[IF:%[a-z0-9_]+]] = onnx.node "If"([[C]]) {attrs = {else_branch = 1 : i64, then_branch = 0 : i64}, domain = "", node_name = "if", opset = 17 : i64} : (tensor<i1>) -> !onnx.unknown {
    // CHECK-NEXT: [[T:%[a-z0-9_]+]] = onnx.node "Neg"([[CL]]) {attrs = {}, domain = "", node_name = "neg", opset = 17 : i64} : (tensor<1x3xf32>) -> !onnx.unknown
    // CHECK-NEXT: onnx.yield [[T]] : !onnx.unknown
    // CHECK-NEXT: }, {
    // CHECK-NEXT: [[E:%[a-z0-9_]+]] = onnx.node "Fancy"([[CL]], [[B]]) {attrs = {}, domain = "com.example", node_name = "", opset = 2 : i64} : (tensor<1x3xf32>, tensor<2xi1>) -> tensor<*xf32>
    // CHECK-NEXT: onnx.yield [[E]] : tensor<*xf32>
    // CHECK-NEXT: }
    %r = onnx.node "If"(%c) {domain = "", opset = 17, node_name = "if",
        attrs = {then_branch = 0 : i64, else_branch = 1 : i64}}
        : (tensor<i1>) -> !onnx.unknown {
      %t = onnx.node "Neg"(%cl) {domain = "", opset = 17, node_name = "neg", attrs = {}}
          : (tensor<1x3xf32>) -> !onnx.unknown
      onnx.yield %t : !onnx.unknown
    }, {
      %e = onnx.node "Fancy"(%cl, %bools) {domain = "com.example", opset = 2, node_name = "", attrs = {}}
          : (tensor<1x3xf32>, tensor<2xi1>) -> tensor<*xf32>
      onnx.yield %e : tensor<*xf32>
    }
    // A loop body: block arguments, a node with several results, and a
    // node with no results and an empty subgraph.
    // CHECK: [[L:%[a-z0-9_]+]]:2 = onnx.node "Loop"([[NONE]], [[C]], [[X]]) {{.*}}node_name = "loop"{{.*}} : (none, tensor<i1>, tensor<1x3xf32>) -> (tensor<1x3xf32>, !onnx.unknown) {
    // CHECK-NEXT: ^bb0([[I:%[a-z0-9_]+]]: tensor<i64>, [[CIN:%[a-z0-9_]+]]: tensor<i1>, [[V:%[a-z0-9_]+]]: !onnx.unknown):
    // CHECK-NEXT: [[P:%[a-z0-9_]+]]:2 = onnx.node "Pair"([[V]], [[I]]) {{.*}} : (!onnx.unknown, tensor<i64>) -> (!onnx.unknown, tensor<1x3xf32>)
    // CHECK-NEXT: onnx.node "Sink"() {attrs = {g = 0 : i64}, {{.*}}} : () -> () {
    // CHECK-NEXT: onnx.yield
    // CHECK-NEXT: }
    // CHECK-NEXT: onnx.yield [[CIN]], [[P]]#1, [[P]]#0 : tensor<i1>, tensor<1x3xf32>, !onnx.unknown
    // CHECK-NEXT: }
    %l:2 = onnx.node "Loop"(%none, %c, %x) {domain = "", opset = 17, node_name = "loop",
        attrs = {body = 0 : i64}}
        : (none, tensor<i1>, tensor<1x3xf32>) -> (tensor<1x3xf32>, !onnx.unknown) {
    ^bb0(%i: tensor<i64>, %cin: tensor<i1>, %v: !onnx.unknown):
      %p:2 = onnx.node "Pair"(%v, %i) {domain = "", opset = 17, node_name = "pair", attrs = {}}
          : (!onnx.unknown, tensor<i64>) -> (!onnx.unknown, tensor<1x3xf32>)
      onnx.node "Sink"() {domain = "", opset = 17, node_name = "sink", attrs = {g = 0 : i64}} : () -> () {
        onnx.yield
      }
      onnx.yield %cin, %p#1, %p#0 : tensor<i1>, tensor<1x3xf32>, !onnx.unknown
    }
    // CHECK: return [[CL]], [[IF]] : tensor<1x3xf32>, !onnx.unknown
    return %cl, %r : tensor<1x3xf32>, !onnx.unknown
  }
}
