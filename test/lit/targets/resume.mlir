// A stage that onnx-tosa-compile printed (with its locations, which name
// the ONNX nodes) and onnx-tosa-opt resumed with the same target and
// options goes on as the compiler does: the gpu stage is the same text.
// The registered pipelines take the compiler's options, by its names and
// with its defaults (PipelineChoices).
// RUN: rm -rf %t && mkdir -p %t
// RUN: onnx-tosa-compile %s --target=cuda:sm_80 --emit=gpu -o %t/sm80.gpu.mlir
// RUN: onnx-tosa-compile %s --target=cuda:sm_80 --emit=linalg --mlir-print-debuginfo -o %t/sm80.linalg.mlir
// RUN: onnx-tosa-opt %t/sm80.linalg.mlir --onnx-tosa-linalg-to-gpu="target=cuda:sm_80" -o %t/sm80.resumed.mlir
// RUN: cmp %t/sm80.gpu.mlir %t/sm80.resumed.mlir
// RUN: onnx-tosa-opt %s --onnx-tosa-tosa-to-gpu="target=cuda:sm_80" -o %t/sm80.whole.mlir
// RUN: cmp %t/sm80.gpu.mlir %t/sm80.whole.mlir
// RUN: onnx-tosa-compile %s --target=vulkan --vector-width=2 --emit=gpu -o %t/vk.gpu.mlir
// RUN: onnx-tosa-compile %s --target=vulkan --emit=tosa --mlir-print-debuginfo -o %t/vk.tosa.mlir
// RUN: onnx-tosa-opt %t/vk.tosa.mlir --onnx-tosa-tosa-to-gpu="target=vulkan vector-width=2" -o %t/vk.resumed.mlir
// RUN: cmp %t/vk.gpu.mlir %t/vk.resumed.mlir
// Other options give another pipeline (the check above can fail).
// RUN: onnx-tosa-opt %t/vk.tosa.mlir --onnx-tosa-tosa-to-gpu="target=vulkan vector-width=2 subgroup-reduce=false" -o %t/vk.other.mlir
// RUN: not cmp -s %t/vk.gpu.mlir %t/vk.other.mlir
func.func @main(%x: tensor<256x128xf32>, %w: tensor<1x128x128xf32>) -> tensor<256x128xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shape = tosa.const_shape {values = dense<[1, 256, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %shape2 = tosa.const_shape {values = dense<[256, 128]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %shape : (tensor<256x128xf32>, !tosa.shape<3>) -> tensor<1x256x128xf32>
  %m = tosa.matmul %x3, %w, %z, %z : (tensor<1x256x128xf32>, tensor<1x128x128xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x128xf32>
  %m2 = tosa.reshape %m, %shape2 : (tensor<1x256x128xf32>, !tosa.shape<2>) -> tensor<256x128xf32>
  %max = tosa.reduce_max %m2 {axis = 1 : i32} : (tensor<256x128xf32>) -> tensor<256x1xf32>
  %sub = tosa.sub %m2, %max : (tensor<256x128xf32>, tensor<256x1xf32>) -> tensor<256x128xf32>
  %exp = tosa.exp %sub : (tensor<256x128xf32>) -> tensor<256x128xf32>
  %sum = tosa.reduce_sum %exp {axis = 1 : i32} : (tensor<256x128xf32>) -> tensor<256x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<256x1xf32>) -> tensor<256x1xf32>
  %y = tosa.mul %exp, %inv, %shift : (tensor<256x128xf32>, tensor<256x1xf32>, tensor<1xi8>) -> tensor<256x128xf32>
  return %y : tensor<256x128xf32>
}
