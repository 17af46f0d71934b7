// The system mlir-opt loads our dialect and passes from the plugin.
// (Passes from a plugin are reachable through --pass-pipeline only: mlir-opt
// parses its flags before it loads plugins.)
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s \
// RUN:   --pass-pipeline="builtin.module(convert-onnx-to-tosa)" | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s \
// RUN:   --pass-pipeline="builtin.module(convert-onnx-to-tosa,onnx-tosa-tosa-to-gpu)" \
// RUN:   | FileCheck %s --check-prefix=GPU

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>{{.*}}) -> tensor<2x3xf32>
// CHECK: tosa.clamp %[[X]]
// CHECK-NOT: onnx.node

// GPU: func.func @main
// GPU: gpu.launch_func @main_kernel::@main_kernel
// GPU: gpu.module @main_kernel
// GPU: gpu.func @main_kernel
// GPU-SAME: kernel
func.func @main(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Relu"(%x) {attrs = {}, domain = "", node_name = "relu0", opset = 17 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
