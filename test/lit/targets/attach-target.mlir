// onnx-tosa-attach-target puts a row of the table (docs/targets.md) on the
// module, every field spelled out; an architecture-specific chip the table
// lacks gets its portable row, and an unknown target is refused with the
// list of known ones.
// RUN: onnx-tosa-opt %s --onnx-tosa-attach-target="target=cuda:sm_120" | FileCheck %s
// RUN: onnx-tosa-opt %s --onnx-tosa-attach-target="target=cuda:sm_100a" | FileCheck %s --check-prefix=SM100
// RUN: onnx-tosa-opt %s --onnx-tosa-attach-target | FileCheck %s --check-prefix=DEFAULT
// RUN: not onnx-tosa-opt %s --onnx-tosa-attach-target="target=rocm" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// CHECK: module attributes {onnx_tosa.target = {max_shared_bytes_per_block = 101376 : i64, max_threads_per_block = 1024 : i64, multiprocessors = 170 : i64, name = "cuda:sm_120", registers_per_multiprocessor = 65536 : i64, shared_bytes_per_multiprocessor = 131072 : i64, static_shared_bytes = 49152 : i64, subgroup_size = 32 : i64}}
// SM100: name = "cuda:sm_100"
// DEFAULT: multiprocessors = 132 : i64, name = "vulkan"{{.*}}subgroup_size = 0 : i64
// UNKNOWN: error: unknown target 'rocm' (known: auto, cuda, cuda:sm_75, cuda:sm_80, cuda:sm_86, cuda:sm_89, cuda:sm_90, cuda:sm_90a, cuda:sm_100, cuda:sm_120, vulkan)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
