// Storage buffers of Vulkan kernels: Restrict on every (noalias) argument,
// NonWritable on those the kernel only reads; validated as Vulkan SPIR-V.
// REQUIRES: spirv-val
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-compile %s --emit=spirv | FileCheck %s
// RUN: onnx-tosa-compile %s --target=vulkan --dump-kernels=%t/spv -o %t/m.otsa
// RUN: for f in %t/spv/*.spv; do spirv-val --target-env vulkan1.1 "$f" || exit 1; done

// The matmul kernel reads its two operands and accumulates into the result.
// CHECK-LABEL: spirv.module
// Each buffer has a block struct of its own, also where two are of one
// size: a driver took one variable's NonWritable for the other's
// (KernelMemory.cpp, giveOwnBlockType).
// CHECK: spirv.GlobalVariable @[[K:.*]]_arg_0 bind(0, 0) {non_writable, restrict} : !spirv.ptr<!spirv.struct<__spv__[[M:.*]].[[K]]_arg_0, (
// CHECK: spirv.GlobalVariable @[[K]]_arg_1 bind(0, 1) {non_writable, restrict} : !spirv.ptr<!spirv.struct<__spv__[[M]].[[K]]_arg_1, (
// CHECK: spirv.GlobalVariable @[[K]]_arg_2 bind(0, 2) {restrict} : !spirv.ptr<!spirv.struct<__spv__[[M]].[[K]]_arg_2, (
// CHECK-NOT: aliased
func.func @main(%a: tensor<1x16x32xf32>, %b: tensor<1x32x8xf32>) -> tensor<1x16x8xf32> {
  %z = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = tosa.matmul %a, %b, %z, %z : (tensor<1x16x32xf32>, tensor<1x32x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32>
  return %m : tensor<1x16x8xf32>
}
