// Row reductions combine their threads' partial results in subgroups first
// (onnx-tosa-compile --subgroup-reduce, on by default): warp shuffles on
// CUDA, SPIR-V group operations on Vulkan; the device code passes the
// toolchains' own validators.
// REQUIRES: ptxas, spirv-val
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --emit=gpu | FileCheck %s --check-prefix=CUDA
// RUN: onnx-tosa-compile %s --target=vulkan --emit=gpu | FileCheck %s --check-prefix=VULKAN
// RUN: onnx-tosa-compile %s --target=vulkan --subgroup-reduce=false --emit=gpu | FileCheck %s --check-prefix=TREE
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: onnx-tosa-compile %s --target=vulkan --emit=spirv | FileCheck %s --check-prefix=SPIRV
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-compile %s --target=cuda:sm_90a --cuda-format=ptx --dump-kernels=%t/ptx -o %t/m.cuda.otsa
// RUN: for f in %t/ptx/*.ptx; do ptxas -arch=sm_90a "$f" -o /dev/null || exit 1; done
// RUN: onnx-tosa-compile %s --target=vulkan --dump-kernels=%t/spv -o %t/m.vulkan.otsa
// RUN: for f in %t/spv/*.spv; do spirv-val --target-env vulkan1.1 "$f" || exit 1; done

// 128 rows of 768, 256 threads per row: one kernel for the three
// reductions.
// On CUDA a warp's 32 lanes reduce, lane 0 of each of the 8 warps writes, one
// barrier, then every thread folds the 8 values.
// CUDA-LABEL: gpu.func @main_kernel
// CUDA: %[[SUM:.*]] = gpu.subgroup_reduce add
// CUDA: %[[LANE:.*]] = arith.remui %thread_id_x, %c32
// CUDA: %[[WARP:.*]] = arith.divui %thread_id_x, %c32
// CUDA: %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CUDA: scf.if %[[FIRST]] {
// CUDA-NEXT: memref.store %[[SUM]], %[[SCRATCH:arg[0-9]+]][%[[WARP]]]
// CUDA: gpu.barrier
// CUDA-COUNT-8: memref.load %[[SCRATCH]]
// CUDA-NOT: gpu.barrier
// CUDA: gpu.subgroup_reduce maximumf
// CUDA: gpu.barrier
// CUDA-COUNT-7: arith.maximumf
// CUDA-NOT: gpu.barrier
// CUDA: gpu.subgroup_reduce minnumf
// CUDA: gpu.barrier
// CUDA-NOT: gpu.barrier
// CUDA: gpu.return

// On Vulkan the device picks the subgroup size, so its subgroup ids and count.
// VULKAN-LABEL: gpu.func @main_kernel
// VULKAN: gpu.subgroup_reduce add
// VULKAN: gpu.lane_id
// VULKAN: gpu.subgroup_id
// VULKAN: %[[COUNT:.*]] = gpu.num_subgroups
// VULKAN: gpu.barrier
// VULKAN: scf.for %{{.*}} = %c1 to %[[COUNT]] step %c1
// VULKAN: gpu.subgroup_reduce maximumf
// VULKAN: gpu.barrier
// VULKAN-NOT: gpu.barrier
// VULKAN: gpu.subgroup_reduce minnumf
// VULKAN: gpu.barrier
// VULKAN-NOT: gpu.barrier
// VULKAN: gpu.return

// Without: a tree in workgroup memory, log2(256) + 1 barriers per reduction.
// TREE-LABEL: gpu.func @main_kernel
// TREE-NOT: gpu.subgroup_reduce
// TREE-COUNT-27: gpu.barrier
// TREE-NOT: gpu.barrier

// PTX-COUNT-15: shfl.sync.bfly.b32

// The loop over the subgroups' results runs only if there are several
// (an scf.for that runs no iteration returns undefined values in SPIR-V
// from LLVM 22). SPIR-V's FMax passes over NaNs: a second reduction finds
// them.
// SPIRV: spirv.GroupNonUniformFAdd <Subgroup> <Reduce>
// SPIRV: %[[COUNT:.*]] = spirv.Load "Input" %__builtin__NumSubgroups___addr
// SPIRV: %[[SEVERAL:.*]] = spirv.SGreaterThan %[[COUNT]], %cst1_i32
// SPIRV: spirv.mlir.selection {
// SPIRV-NEXT: spirv.BranchConditional %[[SEVERAL]]
// SPIRV: spirv.mlir.loop {
// SPIRV: %[[NUMERIC:.*]] = spirv.GroupNonUniformFMax <Subgroup> <Reduce>
// SPIRV: %[[ANY:.*]] = spirv.GroupNonUniformUMax <Subgroup> <Reduce>
// SPIRV: %[[ISNAN:.*]] = spirv.INotEqual %[[ANY]]
// SPIRV: spirv.Select %[[ISNAN]], %{{.*}}, %[[NUMERIC]]
// With nan_mode IGNORE, NaN only where every value is: the flags' minimum.
// SPIRV: %[[NUMERIC2:.*]] = spirv.GroupNonUniformFMin <Subgroup> <Reduce>
// SPIRV: %[[ALL:.*]] = spirv.GroupNonUniformUMin <Subgroup> <Reduce>
// SPIRV: %[[ALLNAN:.*]] = spirv.INotEqual %[[ALL]]
// SPIRV: spirv.Select %[[ALLNAN]], %{{.*}}, %[[NUMERIC2]]
func.func @main(%x: tensor<128x768xf32>) -> (tensor<128x1xf32>, tensor<128x1xf32>, tensor<128x1xf32>) {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<128x768xf32>) -> tensor<128x1xf32>
  %1 = tosa.reduce_max %x {axis = 1 : i32} : (tensor<128x768xf32>) -> tensor<128x1xf32>
  %2 = tosa.reduce_min %x {axis = 1 : i32, nan_mode = IGNORE} : (tensor<128x768xf32>) -> tensor<128x1xf32>
  return %0, %1, %2 : tensor<128x1xf32>, tensor<128x1xf32>, tensor<128x1xf32>
}
