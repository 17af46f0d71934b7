// Rows of at most 16 elements per lane on CUDA (fixed 32-lane warps): each
// row is one warp's, 8 rows to a workgroup, and no reduction passes a
// barrier. The maximum of f16 values goes through f32 (exact); the sum is
// f32 already. The PTX passes ptxas.
// REQUIRES: ptxas
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --emit=gpu | FileCheck %s
// RUN: onnx-tosa-compile %s --target=vulkan --emit=gpu | FileCheck %s --check-prefix=VULKAN
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --cuda-format=ptx --dump-kernels=%t/ptx -o %t/m.cuda.otsa
// RUN: for f in %t/ptx/*.ptx; do ptxas -arch=sm_90a "$f" -o /dev/null || exit 1; done

// CHECK: gpu.launch_func @main_kernel::@main_kernel blocks in (%c512, %c1, %c1) threads in (%c32, %c8, %c1)
// CHECK-LABEL: gpu.func @main_kernel
// CHECK-NOT: workgroup(
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>
// CHECK-NOT: gpu.barrier
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK: %[[MAX:.*]] = gpu.subgroup_reduce maximumf %[[WIDE]] uniform : (f32) -> f32
// CHECK: arith.truncf %[[MAX]] : f32 to f16
// CHECK-NOT: gpu.barrier
// CHECK: gpu.subgroup_reduce add %{{.*}} uniform : (f32) -> f32
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return

// Vulkan's subgroup size is the device's: a workgroup per row, as before.
// VULKAN: gpu.launch_func @main_kernel::@main_kernel blocks in (%c4096, %c1, %c1) threads in (%c128, %c1, %c1)
func.func @main(%x: tensor<4096x128xf16>) -> tensor<4096x128xf16> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %max = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4096x128xf16>) -> tensor<4096x1xf16>
  %sub = tosa.sub %x, %max : (tensor<4096x128xf16>, tensor<4096x1xf16>) -> tensor<4096x128xf16>
  %exp = tosa.exp %sub : (tensor<4096x128xf16>) -> tensor<4096x128xf16>
  %wide = tosa.cast %exp : (tensor<4096x128xf16>) -> tensor<4096x128xf32>
  %sum = tosa.reduce_sum %wide {axis = 1 : i32} : (tensor<4096x128xf32>) -> tensor<4096x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<4096x1xf32>) -> tensor<4096x1xf32>
  %y = tosa.mul %wide, %inv, %shift : (tensor<4096x128xf32>, tensor<4096x1xf32>, tensor<1xi8>) -> tensor<4096x128xf32>
  %out = tosa.cast %y : (tensor<4096x128xf32>) -> tensor<4096x128xf16>
  return %out : tensor<4096x128xf16>
}
