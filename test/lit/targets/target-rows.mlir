// The target's multiprocessor count drives the row kernels' shape
// (docs/targets.md): a softmax over 1024 rows of 128 f16 on CUDA is a warp
// per row, with as many rows to a workgroup (up to 8) as still leave two
// workgroups per multiprocessor. A T4 (sm_75, 40 SMs) gets 8 rows, an A100
// (sm_80, 108) 4, an H100 (sm_90a, 132) 2; Vulkan, whose subgroup size is
// the device's, a workgroup per row. The target is on the module from the
// linalg stage on.
// RUN: onnx-tosa-compile %s --target=cuda:sm_75 --emit=gpu | FileCheck %s --check-prefix=SM75
// RUN: onnx-tosa-compile %s --target=cuda:sm_80 --emit=gpu | FileCheck %s --check-prefix=SM80
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --emit=gpu | FileCheck %s --check-prefix=SM90A
// RUN: onnx-tosa-compile %s --target=vulkan --emit=gpu | FileCheck %s --check-prefix=VULKAN
// RUN: onnx-tosa-compile %s --target=cuda:sm_80 --emit=linalg | FileCheck %s --check-prefix=ATTR

// SM75: gpu.launch_func @main_kernel::@main_kernel blocks in (%c128, %c1, %c1) threads in (%c32, %c8, %c1)
// SM80: gpu.launch_func @main_kernel::@main_kernel blocks in (%c256, %c1, %c1) threads in (%c32, %c4, %c1)
// SM90A: gpu.launch_func @main_kernel::@main_kernel blocks in (%c512, %c1, %c1) threads in (%c32, %c2, %c1)
// VULKAN: gpu.launch_func @main_kernel::@main_kernel blocks in (%c1024, %c1, %c1) threads in (%c128, %c1, %c1)
// ATTR: module attributes {onnx_tosa.target = {max_shared_bytes_per_block = 166912 : i64, max_threads_per_block = 1024 : i64, multiprocessors = 108 : i64, name = "cuda:sm_80"
func.func @main(%x: tensor<1024x128xf16>) -> tensor<1024x128xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<1024x128xf16>) -> tensor<1024x1xf16>
  %sub = tosa.sub %x, %max : (tensor<1024x128xf16>, tensor<1024x1xf16>) -> tensor<1024x128xf16>
  %exp = tosa.exp %sub : (tensor<1024x128xf16>) -> tensor<1024x128xf16>
  %wide = tosa.cast %exp : (tensor<1024x128xf16>) -> tensor<1024x128xf32>
  %sum = tosa.reduce_sum %wide {axis = 1 : i32} : (tensor<1024x128xf32>) -> tensor<1024x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<1024x1xf32>) -> tensor<1024x1xf32>
  %y = tosa.mul %wide, %inv, %shift : (tensor<1024x128xf32>, tensor<1024x1xf32>, tensor<1xi8>) -> tensor<1024x128xf32>
  %out = tosa.cast %y : (tensor<1024x128xf32>) -> tensor<1024x128xf16>
  return %out : tensor<1024x128xf16>
}
