// The system mlir-opt loads our dialect and passes from the plugin.
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s \
// RUN:   --convert-onnx-to-tosa | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%plugin --load-pass-plugin=%plugin %s \
// RUN:   --convert-onnx-to-tosa --onnx-tosa-tosa-to-gpu | FileCheck %s --check-prefix=GPU

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>{{.*}}) -> tensor<2x3xf32>
// CHECK: tosa.clamp %[[X]]
// CHECK-NOT: onnx.node

// GPU: gpu.module @main_kernel
// GPU: gpu.func @main_kernel
// GPU-SAME: kernel
// GPU: func.func @main
// GPU: gpu.launch_func @main_kernel::@main_kernel
func.func @main(%x: tensor<2x3xf32>) -> !onnx.unknown {
  %0 = onnx.node "Relu"(%x) {attrs = {}, domain = "", node_name = "relu0", opset = 17 : i64} : (tensor<2x3xf32>) -> !onnx.unknown
  return %0 : !onnx.unknown
}
